import type { EntityManager } from '@mikro-orm/postgresql';
import type { ActionType } from '../common/enums';
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
