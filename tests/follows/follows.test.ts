import type DataLoader from 'dataloader';
import { ActionRecord } from '../../src/accounts/action-record.entity';
import { Follow } from '../../src/accounts/follow.entity';
import type { User } from '../../src/accounts/user.entity';
import { AuthSession } from '../../src/accounts/session';
import { viewerFollows } from '../../src/follows/follow.loaders';
import type { RestRoute } from '../../src/rest/route';
import { restRoutes } from '../../src/routes';
import { buildThirdPartyToken, buildToken, buildUser } from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { useTestApp } from '../setup/harness';
import { notificationsOf } from '../notifications/helpers';

/** PUT, DELETE and GET /follow/{username} (semantics §3.9) and User `is_followed` (§1.6, §7.11). */
const t = useTestApp();

type Method = 'PUT' | 'DELETE' | 'GET';
const call = (method: Method, username: string, options: CallOptions) =>
  rest(t.app, method, `/follow/${username}`, undefined, options);
const routeOf = (method: Method): RestRoute =>
  restRoutes.find((route) => route.path === '/follow/{username}' && route.method === method)!;

async function member(o: Partial<User> = {}) {
  const user = await buildUser(t.orm, o);
  return { user, as: { token: await buildToken(t.orm, user) } as CallOptions };
}

/** A third-party token of `user` holding `scope`. */
const thirdParty = async (user: User, scope: string[]): Promise<CallOptions> => ({
  token: await buildThirdPartyToken(t.orm, user, scope),
});

const follows = () => t.orm.em.fork().find(Follow, {}, { orderBy: { created: 'asc' } });
const actionsOf = async (user: User) =>
  (await t.orm.em.fork().find(ActionRecord, { user: user.reference }, { orderBy: { id: 'asc' } })).map(
    (a) => [a.type, a.target],
  );

describe('PUT /follow/{username}', () => {
  it('follows the user and answers {"follow": true}', async () => {
    const { user: follower, as } = await member();
    const { user: followed } = await member();
    const res = await call('PUT', followed.username, as);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ follow: true });
    const [row] = await follows();
    expect([row.follower.reference, row.followed.reference]).toEqual([
      follower.reference,
      followed.reference,
    ]);
  });

  it('notifies the followed user in the same request: type follow, follower as initiator, {username, avatar}', async () => {
    const { user: follower, as } = await member({ avatar_path: 'avatars/f.png' });
    const { user: followed } = await member();
    await call('PUT', followed.username, as);
    const [notification] = await notificationsOf(t.orm, followed);
    expect(notification).toMatchObject({
      notification_type: 'follow',
      seen: false,
      data: { username: follower.username, avatar: 'https://cdn.test/avatars/f.png' },
    });
    expect(notification.initiator_user?.reference).toBe(follower.reference);
    expect(await notificationsOf(t.orm, follower)).toEqual([]);
  });

  it('records the action follow', async () => {
    const { user: follower, as } = await member();
    const { user: followed } = await member();
    await call('PUT', followed.username, as);
    expect(await actionsOf(follower)).toEqual([['follow', followed.reference]]);
  });

  it('sends the look-up, the notification rules, then the follow with its action record and the notification in one round trip', async () => {
    const { as } = await member();
    const { user: followed } = await member();
    await call('GET', followed.username, as); // the token's first use slides its expiry
    const kinds = await t.queries.kinds(
      async () => expect((await call('PUT', followed.username, as)).status).toBe(200),
      (statement) => {
        if (statement.includes('where lower(u.username) =')) return 'user';
        if (statement.includes('insert into follow')) {
          expect(statement).toMatch(/insert into action_record/);
          return 'follow and action';
        }
        if (statement.includes('from notification')) return 'notification rules';
        if (statement.startsWith('insert into notification')) return 'notification';
        return undefined;
      },
    );
    expect(kinds).toEqual([
      'token',
      'begin+user',
      'notification rules',
      'follow and action+notification',
      'commit',
    ]);
  });

  it('finds the user ignoring case', async () => {
    const { as } = await member();
    await member({ username: 'Frieren_Fan' });
    expect((await call('PUT', 'frieren_FAN', as)).body).toEqual({ follow: true });
  });

  it('creates one notification within 6 hours when following again after unfollowing', async () => {
    const { as } = await member();
    const { user: followed } = await member();
    await call('PUT', followed.username, as);
    await call('DELETE', followed.username, as);
    expect((await call('PUT', followed.username, as)).status).toBe(200);
    expect(await follows()).toHaveLength(1);
    expect(await notificationsOf(t.orm, followed)).toHaveLength(1);
  });

  it('follows without notifying a user who ignores follow notifications', async () => {
    const { as } = await member();
    const { user: followed } = await member({ ignored_notifications: ['follow'] });
    expect((await call('PUT', followed.username, as)).status).toBe(200);
    expect(await follows()).toHaveLength(1);
    expect(await notificationsOf(t.orm, followed)).toEqual([]);
  });

  describe('errors, in check order', () => {
    it('401 without a valid token', async () => {
      await member({ username: 'someone' });
      expect((await call('PUT', 'someone', {})).body.code).toBe('auth:missing_token');
      expect((await call('PUT', 'someone', { token: 'x' })).body.code).toBe('auth:invalid_token');
    });

    it('404 user:not_found for an unknown user', async () => {
      const { as } = await member();
      const res = await call('PUT', 'nobody_here', as);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'User not found', code: 'user:not_found' });
    });

    it('400 user:deleted for a deleted account', async () => {
      const { as } = await member();
      await member({ username: 'gone_user', role: 'deleted' });
      const res = await call('PUT', 'gone_user', as);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'Deleted', code: 'user:deleted' });
    });

    it('400 follow:self, whatever the case of the name', async () => {
      const { user, as } = await member();
      const res = await call('PUT', user.username.toUpperCase(), as);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: "You can't follow yourself", code: 'follow:self' });
      expect(await follows()).toEqual([]);
    });

    it('409 follow:already_following, with no second notification or action', async () => {
      const { user: follower, as } = await member();
      const { user: followed } = await member();
      await call('PUT', followed.username, as);
      const res = await call('PUT', followed.username, as);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: 'Already following', code: 'follow:already_following' });
      expect(await notificationsOf(t.orm, followed)).toHaveLength(1);
      expect(await actionsOf(follower)).toHaveLength(1);
    });

    it('409 for concurrent follows of the same user: one follow, one notification', async () => {
      const { as } = await member();
      const { user: followed } = await member();
      const results = await Promise.all([1, 2, 3].map(() => call('PUT', followed.username, as)));
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
      expect(await follows()).toHaveLength(1);
      expect(await notificationsOf(t.orm, followed)).toHaveLength(1);
    });

    it('403 permission:denied for a third-party token without scope follow', async () => {
      const { user } = await member();
      const { user: followed } = await member();
      const res = await call('PUT', followed.username, await thirdParty(user, ['read:follow', 'unfollow']));
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('permission:denied');
      expect(await follows()).toEqual([]);
      expect((await call('PUT', followed.username, await thirdParty(user, ['follow-full']))).status).toBe(
        200,
      );
    });

    it('checks the user before the scope (404), and the scope before the follow rules (403)', async () => {
      const { user } = await member();
      const limited = await thirdParty(user, ['read:watchlist']);
      expect((await call('PUT', 'nobody_here', limited)).body.code).toBe('user:not_found');
      expect((await call('PUT', user.username, limited)).body.code).toBe('permission:denied');
    });
  });
});

