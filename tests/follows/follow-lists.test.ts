import type { User } from '../../src/accounts/user.entity';
import type { RestRoute } from '../../src/rest/route';
import { restRoutes } from '../../src/routes';
import { buildClient, buildThirdPartyToken, buildToken, buildUser, orderedReference } from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { keysOf, PAGINATION, shapeProblems, USER_WITH_FOLLOWED, type Shape } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { type Json, seconds, sortedKeys } from '../setup/json';
import { executedTwin, type Paging } from '../setup/list-route';
import { INVALID_PAGING_QUERIES } from '../setup/paging';

/**
 * Who follows whom, by profile (pages.md "User profile"): GET /follow/{username}/stats
 * (`followStats`, auth none) and GET /follow/{username}/followers and /following
 * (`followers`, `following`: optional auth, scope `read:follow`, paged, Users with
 * `is_followed` for the caller). Deleted accounts are never listed or counted.
 */
const t = useTestApp();

type Direction = 'followers' | 'following';
const DIRECTIONS: readonly Direction[] = ['followers', 'following'];

const routeOf = (path: string): RestRoute => restRoutes.find((r) => r.method === 'GET' && r.path === path)!;
const statsRoute = routeOf('/follow/{username}/stats');
const statsTwin = executedTwin(statsRoute.document);
const listRoutes: Record<Direction, RestRoute> = {
  followers: routeOf('/follow/{username}/followers'),
  following: routeOf('/follow/{username}/following'),
};
const listTwins: Record<Direction, string> = {
  followers: executedTwin(listRoutes.followers.document),
  following: executedTwin(listRoutes.following.document),
};

const ERRORS = {
  userNotFound: { status: 404, code: 'user:not_found', message: 'User not found' },
  userDeleted: { status: 400, code: 'user:deleted', message: 'Deleted' },
  denied: { status: 403, code: 'permission:denied', message: "You don't have permission for this action" },
  badUsername: {
    status: 400,
    code: 'system:validation_error',
    message: 'Invalid field username in request path',
  },
} as const;
type Expected = { status: number; code: string; message: string };

const PAGE: Shape = { pagination: { object: PAGINATION }, list: { arrayOf: USER_WITH_FOLLOWED } };

// ---------------------------------------------------------------------------
// Callers and rows.

async function member(o: Partial<User> = {}): Promise<{ user: User; as: CallOptions }> {
  const user = await buildUser(t.orm, o);
  return { user, as: { token: await buildToken(t.orm, user) } };
}

const thirdParty = async (user: User, scope: string[]): Promise<CallOptions> => ({
  token: await buildThirdPartyToken(t.orm, user, scope),
});

const sql = <T = Json>(text: string, params: unknown[] = []): Promise<T[]> =>
  t.orm.em.getConnection().execute<T[]>(text, params);

/** A user with every nullable User field filled, so that shapes can check them all. */
const filledUser = (username: string, o: Partial<User> = {}) =>
  buildUser(t.orm, {
    username,
    description: `About ${username}`,
    cover: '/cover.jpg',
    avatar_path: 'avatars/a.png',
    lists_updated: new Date('2024-02-02T00:00:00Z'),
    ...o,
  } as Partial<User>);

/** A follow row written directly (the follow writes are tested in follows.test.ts). */
async function seedFollow(
  follower: User,
  followed: User,
  created: Date | string = new Date(),
  reference?: string,
): Promise<string> {
  const [row] = await sql<{ reference: string }>(
    `insert into follow (reference, follower_reference, followed_reference, created)
     values (coalesce(?::uuid, gen_random_uuid()), ?, ?, ?) returning reference`,
    [reference ?? null, follower.reference, followed.reference, new Date(created)],
  );
  return row.reference;
}

// ---------------------------------------------------------------------------
// Calls.

const statsCall = (username: string, options: CallOptions = {}) =>
  rest(t.app, 'GET', `/follow/${username}/stats`, undefined, options);

const statsGql = (username: string, options: CallOptions = {}, document = statsRoute.document) =>
  gql(t.app, document, { username }, options);

