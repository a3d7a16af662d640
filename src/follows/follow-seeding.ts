import type { EntityManager } from '@mikro-orm/postgresql';
import { Follow } from '../accounts/follow.entity';
import { User } from '../accounts/user.entity';
import type { SeededRandom } from '../import/demo-catalog';
import { Notification } from '../notifications/notification.entity';
import { addFollows } from './follow.service';

const HOUR_MS = 60 * 60 * 1000;
const NAMED_DEMO_ACCOUNT = /^demo_/;

/**
 * Demo follows, made through the follow service so that every rule holds and the
 * followed users get their `follow` notifications (with the usual skip rules), all in
 * one batch (the pairs are distinct and never a user and themself). Each
 * active account follows a few others; the named demo accounts get extra followers,
 * so that logging in as one shows a notification list and an unseen count. Times
 * are spread over the last two weeks. Runs once: nothing happens when follows exist.
 */
export async function seedDemoFollowsAndNotifications(
  em: EntityManager,
  random: SeededRandom,
): Promise<{ follows: number; notifications: number }> {
  if ((await em.count(Follow, {})) > 0) return { follows: 0, notifications: 0 };
  const users = await em.find(
    User,
    { role: { $nin: ['deleted', 'not_activated'] }, banned: false },
    { orderBy: { username: 'asc' } },
  );
  if (users.length < 2) return { follows: 0, notifications: 0 };
  const named = users.filter((user) => NAMED_DEMO_ACCOUNT.test(user.username));
  const now = Date.now();

  const pairs = new Map<string, [User, User]>();
  const add = (follower: User, followed: User) => {
    if (follower.reference !== followed.reference)
      pairs.set(`${follower.reference}:${followed.reference}`, [follower, followed]);
  };
  for (const follower of users) {
    for (const followed of random.sample(users, random.int(0, 4))) add(follower, followed);
  }
  for (const followed of named) {
    for (const follower of random.sample(users, Math.min(8, users.length))) add(follower, followed);
    for (const other of random.sample(users, 3)) add(followed, other);
  }

  // Oldest first, so that each notification is created at its follow's time.
  const timed = [...pairs.values()]
    .map(([follower, followed]) => ({
      follower,
      followed,
      at: new Date(now - random.int(1, 14 * 24) * HOUR_MS),
    }))
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  const notificationsBefore = await em.count(Notification, {});
  await em.transactional((tx) => addFollows(tx, timed));
  const notifications = (await em.count(Notification, {})) - notificationsBefore;
  return { follows: timed.length, notifications };
}