describe('DELETE /follow/{username}', () => {
  it('stops following and answers {"follow": false}', async () => {
    const { as } = await member();
    const { user: followed } = await member();
    await call('PUT', followed.username, as);
    const res = await call('DELETE', followed.username, as);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ follow: false });
    expect(await follows()).toEqual([]);
  });

  it('400 follow:not_following when not following (another user’s follow does not count)', async () => {
    const { as } = await member();
    const { user: followed } = await member();
    const { as: other } = await member();
    await call('PUT', followed.username, other);
    const res = await call('DELETE', followed.username, as);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Not following', code: 'follow:not_following' });
    expect(await follows()).toHaveLength(1);
  });

  it('404 and 400 from the user look-up', async () => {
    const { as } = await member();
    await member({ username: 'gone_user', role: 'deleted' });
    expect((await call('DELETE', 'nobody_here', as)).body.code).toBe('user:not_found');
    expect((await call('DELETE', 'gone_user', as)).body.code).toBe('user:deleted');
  });

  it('needs scope unfollow from a third-party token', async () => {
    const { user, as } = await member();
    const { user: followed } = await member();
    await call('PUT', followed.username, as);
    const res = await call('DELETE', followed.username, await thirdParty(user, ['follow', 'read:follow']));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('permission:denied');
    expect(await follows()).toHaveLength(1);
    expect((await call('DELETE', followed.username, await thirdParty(user, ['unfollow']))).status).toBe(200);
  });

  it('requires authentication', async () => {
    expect((await call('DELETE', 'someone', {})).status).toBe(401);
  });
});

describe('GET /follow/{username}', () => {
  it('answers whether the caller follows the user', async () => {
    const { as } = await member();
    const { user: followed, as: theirs } = await member();
    expect((await call('GET', followed.username, as)).body).toEqual({ follow: false });
    await call('PUT', followed.username, as);
    expect((await call('GET', followed.username, as)).body).toEqual({ follow: true });
    expect((await call('GET', followed.username, theirs)).body).toEqual({ follow: false });
  });

  it('answers false on the caller’s own name', async () => {
    const { user, as } = await member();
    expect((await call('GET', user.username, as)).body).toEqual({ follow: false });
  });

  it('404 and 400 from the user look-up; scope read:follow', async () => {
    const { user, as } = await member();
    await member({ username: 'gone_user', role: 'deleted' });
    expect((await call('GET', 'nobody_here', as)).status).toBe(404);
    expect((await call('GET', 'gone_user', as)).status).toBe(400);
    const denied = await call('GET', user.username, await thirdParty(user, ['follow', 'unfollow']));
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe('permission:denied');
    expect((await call('GET', user.username, await thirdParty(user, ['read:follow']))).status).toBe(200);
  });

  it('requires authentication', async () => {
    expect((await call('GET', 'someone', {})).status).toBe(401);
  });
});

