import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../common/errors/app-error';
import { entityColumns, mapEntityRow, statementText } from '../db/entity-rows';
import { sql, type SqlFragment } from '../db/sql';
import type { SqlSubject } from '../graphql/sql-plan/fields';
import { User } from './user.entity';

/** A filter on the username ignoring case; the unique index on lower(username) serves it. */
export const byLowerUsername = (username: string) => ({ [raw('lower(username)')]: username.toLowerCase() });

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

/**
 * A user by username (semantics §1.8), ignoring case: 404 `user:not_found`, and 400
 * `user:deleted` for a deleted account. A statement of its own, mapped as a find maps
 * it (a hot look-up: follows, lists, user pages).
 */
export async function findUserByUsername(em: EntityManager, username: string): Promise<User> {
  const lookUp = statementText(
    em,
    'users:by-username',
    () => `select ${entityColumns(em, User, 'u')} from "user" u where lower(u.username) = ?`,
  );
  const [row] = await em.execute<Record<string, unknown>[]>(lookUp, [username.toLowerCase()]);
  const user = row ? mapEntityRow(em, User, row, 'u') : null;
  if (!user) throw new AppError('user:not_found');
  if (user.role === 'deleted') throw new AppError('user:deleted');
  return user;
}

/**
 * Locks the user's row for the rest of the transaction, so that one user's writes of a
 * kind run one after another (an hourly limit, a count of their things cannot be raced).
 * `for no key update` leaves the row's key free: others may still insert rows that refer
 * to the user (a follow, a notification) meanwhile.
 */
export async function lockUserRow(em: EntityManager, reference: string): Promise<void> {
  const lock = lockUserRowSql(reference);
  await em.execute(lock.sql, lock.params);
}

/** The statement of {@link lockUserRow}, to send with the statements that rely on the lock. */
export const lockUserRowSql = (reference: string): SqlFragment =>
  sql('select 1 from "user" where reference = ? for no key update', reference);
