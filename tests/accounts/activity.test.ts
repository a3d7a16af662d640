import { AuthToken } from '../../src/accounts/auth-token.entity';
import { User } from '../../src/accounts/user.entity';
import { ACTION_TYPES } from '../../src/common/enums';
import { restRoutes } from '../../src/routes';
import { buildAnime, buildToken, buildUser } from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { keysOf, shapeProblems, type Shape } from '../setup/contract-shapes';
import { fixDate } from '../setup/fixed-date';
import { startTestApp, type TestApp, useTestApp } from '../setup/harness';
import { tokensToIgnore } from '../setup/ignored-tokens';
import { type Json, seconds, sortedKeys } from '../setup/json';
import { executedTwin } from '../setup/list-route';

/**
 * GET /user/{username}/activity (`userActivity`, pages.md "User profile"): a user's
 * counted actions per UTC day over the 365 days that end today, oldest first, or [] when
 * that window holds none. Auth none; user look-up (semantics §1.8).
 */
const t = useTestApp();

const route = restRoutes.find((r) => r.method === 'GET' && r.path === '/user/{username}/activity')!;
const twinDocument = executedTwin(route.document);

const ACTIVITY_DAY: Shape = { timestamp: 'integer', actions: 'integer' };

/** Types that count every time (pages.md). */
const COUNTED = [
  'comment_write',
  'watch_create',
  'watch_update',
  'read_create',
  'read_update',
  'collection_create',
  'article_create',
] as const;
/** Types that count once per distinct target a day. */
const ONCE_PER_TARGET = ['follow', 'favourite_add'] as const;
/** Every other action type: never counted. */
const UNCOUNTED = ACTION_TYPES.filter(
  (type) =>
    !(COUNTED as readonly string[]).includes(type) && !(ONCE_PER_TARGET as readonly string[]).includes(type),
);

const DAY = 24 * 60 * 60;
/** The request's clock: a leap year's window (it holds 2024-02-29). */
const NOW = new Date('2024-03-10T15:30:00.250Z');
const TODAY = seconds('2024-03-10T00:00:00Z');
/** The window's first day: 364 days before today. */
const FIRST = TODAY - 364 * DAY;

beforeEach(() => fixDate(NOW));
afterEach(() => jest.useRealTimers());

const ERRORS = {
  notFound: { status: 404, code: 'user:not_found', message: 'User not found' },
  notFoundUk: { status: 404, code: 'user:not_found', message: 'Користувача не знайдено' },
  deleted: { status: 400, code: 'user:deleted', message: 'Deleted' },
  deletedUk: { status: 400, code: 'user:deleted', message: 'Видалено...' },
  badUsername: {
    status: 400,
    code: 'system:validation_error',
    message: 'Invalid field username in request path',
  },
} as const;
type Expected = { status: number; code: string; message: string };

// ---------------------------------------------------------------------------
// Data.

const sql = <T = Json>(text: string, params: unknown[] = []): Promise<T[]> =>
  t.orm.em.getConnection().execute<T[]>(text, params);

/** An action record written directly: `at` is an ISO instant (any offset) or a Date. */
async function record(
  user: User,
  type: string,
  at: string | Date,
  target: string | null = null,
): Promise<void> {
  await sql(
    `insert into action_record (type, user_reference, target, created) values (?, ?, ?, ?::timestamptz)`,
    [type, user.reference, target, typeof at === 'string' ? at : at.toISOString()],
  );
}

/** `times` records of `type` at `at`. */
async function records(user: User, type: string, at: string, times: number, target: string | null = null) {
  for (let i = 0; i < times; i += 1) await record(user, type, at, target);
}

const dayOf = (isoDate: string): number => seconds(`${isoDate}T00:00:00Z`);

/** The full answer expected for a window ending on `today` (seconds) with `counts` by day (YYYY-MM-DD). */
function windowWith(counts: Record<string, number>, today = TODAY): { timestamp: number; actions: number }[] {
  const byDay = new Map(Object.entries(counts).map(([day, n]) => [dayOf(day), n]));
  const days = [];
  for (let timestamp = today - 364 * DAY; timestamp <= today; timestamp += DAY) {
    days.push({ timestamp, actions: byDay.get(timestamp) ?? 0 });
    byDay.delete(timestamp);
  }
  // A day outside the window is a mistake of the test itself.
  expect([...byDay.keys()]).toEqual([]);
  return days;
}