describe('REST ≡ GraphQL', () => {
  it.each<Method>(['PUT', 'GET', 'DELETE'])('%s answers data[rootField] of its document', async (method) => {
    const { as } = await member();
    const { user: a } = await member();
    const { user: b } = await member();
    if (method !== 'PUT') {
      await call('PUT', a.username, as);
      await call('PUT', b.username, as);
    }
    const route = routeOf(method);
    const viaRest = await call(method, a.username, as);
    const viaGql = await gql(t.app, route.document, { username: b.username }, as);
    expect(viaRest.status).toBe(200);
    expect(viaGql.body.errors).toBeUndefined();
    expect(viaRest.body).toEqual(viaGql.body.data[route.rootField]);
  });

  it.each<[Method, string, string]>([
    ['PUT', 'self', 'follow:self'],
    ['PUT', 'nobody_here', 'user:not_found'],
    ['DELETE', 'other', 'follow:not_following'],
    ['GET', 'nobody_here', 'user:not_found'],
  ])('%s %s fails alike: %s', async (method, who, code) => {
    const { user, as } = await member();
    const { user: other } = await member();
    const username = who === 'self' ? user.username : who === 'other' ? other.username : who;
    const viaRest = await call(method, username, as);
    const viaGql = await gql(t.app, routeOf(method).document, { username }, as);
    expect(viaRest.body.code).toBe(code);
    const [error] = viaGql.body.errors;
    expect({
      message: error.message,
      code: error.extensions.code,
      status: error.extensions.http.status,
    }).toEqual({
      ...viaRest.body,
      status: viaRest.status,
    });
  });
});

describe('User.is_followed', () => {
  const INITIATORS = `query { notifications(size: 100) { list { initiator_user { username is_followed } } } }`;
  const WITHOUT = `query { notifications(size: 100) { list { initiator_user { username } } } }`;

  /** `recipient` gets a follow notification from each of `count` new users. */
  async function followedBy(recipient: User, count: number) {
    const followers = [];
    for (let i = 0; i < count; i += 1) {
      const follower = await member();
      await call('PUT', recipient.username, follower.as);
      followers.push(follower.user);
    }
    return followers;
  }

  const shown = async (as: CallOptions) => {
    const res = await gql(t.app, INITIATORS, {}, as);
    expect(res.body.errors).toBeUndefined();
    return Object.fromEntries(
      (
        res.body.data.notifications.list as { initiator_user: { username: string; is_followed: boolean } }[]
      ).map((n) => [n.initiator_user.username, n.initiator_user.is_followed]),
    );
  };

  it('is true exactly for the users the caller follows', async () => {
    const { user, as } = await member();
    const [a, b, c] = await followedBy(user, 3);
    expect(await shown(as)).toEqual({ [a.username]: false, [b.username]: false, [c.username]: false });
    await call('PUT', b.username, as);
    expect(await shown(as)).toEqual({ [a.username]: false, [b.username]: true, [c.username]: false });
  });

  it('costs no query of its own, whatever the number of users: the page is one statement with it', async () => {
    const { user, as } = await member();
    const followers = await followedBy(user, 6);
    for (const follower of followers.slice(0, 3)) await call('PUT', follower.username, as);
    const plain = await t.queries.count(() => gql(t.app, WITHOUT, {}, as));
    const withField = await t.queries.count(() => gql(t.app, INITIATORS, {}, as));
    expect(withField).toBe(plain);
  });

  describe('the loader', () => {
    /** What the loader needs of a request context: its entity manager, caller and loader cache. */
    const contextOf = (token?: string) => {
      const em = t.orm.em.fork();
      const loaders = new Map<string, unknown>();
      return {
        em,
        auth: new AuthSession(() => em, token),
        loader<K, V>(key: string, create: () => DataLoader<K, V>): DataLoader<K, V> {
          if (!loaders.has(key)) loaders.set(key, create());
          return loaders.get(key) as DataLoader<K, V>;
        },
      };
    };

    it('answers false to anonymous callers, without a query', async () => {
      const { as } = await member();
      const { user: followed } = await member();
      await call('PUT', followed.username, as);
      const ctx = contextOf();
      const queries = await t.queries.count(async () => {
        expect(await viewerFollows(ctx).loadMany([followed.reference])).toEqual([false]);
      });
      expect(queries).toBe(0);
      // A bad token is anonymous too (optional authentication).
      expect(await viewerFollows(contextOf('bad-token')).load(followed.reference)).toBe(false);
    });

    it('answers false on the caller’s own profile', async () => {
      const { user, as } = await member();
      const { user: other } = await member();
      await call('PUT', other.username, as);
      const ctx = contextOf(as.token);
      expect(await viewerFollows(ctx).loadMany([user.reference, other.reference])).toEqual([false, true]);
    });
  });
});
