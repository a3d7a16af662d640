import { Follow } from '../../src/accounts/follow.entity';
import { User } from '../../src/accounts/user.entity';
import { restRoutes } from '../../src/routes';
import { buildThirdPartyToken, buildToken, buildUser } from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { keysOf, shapeProblems, USER_WITH_EMAIL, USER_WITH_FOLLOWED } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { type Json, seconds, sortedKeys } from '../setup/json';

/** GET /user/me (GraphQL `me`) and GET /user/{username} (GraphQL `user`): pages.md "Session" and "User profile". */
const t = useTestApp();

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

const meRoute = restRoutes.find((r) => r.path === '/user/me' && r.method === 'GET')!;
const userRoute = restRoutes.find((r) => r.path === '/user/{username}' && r.method === 'GET')!;

const getMe = (options: CallOptions = {}, query = '') =>
  rest(t.app, 'GET', `/user/me${query}`, undefined, options);
const getUser = (username: string, options: CallOptions = {}) =>
  rest(t.app, 'GET', `/user/${encodeURIComponent(username)}`, undefined, options);
const gqlMe = (options: CallOptions = {}) => gql(t.app, meRoute.document, {}, options);
const gqlUser = (username: string, options: CallOptions = {}) =>
  gql(t.app, userRoute.document, { username }, options);

/** A user with a first-party token. */
async function member(o: Partial<User> = {}): Promise<{ user: User; as: CallOptions }> {
  const user = await buildUser(t.orm, o);
  return { user, as: { token: await buildToken(t.orm, user) } };
}

/** A third-party token of `user` holding `scope`. */
const thirdParty = async (user: User, scope: string[]): Promise<CallOptions> => ({
  token: await buildThirdPartyToken(t.orm, user, scope),
});

/** Follow rows written directly (many of them, for the bounded-SQL checks). */
async function follow(pairs: [User, User][]): Promise<void> {
  const em = t.orm.em.fork();
  for (const [follower, followed] of pairs)
    em.create(Follow, { follower: follower.reference, followed: followed.reference } as never);
  await em.flush();
}

/** The first GraphQL error as REST would show it. */
const gqlError = (body: {
  errors?: { message: string; extensions: { code: string; http: { status: number } } }[];
}) => {
  expect(body.errors).toHaveLength(1);
  const [error] = body.errors!;
  return { message: error.message, code: error.extensions.code, status: error.extensions.http.status };
};
const restError = (res: { status: number; body: Json }) => ({ ...res.body, status: res.status });

const DENIED = { message: "You don't have permission for this action", code: 'permission:denied' };
const DELETED = { message: 'Deleted', code: 'user:deleted' };

/** Every User field filled, with fractional timestamps and an account last active an hour ago. */
const FILLED: Partial<User> = {
  username: 'Frieren_Fan',
  email: 'frieren.fan@example.com',
  role: 'moderator',
  description: 'Watching slowly.\nVery slowly.',
  avatar_path: 'avatars/frieren.png',
  cover: '/covers/frieren.jpg',
  created: new Date('2023-05-06T07:08:09.750Z'),
  lists_updated: new Date('2024-02-03T04:05:06.999Z'),
  last_active: new Date(Date.now() - HOUR),
  ignored_notifications: ['follow', 'comment_reply'],
};

/** The public fields of FILLED as served. */
const filledPublic = (user: User, active: boolean) => ({
  reference: user.reference,
  created: seconds('2023-05-06T07:08:09Z'),
  updated: seconds('2024-02-03T04:05:06Z'),
  description: 'Watching slowly.\nVery slowly.',
  username: 'Frieren_Fan',
  avatar: 'https://cdn.test/avatars/frieren.png',
  cover: 'https://cdn.test/covers/frieren.jpg',
  active,
  role: 'moderator',
});

