import { LockMode, raw, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { hashSecret, newTokenSecret } from '../common/auth/secrets';
import type { NotificationType } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import { type AccountRequest, sendActivation } from './accounts.service';
import { ACTIVATION_LIFETIME_MS } from './activation-mail';
import { hashPassword } from './passwords';
import { requireScopes, type Viewer } from './session';
import type { ImageType } from './settings.types';
import { notificationTypeOf } from './settings.types';
import { User } from './user.entity';
import { byLowerUsername } from './users.service';

const HOUR_MS = 60 * 60 * 1000;
const USERNAME_COOLDOWN_MS = HOUR_MS;
const EMAIL_COOLDOWN_MS = 24 * HOUR_MS;

/** The caller's row, locked for the rest of the transaction (a change and its cooldown run one at a time). */
const lockedUser = (tx: EntityManager, viewer: Viewer): Promise<User> =>
  tx.findOneOrFail(
    User,
    { reference: viewer.user.reference },
    { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
  );

/** Whether a change at `changed` is less than `cooldown` ago. */
const coolingDown = (changed: Date | null, cooldown: number): boolean =>
  changed !== null && Date.now() - changed.getTime() < cooldown;

/** GET /settings/notifications: scope `read:user-details`. */
export function notificationSettings(viewer: Viewer): { ignored_notifications: NotificationType[] } {
  requireScopes(viewer, ['read:user-details']);
  return { ignored_notifications: viewer.user.ignored_notifications };
}

/** PUT /settings/notifications: scope `update:user-details` (every member); replaces the list. */
export async function updateNotificationSettings(
  em: EntityManager,
  viewer: Viewer,
  given: readonly string[],
): Promise<{ ignored_notifications: NotificationType[] }> {
  requireScopes(viewer, ['update:user-details']);
  const ignored = given.map((type) => notificationTypeOf(type)!);
  await em.nativeUpdate(User, { reference: viewer.user.reference }, { ignored_notifications: ignored });
  return { ignored_notifications: ignored };
}

/** PUT /settings/description: scope `update:user-details:description`; blank stores null. */
export async function updateDescription(
  em: EntityManager,
  viewer: Viewer,
  description: string | null | undefined,
): Promise<User> {
  requireScopes(viewer, ['update:user-details:description']);
  const stripped = (description ?? '').replace(/^[\r\n]+|[\r\n]+$/g, '');
  return em.transactional(async (tx) => {
    const user = await lockedUser(tx, viewer);
    user.description = stripped === '' ? null : stripped;
    return user;
  });
}

/**
 * PUT /settings/username: scope `update:user-details:username` → a change within the
 * hour: 429 `settings:username_cooldown` → reserved: 400 `settings:invalid_username` →
 * another account's, ignoring case: 409 `settings:username_taken`. Records the change time.
 */
export async function updateUsername(
  request: AccountRequest,
  viewer: Viewer,
  username: string,
): Promise<User> {
  requireScopes(viewer, ['update:user-details:username']);
  try {
    return await request.em.transactional(async (tx) => {
      const user = await lockedUser(tx, viewer);
      if (coolingDown(user.username_changed, USERNAME_COOLDOWN_MS)) {
        throw new AppError('settings:username_cooldown');
      }
      if (request.accounts.reservedUsernames.has(username.trim().toLowerCase())) {
        throw new AppError('settings:invalid_username');
      }
      const holder = await tx.findOne(User, byLowerUsername(username), { fields: ['reference'] });
      if (holder && holder.reference !== user.reference) throw new AppError('settings:username_taken');
      user.username = username;
      user.username_changed = new Date();
      await tx.flush();
      return user;
    });
  } catch (error) {
    // A concurrent change to the same name loses on the unique index.
    if (error instanceof UniqueConstraintViolationException) throw new AppError('settings:username_taken');
    throw error;
  }
}

/**
 * PUT /settings/email: scope `update:user-details:email` → a change within the day: 429
 * `settings:email_cooldown` → an address any account uses, ignoring case: 409
 * `auth:email_exists`. The address waits, as `pending_email`, for its activation link
 * (3 hours), which goes to it once the transaction commits.
 */
export async function updateEmail(request: AccountRequest, viewer: Viewer, email: string): Promise<User> {
  requireScopes(viewer, ['update:user-details:email']);
  const token = newTokenSecret();
  const user = await request.em.transactional(async (tx) => {
    const user = await lockedUser(tx, viewer);
    if (coolingDown(user.email_changed, EMAIL_COOLDOWN_MS)) throw new AppError('settings:email_cooldown');
    if (await tx.count(User, { [raw('lower(email)')]: email.toLowerCase() })) {
      throw new AppError('auth:email_exists');
    }
    const at = Date.now();
    Object.assign(user, {
      pending_email: email,
      email_changed: new Date(at),
      activation_token_hash: hashSecret(token),
      activation_expires: new Date(at + ACTIVATION_LIFETIME_MS),
    });
    return user;
  });
  sendActivation(request, user, token);
  return user;
}

/** PUT /settings/password: scope `update:user-details:password`; tokens stay valid. */
export async function updatePassword(em: EntityManager, viewer: Viewer, password: string): Promise<User> {
  requireScopes(viewer, ['update:user-details:password']);
  const password_hash = await hashPassword(password);
  return em.transactional(async (tx) => {
    const user = await lockedUser(tx, viewer);
    user.password_hash = password_hash;
    return user;
  });
}

/** DELETE /settings/image/{image_type}: scopes `delete:user-details:image` and `delete:user-details:cover`. */
export async function deleteImage(em: EntityManager, viewer: Viewer, type: ImageType): Promise<User> {
  requireScopes(viewer, ['delete:user-details:image', 'delete:user-details:cover']);
  return em.transactional(async (tx) => {
    const user = await lockedUser(tx, viewer);
    if (type === 'avatar') user.avatar_path = null;
    else user.cover = null;
    return user;
  });
}