function listCall(direction: Direction, username: string, options: CallOptions & Paging = {}) {
  const query = new URLSearchParams();
  if (options.page !== undefined) query.set('page', String(options.page));
  if (options.size !== undefined) query.set('size', String(options.size));
  const qs = query.toString();
  return rest(t.app, 'GET', `/follow/${username}/${direction}${qs ? `?${qs}` : ''}`, undefined, options);
}

const listGql = (
  direction: Direction,
  username: string,
  options: CallOptions & Paging = {},
  document = listRoutes[direction].document,
) => gql(t.app, document, { username, page: options.page ?? 1, size: options.size ?? 15 }, options);

/** The GraphQL error as `{status, code, message}`. */
function graphError(body: Json): Expected {
  const errors = body.errors as { message: string; extensions: { code: string; http: { status: number } } }[];
  expect(errors).toHaveLength(1);
  const [error] = errors;
  return { status: error.extensions.http.status, code: error.extensions.code, message: error.message };
}

/** The stats over REST, compiled /graphql and executed /graphql: one 200 answer; returns it. */
async function expectStats(username: string, options: CallOptions = {}): Promise<Json> {
  const viaRest = await statsCall(username, options);
  const compiled = await statsGql(username, options);
  const executed = await statsGql(username, options, statsTwin);
  expect(viaRest.status).toBe(200);
  expect(compiled.body.errors).toBeUndefined();
  expect(executed.body.errors).toBeUndefined();
  expect(executed.body.data.__typename).toBe('Query');
  expect(compiled.body.data.followStats).toEqual(viaRest.body);
  expect(executed.body.data.followStats).toEqual(viaRest.body);
  return viaRest.body as Json;
}

/** The list over REST, compiled /graphql and executed /graphql: one 200 answer; returns it. */
async function expectList(
  direction: Direction,
  username: string,
  options: CallOptions & Paging = {},
): Promise<Json> {
  const viaRest = await listCall(direction, username, options);
  const compiled = await listGql(direction, username, options);
  const executed = await listGql(direction, username, options, listTwins[direction]);
  expect(viaRest.status).toBe(200);
  expect(compiled.body.errors).toBeUndefined();
  expect(executed.body.errors).toBeUndefined();
  expect(executed.body.data.__typename).toBe('Query');
  expect(compiled.body.data[direction]).toEqual(viaRest.body);
  expect(executed.body.data[direction]).toEqual(viaRest.body);
  return viaRest.body as Json;
}

/** A failure alike over REST and both GraphQL documents, with the REST body exactly `{code, message}`. */
async function expectFailureOn(
  viaRestCall: () => Promise<{ status: number; body: Json }>,
  viaGqlCall: (document: string) => Promise<{ body: Json }>,
  documents: readonly [string, string],
  expected: Expected,
): Promise<void> {
  const viaRest = await viaRestCall();
  expect({ status: viaRest.status, body: viaRest.body }).toEqual({
    status: expected.status,
    body: { code: expected.code, message: expected.message },
  });
  for (const [name, document] of [
    ['/graphql route document', documents[0]],
    ['/graphql executed twin', documents[1]],
  ] as const) {
    const viaGql = await viaGqlCall(document);
    expect({ document: name, ...graphError(viaGql.body) }).toEqual({ document: name, ...expected });
  }
}

const expectStatsFailure = (username: string, options: CallOptions, expected: Expected) =>
  expectFailureOn(
    () => statsCall(username, options),
    (document) => statsGql(username, options, document),
    [statsRoute.document, statsTwin],
    expected,
  );

const expectListFailure = (
  direction: Direction,
  username: string,
  options: CallOptions & Paging,
  expected: Expected,
) =>
  expectFailureOn(
    () => listCall(direction, username, options),
    (document) => listGql(direction, username, options, document),
    [listRoutes[direction].document, listTwins[direction]],
    expected,
  );

const usernamesOf = (body: Json): string[] => (body.list as Json[]).map((u) => u.username as string);
const followedFlags = (body: Json): Record<string, boolean> =>
  Object.fromEntries((body.list as Json[]).map((u) => [u.username as string, u.is_followed as boolean]));

// ===========================================================================

