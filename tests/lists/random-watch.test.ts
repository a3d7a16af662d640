import { AuthToken } from '../../src/accounts/auth-token.entity';
import type { User } from '../../src/accounts/user.entity';
import type { Anime } from '../../src/catalog/anime.entity';
import type { RestRoute } from '../../src/rest/route';
import { restRoutes } from '../../src/routes';
import {
  buildAnime,
  buildManga,
  buildReadEntry,
  buildThirdPartyToken,
  buildToken,
  buildUser,
  buildWatchEntry,
  orderedReference,
} from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { ANIME_SUMMARY, keysOf, shapeProblems } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { type Json, seconds, sortedKeys } from '../setup/json';
import { executedTwin } from '../setup/list-route';

/**
 * GET /watch/random/{username}/{status} (`randomWatchEntry`, pages.md "User profile"): one
 * anime picked uniformly from a user's watch entries with that status; auth none; #18's
 * anime counterpart (tests/lists/random-read.test.ts).
 */
const t = useTestApp();

const route: RestRoute = restRoutes.find(
  (r) => r.method === 'GET' && r.path === '/watch/random/{username}/{status}',
)!;
const twin = executedTwin(route.document);
const DOORS = [
  ['route document', route.document],
  ['executed twin', twin],
] as const;

type WatchStatus = 'completed' | 'watching' | 'planned' | 'on_hold' | 'dropped';
const WATCH_STATUSES: readonly WatchStatus[] = ['completed', 'watching', 'planned', 'on_hold', 'dropped'];

const ERRORS = {
  empty: { status: 400, code: 'watch:empty_random', message: 'User watch list is empty' },
  emptyUk: { status: 400, code: 'watch:empty_random', message: 'Список перегляду користувача порожній' },
  userNotFound: { status: 404, code: 'user:not_found', message: 'User not found' },
  userNotFoundUk: { status: 404, code: 'user:not_found', message: 'Користувача не знайдено' },
  userDeleted: { status: 400, code: 'user:deleted', message: 'Deleted' },
} as const;
type Expected = { status: number; code: string; message: string };

const getRandom = (username: string, status: string, options: CallOptions = {}) =>
  rest(t.app, 'GET', `/watch/random/${username}/${status}`, undefined, options);

const randomGql = (username: string, status: string, options: CallOptions = {}, document = route.document) =>
  gql(t.app, document, { username, status }, options);

/** The slug a call picked, over REST (`rest`) or one of the GraphQL documents. */
async function pick(door: 'rest' | 'route document' | 'executed twin', username: string, status: string) {
  if (door === 'rest') {
    const res = await getRandom(username, status);
    expect(res.status).toBe(200);
    return res.body.slug as string;
  }
  const res = await randomGql(username, status, {}, door === 'route document' ? route.document : twin);
  expect(res.body.errors).toBeUndefined();
  return res.body.data.randomWatchEntry.slug as string;
}

/** The GraphQL error as `{status, code, message}`. */
function graphError(body: Json): Expected {
  const errors = body.errors as { message: string; extensions: { code: string; http: { status: number } } }[];
  expect(errors).toHaveLength(1);
  const [error] = errors;
  return { status: error.extensions.http.status, code: error.extensions.code, message: error.message };
}

/** One 200 answer over REST, the compiled document and its executed twin; returns it. */
async function expectPick(username: string, status: string, options: CallOptions = {}): Promise<Json> {
  const viaRest = await getRandom(username, status, options);
  expect(viaRest.status).toBe(200);
  for (const [name, document] of DOORS) {
    const viaGql = await randomGql(username, status, options, document);
    expect({ name, errors: viaGql.body.errors }).toEqual({ name, errors: undefined });
    expect({ name, body: viaGql.body.data.randomWatchEntry }).toEqual({ name, body: viaRest.body });
  }
  return viaRest.body as Json;
}

