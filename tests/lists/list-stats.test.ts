import { AuthToken } from '../../src/accounts/auth-token.entity';
import type { User } from '../../src/accounts/user.entity';
import type { Anime } from '../../src/catalog/anime.entity';
import type { Manga } from '../../src/catalog/manga.entity';
import type { Novel } from '../../src/catalog/novel.entity';
import type { RestRoute } from '../../src/rest/route';
import { restRoutes } from '../../src/routes';
import {
  buildAnime,
  buildManga,
  buildNovel,
  buildReadEntry,
  buildThirdPartyToken,
  buildToken,
  buildUser,
  buildWatchEntry,
} from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { keysOf, shapeProblems, type Shape } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { type Json, sortedKeys } from '../setup/json';
import { executedTwin } from '../setup/list-route';

/**
 * A profile's list figures (pages.md "User profile"): GET /watch/{username}/stats
 * (`watchStats`, WatchStats) and GET /read/{content_type}/{username}/stats (`readStats`,
 * ReadStats); auth none, a user look-up, counting only entries whose title is not deleted.
 */
const t = useTestApp();

type Kind = 'manga' | 'novel';
const KINDS: readonly Kind[] = ['manga', 'novel'];
const otherKind = (kind: Kind): Kind => (kind === 'manga' ? 'novel' : 'manga');

const routeOf = (path: string): RestRoute => restRoutes.find((r) => r.method === 'GET' && r.path === path)!;
const watchRoute = routeOf('/watch/{username}/stats');
const readRoute = routeOf('/read/{content_type}/{username}/stats');
const watchTwin = executedTwin(watchRoute.document);
const readTwin = executedTwin(readRoute.document);

const WATCH_STATS: Shape = {
  duration: 'integer',
  completed: 'integer',
  watching: 'integer',
  planned: 'integer',
  on_hold: 'integer',
  dropped: 'integer',
};
const READ_STATS: Shape = {
  completed: 'integer',
  reading: 'integer',
  planned: 'integer',
  on_hold: 'integer',
  dropped: 'integer',
};
const WATCH_ZEROS = { duration: 0, completed: 0, watching: 0, planned: 0, on_hold: 0, dropped: 0 };
const READ_ZEROS = { completed: 0, reading: 0, planned: 0, on_hold: 0, dropped: 0 };

const ERRORS = {
  userNotFound: { status: 404, code: 'user:not_found', message: 'User not found' },
  userNotFoundUk: { status: 404, code: 'user:not_found', message: 'Користувача не знайдено' },
  userDeleted: { status: 400, code: 'user:deleted', message: 'Deleted' },
} as const;
type Expected = { status: number; code: string; message: string };

// ---------------------------------------------------------------------------
// Calls: REST, the route's document over /graphql (compiled) and its executed twin.

const getWatch = (username: string, options: CallOptions = {}) =>
  rest(t.app, 'GET', `/watch/${username}/stats`, undefined, options);
const getRead = (kind: string, username: string, options: CallOptions = {}) =>
  rest(t.app, 'GET', `/read/${kind}/${username}/stats`, undefined, options);

const watchGql = (username: string, options: CallOptions = {}, document = watchRoute.document) =>
  gql(t.app, document, { username }, options);
const readGql = (kind: string, username: string, options: CallOptions = {}, document = readRoute.document) =>
  gql(t.app, document, { content_type: kind, username }, options);

/** The GraphQL error as `{status, code, message}`. */
function graphError(body: Json): Expected {
  const errors = body.errors as { message: string; extensions: { code: string; http: { status: number } } }[];
  expect(errors).toHaveLength(1);
  const [error] = errors;
  return { status: error.extensions.http.status, code: error.extensions.code, message: error.message };
}