describe('routes', () => {
  it('registers the stats with no auth, and both lists as optional-auth paged routes', () => {
    expect([statsRoute.auth, statsRoute.paged ?? false, statsRoute.rootField]).toEqual([
      'none',
      false,
      'followStats',
    ]);
    for (const direction of DIRECTIONS) {
      const route = listRoutes[direction];
      expect([route.auth, route.paged, route.rootField]).toEqual(['optional', true, direction]);
    }
  });
});

// ===========================================================================

describe('GET /follow/{username}/stats', () => {
  it('counts followers and following; REST ≡ compiled ≡ executed GraphQL', async () => {
    const { user: owner } = await member();
    const fans = await Promise.all([1, 2, 3].map(() => buildUser(t.orm)));
    const idols = await Promise.all([1, 2].map(() => buildUser(t.orm)));
    for (const fan of fans) await seedFollow(fan, owner);
    for (const idol of idols) await seedFollow(owner, idol);
    // Follows between other users do not count.
    await seedFollow(fans[0], idols[0]);
    await seedFollow(idols[1], fans[2]);
    expect(await expectStats(owner.username)).toEqual({ followers: 3, following: 2 });
    // Each side counts for the other user too.
    expect(await expectStats(idols[0].username)).toEqual({ followers: 2, following: 0 });
    expect(await expectStats(fans[2].username)).toEqual({ followers: 1, following: 1 });
  });

  it('answers zeros for a user with no follows: exactly {followers, following}', async () => {
    const { user } = await member();
    const body = await expectStats(user.username);
    expect(body).toEqual({ followers: 0, following: 0 });
    expect(sortedKeys(body)).toEqual(['followers', 'following']);
  });

  it('leaves deleted accounts out of both figures', async () => {
    const { user: owner } = await member();
    const live = await buildUser(t.orm);
    const goneFan = await buildUser(t.orm, { role: 'deleted' });
    const goneIdol = await buildUser(t.orm, { role: 'deleted' });
    await seedFollow(live, owner);
    await seedFollow(goneFan, owner);
    await seedFollow(owner, live);
    await seedFollow(owner, goneIdol);
    expect(await expectStats(owner.username)).toEqual({ followers: 1, following: 1 });
  });

  it('counts banned and not activated accounts (only deleted ones are left out)', async () => {
    const { user: owner } = await member();
    await seedFollow(await buildUser(t.orm, { banned: true }), owner);
    await seedFollow(owner, await buildUser(t.orm, { role: 'not_activated' }));
    expect(await expectStats(owner.username)).toEqual({ followers: 1, following: 1 });
  });

  it('finds the user ignoring case', async () => {
    const { user } = await member({ username: 'Stats_Owner' });
    await seedFollow(await buildUser(t.orm), user);
    for (const name of ['Stats_Owner', 'stats_owner', 'STATS_OWNER']) {
      expect(await expectStats(name)).toEqual({ followers: 1, following: 0 });
    }
  });

  it('unknown user 404 user:not_found; deleted user 400 user:deleted; both languages, every door', async () => {
    const gone = await buildUser(t.orm, { role: 'deleted' });
    await seedFollow(await buildUser(t.orm), gone);
    for (const language of ['en', 'uk']) {
      const uk = language === 'uk';
      await expectStatsFailure(
        'nobody_here',
        { language },
        { ...ERRORS.userNotFound, message: uk ? 'Користувача не знайдено' : 'User not found' },
      );
      await expectStatsFailure(
        gone.username.toUpperCase(),
        { language },
        { ...ERRORS.userDeleted, message: uk ? 'Видалено...' : 'Deleted' },
      );
    }
  });

  it('never resolves a token: bad, expired, deleted-account and scopeless third-party tokens all answer 200', async () => {
    const { user: owner } = await member();
    await seedFollow(await buildUser(t.orm), owner);
    const expected = { followers: 1, following: 0 };
    const gone = await member({ role: 'deleted' });
    const banned = await member({ banned: true });
    const expired = await buildToken(t.orm, owner, { expiration: new Date(Date.now() - 1000) });
    const scopeless = await thirdParty(owner, ['read:watchlist']);
    for (const options of [{ token: 'not-a-token' }, { token: expired }, gone.as, banned.as, scopeless]) {
      expect(await expectStats(owner.username, options)).toEqual(expected);
    }
  });

  it('refuses a username holding U+0000: 400 Invalid field username in request path', async () => {
    const res = await statsCall('a%00b');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: ERRORS.badUsername.code, message: ERRORS.badUsername.message });
    for (const document of [statsRoute.document, statsTwin]) {
      const graph = await statsGql('a\u0000b', {}, document);
      expect(graph.status).toBe(400);
      expect(graph.body.errors[0].extensions.code).toBe('system:validation_error');
    }
  });

  it('sends as many statements for 20 follows as for 1; REST and the compiled document are one each', async () => {
    const { user: owner } = await member();
    const addFollows = async (n: number) => {
      for (let i = 0; i < n; i += 1) {
        await seedFollow(await buildUser(t.orm), owner);
        await seedFollow(owner, await buildUser(t.orm));
      }
    };
    const count = async (expected: number) => {
      const counts: number[] = [];
      counts.push(
        await t.queries.count(async () => {
          expect((await statsCall(owner.username)).body).toEqual({
            followers: expected,
            following: expected,
          });
        }),
      );
      for (const document of [statsRoute.document, statsTwin]) {
        counts.push(
          await t.queries.count(async () => {
            const res = await statsGql(owner.username, {}, document);
            expect(res.body.data.followStats).toEqual({ followers: expected, following: expected });
          }),
        );
      }
      return counts;
    };
    await addFollows(1);
    const one = await count(1);
    await addFollows(19);
    expect(await count(20)).toEqual(one);
    expect(one.slice(0, 2)).toEqual([1, 1]);
  });
});

