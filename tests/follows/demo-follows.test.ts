import { ActionRecord } from '../../src/accounts/action-record.entity';
import { Follow } from '../../src/accounts/follow.entity';
import { seedDemoFollowsAndNotifications } from '../../src/follows/follow-seeding';
import { SeededRandom } from '../../src/import/demo-catalog';
import { Notification } from '../../src/notifications/notification.entity';
import { buildUser } from '../factories';
import { useTestApp } from '../setup/harness';

/** Demo follows, made through the follow service (with their notifications). */
const t = useTestApp();

async function community() {
  for (const username of ['demo_user', 'demo_admin']) await buildUser(t.orm, { username });
  for (let i = 0; i < 12; i += 1) await buildUser(t.orm, { username: `member_${i}` });
  await buildUser(t.orm, { username: 'member_gone', role: 'deleted' });
  await buildUser(t.orm, { username: 'member_new', role: 'not_activated' });
}

const pairs = async () =>
  (await t.orm.em.fork().find(Follow, {}, { populate: ['follower', 'followed'] }))
    .map((f) => `${f.follower.username}>${f.followed.username}`)
    .sort();

describe('seedDemoFollowsAndNotifications', () => {
  it('creates follows, each with its follow notification and action', async () => {
    await community();
    const result = await seedDemoFollowsAndNotifications(t.orm.em.fork(), new SeededRandom(3));
    const em = t.orm.em.fork();
    const follows = await em.find(Follow, {}, { populate: ['follower', 'followed'] });
    expect(follows.length).toBeGreaterThan(10);
    expect(result).toEqual({ follows: follows.length, notifications: follows.length });
    expect(await em.count(Notification, { notification_type: 'follow' })).toBe(follows.length);
    expect(await em.count(ActionRecord, { type: 'follow' })).toBe(follows.length);
    for (const follow of follows) {
      expect(follow.follower.reference).not.toBe(follow.followed.reference);
      for (const user of [follow.follower, follow.followed]) {
        expect(['member_gone', 'member_new']).not.toContain(user.username);
      }
    }
  });

  it('gives the named demo accounts followers, so they have notifications to show', async () => {
    await community();
    await seedDemoFollowsAndNotifications(t.orm.em.fork(), new SeededRandom(3));
    const unseen = await t.orm.em
      .fork()
      .count(Notification, { user: { username: 'demo_user' }, seen: false });
    expect(unseen).toBeGreaterThanOrEqual(5);
  });

  it('is deterministic for a seed, and runs once', async () => {
    await community();
    await seedDemoFollowsAndNotifications(t.orm.em.fork(), new SeededRandom(3));
    const first = await pairs();
    expect(await seedDemoFollowsAndNotifications(t.orm.em.fork(), new SeededRandom(4))).toEqual({
      follows: 0,
      notifications: 0,
    });
    expect(await pairs()).toEqual(first);
    await t.reset();
    await community();
    await seedDemoFollowsAndNotifications(t.orm.em.fork(), new SeededRandom(3));
    expect(await pairs()).toEqual(first);
  });
});