describe('GET /user/me', () => {
  describe('the caller’s account', () => {
    it('answers exactly every User field plus email for a filled account: no is_followed, no credentials or token data', async () => {
      const { user, as } = await member(FILLED);

      const res = await getMe(as);

      expect(res.status).toBe(200);
      expect(sortedKeys(res.body)).toEqual(keysOf(USER_WITH_EMAIL));
      expect(shapeProblems(res.body, USER_WITH_EMAIL, 'me')).toEqual([]);
      expect(res.body).toEqual({ ...filledPublic(user, true), email: 'frieren.fan@example.com' });
      for (const key of ['created', 'updated']) expect(Number.isInteger(res.body[key])).toBe(true);
      for (const key of [
        'is_followed',
        'password',
        'password_hash',
        'ignored_notifications',
        'email_confirmed',
        'banned',
        'forbidden_actions',
        'last_active',
        'token',
        'secret',
        'expiration',
        'scope',
      ])
        expect(res.body).not.toHaveProperty(key);
      expect(JSON.stringify(res.body)).not.toContain('not-a-real-hash');
      expect(JSON.stringify(res.body)).not.toContain(as.token);
    });

    it('serves the default avatar URL when none is set, and null for an absent cover, description and updated', async () => {
      const { user, as } = await member({
        username: 'bare_account',
        email: 'bare@example.com',
        role: 'user',
      });

      const res = await getMe(as);

      expect(res.status).toBe(200);
      expect(sortedKeys(res.body)).toEqual(keysOf(USER_WITH_EMAIL));
      expect(res.body).toEqual({
        reference: user.reference,
        created: seconds(user.created),
        updated: null,
        description: null,
        username: 'bare_account',
        avatar: 'https://cdn.test/avatar.jpg',
        cover: null,
        active: true,
        role: 'user',
        email: 'bare@example.com',
      });
    });

    it('passes absolute avatar and cover URLs through unchanged', async () => {
      const { as } = await member({
        avatar_path: 'https://elsewhere.example/a.png',
        cover: 'https://elsewhere.example/c.png',
      });
      const res = await getMe(as);
      expect(res.status).toBe(200);
      expect([res.body.avatar, res.body.cover]).toEqual([
        'https://elsewhere.example/a.png',
        'https://elsewhere.example/c.png',
      ]);
    });

    it('is active right after use: the request itself records the activity of an account idle for an hour', async () => {
      const { user, as } = await member({ last_active: new Date(Date.now() - HOUR) });
      const before = Date.now();

      const res = await getMe(as);

      expect(res.status).toBe(200);
      expect(res.body.active).toBe(true);
      const stored = await t.orm.em.fork().findOneOrFail(User, { reference: user.reference });
      expect(stored.last_active.getTime()).toBeGreaterThanOrEqual(before - 1000);
    });

    it('answers the caller’s own account, whoever else exists', async () => {
      await member({ username: 'someone_else', email: 'else@example.com' });
      const { user, as } = await member({ username: 'the_caller', email: 'caller@example.com' });
      const res = await getMe(as);
      expect(res.status).toBe(200);
      expect([res.body.reference, res.body.username, res.body.email]).toEqual([
        user.reference,
        'the_caller',
        'caller@example.com',
      ]);
    });

    it('answers a not yet activated account (a session check needs no permission)', async () => {
      const { as } = await member({ role: 'not_activated', email_confirmed: false });
      const res = await getMe(as);
      expect(res.status).toBe(200);
      expect(res.body.role).toBe('not_activated');
    });

    it('reads the token from the auth cookie too', async () => {
      const { user, as } = await member();
      const res = await getMe({ cookie: as.token });
      expect(res.status).toBe(200);
      expect(res.body.reference).toBe(user.reference);
    });

    it('ignores unknown query parameters', async () => {
      const { user, as } = await member();
      const res = await getMe(as, '?page=0&foo=bar');
      expect(res.status).toBe(200);
      expect(res.body.reference).toBe(user.reference);
    });
  });

  describe('the literal route wins over /user/{username}', () => {
    it('answers the caller’s account, not the profile of an account stored as `me`', async () => {
      const { user: named } = await member({ username: 'me', email: 'named-me@example.com' });
      const { user, as } = await member({ username: 'real_caller', email: 'real@example.com' });

      const res = await getMe(as);

      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ reference: user.reference, username: 'real_caller' });
      expect(res.body.email).toBe('real@example.com');
      expect(res.body).not.toHaveProperty('is_followed');
      // The account named `me` exists: GraphQL's `user` finds it.
      const viaUser = await gqlUser('me');
      expect(viaUser.body.errors).toBeUndefined();
      expect(viaUser.body.data.user.reference).toBe(named.reference);
    });

    it('requires a token even then: anonymous GET /user/me is 401, not the `me` profile', async () => {
      await member({ username: 'me' });
      const res = await getMe();
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Auth token is missing', code: 'auth:missing_token' });
    });
  });

  describe('required authentication', () => {
    it('answers 401 auth:missing_token without a token, in both languages', async () => {
      const res = await getMe();
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Auth token is missing', code: 'auth:missing_token' });
      const uk = await getMe({ language: 'uk' });
      expect(uk.status).toBe(401);
      expect(uk.body).toEqual({ message: 'Немає токену автентифікації', code: 'auth:missing_token' });
    });

    it('answers 401 auth:invalid_token for a garbage token', async () => {
      await member();
      const res = await getMe({ token: 'garbage-token' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Auth token is invalid', code: 'auth:invalid_token' });
    });

    it('answers 401 auth:token_expired for an expired token', async () => {
      const user = await buildUser(t.orm);
      const token = await buildToken(t.orm, user, { expiration: new Date(Date.now() - 1000) });
      const res = await getMe({ token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Token has expired', code: 'auth:token_expired' });
    });

    it('answers 403 auth:banned for a banned account', async () => {
      const { as } = await member({ banned: true });
      const res = await getMe(as);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: 'User is banned', code: 'auth:banned' });
    });

    it('answers 400 user:deleted for a deleted account, in both languages', async () => {
      const { as } = await member({ role: 'deleted' });
      const res = await getMe(as);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(DELETED);
      const uk = await getMe({ ...as, language: 'uk' });
      expect(uk.body).toEqual({ message: 'Видалено...', code: 'user:deleted' });
    });
  });

  describe('scope read:user-details', () => {
    it.each([[['read:follow', 'read:watchlist']], [['update:user-details']], [[]]])(
      'answers 403 permission:denied for a third-party token with %j',
      async (scope) => {
        const { user } = await member();
        const res = await getMe(await thirdParty(user, scope));
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      },
    );

    it.each([[['read:user-details']], [['user-details']]])(
      'answers the account to a third-party token with %j',
      async (scope) => {
        const { user } = await member({ email: 'scoped@example.com' });
        const res = await getMe(await thirdParty(user, scope));
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ reference: user.reference, email: 'scoped@example.com' });
      },
    );
  });

  describe('REST ≡ GraphQL', () => {
    it('equals data.me of the route’s document', async () => {
      const { as } = await member(FILLED);
      await getMe(as); // the first use records the activity: both calls then see the same state
      const viaRest = await getMe(as);
      const viaGraphQL = await gqlMe(as);
      expect(viaRest.status).toBe(200);
      expect(viaGraphQL.body.errors).toBeUndefined();
      expect(viaGraphQL.body.data.me).toEqual(viaRest.body);
      expect(sortedKeys(viaGraphQL.body.data.me)).toEqual(keysOf(USER_WITH_EMAIL));
    });

    it('reports the same errors', async () => {
      const expired = await buildToken(t.orm, await buildUser(t.orm), {
        expiration: new Date(Date.now() - 1000),
      });
      const cases: CallOptions[] = [
        {},
        { language: 'uk' },
        { token: 'garbage-token' },
        { token: expired },
        (await member({ banned: true })).as,
        { ...(await member({ role: 'deleted' })).as, language: 'uk' },
        await thirdParty((await member()).user, ['read:follow']),
      ];
      for (const options of cases) {
        const viaRest = await getMe(options);
        const viaGraphQL = await gqlMe(options);
        expect(viaRest.status).toBeGreaterThanOrEqual(400);
        expect(gqlError(viaGraphQL.body)).toEqual(restError(viaRest));
      }
    });

    it('gives anonymous GraphQL `me` extensions.code auth:missing_token with status 401', async () => {
      const res = await gql(t.app, 'query { me { username email } }');
      expect(res.body.data?.me ?? null).toBeNull();
      expect(gqlError(res.body)).toEqual({
        message: 'Auth token is missing',
        code: 'auth:missing_token',
        status: 401,
      });
    });

    it('lets GraphQL `me` select ignored_notifications: the stored list', async () => {
      const query = 'query { me { username email ignored_notifications } }';
      const { as } = await member({
        username: 'quiet_one',
        email: 'quiet@example.com',
        ignored_notifications: ['follow', 'comment_reply', 'article_vote'],
      });
      const res = await gql(t.app, query, {}, as);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.me).toEqual({
        username: 'quiet_one',
        email: 'quiet@example.com',
        ignored_notifications: ['follow', 'comment_reply', 'article_vote'],
      });

      const { as: plain } = await member();
      const none = await gql(t.app, query, {}, plain);
      expect(none.body.errors).toBeUndefined();
      expect(none.body.data.me.ignored_notifications).toEqual([]);
    });

    it('refuses GraphQL `me` to a third-party token without the scope, and serves it with the group', async () => {
      const { user } = await member({ ignored_notifications: ['follow'] });
      const query = 'query { me { reference ignored_notifications } }';
      const denied = await gql(t.app, query, {}, await thirdParty(user, ['read:follow']));
      expect(gqlError(denied.body)).toEqual({ ...DENIED, status: 403 });
      const allowed = await gql(t.app, query, {}, await thirdParty(user, ['user-details']));
      expect(allowed.body.errors).toBeUndefined();
      expect(allowed.body.data.me).toEqual({ reference: user.reference, ignored_notifications: ['follow'] });
    });
  });

  describe('bounded SQL', () => {
    it('sends as many statements for an account with 20 followers and 20 followings as for a new one', async () => {
      const { as: lonelyAs } = await member();
      const { user: busy, as: busyAs } = await member();
      const others = await Promise.all(Array.from({ length: 20 }, () => buildUser(t.orm)));
      await follow(
        others.flatMap((other): [User, User][] => [
          [other, busy],
          [busy, other],
        ]),
      );
      // The first use of each token writes once.
      await getMe(lonelyAs);
      await getMe(busyAs);

      const lonely = await t.queries.count(async () => expect((await getMe(lonelyAs)).status).toBe(200));
      const crowded = await t.queries.count(async () => expect((await getMe(busyAs)).status).toBe(200));
      expect(lonely).toBeGreaterThan(0);
      expect(crowded).toBe(lonely);
    });
  });
});