// ===========================================================================

describe('GET /follow/{username}/followers and /following', () => {
  /**
   * The owner with two live followers and two live followed users (plus a deleted one on
   * each side), and a viewer who follows one user of each list.
   */
  async function fixture() {
    const owner = await member({ username: 'List_Owner' });
    const viewer = await member();
    const fanA = await filledUser('fan_a_user');
    const fanB = await filledUser('fan_b_user');
    const idolA = await filledUser('idol_a_user');
    const idolB = await filledUser('idol_b_user');
    const gone = await buildUser(t.orm, { username: 'gone_user', role: 'deleted' });
    await seedFollow(fanA, owner.user, '2024-03-01T00:00:00Z');
    await seedFollow(fanB, owner.user, '2024-02-01T00:00:00Z');
    await seedFollow(gone, owner.user, '2024-04-01T00:00:00Z');
    await seedFollow(owner.user, idolA, '2024-01-01T00:00:00Z');
    await seedFollow(owner.user, idolB, '2024-05-01T00:00:00Z');
    await seedFollow(owner.user, gone, '2024-06-01T00:00:00Z');
    // Follows of the viewer, and one between strangers.
    await seedFollow(viewer.user, fanB);
    await seedFollow(viewer.user, idolA);
    await seedFollow(fanA, idolB);
    return { owner, viewer, fanA, fanB, idolA, idolB, gone };
  }

  describe.each(DIRECTIONS)('%s', (direction) => {
    const EXPECTED: Record<Direction, string[]> = {
      followers: ['fan_a_user', 'fan_b_user'],
      following: ['idol_b_user', 'idol_a_user'],
    };

    it('lists the live users, the latest follow first, with the User fields and is_followed', async () => {
      const { owner } = await fixture();
      const body = await expectList(direction, owner.user.username);
      expect(shapeProblems(body, PAGE, 'page', ['list'])).toEqual([]);
      expect(body.pagination).toEqual({ total: 2, pages: 1, page: 1 });
      expect(usernamesOf(body)).toEqual(EXPECTED[direction]);
      for (const item of body.list as Json[]) expect(sortedKeys(item)).toEqual(keysOf(USER_WITH_FOLLOWED));
    });

    it('is_followed tells whether the caller follows the listed user: false when anonymous', async () => {
      const { owner, viewer } = await fixture();
      const anonymous = await expectList(direction, owner.user.username);
      expect(Object.values(followedFlags(anonymous))).toEqual([false, false]);
      const asViewer = await expectList(direction, owner.user.username, viewer.as);
      expect(followedFlags(asViewer)).toEqual(
        direction === 'followers'
          ? { fan_a_user: false, fan_b_user: true }
          : { idol_b_user: false, idol_a_user: true },
      );
      // The owner's own follows matter only on the following list.
      const asOwner = await expectList(direction, owner.user.username, owner.as);
      expect(followedFlags(asOwner)).toEqual(
        direction === 'followers'
          ? { fan_a_user: false, fan_b_user: false }
          : { idol_b_user: true, idol_a_user: true },
      );
    });

    it('the caller listed is is_followed false', async () => {
      const owner = await member();
      const caller = await member();
      if (direction === 'followers') await seedFollow(caller.user, owner.user);
      else await seedFollow(owner.user, caller.user);
      const body = await expectList(direction, owner.user.username, caller.as);
      expect((body.list as Json[]).map((u) => [u.username, u.is_followed])).toEqual([
        [caller.user.username, false],
      ]);
    });

    it('is_followed is false for the caller themself, even with a self-follow row in the table', async () => {
      const owner = await member();
      const other = await buildUser(t.orm);
      // Not made through PUT /follow (follow:self), but a row the data may hold.
      await seedFollow(owner.user, owner.user, '2024-02-01T00:00:00Z');
      if (direction === 'followers') await seedFollow(other, owner.user, '2024-01-01T00:00:00Z');
      else await seedFollow(owner.user, other, '2024-01-01T00:00:00Z');
      const body = await expectList(direction, owner.user.username, owner.as);
      expect((body.list as Json[]).map((u) => [u.username, u.is_followed])).toEqual([
        [owner.user.username, false],
        [other.username, direction === 'following'],
      ]);
    });

    it('leaves deleted accounts out of the list and its total, counting as the stats do', async () => {
      const { owner } = await fixture();
      const body = await expectList(direction, owner.user.username, { size: 100 });
      expect(usernamesOf(body)).not.toContain('gone_user');
      expect((body.pagination as Json).total).toBe(2);
      const stats = await expectStats(owner.user.username);
      expect(stats[direction]).toBe(2);
    });

    it('lists banned and not activated accounts (only deleted ones are left out)', async () => {
      const owner = await member();
      const banned = await buildUser(t.orm, { banned: true });
      const inactive = await buildUser(t.orm, { role: 'not_activated' });
      for (const [i, other] of [banned, inactive].entries()) {
        const at = new Date(Date.UTC(2024, 0, 2 - i));
        if (direction === 'followers') await seedFollow(other, owner.user, at);
        else await seedFollow(owner.user, other, at);
      }
      const body = await expectList(direction, owner.user.username);
      expect(usernamesOf(body)).toEqual([banned.username, inactive.username]);
      expect((body.list as Json[]).map((u) => u.role)).toEqual(['user', 'not_activated']);
    });

    it('an empty list: total 0, pages 0', async () => {
      const { user } = await member();
      expect(await expectList(direction, user.username)).toEqual({
        pagination: { total: 0, pages: 0, page: 1 },
        list: [],
      });
    });

    it('finds the user ignoring case', async () => {
      const { owner } = await fixture();
      const exact = await expectList(direction, 'List_Owner');
      expect(exact.pagination).toEqual({ total: 2, pages: 1, page: 1 });
      expect(await expectList(direction, 'list_owner')).toEqual(exact);
      expect(await expectList(direction, owner.user.username.toUpperCase())).toEqual(exact);
    });
  });

  it('serves each User field exactly: image URLs, updated, active, role', async () => {
    const owner = await member();
    const full = await buildUser(t.orm, {
      username: 'Full_Fields',
      description: 'About me',
      cover: '/cover.jpg',
      avatar_path: 'avatars/a.png',
      role: 'moderator',
      created: new Date('2023-04-05T06:07:08.900Z'),
      lists_updated: new Date('2024-02-03T04:05:06.700Z'),
      last_active: new Date(),
    } as Partial<User>);
    const bare = await buildUser(t.orm, {
      username: 'Bare_Fields',
      created: new Date('2022-01-01T00:00:00Z'),
      last_active: new Date('2022-01-01T00:00:00Z'),
    } as Partial<User>);
    await seedFollow(full, owner.user, '2024-02-01T00:00:00Z');
    await seedFollow(bare, owner.user, '2024-01-01T00:00:00Z');
    await seedFollow(owner.user, full);
    const body = await expectList('followers', owner.user.username, owner.as);
    expect(body.list).toEqual([
      {
        reference: full.reference,
        created: seconds('2023-04-05T06:07:08Z'),
        updated: seconds('2024-02-03T04:05:06Z'),
        description: 'About me',
        username: 'Full_Fields',
        avatar: 'https://cdn.test/avatars/a.png',
        cover: 'https://cdn.test/cover.jpg',
        active: true,
        role: 'moderator',
        is_followed: true,
      },
      {
        reference: bare.reference,
        created: seconds('2022-01-01T00:00:00Z'),
        updated: null,
        description: null,
        username: 'Bare_Fields',
        avatar: 'https://cdn.test/avatar.jpg',
        cover: null,
        active: false,
        role: 'user',
        is_followed: false,
      },
    ]);
  });

  describe('order and paging', () => {
    /**
     * Five followers of the owner (and five users the owner follows): follow created
     * desc, ties by the follow's reference, which runs opposite to the users' references.
     */
    async function ordered() {
      const { user: owner } = await member({ username: 'Ordered_Owner' });
      const users: User[] = [];
      for (let n = 1; n <= 5; n += 1) {
        users.push(
          await buildUser(t.orm, { username: `ordered_${n}`, reference: orderedReference(100 - n) }),
        );
      }
      const at = (day: number) => new Date(Date.UTC(2024, 0, day, 12, 0, 0, 500));
      const plan: [number, number][] = [
        [2, 3],
        [2, 1],
        [1, 5],
        [3, 4],
        [2, 2],
      ];
      for (const [i, [day, ref]] of plan.entries()) {
        await seedFollow(users[i], owner, at(day), orderedReference(ref));
        await seedFollow(owner, users[i], at(day), orderedReference(ref + 10));
      }
      return owner;
    }
    const EXPECTED = ['ordered_4', 'ordered_2', 'ordered_5', 'ordered_1', 'ordered_3'];

    it.each(DIRECTIONS)('%s: follow created desc, then follow reference asc', async (direction) => {
      const owner = await ordered();
      expect(usernamesOf(await expectList(direction, owner.username, { size: 20 }))).toEqual(EXPECTED);
    });

    it.each(DIRECTIONS)(
      '%s: pages exactly; a page past the end is empty with the true total',
      async (direction) => {
        const owner = await ordered();
        const seen: string[] = [];
        for (const page of [1, 2, 3]) {
          const body = await expectList(direction, owner.username, { page, size: 2 });
          expect(body.pagination).toEqual({ total: 5, pages: 3, page });
          seen.push(...usernamesOf(body));
        }
        expect(seen).toEqual(EXPECTED);
        expect(await expectList(direction, owner.username, { page: 4, size: 2 })).toEqual({
          pagination: { total: 5, pages: 3, page: 4 },
          list: [],
        });
        expect(await expectList(direction, owner.username, { page: 10000, size: 100 })).toEqual({
          pagination: { total: 5, pages: 1, page: 10000 },
          list: [],
        });
      },
    );

    it('serves 15 users by default, and up to 100', async () => {
      const { user: owner } = await member();
      for (let i = 0; i < 16; i += 1) {
        await seedFollow(await buildUser(t.orm), owner, new Date(Date.UTC(2024, 0, 1, 0, i)));
      }
      const first = await listCall('followers', owner.username);
      expect(first.status).toBe(200);
      expect(first.body.list).toHaveLength(15);
      expect(first.body.pagination).toEqual({ total: 16, pages: 2, page: 1 });
      const all = await expectList('followers', owner.username, { size: 100 });
      expect(all.list).toHaveLength(16);
      expect(all.pagination).toEqual({ total: 16, pages: 1, page: 1 });
    });

    it.each(INVALID_PAGING_QUERIES)('query %s → 400 Invalid field %s in request query', async (qs, field) => {
      const { user } = await member();
      for (const direction of DIRECTIONS) {
        const res = await rest(t.app, 'GET', `/follow/${user.username}/${direction}?${qs}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          code: 'system:validation_error',
          message: `Invalid field ${field} in request query`,
        });
      }
    });

    it('GraphQL page 0 and size 101 are 400 on both documents', async () => {
      const { user } = await member();
      for (const direction of DIRECTIONS) {
        for (const document of [listRoutes[direction].document, listTwins[direction]]) {
          for (const [paging, field] of [
            [{ page: 0 }, 'page'],
            [{ size: 101 }, 'size'],
          ] as const) {
            const res = await listGql(direction, user.username, paging, document);
            expect(res.status).toBe(400);
            expect(res.body.errors[0].message).toBe(`Invalid field ${field} in request query`);
          }
        }
      }
    });
  });

  describe('request', () => {
    it('refuses a username holding U+0000: 400 Invalid field username in request path, before paging', async () => {
      for (const direction of DIRECTIONS) {
        const res = await listCall(direction, 'a%00b', { page: 0 });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: ERRORS.badUsername.code, message: ERRORS.badUsername.message });
        for (const document of [listRoutes[direction].document, listTwins[direction]]) {
          const graph = await listGql(direction, 'a\u0000b', {}, document);
          expect(graph.status).toBe(400);
          expect(graph.body.errors[0].extensions.code).toBe('system:validation_error');
        }
      }
    });

    it('validates paging before the user look-up', async () => {
      const res = await listCall('following', 'nobody_here', { size: 0 });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Invalid field size in request query');
    });

    it.each(DIRECTIONS)(
      '%s: unknown user 404 user:not_found; deleted user 400 user:deleted; both languages, every door',
      async (direction) => {
        const gone = await buildUser(t.orm, { role: 'deleted' });
        await seedFollow(await buildUser(t.orm), gone);
        await seedFollow(gone, await buildUser(t.orm));
        for (const language of ['en', 'uk']) {
          const uk = language === 'uk';
          await expectListFailure(
            direction,
            'nobody_here',
            { language },
            { ...ERRORS.userNotFound, message: uk ? 'Користувача не знайдено' : 'User not found' },
          );
          await expectListFailure(
            direction,
            gone.username.toUpperCase(),
            { language },
            { ...ERRORS.userDeleted, message: uk ? 'Видалено...' : 'Deleted' },
          );
        }
      },
    );
  });

  describe('optional authentication and scope read:follow', () => {
    it.each(DIRECTIONS)(
      '%s: missing, bad and expired tokens, and banned accounts, are served as anonymous',
      async (direction) => {
        const { owner, viewer, fanA, idolA } = await fixture();
        const anonymous = await expectList(direction, owner.user.username);
        const expired = await buildToken(t.orm, viewer.user, { expiration: new Date(Date.now() - 1000) });
        const banned = await member({ banned: true });
        // A banned caller's own follows are not shown: it is served as anonymous.
        await seedFollow(banned.user, direction === 'followers' ? fanA : idolA);
        for (const options of [
          { token: 'not-a-token' },
          { token: 'x'.repeat(64) },
          { token: expired },
          banned.as,
        ]) {
          expect(await expectList(direction, owner.user.username, options)).toEqual(anonymous);
        }
      },
    );

    it.each(DIRECTIONS)(
      "%s: a deleted user's token is 400 user:deleted, even before the user look-up",
      async (direction) => {
        const { owner } = await fixture();
        const gone = await member({ role: 'deleted' });
        await expectListFailure(direction, owner.user.username, gone.as, ERRORS.userDeleted);
        await expectListFailure(direction, 'nobody_here', gone.as, ERRORS.userDeleted);
      },
    );

    it.each(DIRECTIONS)(
      '%s: an expired third-party token without the scope is served as anonymous, not refused',
      async (direction) => {
        const { owner, viewer } = await fixture();
        const anonymous = await expectList(direction, owner.user.username);
        const client = await buildClient(t.orm, await buildUser(t.orm));
        const token = await buildToken(t.orm, viewer.user, {
          client,
          scope: ['read:watchlist'],
          expiration: new Date(Date.now() - 1000),
        });
        expect(await expectList(direction, owner.user.username, { token })).toEqual(anonymous);
      },
    );

    it.each(DIRECTIONS)(
      '%s: a third-party token needs read:follow (or the group follow-full); read:user-details is not enough',
      async (direction) => {
        const { owner, viewer } = await fixture();
        const without = await thirdParty(viewer.user, [
          'read:user-details',
          'follow',
          'unfollow',
          'watchlist',
        ]);
        await expectListFailure(direction, owner.user.username, without, ERRORS.denied);
        const firstParty = await expectList(direction, owner.user.username, viewer.as);
        for (const scope of [['read:follow'], ['follow-full'], ['all']]) {
          expect(
            await expectList(direction, owner.user.username, await thirdParty(viewer.user, scope)),
          ).toEqual(firstParty);
        }
      },
    );

    it.each(DIRECTIONS)(
      '%s: the user look-up comes before the scope: unknown 404, deleted 400 with a scopeless token',
      async (direction) => {
        const { user } = await member();
        const without = await thirdParty(user, ['read:watchlist']);
        await expectListFailure(direction, 'nobody_here', without, ERRORS.userNotFound);
        const gone = await buildUser(t.orm, { role: 'deleted' });
        await expectListFailure(direction, gone.username, without, ERRORS.userDeleted);
      },
    );

    it('the scope is refused in Ukrainian too', async () => {
      const { owner, viewer } = await fixture();
      const without = await thirdParty(viewer.user, ['read:watchlist']);
      const res = await listCall('followers', owner.user.username, { ...without, language: 'uk' });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('permission:denied');
      expect(res.body.message).not.toBe(ERRORS.denied.message);
      const graph = await listGql('followers', owner.user.username, { ...without, language: 'uk' });
      expect(graphError(graph.body)).toEqual({
        status: 403,
        code: 'permission:denied',
        message: res.body.message,
      });
    });

    it('the auth cookie works as the header does', async () => {
      const { owner, viewer } = await fixture();
      const viaHeader = await expectList('following', owner.user.username, viewer.as);
      const viaCookie = await listCall('following', owner.user.username, { cookie: viewer.as.token });
      expect(viaCookie.status).toBe(200);
      expect(viaCookie.body).toEqual(viaHeader);
      expect(followedFlags(viaCookie.body as Json)).toEqual({ idol_b_user: false, idol_a_user: true });
    });
  });

  describe('bounded SQL', () => {
    it.each(DIRECTIONS)(
      '%s: as many statements for 20 users as for 1, on REST, compiled and executed GraphQL',
      async (direction) => {
        const { user: owner } = await member();
        const viewer = await member();
        const addUser = async (i: number) => {
          const other = await buildUser(t.orm);
          const at = new Date(Date.UTC(2024, 0, 1, 0, i));
          if (direction === 'followers') await seedFollow(other, owner, at);
          else await seedFollow(owner, other, at);
          // The viewer follows every other listed user: is_followed varies.
          if (i % 2 === 0) await seedFollow(viewer.user, other);
        };
        await addUser(0);
        await listCall(direction, owner.username, viewer.as); // the token's first use slides it

        const count = async (expected: number) => {
          const counts: number[] = [];
          for (const options of [{}, viewer.as]) {
            counts.push(
              await t.queries.count(async () => {
                const res = await listCall(direction, owner.username, { ...options, size: 20 });
                expect(res.status).toBe(200);
                expect(res.body.list).toHaveLength(expected);
              }),
            );
            for (const document of [listRoutes[direction].document, listTwins[direction]]) {
              counts.push(
                await t.queries.count(async () => {
                  const res = await listGql(direction, owner.username, { ...options, size: 20 }, document);
                  expect(res.body.errors).toBeUndefined();
                  expect(res.body.data[direction].list).toHaveLength(expected);
                }),
              );
            }
          }
          return counts;
        };
        const one = await count(1);
        for (let i = 1; i < 20; i += 1) await addUser(i);
        const twenty = await count(20);
        expect(twenty).toEqual(one);
        // Anonymous REST and the route's document over /graphql are one compiled statement each.
        expect(one.slice(0, 2)).toEqual([1, 1]);
      },
    );
  });
});