/** The same failure over REST and both GraphQL documents. */
async function expectFailure(
  username: string,
  status: string,
  options: CallOptions,
  expected: Expected,
): Promise<void> {
  const viaRest = await getRandom(username, status, options);
  expect({ status: viaRest.status, body: viaRest.body }).toEqual({
    status: expected.status,
    body: { code: expected.code, message: expected.message },
  });
  for (const [name, document] of DOORS) {
    const viaGql = await randomGql(username, status, options, document);
    expect({ name, ...graphError(viaGql.body) }).toEqual({ name, ...expected });
  }
}

/** `watcher` with `count` anime in the `watching` status, slugs `a-1`…, entry references in slug order. */
async function watcherWith(count: number, username = 'watcher'): Promise<{ user: User; anime: Anime[] }> {
  const user = await buildUser(t.orm, { username });
  const anime: Anime[] = [];
  for (let n = 1; n <= count; n += 1) {
    // Title references in the opposite order: the pick ranks entries, not titles.
    const title = await buildAnime(t.orm, { slug: `a-${n}`, reference: orderedReference(100 - n) });
    await buildWatchEntry(t.orm, user, title, { status: 'watching', reference: orderedReference(n) });
    anime.push(title);
  }
  return { user, anime };
}

afterEach(() => jest.restoreAllMocks());

