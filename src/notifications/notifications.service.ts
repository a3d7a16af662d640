import type { EntityManager } from '@mikro-orm/postgresql';
import { requireScopes, type Viewer } from '../accounts/session';
import { AppError } from '../common/errors/app-error';
import { type ListQuery, listPage } from '../common/pagination/paged-query';
import type { Page, PageArgs } from '../common/pagination/pagination';
import { concatSql, sql, type SqlFragment } from '../db/sql';
import { outboxOf } from '../db/entity-manager';
import { entityColumns, mapEntityRow, statementText } from '../db/entity-rows';
import { User } from '../accounts/user.entity';
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

/** #22's statement: the target read, and the caller's unseen ones up to it marked. */
function markText(em: EntityManager): string {
  return statementText(
    em,
    'notifications:mark-seen',
    () => `with target as (select * from notification where reference = ?),
      marked as (
        update notification m set seen = true, updated = ?
         where m.user_reference = ? and not m.seen and m.created <= (select created from target)
        returning m.reference)
      select ${entityColumns(em, Notification, 'n')}, ${entityColumns(em, User, 'i')},
        (select count(*) from marked)::integer as marked,
        exists (select 1 from marked where reference = n.reference) as target_marked
      from target n left join "user" i on i.reference = n.initiator_user_reference`,
  );
}

/**
 * #22: marks the notification and every older unseen one of the caller as seen
 * (`created` ≤ the target's), with `updated` = now. Steps after authentication and
 * validation: 404 `notification:not_found` → scope `seen:notification` → 403
 * `notification:not_owner` (the one place where a stranger learns that a thing
 * exists, §2 #22). Repeating the call changes nothing. `reference` is a lower-case UUID
 * (the resolver's path check). One statement finds the target and marks; a refusal
 * after it throws inside the transaction, which undoes the marking.
 */
export function markNotificationSeen(
  em: EntityManager,
  viewer: Viewer,
  reference: string,
): Promise<Notification> {
  return em.transactional(async (tx) => {
    // Compared in SQL, at the column's full (microsecond) precision. Unconditional: a
    // target already seen may still have older unseen ones written later.
    const at = new Date();
    const user = viewer.user.reference;
    const [row] = await tx.execute<Record<string, unknown>[]>(markText(tx), [reference, at, user]);
    if (!row) throw new AppError('notification:not_found');
    requireScopes(viewer, ['seen:notification']);
    if (row.n__user_reference !== user) throw new AppError('notification:not_owner');
    // A marked target takes the written values as its stored state.
    if (row.target_marked) Object.assign(row, { n__seen: true, n__updated: at });
    mapEntityRow(tx, User, row, 'i');
    const target = mapEntityRow(tx, Notification, row, 'n')!;
    // The unseen count changed: live subscriptions recount once this commits.
    if (Number(row.marked) > 0) outboxOf(tx)?.add({ user });
    return target;
  });
}