/** The days of an answer that have actions, as {YYYY-MM-DD: n}. */
const busyDays = (body: unknown): Record<string, number> =>
  Object.fromEntries(
    (body as { timestamp: number; actions: number }[])
      .filter((day) => day.actions !== 0)
      .map((day) => [new Date(day.timestamp * 1000).toISOString().slice(0, 10), day.actions]),
  );

// ---------------------------------------------------------------------------
// Calls.

const activity = (username: string, options: CallOptions = {}) =>
  rest(t.app, 'GET', `/user/${username}/activity`, undefined, options);

const activityGql = (username: string, options: CallOptions = {}, document = route.document) =>
  gql(t.app, document, { username }, options);

/** REST, the compiled document and its executed twin: one 200 answer, identical JSON; returns it. */
async function expectActivity(username: string, options: CallOptions = {}): Promise<Json[]> {
  const viaRest = await activity(username, options);
  const compiled = await activityGql(username, options);
  const executed = await activityGql(username, options, twinDocument);
  expect(viaRest.status).toBe(200);
  expect(Array.isArray(viaRest.body)).toBe(true);
  expect(compiled.status).toBe(200);
  expect(compiled.body.errors).toBeUndefined();
  expect(executed.body.errors).toBeUndefined();
  expect(compiled.body.data).toEqual({ userActivity: viaRest.body });
  expect(executed.body.data).toEqual({ __typename: 'Query', userActivity: viaRest.body });
  // Key order is part of the JSON.
  expect(JSON.stringify(compiled.body.data.userActivity)).toBe(JSON.stringify(viaRest.body));
  expect(JSON.stringify(executed.body.data.userActivity)).toBe(JSON.stringify(viaRest.body));
  return viaRest.body as Json[];
}

/** The same error on REST and on both GraphQL documents. */
async function expectFailure(username: string, options: CallOptions, expected: Expected): Promise<void> {
  const viaRest = await activity(username, options);
  expect({ status: viaRest.status, body: viaRest.body }).toEqual({
    status: expected.status,
    body: { code: expected.code, message: expected.message },
  });
  for (const [name, document] of [
    ['/graphql route document', route.document],
    ['/graphql executed twin', twinDocument],
  ] as const) {
    const viaGql = await activityGql(username, options, document);
    const errors = viaGql.body.errors as Json[];
    expect({ name, count: errors?.length, data: viaGql.body.data ?? null }).toEqual({
      name,
      count: 1,
      data: null,
    });
    expect({ name, error: errors[0] }).toMatchObject({
      name,
      error: {
        message: expected.message,
        path: ['userActivity'],
        extensions: { code: expected.code, http: { status: expected.status } },
      },
    });
  }
}

async function member(o: Partial<User> = {}): Promise<{ user: User; as: CallOptions }> {
  const user = await buildUser(t.orm, o);
  return { user, as: { token: await buildToken(t.orm, user) } };
}

// ---------------------------------------------------------------------------