describe('GET /user/{username}', () => {
  describe('the profile', () => {
    it('answers exactly every User field plus is_followed for a filled account, and no email', async () => {
      const user = await buildUser(t.orm, FILLED);

      const res = await getUser('Frieren_Fan');

      expect(res.status).toBe(200);
      expect(sortedKeys(res.body)).toEqual(keysOf(USER_WITH_FOLLOWED));
      expect(shapeProblems(res.body, USER_WITH_FOLLOWED, 'user')).toEqual([]);
      // Last active an hour ago, and an anonymous look-up records nothing for the viewed user.
      expect(res.body).toEqual({ ...filledPublic(user, false), is_followed: false });
      for (const key of ['email', 'password_hash', 'ignored_notifications', 'banned', 'forbidden_actions'])
        expect(res.body).not.toHaveProperty(key);
      expect(JSON.stringify(res.body)).not.toContain('frieren.fan@example.com');
    });

    it('serves the default avatar URL and nulls for an account without images, description or list changes', async () => {
      const user = await buildUser(t.orm, { username: 'plain_user', role: 'user' });
      const res = await getUser('plain_user');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        reference: user.reference,
        created: seconds(user.created),
        updated: null,
        description: null,
        username: 'plain_user',
        avatar: 'https://cdn.test/avatar.jpg',
        cover: null,
        active: true,
        role: 'user',
        is_followed: false,
      });
    });

    it('shows `active` while last_active is less than 10 minutes old', async () => {
      await buildUser(t.orm, { username: 'recent_user', last_active: new Date(Date.now() - 9 * MINUTE) });
      await buildUser(t.orm, { username: 'idle_user', last_active: new Date(Date.now() - 11 * MINUTE) });
      expect((await getUser('recent_user')).body.active).toBe(true);
      expect((await getUser('idle_user')).body.active).toBe(false);
    });

    it('ignores unknown query parameters', async () => {
      await buildUser(t.orm, { username: 'queried_user' });
      const res = await rest(t.app, 'GET', '/user/queried_user?page=0&foo=bar');
      expect(res.status).toBe(200);
      expect(res.body.username).toBe('queried_user');
    });
  });

  describe('look-up', () => {
    it('ignores case and answers the stored spelling', async () => {
      const user = await buildUser(t.orm, { username: 'Frieren_Fan' });
      await buildUser(t.orm, { username: 'frieren_fans' });
      for (const asked of ['frieren_fan', 'FRIEREN_FAN', 'fRiErEn_FaN']) {
        const res = await getUser(asked);
        expect(res.status).toBe(200);
        expect([res.body.reference, res.body.username]).toEqual([user.reference, 'Frieren_Fan']);
      }
    });

    it('answers 404 user:not_found for an unknown username, in both languages', async () => {
      await buildUser(t.orm, { username: 'known_user' });
      for (const username of ['unknown_user', 'known_use', 'known_user_2']) {
        const res = await getUser(username);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: 'User not found', code: 'user:not_found' });
      }
      const uk = await getUser('unknown_user', { language: 'uk-UA,uk;q=0.9' });
      expect(uk.status).toBe(404);
      expect(uk.body).toEqual({ message: 'Користувача не знайдено', code: 'user:not_found' });
    });

    it('answers 400 user:deleted for a deleted account, in both languages', async () => {
      await buildUser(t.orm, { username: 'Gone_User', role: 'deleted' });
      const res = await getUser('gone_user');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(DELETED);
      const uk = await getUser('gone_user', { language: 'uk' });
      expect(uk.body).toEqual({ message: 'Видалено...', code: 'user:deleted' });
    });

    it('still shows a banned account', async () => {
      await buildUser(t.orm, { username: 'banned_user', banned: true });
      const res = await getUser('banned_user');
      expect(res.status).toBe(200);
      expect(res.body.username).toBe('banned_user');
    });
  });

  describe('is_followed', () => {
    it('is true when the caller follows the user, false for another caller and anonymously', async () => {
      const { user: target } = await member({ username: 'followed_one' });
      const { as: fan } = await member();
      const { as: stranger } = await member();
      // The stranger follows someone else, and someone else follows the target.
      await follow([
        [(await member()).user, target],
        [(await member()).user, target],
      ]);
      expect((await rest(t.app, 'PUT', '/follow/followed_one', undefined, fan)).body).toEqual({
        follow: true,
      });
      await rest(t.app, 'PUT', `/follow/${(await member()).user.username}`, undefined, stranger);

      expect((await getUser('followed_one', fan)).body.is_followed).toBe(true);
      expect((await getUser('FOLLOWED_ONE', fan)).body.is_followed).toBe(true);
      expect((await getUser('followed_one', stranger)).body.is_followed).toBe(false);
      expect((await getUser('followed_one')).body.is_followed).toBe(false);
    });

    it('turns false again after unfollowing', async () => {
      await member({ username: 'followed_two' });
      const { as } = await member();
      await rest(t.app, 'PUT', '/follow/followed_two', undefined, as);
      expect((await getUser('followed_two', as)).body.is_followed).toBe(true);
      expect((await rest(t.app, 'DELETE', '/follow/followed_two', undefined, as)).body).toEqual({
        follow: false,
      });
      expect((await getUser('followed_two', as)).body.is_followed).toBe(false);
    });

    it('is false on one’s own profile, even with a stored self-follow row', async () => {
      const { user, as } = await member({ username: 'self_viewer' });
      await follow([[user, user]]);
      const res = await getUser('self_viewer', as);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ reference: user.reference, is_followed: false });
      expect(res.body).not.toHaveProperty('email');
    });
  });

  describe('optional authentication and scope read:follow', () => {
    /** A target followed by the returned user. */
    async function followedTarget() {
      const target = await buildUser(t.orm, { username: 'target_user' });
      const fan = await buildUser(t.orm);
      await follow([[fan, target]]);
      return { target, fan };
    }

    it('treats a garbage token as anonymous', async () => {
      await followedTarget();
      const res = await getUser('target_user', { token: 'garbage-token' });
      expect(res.status).toBe(200);
      expect(res.body.is_followed).toBe(false);
    });

    it('treats an expired token of a follower as anonymous (is_followed false)', async () => {
      const { fan } = await followedTarget();
      expect((await getUser('target_user', { token: await buildToken(t.orm, fan) })).body.is_followed).toBe(
        true,
      );
      const expired = await buildToken(t.orm, fan, { expiration: new Date(Date.now() - 1000) });
      const res = await getUser('target_user', { token: expired });
      expect(res.status).toBe(200);
      expect(res.body.is_followed).toBe(false);
    });

    it('treats a banned follower’s token as anonymous', async () => {
      const target = await buildUser(t.orm, { username: 'target_user' });
      const { user: fan, as } = await member({ banned: true });
      await follow([[fan, target]]);
      const res = await getUser('target_user', as);
      expect(res.status).toBe(200);
      expect(res.body.is_followed).toBe(false);
    });

    it('answers 400 user:deleted to a caller whose account is deleted', async () => {
      await followedTarget();
      const { as } = await member({ role: 'deleted' });
      const res = await getUser('target_user', as);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(DELETED);
    });

    it.each([[['read:user-details']], [['follow', 'unfollow']], [[]]])(
      'answers 403 permission:denied to a third-party token with %j',
      async (scope) => {
        const { fan } = await followedTarget();
        const res = await getUser('target_user', await thirdParty(fan, scope));
        expect(res.status).toBe(403);
        expect(res.body).toEqual(DENIED);
      },
    );

    it('looks the user up before checking the scope: 404 for an unknown user, 400 for a deleted one', async () => {
      const { user } = await member();
      await buildUser(t.orm, { username: 'deleted_user', role: 'deleted' });
      const as = await thirdParty(user, ['read:user-details']);
      const unknown = await getUser('unknown_user', as);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ message: 'User not found', code: 'user:not_found' });
      const deleted = await getUser('deleted_user', as);
      expect(deleted.status).toBe(400);
      expect(deleted.body).toEqual(DELETED);
    });

    it.each([[['read:follow']], [['follow-full']]])(
      'serves a third-party token with %j, with the token owner’s is_followed',
      async (scope) => {
        const { target, fan } = await followedTarget();
        const res = await getUser('target_user', await thirdParty(fan, scope));
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ reference: target.reference, is_followed: true });
      },
    );
  });

  describe('REST ≡ GraphQL', () => {
    it('equals data.user anonymously, for a follower and on one’s own profile', async () => {
      const target = await buildUser(t.orm, FILLED);
      const { user: fan, as: fanAs } = await member();
      await follow([[fan, target]]);
      const ownAs = { token: await buildToken(t.orm, target) };
      // Each token's first use records activity: afterwards both doors see the same rows.
      await getMe(fanAs);
      await getMe(ownAs);

      for (const [options, followed] of [
        [{}, false],
        [fanAs, true],
        [ownAs, false],
      ] as const) {
        const viaRest = await getUser('frieren_fan', options);
        const viaGraphQL = await gqlUser('frieren_fan', options);
        expect(viaRest.status).toBe(200);
        expect(viaRest.body.is_followed).toBe(followed);
        expect(viaGraphQL.body.errors).toBeUndefined();
        expect(viaGraphQL.body.data.user).toEqual(viaRest.body);
      }
    });

    it('reports the same errors', async () => {
      await buildUser(t.orm, { username: 'deleted_user', role: 'deleted' });
      await buildUser(t.orm, { username: 'present_user' });
      const { user } = await member();
      const unscoped = await thirdParty(user, ['read:user-details']);
      const deletedCaller = (await member({ role: 'deleted' })).as;
      const cases: [string, CallOptions][] = [
        ['unknown_user', {}],
        ['unknown_user', { language: 'uk' }],
        ['deleted_user', { language: 'uk' }],
        ['present_user', unscoped],
        ['unknown_user', unscoped],
        ['present_user', { ...deletedCaller, language: 'uk' }],
      ];
      for (const [username, options] of cases) {
        const viaRest = await getUser(username, options);
        const viaGraphQL = await gqlUser(username, options);
        expect(viaRest.status).toBeGreaterThanOrEqual(400);
        expect(gqlError(viaGraphQL.body)).toEqual(restError(viaRest));
      }
    });
  });

  describe('bounded SQL', () => {
    it('sends as many statements for a user with 25 followers as for one with none, anonymously and with a token', async () => {
      await buildUser(t.orm, { username: 'lonely_user' });
      const popular = await buildUser(t.orm, { username: 'popular_user' });
      const { user: viewer, as } = await member();
      const fans = await Promise.all(Array.from({ length: 24 }, () => buildUser(t.orm)));
      await follow([viewer, ...fans].map((fan): [User, User] => [fan, popular]));
      await getUser('lonely_user', as); // the token's first use writes once

      for (const options of [{}, as]) {
        const none = await t.queries.count(async () => {
          const res = await getUser('lonely_user', options);
          expect(res.body.is_followed).toBe(false);
        });
        const many = await t.queries.count(async () => {
          const res = await getUser('popular_user', options);
          expect(res.body.is_followed).toBe('token' in options);
        });
        expect(none).toBeGreaterThan(0);
        expect(many).toBe(none);
      }
    });
  });
});
