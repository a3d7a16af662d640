import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../common/errors/app-error';
import { sql } from '../db/sql';
import type { SqlSubject } from '../graphql/sql-plan/fields';
import { User } from './user.entity';

/** A filter on the username ignoring case; the unique index on lower(username) serves it. */
export const byLowerUsername = (username: string) => ({ [raw('lower(username)')]: username.toLowerCase() });

/**
 * A user by username (semantics §1.8), ignoring case: 404 `user:not_found`, and 400
 * `user:deleted` for a deleted account.
 */
/** {@link findUserByUsername} as a list's subject (src/graphql/sql-plan): the user's reference. */
export function userSubject(username: string): SqlSubject {
  return {
    select: sql(
      `select reference, case when role = 'deleted' then 'user:deleted' end as refused from "user" where lower(username) = ?`,
      username.toLowerCase(),
    ),
    notFound: 'user:not_found',
  };
}

export async function findUserByUsername(em: EntityManager, username: string): Promise<User> {
  const user = await em.findOne(User, byLowerUsername(username));
  if (!user) throw new AppError('user:not_found');
  if (user.role === 'deleted') throw new AppError('user:deleted');
  return user;
}