describe('GET /user/{username}/activity', () => {
  describe('the window', () => {
    it('answers 365 UTC days ending today, oldest first, each exactly {timestamp, actions} at 00:00 UTC', async () => {
      const { user } = await member();
      await record(user, 'watch_create', NOW);

      const body = await expectActivity(user.username);

      expect(body).toHaveLength(365);
      expect(body[0]).toEqual({ timestamp: FIRST, actions: 0 });
      expect(body[364]).toEqual({ timestamp: TODAY, actions: 1 });
      expect(FIRST).toBe(seconds('2023-03-12T00:00:00Z'));
      body.forEach((day, i) => {
        expect(sortedKeys(day)).toEqual(keysOf(ACTIVITY_DAY));
        expect(shapeProblems(day, ACTIVITY_DAY, `[${i}]`)).toEqual([]);
        expect(day.timestamp).toBe(FIRST + i * DAY);
        expect((day.timestamp as number) % DAY).toBe(0);
      });
      // The leap day is one of the days.
      expect(body.map((day) => day.timestamp)).toContain(dayOf('2024-02-29'));
      expect(body).toEqual(windowWith({ '2024-03-10': 1 }));
    });

    it('answers [] for a user without any action', async () => {
      const { user } = await member();
      const other = await member();
      await records(other.user, 'comment_write', '2024-03-10T01:00:00Z', 3);

      expect(await expectActivity(user.username)).toEqual([]);
      expect(busyDays(await expectActivity(other.user.username))).toEqual({ '2024-03-10': 3 });
    });

    it('answers [] when the window holds only actions of types that are not counted', async () => {
      const { user } = await member();
      expect(UNCOUNTED).toEqual(
        expect.arrayContaining([
          'login',
          'signup',
          'vote_set',
          'watch_delete',
          'favourite_remove',
          'comment_edit',
        ]),
      );
      for (const [i, type] of UNCOUNTED.entries()) {
        await records(user, type, `2024-03-0${(i % 9) + 1}T12:00:00Z`, 2, 'target-1');
      }
      expect(await expectActivity(user.username)).toEqual([]);
    });

    it('answers [] when the only counted actions are older than the window or after today', async () => {
      const { user } = await member();
      // Day 366 (the day before the first one) and older.
      await record(user, 'comment_write', '2023-03-11T23:59:59.999Z');
      await record(user, 'watch_create', '2023-03-11T00:00:00Z');
      await record(user, 'follow', '2022-03-10T12:00:00Z', 'someone');
      // Tomorrow.
      await record(user, 'read_create', '2024-03-11T00:00:00Z');
      expect(await expectActivity(user.username)).toEqual([]);

      // Whatever the window holds then shows alone.
      await record(user, 'collection_create', '2023-03-12T00:00:00Z');
      expect(await expectActivity(user.username)).toEqual(windowWith({ '2023-03-12': 1 }));
    });

    it('includes the first day from its 00:00:00.000 UTC and today up to its last instant', async () => {
      const { user } = await member();
      await record(user, 'comment_write', '2023-03-11T23:59:59.999Z'); // day 366: out
      await record(user, 'comment_write', '2023-03-12T00:00:00.000Z'); // first day
      await record(user, 'article_create', '2023-03-12T23:59:59.999Z'); // first day
      await record(user, 'watch_update', '2024-03-10T00:00:00.000Z'); // today
      await record(user, 'read_update', '2024-03-10T23:59:59.999Z'); // today, later than now
      await record(user, 'read_update', '2024-03-11T00:00:00.000Z'); // tomorrow: out

      const body = await expectActivity(user.username);

      expect(body).toEqual(windowWith({ '2023-03-12': 2, '2024-03-10': 2 }));
    });

    it('splits days at 00:00 UTC: 23:59:59Z and 00:00:00Z of the next day fall on different days', async () => {
      const { user } = await member();
      await record(user, 'comment_write', '2024-02-28T23:59:59Z');
      await record(user, 'comment_write', '2024-02-29T00:00:00Z');
      await record(user, 'comment_write', '2024-02-29T23:59:59.999Z');
      await record(user, 'comment_write', '2024-03-01T00:00:00Z');
      await record(user, 'comment_write', '2023-12-31T23:59:59Z');
      await record(user, 'comment_write', '2024-01-01T00:00:00Z');

      expect(busyDays(await expectActivity(user.username))).toEqual({
        '2023-12-31': 1,
        '2024-01-01': 1,
        '2024-02-28': 1,
        '2024-02-29': 2,
        '2024-03-01': 1,
      });
    });

    it('uses the UTC day of the instant, not the day of the offset it was written with', async () => {
      const { user } = await member();
      // 2024-03-05T22:30Z: still the 5th in UTC although the 6th in Kyiv.
      await record(user, 'watch_create', '2024-03-06T00:30:00+02:00');
      // 2024-03-07T03:00Z: the 7th in UTC although the 6th in New York.
      await record(user, 'watch_create', '2024-03-06T22:00:00-05:00');
      // 2023-03-12T00:00Z: the window's first day although the 11th in Los Angeles.
      await record(user, 'read_create', '2023-03-11T16:00:00-08:00');
      // 2023-03-11T23:00Z: out although the 12th in Tokyo.
      await record(user, 'read_create', '2023-03-12T08:00:00+09:00');

      expect(busyDays(await expectActivity(user.username))).toEqual({
        '2023-03-12': 1,
        '2024-03-05': 1,
        '2024-03-07': 1,
      });
    });

    it('counts only the user’s own actions', async () => {
      const { user } = await member();
      const other = await member();
      await records(user, 'watch_create', '2024-03-01T10:00:00Z', 2);
      await records(other.user, 'watch_create', '2024-03-01T10:00:00Z', 5);
      await records(other.user, 'follow', '2024-03-01T10:00:00Z', 1, user.reference);
      await records(other.user, 'comment_write', '2024-03-02T10:00:00Z', 4);

      expect(busyDays(await expectActivity(user.username))).toEqual({ '2024-03-01': 2 });
      expect(busyDays(await expectActivity(other.user.username))).toEqual({
        '2024-03-01': 6,
        '2024-03-02': 4,
      });
    });
  });

  describe('what counts', () => {
    it.each(COUNTED)('%s counts every record, whatever its target', async (type) => {
      const { user } = await member();
      await records(user, type, '2024-03-08T09:00:00Z', 3, 'same-target');
      await records(user, type, '2024-03-08T21:00:00Z', 1, null);
      await records(user, type, '2024-01-15T00:00:01Z', 2, 'other-target');

      expect(busyDays(await expectActivity(user.username))).toEqual({ '2024-01-15': 2, '2024-03-08': 4 });
    });

    it.each(ONCE_PER_TARGET)('%s counts once per distinct target a day', async (type) => {
      const { user } = await member();
      // One day: target a three times, b once.
      await records(user, type, '2024-03-08T00:00:00Z', 2, 'target-a');
      await records(user, type, '2024-03-08T23:59:59Z', 1, 'target-a');
      await records(user, type, '2024-03-08T12:00:00Z', 1, 'target-b');
      // The next day the same target counts again, once.
      await records(user, type, '2024-03-09T00:00:00Z', 2, 'target-a');
      // A lone record on another day.
      await records(user, type, '2023-06-01T06:00:00Z', 1, 'target-c');

      expect(busyDays(await expectActivity(user.username))).toEqual({
        '2023-06-01': 1,
        '2024-03-08': 2,
        '2024-03-09': 1,
      });
    });

    it.each(UNCOUNTED)('%s never counts, not even beside counted actions', async (type) => {
      const { user } = await member();
      await record(user, 'comment_write', '2024-03-03T10:00:00Z');
      await records(user, type, '2024-03-03T11:00:00Z', 3, 'target-a');
      await records(user, type, '2024-03-04T11:00:00Z', 2, 'target-b');

      expect(busyDays(await expectActivity(user.username))).toEqual({ '2024-03-03': 1 });
    });

    it('adds every kind on a day: each-time types, distinct follows and distinct favourites', async () => {
      const { user } = await member();
      const at = '2024-03-10T08:00:00Z';
      for (const type of COUNTED) await records(user, type, at, 2, 'same');
      // 3 followed users (one of them 3 times) and 2 favourites (one of them twice).
      await records(user, 'follow', at, 3, 'user-a');
      await records(user, 'follow', at, 1, 'user-b');
      await records(user, 'follow', at, 1, 'user-c');
      await records(user, 'favourite_add', at, 2, 'anime-a');
      await records(user, 'favourite_add', at, 1, 'anime-b');
      for (const type of UNCOUNTED) await records(user, type, at, 1, 'same');

      const body = await expectActivity(user.username);

      expect(body).toEqual(windowWith({ '2024-03-10': COUNTED.length * 2 + 3 + 2 }));
    });

    it('fills every day of a year of daily actions', async () => {
      const { user } = await member();
      await sql(
        `insert into action_record (type, user_reference, target, created)
         select 'watch_update', ?, null, d + (n || ' hours')::interval
           from generate_series('2023-03-12T00:00:00Z'::timestamptz, '2024-03-10T00:00:00Z', interval '1 day') d,
                generate_series(0, 1) n`,
        [user.reference],
      );
      const body = await expectActivity(user.username);
      expect(body).toHaveLength(365);
      expect(body.every((day) => day.actions === 2)).toBe(true);
      expect(body[0].timestamp).toBe(FIRST);
      expect(body[364].timestamp).toBe(TODAY);
    });
  });

  describe('today follows the request’s clock', () => {
    it('at 00:00:00.000 UTC today has begun; a millisecond earlier it is the day before', async () => {
      const { user } = await member();
      await record(user, 'comment_write', '2024-03-09T23:59:59.999Z');
      await record(user, 'comment_write', '2024-03-10T00:00:00.000Z');
      await record(user, 'comment_write', '2023-03-11T12:00:00Z'); // first day of the earlier window only

      jest.setSystemTime(new Date('2024-03-10T00:00:00.000Z'));
      expect(await expectActivity(user.username)).toEqual(windowWith({ '2024-03-09': 1, '2024-03-10': 1 }));

      jest.setSystemTime(new Date('2024-03-09T23:59:59.999Z'));
      const earlier = await expectActivity(user.username);
      expect(earlier).toHaveLength(365);
      expect(earlier[0].timestamp).toBe(dayOf('2023-03-11'));
      expect(earlier[364].timestamp).toBe(dayOf('2024-03-09'));
      expect(earlier).toEqual(windowWith({ '2023-03-11': 1, '2024-03-09': 1 }, dayOf('2024-03-09')));
    });

    it('slides: an action leaves the window after 365 days, and [] remains when it was the only one', async () => {
      const { user } = await member();
      await record(user, 'read_create', '2023-03-12T18:00:00Z');

      jest.setSystemTime(new Date('2024-03-10T23:59:59.999Z'));
      expect(await expectActivity(user.username)).toEqual(windowWith({ '2023-03-12': 1 }));
      jest.setSystemTime(new Date('2024-03-11T00:00:00.000Z'));
      expect(await expectActivity(user.username)).toEqual([]);
    });
  });

  describe('in database sessions whose time zone is not UTC', () => {
    // The database's default time zone applies to the sessions of an app started after it
    // is set: Kiritimati is UTC+14, so its calendar day differs from UTC's for 14 hours.
    let zoned: TestApp;
    let database: string;
    beforeAll(async () => {
      [{ database }] = await t.orm.em
        .getConnection()
        .execute<{ database: string }[]>(`select current_database() as database`);
      await t.orm.em
        .getConnection()
        .execute(`alter database "${database}" set timezone to 'Pacific/Kiritimati'`);
      zoned = await startTestApp();
    });
    afterAll(async () => {
      await zoned.close();
      await t.orm.em.getConnection().execute(`alter database "${database}" reset timezone`);
    });

    const zonedActivity = async (username: string): Promise<Json[]> => {
      const viaRest = await rest(zoned.app, 'GET', `/user/${username}/activity`);
      expect(viaRest.status).toBe(200);
      for (const document of [route.document, twinDocument]) {
        const viaGql = await gql(zoned.app, document, { username });
        expect(viaGql.body.errors).toBeUndefined();
        expect(JSON.stringify(viaGql.body.data.userActivity)).toBe(JSON.stringify(viaRest.body));
      }
      return viaRest.body as Json[];
    };

    it('keeps UTC days and the UTC window: the same answer as in a UTC session', async () => {
      const [{ zone }] = await zoned.orm.em
        .getConnection()
        .execute<{ zone: string }[]>(`select current_setting('TimeZone') as zone`);
      expect(zone).toBe('Pacific/Kiritimati');
      const { user } = await member();
      await record(user, 'comment_write', '2023-03-11T23:59:59.999Z'); // day 366: out
      await record(user, 'comment_write', '2023-03-12T00:00:00Z'); // first day
      await record(user, 'comment_write', '2024-02-29T10:00:00Z'); // the 1st of March in Kiritimati
      await record(user, 'comment_write', '2024-02-29T09:59:59Z'); // the 29th there too
      await record(user, 'follow', '2024-03-09T09:00:00Z', 'user-a');
      await record(user, 'follow', '2024-03-09T11:00:00Z', 'user-a'); // another day in Kiritimati only
      await record(user, 'watch_create', '2024-03-10T15:00:00Z'); // today in UTC, tomorrow there
      await record(user, 'watch_create', '2024-03-11T00:00:00Z'); // tomorrow: out

      const body = await zonedActivity(user.username);

      expect(body).toEqual(
        windowWith({ '2023-03-12': 1, '2024-02-29': 2, '2024-03-09': 1, '2024-03-10': 1 }),
      );
      expect(body).toEqual(await expectActivity(user.username));
    });

    it('at 11:00 UTC, already the next day in Kiritimati, today is still the UTC day', async () => {
      jest.setSystemTime(new Date('2024-03-10T11:00:00Z'));
      const { user } = await member();
      await record(user, 'read_update', '2024-03-10T10:59:00Z');
      const body = await zonedActivity(user.username);
      expect(body[364]).toEqual({ timestamp: TODAY, actions: 1 });
      expect(body[0].timestamp).toBe(FIRST);
    });
  });

  describe('actions the service records', () => {
    it('PUT /watch/{slug} counts today at once: create, then update; the delete does not count', async () => {
      const { user, as } = await member();
      await buildAnime(t.orm, { slug: 'frieren', episodes_total: 28 });

      expect((await rest(t.app, 'PUT', '/watch/frieren', { status: 'watching' }, as)).status).toBe(200);
      expect(await expectActivity(user.username)).toEqual(windowWith({ '2024-03-10': 1 }));

      expect((await rest(t.app, 'PUT', '/watch/frieren', { status: 'completed', score: 9 }, as)).status).toBe(
        200,
      );
      expect((await rest(t.app, 'DELETE', '/watch/frieren', undefined, as)).status).toBe(200);
      const types = await sql<{ type: string }>(
        `select type from action_record where user_reference = ? order by id`,
        [user.reference],
      );
      expect(types.map((row) => row.type)).toEqual(['watch_create', 'watch_update', 'watch_delete']);
      expect(await expectActivity(user.username)).toEqual(windowWith({ '2024-03-10': 2 }));
    });

    it('PUT /favourite/anime/{slug} again after DELETE counts the target once a day', async () => {
      const { user, as } = await member();
      const anime = await buildAnime(t.orm, { slug: 'mushishi' });
      const second = await buildAnime(t.orm, { slug: 'mononoke' });

      expect((await rest(t.app, 'PUT', '/favourite/anime/mushishi', undefined, as)).status).toBe(200);
      expect((await rest(t.app, 'DELETE', '/favourite/anime/mushishi', undefined, as)).status).toBe(200);
      expect((await rest(t.app, 'PUT', '/favourite/anime/mushishi', undefined, as)).status).toBe(200);
      const recorded = await sql<{ type: string; target: string }>(
        `select type, target from action_record where user_reference = ? order by id`,
        [user.reference],
      );
      expect(recorded).toEqual([
        { type: 'favourite_add', target: anime.reference },
        { type: 'favourite_remove', target: anime.reference },
        { type: 'favourite_add', target: anime.reference },
      ]);
      expect(await expectActivity(user.username)).toEqual(windowWith({ '2024-03-10': 1 }));

      // Another target is one more; the next day the first target counts again.
      expect((await rest(t.app, 'PUT', '/favourite/anime/mononoke', undefined, as)).status).toBe(200);
      expect(second.slug).toBe('mononoke');
      expect(await expectActivity(user.username)).toEqual(windowWith({ '2024-03-10': 2 }));
      jest.setSystemTime(new Date('2024-03-11T09:00:00Z'));
      expect((await rest(t.app, 'DELETE', '/favourite/anime/mushishi', undefined, as)).status).toBe(200);
      expect((await rest(t.app, 'PUT', '/favourite/anime/mushishi', undefined, as)).status).toBe(200);
      expect(busyDays(await expectActivity(user.username))).toEqual({ '2024-03-10': 2, '2024-03-11': 1 });
    });

    it('PUT /follow/{username} again after DELETE counts the followed user once a day', async () => {
      const { user, as } = await member();
      const followed = await member();

      for (const method of ['PUT', 'DELETE', 'PUT'] as const) {
        expect((await rest(t.app, method, `/follow/${followed.user.username}`, undefined, as)).status).toBe(
          200,
        );
      }
      const recorded = await sql<{ type: string; target: string }>(
        `select type, target from action_record where user_reference = ? and type = 'follow' order by id`,
        [user.reference],
      );
      expect(recorded).toEqual([
        { type: 'follow', target: followed.user.reference },
        { type: 'follow', target: followed.user.reference },
      ]);
      expect(await expectActivity(user.username)).toEqual(windowWith({ '2024-03-10': 1 }));
      // Being followed is not the followed user's action.
      expect(await expectActivity(followed.user.username)).toEqual([]);
    });
  });

  describe('user look-up', () => {
    it('ignores the case of the username', async () => {
      const { user } = await member({ username: 'Mixed_Case_User' });
      await record(user, 'comment_write', '2024-03-01T00:00:00Z');
      const exact = await expectActivity('Mixed_Case_User');
      expect(busyDays(exact)).toEqual({ '2024-03-01': 1 });
      expect(await expectActivity('mixed_case_user')).toEqual(exact);
      expect(await expectActivity('MIXED_CASE_USER')).toEqual(exact);
    });

    it('answers 404 user:not_found for an unknown username, in both languages, on every door', async () => {
      await member({ username: 'someone_else' });
      await expectFailure('nobody_here', {}, ERRORS.notFound);
      await expectFailure('nobody_here', { language: 'uk' }, ERRORS.notFoundUk);
      // A username is matched whole, not as a prefix or a pattern.
      await expectFailure('someone', {}, ERRORS.notFound);
      await expectFailure('someone_els_', {}, ERRORS.notFound);
    });

    it('answers 400 user:deleted for a deleted account, even with counted actions, in both languages', async () => {
      const { user } = await member({ role: 'deleted', username: 'Gone_User' });
      await record(user, 'comment_write', '2024-03-01T00:00:00Z');
      await expectFailure('Gone_User', {}, ERRORS.deleted);
      await expectFailure('gone_user', { language: 'uk' }, ERRORS.deletedUk);
    });

    it('serves banned and not yet activated accounts', async () => {
      const banned = await member({ banned: true });
      const inactive = await member({ role: 'not_activated', email_confirmed: false });
      for (const { user } of [banned, inactive]) {
        await record(user, 'comment_write', '2024-03-02T00:00:00Z');
        expect(busyDays(await expectActivity(user.username))).toEqual({ '2024-03-02': 1 });
      }
    });

    it('refuses a username with U+0000 as a validation error of the path, on REST and GraphQL', async () => {
      const res = await activity('a%00b');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: ERRORS.badUsername.code, message: ERRORS.badUsername.message });
      for (const document of [route.document, twinDocument]) {
        const viaGql = await activityGql('a\u0000b', {}, document);
        expect(viaGql.status).toBe(400);
        expect(viaGql.body.errors[0]).toMatchObject({
          message: ERRORS.badUsername.message,
          extensions: { code: ERRORS.badUsername.code },
        });
      }
    });

    it('an empty username names no route', async () => {
      const res = await activity('');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'system:not_found', message: 'Not found' });
    });

    it('ignores query parameters', async () => {
      const { user } = await member();
      await record(user, 'comment_write', '2024-03-02T00:00:00Z');
      const plain = await expectActivity(user.username);
      const res = await rest(t.app, 'GET', `/user/${user.username}/activity?page=0&size=abc&days=7`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(plain);
    });
  });

  describe('authentication none: tokens are never resolved', () => {
    const tokens = tokensToIgnore(t);

    it.each(tokens)('ignores %s, in the header and in the cookie, on every door', async (_name, make) => {
      const { user } = await member();
      await record(user, 'watch_create', '2024-03-05T05:00:00Z');
      const anonymous = await expectActivity(user.username);
      expect(busyDays(anonymous)).toEqual({ '2024-03-05': 1 });
      const token = await make();
      for (const options of [{ token }, { cookie: token }]) {
        expect(await expectActivity(user.username, options)).toEqual(anonymous);
      }
    });

    it('also serves a deleted account’s token the user’s activity, and refuses a deleted user alike with or without it', async () => {
      const { user } = await member();
      const gone = await member({ role: 'deleted' });
      await record(user, 'watch_create', '2024-03-05T05:00:00Z');
      expect(busyDays(await expectActivity(user.username, gone.as))).toEqual({ '2024-03-05': 1 });
      await expectFailure(gone.user.username, gone.as, ERRORS.deleted);
      await expectFailure('nobody_here', gone.as, ERRORS.notFound);
    });

    it('sends no token look-up and has no side effects on a valid token', async () => {
      const user = await buildUser(t.orm, { last_active: new Date('2024-01-01T00:00:00Z') });
      await record(user, 'comment_write', '2024-03-05T05:00:00Z');
      const expiration = new Date(NOW.getTime() + 60 * 60 * 1000);
      const token = await buildToken(t.orm, user, { expiration });

      const anonymous = await t.queries.count(async () =>
        expect((await activity(user.username)).status).toBe(200),
      );
      const withToken = await t.queries.count(async () =>
        expect((await activity(user.username, { token })).status).toBe(200),
      );

      expect(t.queries.last.filter((statement) => /auth_token/.test(statement))).toEqual([]);
      expect(withToken).toBe(anonymous);
      const em = t.orm.em.fork();
      const stored = await em.findOneOrFail(AuthToken, { user: user.reference });
      expect(stored.used).toBeNull();
      expect(stored.expiration.getTime()).toBe(expiration.getTime());
      const account = await em.findOneOrFail(User, { reference: user.reference });
      expect(account.last_active.toISOString()).toBe('2024-01-01T00:00:00.000Z');
      // Reading records no action either.
      const actions = await sql<{ type: string }>(`select type from action_record where user_reference = ?`, [
        user.reference,
      ]);
      expect(actions).toEqual([{ type: 'comment_write' }]);
    });
  });

  describe('REST ≡ GraphQL', () => {
    it('answers identical JSON on REST, the compiled document and its executed twin, for [] and for a busy year', async () => {
      const { user } = await member();
      const idle = await member();
      await record(user, 'comment_write', '2023-03-12T00:00:00Z');
      await records(user, 'follow', '2023-09-30T13:00:00Z', 3, 'x');
      await records(user, 'favourite_add', '2024-02-29T13:00:00Z', 2, 'y');
      await records(user, 'vote_set', '2024-02-29T13:00:00Z', 2, 'z');
      await record(user, 'read_update', NOW);

      // expectActivity compares the three answers, key order included.
      expect(await expectActivity(user.username)).toEqual(
        windowWith({ '2023-03-12': 1, '2023-09-30': 1, '2024-02-29': 1, '2024-03-10': 1 }),
      );
      expect(await expectActivity(idle.user.username.toUpperCase())).toEqual([]);
    });

    it('the route’s document compiles: the executed twin alone names __typename', async () => {
      const { user } = await member();
      await record(user, 'comment_write', '2024-03-02T00:00:00Z');
      const compiled = await activityGql(user.username);
      const executed = await activityGql(user.username, {}, twinDocument);
      expect(Object.keys(compiled.body.data)).toEqual(['userActivity']);
      expect(Object.keys(executed.body.data)).toEqual(['__typename', 'userActivity']);
    });

    it('reports the same errors on every door (expectFailure compares them)', async () => {
      const gone = await member({ role: 'deleted' });
      for (const language of ['en', 'uk']) {
        const uk = language === 'uk';
        await expectFailure('nobody_here', { language }, uk ? ERRORS.notFoundUk : ERRORS.notFound);
        await expectFailure(gone.user.username, { language }, uk ? ERRORS.deletedUk : ERRORS.deleted);
      }
    });
  });

  describe('bounded SQL', () => {
    it('REST and the compiled document send 1 statement, the executed twin a fixed number, whatever the data', async () => {
      const { user, as } = await member();
      await record(user, 'comment_write', NOW);

      const count = async () => {
        const counts: number[] = [];
        for (const options of [{}, as]) {
          counts.push(
            await t.queries.count(async () => {
              const res = await activity(user.username, options);
              expect(res.status).toBe(200);
              expect(res.body).toHaveLength(365);
            }),
          );
          for (const document of [route.document, twinDocument]) {
            counts.push(
              await t.queries.count(async () => {
                const res = await activityGql(user.username, options, document);
                expect(res.body.errors).toBeUndefined();
                expect(res.body.data.userActivity).toHaveLength(365);
              }),
            );
          }
        }
        return counts;
      };
      const few = await count();
      // A year of actions of every type, every day, of two targets each.
      await sql(
        `insert into action_record (type, user_reference, target, created)
         select type, ?, target, d + interval '7 hours'
           from generate_series('2023-03-01T00:00:00Z'::timestamptz, '2024-03-10T00:00:00Z', interval '1 day') d,
                unnest(string_to_array(?, ',')) type, unnest(array['a', 'b']) target`,
        [user.reference, ACTION_TYPES.join(',')],
      );
      const many = await count();
      expect(many).toEqual(few);
      // [rest, compiled, executed] anonymous, then the same with the (ignored) token.
      expect([few[0], few[1], few[3], few[4]]).toEqual([1, 1, 1, 1]);
      expect(few[2]).toBeGreaterThanOrEqual(1);
      expect(few[5]).toBe(few[2]);
      // Each day: 7 each-time types of 2 targets, 2 distinct follows, 2 distinct favourites;
      // today also the first comment.
      const busiest = (await activity(user.username)).body as Json[];
      const perDay = (COUNTED.length + ONCE_PER_TARGET.length) * 2;
      expect(busiest.slice(0, 364).every((day) => day.actions === perDay)).toBe(true);
      expect(busiest[364]).toEqual({ timestamp: TODAY, actions: perDay + 1 });
    });

    it('answers an unknown or deleted user with one statement on REST', async () => {
      const gone = await member({ role: 'deleted' });
      for (const username of ['nobody_here', gone.user.username]) {
        const statements = await t.queries.count(async () => {
          const res = await activity(username);
          expect(res.status).toBeGreaterThanOrEqual(400);
        });
        expect({ username, statements }).toEqual({ username, statements: 1 });
      }
    });
  });
});
