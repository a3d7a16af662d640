import type { QueryResult } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { requireScopes, type Viewer } from '../common/auth/session';
import { AppError } from '../common/errors/app-error';
import { type ListQuery, listPage } from '../common/pagination/paged-query';
import type { Page, PageArgs } from '../common/pagination/pagination';
import { concatSql, sql, type SqlFragment } from '../db/sql';
import { outboxOf } from '../db/entity-manager';
import { Notification } from './notification.entity';

/** The caller's notifications (`user`: the SQL of their reference), `created` desc then reference desc. */
export function notificationsQuery(user: SqlFragment): ListQuery {
  return {
    reference: 'n.reference',
    from: 'notification n',
    where: concatSql('n.user_reference = ', user),
    orderBy: sql('n.created desc, n.reference desc'),
  };
}

/** GET /notifications: the caller's notifications (semantics §3.9), newest first. */
export async function listNotifications(
  em: EntityManager,
  viewer: Viewer,
  page: PageArgs,
): Promise<Page<Notification>> {
  requireScopes(viewer, ['read:notification']);
  return listPage(em, Notification, notificationsQuery(sql('?', viewer.user.reference)), page, [
    'initiator_user',
  ]);
}

/** GET /notifications/count: the number of the caller's unseen notifications. */
export async function countUnseen(em: EntityManager, viewer: Viewer): Promise<number> {
  requireScopes(viewer, ['read:notification']);
  return em.count(Notification, { user: viewer.user.reference, seen: false });
}

/**
 * #22: marks the notification and every older unseen one of the caller as seen
 * (`created` ≤ the target's), with `updated` = now. Steps after authentication and
 * validation: 404 `notification:not_found` → scope `seen:notification` → 403
 * `notification:not_owner` (the one place where a stranger learns that a thing
 * exists, §2 #22). Repeating the call changes nothing. `reference` is a lower-case UUID
 * (the resolver's path check).
 */
export function markNotificationSeen(
  em: EntityManager,
  viewer: Viewer,
  reference: string,
): Promise<Notification> {
  return em.transactional(async (tx) => {
    const target = await tx.findOne(Notification, { reference }, { populate: ['initiator_user'] });
    if (!target) throw new AppError('notification:not_found');
    requireScopes(viewer, ['seen:notification']);
    if (target.user.reference !== viewer.user.reference) throw new AppError('notification:not_owner');
    // Unconditional: a target already seen may still have older unseen ones written later.
    // Compared in SQL, at the column's full (microsecond) precision.
    const at = new Date();
    const { affectedRows } = await tx.execute<QueryResult>(
      `update notification set seen = true, updated = ?
        where user_reference = ? and not seen
          and created <= (select created from notification where reference = ?)`,
      [at, viewer.user.reference, target.reference],
      'run',
    );
    if (affectedRows === 0) return target;
    // An unseen target was among them: it takes the written values as its stored state.
    if (!target.seen)
      tx.merge(Notification, { reference: target.reference, seen: true, updated: at }, { refresh: true });
    // The unseen count changed: live subscriptions recount once this commits.
    outboxOf(tx)?.add({ user: viewer.user.reference });
    return target;
  });
}