/** One 200 answer over REST, the compiled document and its executed twin; returns it. */
async function expectWatch(username: string, options: CallOptions = {}): Promise<Json> {
  const viaRest = await getWatch(username, options);
  const compiled = await watchGql(username, options);
  const executed = await watchGql(username, options, watchTwin);
  expect(viaRest.status).toBe(200);
  expect(compiled.body.errors).toBeUndefined();
  expect(executed.body.errors).toBeUndefined();
  expect(executed.body.data.__typename).toBe('Query');
  expect(shapeProblems(viaRest.body, WATCH_STATS, 'WatchStats')).toEqual([]);
  expect(sortedKeys(viaRest.body)).toEqual(keysOf(WATCH_STATS));
  expect(compiled.body.data.watchStats).toEqual(viaRest.body);
  expect(executed.body.data.watchStats).toEqual(viaRest.body);
  return viaRest.body as Json;
}

async function expectRead(kind: Kind, username: string, options: CallOptions = {}): Promise<Json> {
  const viaRest = await getRead(kind, username, options);
  const compiled = await readGql(kind, username, options);
  const executed = await readGql(kind, username, options, readTwin);
  expect(viaRest.status).toBe(200);
  expect(compiled.body.errors).toBeUndefined();
  expect(executed.body.errors).toBeUndefined();
  expect(executed.body.data.__typename).toBe('Query');
  expect(shapeProblems(viaRest.body, READ_STATS, 'ReadStats')).toEqual([]);
  expect(sortedKeys(viaRest.body)).toEqual(keysOf(READ_STATS));
  expect(compiled.body.data.readStats).toEqual(viaRest.body);
  expect(executed.body.data.readStats).toEqual(viaRest.body);
  return viaRest.body as Json;
}

/** The same failure over REST and both GraphQL documents. */
async function expectFailure(
  call: (options: CallOptions, document?: string) => Promise<{ status: number; body: Json }>,
  graph: ((options: CallOptions, document: string) => Promise<{ body: Json }>) | undefined,
  documents: readonly string[],
  options: CallOptions,
  expected: Expected,
): Promise<void> {
  const viaRest = await call(options);
  expect({ status: viaRest.status, body: viaRest.body }).toEqual({
    status: expected.status,
    body: { code: expected.code, message: expected.message },
  });
  if (!graph) return;
  for (const document of documents) {
    const name = document.includes('__typename') ? 'executed twin' : 'route document';
    const viaGql = await graph(options, document);
    expect({ document: name, ...graphError(viaGql.body) }).toEqual({ document: name, ...expected });
  }
}

const watchFailure = (username: string, options: CallOptions, expected: Expected) =>
  expectFailure(
    (o) => getWatch(username, o),
    (o, document) => watchGql(username, o, document),
    [watchRoute.document, watchTwin],
    options,
    expected,
  );

const readFailure = (kind: Kind, username: string, options: CallOptions, expected: Expected) =>
  expectFailure(
    (o) => getRead(kind, username, o),
    (o, document) => readGql(kind, username, o, document),
    [readRoute.document, readTwin],
    options,
    expected,
  );

// ---------------------------------------------------------------------------
// Data.

/** An anime on `user`'s watch list. */
async function watched(
  user: User,
  status: 'completed' | 'watching' | 'planned' | 'on_hold' | 'dropped',
  duration: number,
  anime: Partial<Anime> = {},
): Promise<Anime> {
  const title = await buildAnime(t.orm, anime);
  await buildWatchEntry(t.orm, user, title, { status, duration, episodes: 1 });
  return title;
}

/** A title of `kind` on `user`'s read list. */
async function read(
  user: User,
  kind: Kind,
  status: 'completed' | 'reading' | 'planned' | 'on_hold' | 'dropped',
  title: { deleted?: boolean } = {},
): Promise<Manga | Novel> {
  if (kind === 'manga') {
    const manga = await buildManga(t.orm, title);
    await buildReadEntry(t.orm, user, { manga }, { status });
    return manga;
  }
  const novel = await buildNovel(t.orm, title);
  await buildReadEntry(t.orm, user, { novel }, { status });
  return novel;
}

const sql = (text: string, params: unknown[] = []) => t.orm.em.getConnection().execute(text, params);

