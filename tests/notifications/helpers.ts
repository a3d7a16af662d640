import type { MikroORM } from '@mikro-orm/postgresql';
import type { RequiredEntityData } from '@mikro-orm/core';
import type { User } from '../../src/accounts/user.entity';
import { Notification } from '../../src/notifications/notification.entity';

/** A stored notification of `recipient` (a `system_update` unless overridden). */
export async function buildNotification(
  orm: MikroORM,
  recipient: User,
  o: Partial<Omit<Notification, 'user' | 'initiator_user'>> & { initiator?: User | null } = {},
): Promise<Notification> {
  const em = orm.em.fork();
  const { initiator = null, ...fields } = o;
  const at = fields.created ?? new Date();
  const row = em.create(Notification, {
    user: recipient.reference,
    initiator_user: initiator?.reference ?? null,
    notification_type: 'system_update',
    data: { title: 'Update' },
    event_key: `test:${Math.random()}`,
    seen: false,
    created: at,
    updated: at,
    ...fields,
  } as unknown as RequiredEntityData<Notification>);
  await em.flush();
  return row;
}

/** Every notification of `user`, oldest first. */
export const notificationsOf = (orm: MikroORM, user: User) =>
  orm.em
    .fork()
    .find(
      Notification,
      { user: user.reference },
      { orderBy: { created: 'asc', reference: 'asc' }, populate: ['initiator_user'] },
    );

export const minutesAgo = (minutes: number, from = Date.now()): Date => new Date(from - minutes * 60 * 1000);
