import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../common/errors/app-error';
import { User } from './user.entity';

/** A filter on the username ignoring case; the unique index on lower(username) serves it. */
export const byLowerUsername = (username: string) => ({ [raw('lower(username)')]: username.toLowerCase() });

/**
 * A user by username (semantics §1.8), ignoring case: 404 `user:not_found`, and 400
 * `user:deleted` for a deleted account.
 */
export async function findUserByUsername(em: EntityManager, username: string): Promise<User> {
  const user = await em.findOne(User, byLowerUsername(username));
  if (!user) throw new AppError('user:not_found');
  if (user.role === 'deleted') throw new AppError('user:deleted');
  return user;
}