/** Every kind of token an auth-none endpoint must ignore. */
async function ignoredTokens(owner: User): Promise<{ name: string; options: CallOptions }[]> {
  return [
    { name: "the owner's token", options: { token: await buildToken(t.orm, owner) } },
    { name: "a stranger's token", options: { token: await buildToken(t.orm, await buildUser(t.orm)) } },
    {
      name: 'a third-party token without scopes',
      options: { token: await buildThirdPartyToken(t.orm, owner, []) },
    },
    { name: 'garbage', options: { token: 'not-a-token' } },
    {
      name: 'an expired token',
      options: { token: await buildToken(t.orm, owner, { expiration: new Date(Date.now() - 1000) }) },
    },
    {
      name: "a deleted account's token",
      options: { token: await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' })) },
    },
    { name: 'a garbage cookie', options: { cookie: 'not-a-token' } },
  ];
}

// ---------------------------------------------------------------------------

describe('GET /watch/{username}/stats (watchStats)', () => {
  describe('figures', () => {
    it('sums the durations and counts the entries by status', async () => {
      const user = await buildUser(t.orm, { username: 'watcher' });
      await watched(user, 'completed', 240);
      await watched(user, 'completed', 1440);
      await watched(user, 'completed', 0);
      await watched(user, 'watching', 48);
      await watched(user, 'watching', 24);
      await watched(user, 'planned', 0);
      await watched(user, 'on_hold', 100);
      await watched(user, 'dropped', 7);
      await watched(user, 'dropped', 3);
      await watched(user, 'dropped', 1);

      expect(await expectWatch('watcher')).toEqual({
        duration: 240 + 1440 + 48 + 24 + 100 + 7 + 3 + 1,
        completed: 3,
        watching: 2,
        planned: 1,
        on_hold: 1,
        dropped: 3,
      });
    });

    it('leaves out entries whose anime is deleted, from the counts and the duration', async () => {
      const user = await buildUser(t.orm, { username: 'watcher' });
      await watched(user, 'completed', 300);
      await watched(user, 'completed', 5000, { deleted: true });
      await watched(user, 'watching', 50);
      await watched(user, 'watching', 70, { deleted: true });
      await watched(user, 'planned', 0, { deleted: true });
      await watched(user, 'on_hold', 11, { deleted: true });
      const dropped = await watched(user, 'dropped', 13);

      const before = await expectWatch('watcher');
      expect(before).toEqual({
        duration: 363,
        completed: 1,
        watching: 1,
        planned: 0,
        on_hold: 0,
        dropped: 1,
      });

      // Counted live: deleting an anime takes its entry out at once.
      await sql('update anime set deleted = true where reference = ?', [dropped.reference]);
      expect(await expectWatch('watcher')).toEqual({ ...before, duration: 350, dropped: 0 });
    });

    it("does not count another user's entries", async () => {
      const user = await buildUser(t.orm, { username: 'watcher' });
      const other = await buildUser(t.orm, { username: 'neighbour' });
      const shared = await watched(user, 'completed', 120);
      await buildWatchEntry(t.orm, other, shared, { status: 'dropped', duration: 999 });
      await watched(other, 'watching', 55);
      await watched(other, 'planned', 0);

      expect(await expectWatch('watcher')).toEqual({ ...WATCH_ZEROS, duration: 120, completed: 1 });
      expect(await expectWatch('neighbour')).toEqual({
        ...WATCH_ZEROS,
        duration: 999 + 55,
        dropped: 1,
        watching: 1,
        planned: 1,
      });
    });

    it('answers all zeros for a user without entries, or only entries on deleted anime', async () => {
      await buildUser(t.orm, { username: 'newcomer' });
      expect(await expectWatch('newcomer')).toEqual(WATCH_ZEROS);

      const ghostly = await buildUser(t.orm, { username: 'ghostly' });
      await watched(ghostly, 'completed', 500, { deleted: true });
      await watched(ghostly, 'watching', 20, { deleted: true });
      expect(await expectWatch('ghostly')).toEqual(WATCH_ZEROS);
    });

    it('does not count read entries', async () => {
      const user = await buildUser(t.orm, { username: 'reader' });
      await read(user, 'manga', 'completed');
      await read(user, 'novel', 'planned');
      expect(await expectWatch('reader')).toEqual(WATCH_ZEROS);
    });

    it('finds the user whatever the case of the username', async () => {
      const user = await buildUser(t.orm, { username: 'CamelWatcher' });
      await watched(user, 'on_hold', 42);
      const expected = { ...WATCH_ZEROS, duration: 42, on_hold: 1 };
      for (const username of ['CamelWatcher', 'camelwatcher', 'CAMELWATCHER']) {
        expect(await expectWatch(username)).toEqual(expected);
      }
    });
  });

  describe('user look-up', () => {
    it('serves banned and not yet activated accounts: only role deleted is refused', async () => {
      const banned = await buildUser(t.orm, { username: 'banned_one', banned: true });
      await watched(banned, 'dropped', 5);
      const fresh = await buildUser(t.orm, { username: 'fresh_one', role: 'not_activated' });
      await read(fresh, 'manga', 'planned');
      expect(await expectWatch('banned_one')).toEqual({ ...WATCH_ZEROS, duration: 5, dropped: 1 });
      expect(await expectRead('manga', 'fresh_one')).toEqual({ ...READ_ZEROS, planned: 1 });
    });

    it('matches the whole username, with no wildcards', async () => {
      const user = await buildUser(t.orm, { username: 'axb' });
      await watched(user, 'completed', 1);
      await read(user, 'novel', 'completed');
      for (const username of ['a_b', 'a%25', 'ax', 'axbc']) {
        await watchFailure(username, {}, ERRORS.userNotFound);
        await readFailure('novel', username, {}, ERRORS.userNotFound);
      }
    });
  });

  describe('errors', () => {
    it('answers 404 user:not_found for an unknown username, in both languages, on every door', async () => {
      await watchFailure('nobody_here', {}, ERRORS.userNotFound);
      await watchFailure('nobody_here', { language: 'uk' }, ERRORS.userNotFoundUk);
    });

    it('answers 400 user:deleted for a deleted account, even with entries, on every door', async () => {
      const gone = await buildUser(t.orm, { username: 'gone', role: 'deleted' });
      await watched(gone, 'completed', 100);
      await watchFailure('gone', {}, ERRORS.userDeleted);
      await watchFailure('GONE', { token: await buildToken(t.orm, gone) }, ERRORS.userDeleted);
    });

    it('has no route for an empty username', async () => {
      const res = await rest(t.app, 'GET', '/watch//stats');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Not found', code: 'system:not_found' });
    });
  });

  describe('authentication none', () => {
    it('answers the same figures whatever token is sent', async () => {
      const owner = await buildUser(t.orm, { username: 'watcher' });
      await watched(owner, 'completed', 90);
      await watched(owner, 'planned', 0);
      const anonymous = await expectWatch('watcher');
      expect(anonymous).toEqual({ ...WATCH_ZEROS, duration: 90, completed: 1, planned: 1 });
      for (const { name, options } of await ignoredTokens(owner)) {
        expect({ name, body: await expectWatch('watcher', options) }).toEqual({ name, body: anonymous });
      }
    });

    it('never resolves the token: no look-up and no recorded use', async () => {
      const owner = await buildUser(t.orm, { username: 'watcher' });
      await watched(owner, 'watching', 10);
      const expiration = new Date(Date.now() + 60_000);
      const token = await buildToken(t.orm, owner, { expiration });
      await t.queries.count(async () => {
        expect((await getWatch('watcher', { token })).status).toBe(200);
      });
      expect(t.queries.last.some((statement) => /auth_token/.test(statement))).toBe(false);
      const stored = await t.orm.em.fork().findOneOrFail(AuthToken, { user: owner.reference });
      expect(stored.used).toBeNull();
      expect(stored.expiration.getTime()).toBe(expiration.getTime());
    });
  });

  describe('bounded SQL', () => {
    it('as many statements for 30 entries as for 1, on REST, compiled and executed GraphQL', async () => {
      const owner = await buildUser(t.orm, { username: 'watcher' });
      await watched(owner, 'completed', 1);
      const count = async (expected: number): Promise<number[]> => [
        await t.queries.count(async () => {
          const res = await getWatch('watcher');
          expect(res.body.completed).toBe(expected);
        }),
        await t.queries.count(async () => {
          const res = await watchGql('watcher');
          expect(res.body.data.watchStats.completed).toBe(expected);
        }),
        await t.queries.count(async () => {
          const res = await watchGql('watcher', {}, watchTwin);
          expect(res.body.data.watchStats.completed).toBe(expected);
        }),
      ];
      const one = await count(1);
      for (let i = 1; i < 30; i += 1) await watched(owner, 'completed', i);
      const thirty = await count(30);
      expect(thirty).toEqual(one);
      // REST and the route's document are one compiled statement (user look-up and figures).
      expect(one.slice(0, 2)).toEqual([1, 1]);
      expect(one[2]).toBeLessThanOrEqual(3);
    });
  });
});

describe('GET /read/{content_type}/{username}/stats (readStats)', () => {
  describe.each(KINDS)('%s', (kind) => {
    it('counts the entries of that content type by status', async () => {
      const user = await buildUser(t.orm, { username: 'reader' });
      await read(user, kind, 'completed');
      await read(user, kind, 'completed');
      await read(user, kind, 'reading');
      await read(user, kind, 'planned');
      await read(user, kind, 'planned');
      await read(user, kind, 'planned');
      await read(user, kind, 'on_hold');
      await read(user, kind, 'dropped');
      await read(user, kind, 'dropped');
      // The other content type and the watch list are not counted.
      await read(user, otherKind(kind), 'reading');
      await read(user, otherKind(kind), 'completed');
      await watched(user, 'completed', 100);

      expect(await expectRead(kind, 'reader')).toEqual({
        completed: 2,
        reading: 1,
        planned: 3,
        on_hold: 1,
        dropped: 2,
      });
      expect(await expectRead(otherKind(kind), 'reader')).toEqual({
        ...READ_ZEROS,
        reading: 1,
        completed: 1,
      });
    });

    it('leaves out entries whose title is deleted', async () => {
      const user = await buildUser(t.orm, { username: 'reader' });
      await read(user, kind, 'completed');
      await read(user, kind, 'completed', { deleted: true });
      await read(user, kind, 'reading', { deleted: true });
      await read(user, kind, 'planned', { deleted: true });
      await read(user, kind, 'on_hold', { deleted: true });
      const dropped = await read(user, kind, 'dropped');

      const before = await expectRead(kind, 'reader');
      expect(before).toEqual({ ...READ_ZEROS, completed: 1, dropped: 1 });

      await sql(`update ${kind} set deleted = true where reference = ?`, [dropped.reference]);
      expect(await expectRead(kind, 'reader')).toEqual({ ...READ_ZEROS, completed: 1 });
    });

    it("does not count another user's entries", async () => {
      const user = await buildUser(t.orm, { username: 'reader' });
      const other = await buildUser(t.orm, { username: 'neighbour' });
      const shared = await read(user, kind, 'on_hold');
      await buildReadEntry(
        t.orm,
        other,
        kind === 'manga' ? { manga: shared as Manga } : { novel: shared as Novel },
        { status: 'completed' },
      );
      await read(other, kind, 'reading');

      expect(await expectRead(kind, 'reader')).toEqual({ ...READ_ZEROS, on_hold: 1 });
      expect(await expectRead(kind, 'neighbour')).toEqual({ ...READ_ZEROS, completed: 1, reading: 1 });
    });

    it('answers all zeros for a user without entries of that kind, or only deleted ones', async () => {
      await buildUser(t.orm, { username: 'newcomer' });
      expect(await expectRead(kind, 'newcomer')).toEqual(READ_ZEROS);

      const ghostly = await buildUser(t.orm, { username: 'ghostly' });
      await read(ghostly, kind, 'completed', { deleted: true });
      await read(ghostly, otherKind(kind), 'completed');
      expect(await expectRead(kind, 'ghostly')).toEqual(READ_ZEROS);
    });

    it('finds the user whatever the case of the username', async () => {
      const user = await buildUser(t.orm, { username: 'CamelReader' });
      await read(user, kind, 'reading');
      for (const username of ['CamelReader', 'camelreader', 'CAMELREADER']) {
        expect(await expectRead(kind, username)).toEqual({ ...READ_ZEROS, reading: 1 });
      }
    });

    it('answers 404 user:not_found and 400 user:deleted on every door, in both languages', async () => {
      await readFailure(kind, 'nobody_here', {}, ERRORS.userNotFound);
      await readFailure(kind, 'nobody_here', { language: 'uk' }, ERRORS.userNotFoundUk);
      const gone = await buildUser(t.orm, { username: 'gone', role: 'deleted' });
      await read(gone, kind, 'reading');
      await readFailure(kind, 'gone', {}, ERRORS.userDeleted);
      await readFailure(kind, 'Gone', { token: await buildToken(t.orm, gone) }, ERRORS.userDeleted);
    });

    it('answers the same figures whatever token is sent (auth none)', async () => {
      const owner = await buildUser(t.orm, { username: 'reader' });
      await read(owner, kind, 'planned');
      const anonymous = await expectRead(kind, 'reader');
      expect(anonymous).toEqual({ ...READ_ZEROS, planned: 1 });
      for (const { name, options } of await ignoredTokens(owner)) {
        expect({ name, body: await expectRead(kind, 'reader', options) }).toEqual({ name, body: anonymous });
      }
    });

    it('as many statements for 30 entries as for 1, on REST, compiled and executed GraphQL', async () => {
      const owner = await buildUser(t.orm, { username: 'reader' });
      await read(owner, kind, 'reading');
      const count = async (expected: number): Promise<number[]> => [
        await t.queries.count(async () => {
          const res = await getRead(kind, 'reader');
          expect(res.body.reading).toBe(expected);
        }),
        await t.queries.count(async () => {
          const res = await readGql(kind, 'reader');
          expect(res.body.data.readStats.reading).toBe(expected);
        }),
        await t.queries.count(async () => {
          const res = await readGql(kind, 'reader', {}, readTwin);
          expect(res.body.data.readStats.reading).toBe(expected);
        }),
      ];
      const one = await count(1);
      for (let i = 1; i < 30; i += 1) await read(owner, kind, 'reading');
      const thirty = await count(30);
      expect(thirty).toEqual(one);
      expect(one.slice(0, 2)).toEqual([1, 1]);
      expect(one[2]).toBeLessThanOrEqual(3);
    });
  });

  describe('validation and authentication', () => {
    it.each(['anime', 'Manga', 'NOVEL', 'character', 'collection', 'mangas'])(
      '/read/%s/{username}/stats → 400 Invalid field content_type in request path, before the user look-up',
      async (kind) => {
        const expected = {
          message: 'Invalid field content_type in request path',
          code: 'system:validation_error',
        };
        await buildUser(t.orm, { username: 'reader' });
        for (const username of ['reader', 'nobody_here']) {
          const res = await getRead(kind, username);
          expect(res.status).toBe(400);
          expect(res.body).toEqual(expected);
        }
        const gone = await buildUser(t.orm, { role: 'deleted' });
        const res = await getRead(kind, gone.username);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(expected);
      },
    );

    it('answers the validation message in Ukrainian too', async () => {
      const res = await getRead('anime', 'nobody_here', { language: 'uk' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: 'Некоректне поле content_type у запиті path',
        code: 'system:validation_error',
      });
    });

    it('never resolves the token: no look-up and no recorded use', async () => {
      const owner = await buildUser(t.orm, { username: 'reader' });
      await read(owner, 'novel', 'reading');
      const expiration = new Date(Date.now() + 60_000);
      const token = await buildToken(t.orm, owner, { expiration });
      for (const kind of KINDS) {
        await t.queries.count(async () => {
          expect((await getRead(kind, 'reader', { token })).status).toBe(200);
        });
        expect(t.queries.last.some((statement) => /auth_token/.test(statement))).toBe(false);
      }
      const stored = await t.orm.em.fork().findOneOrFail(AuthToken, { user: owner.reference });
      expect(stored.used).toBeNull();
      expect(stored.expiration.getTime()).toBe(expiration.getTime());
    });

    it('GraphQL refuses a content type outside the enum', async () => {
      await buildUser(t.orm, { username: 'reader' });
      for (const document of [readRoute.document, readTwin]) {
        const res = await readGql('anime', 'reader', {}, document);
        expect(res.body.errors?.length).toBeGreaterThan(0);
        expect(res.body.data?.readStats ?? null).toBeNull();
      }
    });
  });
});