describe('GET /watch/random/{username}/{status} (randomWatchEntry)', () => {
  describe('response', () => {
    it('serves the anime summary without watch, every field filled', async () => {
      const user = await buildUser(t.orm, { username: 'filled' });
      const anime = await buildAnime(t.orm, {
        slug: 'anime-full',
        title_ua: 'Назва',
        title_en: 'Title',
        title_ja: 'タイトル',
        media_type: 'tv',
        status: 'finished',
        season: 'fall',
        source: 'manga',
        rating: 'pg_13',
        episodes_released: 12,
        episodes_total: 24,
        image: '/content/full.jpg',
        year: 2015,
        translated_ua: true,
        score: 8.5,
        scored_by: 1234,
        start_date: new Date('2015-10-01T00:00:00Z'),
        end_date: new Date('2016-03-20T00:00:00Z'),
        created: new Date('2020-01-01T00:00:00Z'),
        updated: new Date('2021-01-01T00:00:00Z'),
      } as Partial<Anime>);
      await buildWatchEntry(t.orm, user, anime, { status: 'completed', note: 'private', episodes: 24 });

      // The owner's own token changes nothing: no `watch` on an auth-none route.
      for (const options of [{}, { token: await buildToken(t.orm, user) }]) {
        const body = await expectPick('filled', 'completed', options);
        expect(shapeProblems(body, ANIME_SUMMARY, 'anime')).toEqual([]);
        expect(sortedKeys(body)).toEqual(keysOf(ANIME_SUMMARY));
        expect(body).not.toHaveProperty('watch');
        expect(body).toMatchObject({
          data_type: 'anime',
          slug: 'anime-full',
          title_ua: 'Назва',
          title_en: 'Title',
          title_ja: 'タイトル',
          media_type: 'tv',
          status: 'finished',
          season: 'fall',
          source: 'manga',
          rating: 'pg_13',
          episodes_released: '12',
          episodes_total: '24',
          image: 'https://cdn.test/content/full.jpg',
          year: 2015,
          translated_ua: true,
          score: 8.5,
          scored_by: 1234,
          start_date: seconds('2015-10-01T00:00:00Z'),
          end_date: seconds('2016-03-20T00:00:00Z'),
          created: seconds('2020-01-01T00:00:00Z'),
          updated: seconds('2021-01-01T00:00:00Z'),
        });
      }
    });

    it.each(WATCH_STATUSES)('picks among the entries in status %s only', async (status) => {
      const user = await buildUser(t.orm, { username: 'statuses' });
      for (const each of WATCH_STATUSES) {
        await buildWatchEntry(t.orm, user, await buildAnime(t.orm, { slug: `s-${each}` }), { status: each });
      }
      for (let n = 0; n < 5; n += 1) {
        expect((await expectPick('statuses', status)).slug).toBe(`s-${status}`);
      }
    });

    it("picks among the user's entries with that status whose anime is live, and nothing else", async () => {
      const user = await buildUser(t.orm, { username: 'mixed' });
      const target = await buildAnime(t.orm, { slug: 'target' });
      await buildWatchEntry(t.orm, user, target, { status: 'planned' });
      await buildWatchEntry(t.orm, user, await buildAnime(t.orm, { slug: 'watching' }), {
        status: 'watching',
      });
      await buildWatchEntry(t.orm, user, await buildAnime(t.orm, { slug: 'gone', deleted: true }), {
        status: 'planned',
      });
      await buildReadEntry(
        t.orm,
        user,
        { manga: await buildManga(t.orm, { slug: 'manga' }) },
        { status: 'planned' },
      );
      const other = await buildUser(t.orm);
      await buildWatchEntry(t.orm, other, await buildAnime(t.orm, { slug: 'theirs' }), { status: 'planned' });

      const seen = new Set<string>();
      for (let n = 0; n < 20; n += 1) {
        for (const door of ['rest', 'route document', 'executed twin'] as const) {
          seen.add(await pick(door, 'mixed', 'planned'));
        }
      }
      expect([...seen]).toEqual(['target']);
    });

    it('finds the user whatever the case of the username', async () => {
      await watcherWith(1, 'CamelWatcher');
      for (const username of ['camelwatcher', 'CAMELWATCHER', 'CamelWatcher']) {
        expect((await expectPick(username, 'watching')).slug).toBe('a-1');
      }
    });
  });

  describe('randomness', () => {
    it.each(['rest', 'route document', 'executed twin'] as const)(
      '%s: each of 3 entries is picked in 60 calls',
      async (door) => {
        await watcherWith(3);
        const counts = new Map<string, number>();
        for (let n = 0; n < 60; n += 1) {
          const slug = await pick(door, 'watcher', 'watching');
          counts.set(slug, (counts.get(slug) ?? 0) + 1);
        }
        expect([...counts.keys()].sort()).toEqual(['a-1', 'a-2', 'a-3']);
        // Each expected 20 times; 5 or fewer has a probability near 1e-5 for a uniform pick.
        for (const count of counts.values()) expect(count).toBeGreaterThan(5);
      },
    );

    it('never picks an entry whose anime is deleted', async () => {
      const { user } = await watcherWith(2);
      for (const n of [0, 3, 4]) {
        const gone = await buildAnime(t.orm, { slug: `gone-${n}`, deleted: true });
        await buildWatchEntry(t.orm, user, gone, { status: 'watching', reference: orderedReference(n) });
      }
      const seen = new Set<string>();
      for (let n = 0; n < 30; n += 1) {
        for (const door of ['rest', 'route document', 'executed twin'] as const) {
          seen.add(await pick(door, 'watcher', 'watching'));
        }
      }
      expect([...seen].sort()).toEqual(['a-1', 'a-2']);
    });

    it.each([
      [0, 'a-1'],
      [0.33, 'a-1'],
      [0.34, 'a-2'],
      [0.5, 'a-2'],
      [0.67, 'a-3'],
      [0.9999, 'a-3'],
    ])(
      'maps Math.random() = %p to the entry at that rank in entry reference order (%s), on every door',
      async (value, slug) => {
        await watcherWith(3);
        jest.spyOn(Math, 'random').mockReturnValue(value);
        expect((await expectPick('watcher', 'watching')).slug).toBe(slug);
      },
    );

    it('ranks only live entries: deleted anime take no rank', async () => {
      const { user } = await watcherWith(2);
      const first = await buildAnime(t.orm, { slug: 'gone-first', deleted: true });
      await buildWatchEntry(t.orm, user, first, { status: 'watching', reference: orderedReference(0) });
      const last = await buildAnime(t.orm, { slug: 'gone-last', deleted: true });
      await buildWatchEntry(t.orm, user, last, { status: 'watching', reference: orderedReference(9) });
      jest.spyOn(Math, 'random').mockReturnValue(0);
      expect((await expectPick('watcher', 'watching')).slug).toBe('a-1');
      jest.spyOn(Math, 'random').mockReturnValue(0.9999);
      expect((await expectPick('watcher', 'watching')).slug).toBe('a-2');
    });
  });

  describe('errors', () => {
    it.each([
      ['reading', 'a read status'],
      ['Watching', 'another case'],
      ['WATCHING', 'upper case'],
      ['bad', 'an unknown status'],
      ['on-hold', 'a dash'],
      ['completed%20', 'a trailing space'],
    ])('status %s (%s) → 400 Invalid field status in request path', async (status) => {
      await watcherWith(1);
      const res = await getRandom('watcher', status);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: 'Invalid field status in request path',
        code: 'system:validation_error',
      });
    });

    it('validates the status before looking the user up', async () => {
      const gone = await buildUser(t.orm, { username: 'gone', role: 'deleted' });
      await buildWatchEntry(t.orm, gone, await buildAnime(t.orm), { status: 'watching' });
      for (const username of ['nobody_here', 'gone']) {
        const res = await getRandom(username, 'reading');
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          message: 'Invalid field status in request path',
          code: 'system:validation_error',
        });
      }
      const uk = await getRandom('nobody_here', 'reading', { language: 'uk' });
      expect(uk.body).toEqual({
        message: 'Некоректне поле status у запиті path',
        code: 'system:validation_error',
      });
    });

    it('GraphQL refuses a status outside the WatchStatus enum', async () => {
      await watcherWith(1);
      for (const [, document] of DOORS) {
        const res = await randomGql('watcher', 'reading', {}, document);
        expect(res.body.errors?.length).toBeGreaterThan(0);
        expect(res.body.data?.randomWatchEntry ?? null).toBeNull();
      }
    });

    it('answers 404 user:not_found for an unknown username, in both languages, on every door', async () => {
      await expectFailure('nobody_here', 'watching', {}, ERRORS.userNotFound);
      await expectFailure('nobody_here', 'watching', { language: 'uk' }, ERRORS.userNotFoundUk);
    });

    it('serves banned and not yet activated accounts, and matches the whole username', async () => {
      const banned = await buildUser(t.orm, { username: 'axb', banned: true });
      await buildWatchEntry(t.orm, banned, await buildAnime(t.orm, { slug: 'b' }), { status: 'dropped' });
      const fresh = await buildUser(t.orm, { username: 'fresh_one', role: 'not_activated' });
      await buildWatchEntry(t.orm, fresh, await buildAnime(t.orm, { slug: 'f' }), { status: 'planned' });
      expect((await expectPick('axb', 'dropped')).slug).toBe('b');
      expect((await expectPick('fresh_one', 'planned')).slug).toBe('f');
      for (const username of ['a_b', 'a%25', 'ax', 'axbc']) {
        await expectFailure(username, 'dropped', {}, ERRORS.userNotFound);
      }
    });

    it('answers 400 user:deleted for a deleted account, with or without entries, on every door', async () => {
      const gone = await buildUser(t.orm, { username: 'gone', role: 'deleted' });
      await expectFailure('gone', 'planned', {}, ERRORS.userDeleted);
      await buildWatchEntry(t.orm, gone, await buildAnime(t.orm), { status: 'watching' });
      await expectFailure('GONE', 'watching', {}, ERRORS.userDeleted);
    });

    it('answers 400 watch:empty_random when nothing matches, in both languages, on every door', async () => {
      const user = await buildUser(t.orm, { username: 'empty' });
      await expectFailure('empty', 'watching', {}, ERRORS.empty);

      // Other statuses, a deleted anime, a read entry, another user's entry: still nothing to pick.
      for (const status of ['completed', 'planned', 'on_hold', 'dropped'] as const) {
        await buildWatchEntry(t.orm, user, await buildAnime(t.orm), { status });
      }
      await buildWatchEntry(t.orm, user, await buildAnime(t.orm, { deleted: true }), { status: 'watching' });
      await buildReadEntry(t.orm, user, { manga: await buildManga(t.orm) }, { status: 'reading' });
      const other = await buildUser(t.orm);
      await buildWatchEntry(t.orm, other, await buildAnime(t.orm), { status: 'watching' });

      await expectFailure('empty', 'watching', {}, ERRORS.empty);
      await expectFailure('EMPTY', 'watching', { language: 'uk' }, ERRORS.emptyUk);
    });

    it('answers watch:empty_random once the only candidate is deleted', async () => {
      const { anime } = await watcherWith(1);
      expect((await expectPick('watcher', 'watching')).slug).toBe('a-1');
      await t.orm.em
        .getConnection()
        .execute('update anime set deleted = true where reference = ?', [anime[0].reference]);
      await expectFailure('watcher', 'watching', {}, ERRORS.empty);
    });
  });

  describe('authentication none', () => {
    it('ignores every token: owner, stranger, third party without scopes, garbage, expired, deleted', async () => {
      const { user } = await watcherWith(1);
      const options: CallOptions[] = [
        { token: await buildToken(t.orm, user) },
        { token: await buildToken(t.orm, await buildUser(t.orm)) },
        { token: await buildThirdPartyToken(t.orm, user, []) },
        { token: 'not-a-token' },
        { token: await buildToken(t.orm, user, { expiration: new Date(Date.now() - 1000) }) },
        { token: await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' })) },
        { cookie: 'not-a-token' },
      ];
      const anonymous = await expectPick('watcher', 'watching');
      expect(anonymous.slug).toBe('a-1');
      for (const [index, each] of options.entries()) {
        expect({ index, body: await expectPick('watcher', 'watching', each) }).toEqual({
          index,
          body: anonymous,
        });
      }
    });

    it('never resolves the token: no look-up and no recorded use', async () => {
      const { user } = await watcherWith(1);
      const expiration = new Date(Date.now() + 60_000);
      const token = await buildToken(t.orm, user, { expiration });
      await t.queries.count(async () => {
        const res = await getRandom('watcher', 'watching', { token });
        expect(res.status).toBe(200);
      });
      expect(t.queries.last.some((statement) => /auth_token/.test(statement))).toBe(false);
      const stored = await t.orm.em.fork().findOneOrFail(AuthToken, { user: user.reference });
      expect(stored.used).toBeNull();
      expect(stored.expiration.getTime()).toBe(expiration.getTime());
    });
  });

  describe('bounded SQL', () => {
    it('as many statements for 40 entries as for 1, on REST, compiled and executed GraphQL', async () => {
      await watcherWith(1, 'short');
      const { user } = await watcherWith(0, 'long');
      for (let n = 1; n <= 40; n += 1) {
        await buildWatchEntry(t.orm, user, await buildAnime(t.orm), { status: 'watching' });
      }
      jest.spyOn(Math, 'random').mockReturnValue(0.5);
      const count = async (username: string): Promise<number[]> => {
        const counts: number[] = [];
        for (const door of ['rest', 'route document', 'executed twin'] as const) {
          counts.push(await t.queries.count(() => pick(door, username, 'watching')));
        }
        return counts;
      };
      const short = await count('short');
      const long = await count('long');
      expect(long).toEqual(short);
      // REST and the route's document are one compiled statement: look-up, pick and summary.
      expect(short.slice(0, 2)).toEqual([1, 1]);
      expect(short[2]).toBeLessThanOrEqual(3);
      // The resolvers rank the entries in SQL and fetch the one row picked.
      const ranked = t.queries.last.find((statement) =>
        /row_number\(\) over \(order by e\.reference\)/.test(statement),
      );
      expect(ranked).toMatch(/\b1 result\]$/);
    });
  });
});
