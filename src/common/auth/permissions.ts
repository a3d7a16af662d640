import type { User } from '../../accounts/user.entity';
import type { Role } from '../enums';
import { AppError } from '../errors/app-error';

const NOT_ACTIVATED = ['upload:avatar', 'upload:cover'] as const;
const USER = [
  ...NOT_ACTIVATED,
  'article:category:news',
  'article:category:reviews',
  'article:category:original',
  'edit:create',
  'edit:update',
  'edit:close',
  'comment:write',
  'comment:edit',
  'comment:hide',
  'review:write',
  'review:edit',
  'review:delete',
  'vote:set',
  'collection:create',
  'collection:update',
  'collection:delete',
  'client:create',
  'client:update',
  'client:delete',
  'article:create',
  'article:update',
  'article:delete',
  'upload:attachment',
] as const;
const MODERATOR = [...USER, 'edit:accept', 'edit:reject', 'edit:auto', 'edit:update_moderator'] as const;
const ADMIN = [
  ...MODERATOR,
  'client:delete_admin',
  'admin:user:update',
  'client:verify',
  'client:list_all',
  'article:category:system',
  'article:update_moderator',
  'article:delete_moderator',
  'article:trusted',
  'comment:hide_admin',
  'collection:update_moderator',
  'collection:delete_moderator',
] as const;

export type Permission = (typeof ADMIN)[number];

/** Every permission (the admin set holds them all). */
export const ALL_PERMISSIONS: readonly Permission[] = ADMIN;

/** Cumulative permission sets of the roles (semantics §1.3). */
const ROLE_PERMISSIONS: Record<Role, ReadonlySet<Permission>> = {
  not_activated: new Set(NOT_ACTIVATED),
  user: new Set(USER),
  moderator: new Set(MODERATOR),
  admin: new Set(ADMIN),
  deleted: new Set(),
};

/** Whether the account holds every permission: in its role's set and not withheld. */
export function hasPermissions(user: User, required: readonly Permission[]): boolean {
  const granted = ROLE_PERMISSIONS[user.role];
  return required.every((p) => granted.has(p) && !user.forbidden_actions.includes(p));
}

/** Throws `permission:confirm_email` for accounts that are not activated, else `permission:denied`. */
export function requirePermissions(user: User, required: readonly Permission[]): void {
  if (hasPermissions(user, required)) return;
  throw new AppError(user.role === 'not_activated' ? 'permission:confirm_email' : 'permission:denied');
}
