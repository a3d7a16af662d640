import type { EntityManager } from '@mikro-orm/postgresql';
import type { ActionType } from '../common/enums';
import { sql, type SqlFragment } from '../db/sql';
import { ActionRecord } from './action-record.entity';
import { User } from './user.entity';

/**
 * Records one successful write action (semantics §1.11). The record is persisted
 * with the caller's unit of work, so it commits or rolls back with the action itself.
 */
export function recordAction(
  em: EntityManager,
  user: User | string,
  type: ActionType,
  target: string | null = null,
): ActionRecord {
  const reference = typeof user === 'string' ? user : user.reference;
  return em.create(ActionRecord, {
    type,
    user: em.getReference(User, reference),
    target,
    created: new Date(),
  });
}

/** {@link recordAction} as a statement of its own, for a write that sends its effects beside it (`writeWithEffects`). */
export const actionRecordSql = (user: string, type: ActionType, target: string | null): SqlFragment =>
  sql(
    'insert into action_record (type, user_reference, target, created) values (?, ?, ?, ?)',
    type,
    user,
    target,
    new Date(),
  );
