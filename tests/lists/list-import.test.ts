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
  buildThirdPartyToken,
  buildToken,
  buildUser,
  buildWatchEntry,
} from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { READ_ENTRY, shapeProblems, WATCH_ENTRY } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { type Json, seconds } from '../setup/json';
import { executedTwin } from '../setup/list-route';

/**
 * POST /settings/import/watch and POST /settings/import/read (pages.md "Settings",
 * decision 4; GraphQL `importWatchList`, `importReadList`): MAL list exports imported
 * into the caller's watch and read lists.
 *
 * Deliberate deviation (documented in src/lists/list-import.resolver.ts): the import runs
 * inside the request, so when `{"success": true}` arrives the entries are already written,
 * and a failing import leaves nothing behind.
 */
const t = useTestApp();

type Door = 'watch' | 'read';
const DOORS: readonly Door[] = ['watch', 'read'];
const PATH: Record<Door, string> = { watch: '/settings/import/watch', read: '/settings/import/read' };
const ROOT: Record<Door, string> = { watch: 'importWatchList', read: 'importReadList' };
/** The array field of each door's body. */
const LIST: Record<Door, string> = { watch: 'anime', read: 'content' };
const routeOf = (door: Door): RestRoute =>
  restRoutes.find((route) => route.method === 'POST' && route.path === PATH[door])!;

/** Catalog ids of imported titles: far above the factories' own `extcat_id`s. */
const ID = 900_000;

// ---------------------------------------------------------------------------
// Callers and calls.

async function member(o: Partial<User> = {}): Promise<{ user: User; as: CallOptions }> {
  const user = await buildUser(t.orm, o);
  return { user, as: { token: await buildToken(t.orm, user) } };
}

const thirdParty = async (user: User, scope: string[]): Promise<CallOptions> => ({
  token: await buildThirdPartyToken(t.orm, user, scope),
});

const importRest = (door: Door, body: unknown, options: CallOptions = {}) =>
  rest(t.app, 'POST', PATH[door], body, options);

const importGql = (
  door: Door,
  input: unknown,
  options: CallOptions = {},
  document = routeOf(door).document,
) => gql(t.app, document, { input }, options);

/** The import over REST: 200 `{"success": true}`. */
async function imported(door: Door, body: Json, options: CallOptions): Promise<void> {
  const res = await importRest(door, body, options);
  expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { success: true } });
}

const watchBody = (anime: unknown[], overwrite = false) => ({ overwrite, anime });
const readBody = (content: unknown[], overwrite = false) => ({ overwrite, content });
const bodyOf = (door: Door, records: unknown[], overwrite = false) =>
  door === 'watch' ? watchBody(records, overwrite) : readBody(records, overwrite);

/** A MAL anime record (the required fields; `o` adds or replaces). */
const watchRecord = (id: number, o: Json = {}): Json => ({
  series_animedb_id: id,
  my_watched_episodes: 0,
  my_status: 'Watching',
  my_comments: {},
  ...o,
});

/** A MAL manga record (the required fields; `o` adds or replaces). */
const readRecord = (id: number, o: Json = {}): Json => ({
  manga_mangadb_id: id,
  my_read_chapters: 0,
  my_read_volumes: 0,
  my_score: 0,
  my_status: 'Reading',
  my_comments: {},
  my_times_read: 0,
  ...o,
});
const recordOf = (door: Door, id: number, o: Json = {}) =>
  door === 'watch' ? watchRecord(id, o) : readRecord(id, o);

/** What a MAL XML export carries besides the imported fields (decision 4: ignored). */
const MAL_EXTRAS = {
  my_id: 0,
  series_title: 'Sousou no Frieren',
  series_type: 'TV',
  series_episodes: 28,
  my_start_date: '0000-00-00',
  my_finish_date: '0000-00-00',
  my_rated: {},
  my_storage: '',
  my_tags: { '#text': 'fantasy' },
  my_rewatching: 0,
  update_on_import: 1,
  nested: { deeper: [1, { x: null }] },
};

// ---------------------------------------------------------------------------
// What is stored.

const sql = <T = Json>(text: string, params: unknown[] = []): Promise<T[]> =>
  t.orm.em.getConnection().execute<T[]>(text, params);

interface WatchRow {
  extcat_id: number;
  status: string;
  score: number;
  note: string | null;
  episodes: number;
  rewatches: number;
  duration: number;
}

/** The user's watch entries, by anime `extcat_id`. */
const watchRows = (user: User) =>
  sql<WatchRow>(
    `select a.extcat_id, e.status, e.score, e.note, e.episodes, e.rewatches, e.duration
       from watch_entry e join anime a on a.reference = e.anime_reference
      where e.user_reference = ? order by a.extcat_id`,
    [user.reference],
  );

interface ReadRow {
  content_type: string;
  extcat_id: number;
  status: string;
  score: number;
  note: string | null;
  chapters: number;
  volumes: number;
  rereads: number;
}

/** The user's read entries, by content type then `extcat_id`. */
const readRows = (user: User) =>
  sql<ReadRow>(
    `select e.content_type, coalesce(m.extcat_id, n.extcat_id) as extcat_id, e.status, e.score, e.note,
            e.chapters, e.volumes, e.rereads
       from read_entry e left join manga m on m.reference = e.manga_reference
       left join novel n on n.reference = e.novel_reference
      where e.user_reference = ? order by e.content_type, 2`,
    [user.reference],
  );

const rowsOf = (door: Door, user: User) => (door === 'watch' ? watchRows(user) : readRows(user));

const entryCount = async (): Promise<number> => {
  const [row] = await sql<{ n: number }>(
    `select (select count(*) from watch_entry)::int + (select count(*) from read_entry)::int as n`,
  );
  return row.n;
};

const listsUpdated = async (user: User): Promise<Date | null> => {
  const [row] = await sql<{ lists_updated: Date | null }>(
    `select lists_updated from "user" where reference = ?`,
    [user.reference],
  );
  return row.lists_updated === null ? null : new Date(row.lists_updated);
};

type Kind = 'anime' | 'manga' | 'novel';

/** A title's stored native figures. */
async function storedFigures(kind: Kind, reference: string) {
  const [row] = await sql<{ native_scored_by: number; native_score_total: number }>(
    `select native_scored_by, native_score_total from "${kind}" where reference = ?`,
    [reference],
  );
  return row;
}

/** A title's native figures as its page serves them (GET /{kind}/{slug}). */
async function servedFigures(kind: Kind, slug: string) {
  const res = await rest(t.app, 'GET', `/${kind}/${slug}`);
  expect(res.status).toBe(200);
  return { native_score: res.body.native_score, native_scored_by: res.body.native_scored_by };
}

/**
 * The content type's baseline (its shards summed) and the titles' figures agree with a
 * recount from the list entries, as if every entry had been written one by one.
 */
async function expectFiguresMatchEntries(kind: Kind): Promise<void> {
  const [table, column] =
    kind === 'anime' ? ['watch_entry', 'anime_reference'] : ['read_entry', `${kind}_reference`];
  const [baseline] = await sql<{ total: number; count: number }>(
    `select coalesce(sum(total), 0)::int as total, coalesce(sum(count), 0)::int as count
       from native_score_baseline where content_type = ?`,
    [kind],
  );
  const [recount] = await sql<{ total: number; count: number }>(
    `select coalesce(sum(score), 0)::int as total, count(*)::int as count
       from ${table} where score > 0 and ${column} is not null`,
  );
  expect({ kind, baseline }).toEqual({ kind, baseline: recount });
  const wrong = await sql(
    `select t.slug, t.native_scored_by, t.native_score_total, coalesce(s.count, 0) as count, coalesce(s.total, 0) as total
       from "${kind}" t left join (select ${column} as title, count(*)::int as count, sum(score)::int as total
         from ${table} where score > 0 group by ${column}) s on s.title = t.reference
      where t.native_scored_by <> coalesce(s.count, 0) or t.native_score_total <> coalesce(s.total, 0)`,
  );
  expect({ kind, wrong }).toEqual({ kind, wrong: [] });
}

// ---------------------------------------------------------------------------
// Failures, over REST and both GraphQL documents.

interface Expected {
  status: number;
  code: string;
  message?: string;
}

function graphError(body: Json): Expected & { message: string } {
  const errors = body.errors as { message: string; extensions: { code: string; http: { status: number } } }[];
  expect(errors).toHaveLength(1);
  const [error] = errors;
  return { status: error.extensions.http.status, code: error.extensions.code, message: error.message };
}

const validation = (field?: string): Expected => ({
  status: 400,
  code: 'system:validation_error',
  message: field ? `Invalid field ${field} in request body` : 'Invalid field in request body',
});
const DENIED: Expected = {
  status: 403,
  code: 'permission:denied',
  message: "You don't have permission for this action",
};

/**
 * The import fails with `expected` over REST, and with the same status, code and message
 * over /graphql (the route's document and its executed twin). Nothing is written.
 */
async function expectFailure(
  door: Door,
  body: unknown,
  options: CallOptions,
  expected: Expected,
  { restOnly = false } = {},
) {
  const before = await entryCount();
  const viaRest = await importRest(door, body, options);
  expect({ status: viaRest.status, code: viaRest.body.code }).toEqual({
    status: expected.status,
    code: expected.code,
  });
  if (expected.message) expect(viaRest.body.message).toBe(expected.message);
  expect(Object.keys(viaRest.body).sort()).toEqual(['code', 'message']);
  // GraphQL carries the body as its `input` variable; a REST body that is no object has no twin.
  if (!restOnly && body !== null && typeof body === 'object' && !Array.isArray(body)) {
    for (const [name, document] of [
      ['route document', routeOf(door).document],
      ['executed twin', executedTwin(routeOf(door).document)],
    ] as const) {
      const viaGql = await importGql(door, body, options, document);
      expect({ document: name, ...graphError(viaGql.body) }).toEqual({
        document: name,
        status: viaRest.status,
        code: viaRest.body.code,
        message: viaRest.body.message,
      });
    }
  }
  expect(await entryCount()).toBe(before);
}

/**
 * Runs `run` while a trigger on `table` raises `injected failure` for each row written
 * (insert or update) that matches `condition` (a boolean PL/pgSQL expression over `new`
 * and, for updates, `old`).
 */
async function withFailingWrites<T>(table: string, condition: string, run: () => Promise<T>): Promise<T> {
  const connection = t.orm.em.getConnection();
  await connection.execute(`create function test_import_failure() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        if ${condition.replace(/\bold\./g, 'new.')} then raise exception 'injected failure'; end if;
      elsif ${condition} then raise exception 'injected failure';
      end if;
      return new;
    end $$`);
  await connection.execute(`create trigger test_import_failure before insert or update on ${table}
    for each row execute function test_import_failure()`);
  try {
    return await run();
  } finally {
    await connection.execute(`drop trigger test_import_failure on ${table}`);
    await connection.execute('drop function test_import_failure()');
  }
}

// ---------------------------------------------------------------------------
// Titles.

/** An anime of 12 episodes of 24 minutes, with catalog id `ID + n`. */
const anime = (n: number, o: Partial<Anime> = {}) =>
  buildAnime(t.orm, { extcat_id: ID + n, slug: `anime-${n}`, episodes_total: 12, duration: 24, ...o });
const manga = (n: number, o: Partial<Manga> = {}) =>
  buildManga(t.orm, { extcat_id: ID + n, slug: `manga-${n}`, chapters: 100, volumes: 10, ...o });
const novel = (n: number, o: Partial<Novel> = {}) =>
  buildNovel(t.orm, { extcat_id: ID + n, slug: `novel-${n}`, chapters: 100, volumes: 10, ...o });

// ===========================================================================

describe('routes', () => {
  it('registers both imports as required-auth POSTs answering {success}', () => {
    for (const door of DOORS) {
      const route = routeOf(door);
      expect([route.auth, route.rootField, route.paged ?? false]).toEqual(['required', ROOT[door], false]);
      expect(route.document).toContain(`${ROOT[door]}(input: $input) { success }`);
    }
  });
});

describe('POST /settings/import/watch', () => {
  describe('import', () => {
    it('answers {"success": true} with the entries already written (the import runs inside the request)', async () => {
      const { user, as } = await member();
      await anime(1);
      await anime(2, { episodes_total: 24, duration: 23 });
      await anime(3);
      const res = await importRest(
        'watch',
        watchBody([
          watchRecord(ID + 1, {
            my_watched_episodes: 12,
            my_times_watched: 1,
            my_score: 9,
            my_status: 'Completed',
            my_comments: 'A masterpiece',
          }),
          watchRecord(ID + 2, { my_watched_episodes: 5, my_score: 7, my_status: 'Watching' }),
          watchRecord(ID + 3, { my_status: 'Plan to Watch' }),
        ]),
        as,
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      // Read right after the answer: no background job to wait for.
      expect(await watchRows(user)).toEqual([
        {
          extcat_id: ID + 1,
          status: 'completed',
          score: 9,
          note: 'A masterpiece',
          episodes: 12,
          rewatches: 1,
          duration: 24 * (12 + 12 * 1),
        },
        {
          extcat_id: ID + 2,
          status: 'watching',
          score: 7,
          note: null,
          episodes: 5,
          rewatches: 0,
          duration: 23 * 5,
        },
        {
          extcat_id: ID + 3,
          status: 'planned',
          score: 0,
          note: null,
          episodes: 0,
          rewatches: 0,
          duration: 0,
        },
      ]);
    });

    it('the imported entries are served as PUT-made entries are (GET /watch/{slug}: WatchEntry shape)', async () => {
      const { as } = await member();
      await anime(1);
      const before = seconds(new Date());
      await imported(
        'watch',
        watchBody([
          watchRecord(ID + 1, {
            my_watched_episodes: 4,
            my_score: 6,
            my_comments: 'note',
            my_status: 'On-Hold',
          }),
        ]),
        as,
      );
      const res = await rest(t.app, 'GET', '/watch/anime-1', undefined, as);
      expect(res.status).toBe(200);
      const { anime: title, ...entry } = res.body as Json;
      expect(shapeProblems(entry, WATCH_ENTRY, 'entry')).toEqual([]);
      expect(entry).toMatchObject({
        status: 'on_hold',
        score: 6,
        note: 'note',
        episodes: 4,
        rewatches: 0,
        duration: 96,
      });
      expect(entry.created).toBeGreaterThanOrEqual(before);
      expect(entry.updated).toBe(entry.created);
      expect(title).toMatchObject({ slug: 'anime-1', extcat_id: ID + 1 });
    });

    it.each([
      ['Completed', 'completed'],
      ['Watching', 'watching'],
      ['Plan to Watch', 'planned'],
      ['On-Hold', 'on_hold'],
      ['Dropped', 'dropped'],
    ])('MAL status %s becomes %s', async (mal, status) => {
      const { user, as } = await member();
      await anime(1);
      await imported('watch', watchBody([watchRecord(ID + 1, { my_status: mal })]), as);
      expect((await watchRows(user)).map((row) => row.status)).toEqual([status]);
    });

    it('defaults: no my_times_watched → 0 rewatches, no my_score → 0', async () => {
      const { user, as } = await member();
      await anime(1);
      await imported('watch', watchBody([watchRecord(ID + 1, { my_watched_episodes: 2 })]), as);
      expect(await watchRows(user)).toEqual([
        expect.objectContaining({ score: 0, rewatches: 0, episodes: 2, duration: 48 }),
      ]);
    });

    it('reads decimal strings as integers ("21"), for every number of a record', async () => {
      const { user, as } = await member();
      await anime(21, { episodes_total: 30, duration: 10 });
      await imported(
        'watch',
        watchBody([
          {
            series_animedb_id: String(ID + 21),
            my_watched_episodes: '21',
            my_times_watched: '2',
            my_score: '8',
            my_status: 'Watching',
            my_comments: '',
          },
        ]),
        as,
      );
      expect(await watchRows(user)).toEqual([
        {
          extcat_id: ID + 21,
          status: 'watching',
          score: 8,
          note: null,
          episodes: 21,
          rewatches: 2,
          duration: 10 * (21 + 30 * 2),
        },
      ]);
    });

    it('ignores unknown keys inside records (whole MAL records are forwarded), nested ones included', async () => {
      const { user, as } = await member();
      await anime(1);
      await imported('watch', watchBody([{ ...MAL_EXTRAS, ...watchRecord(ID + 1, { my_score: 5 }) }]), as);
      expect(await watchRows(user)).toEqual([expect.objectContaining({ extcat_id: ID + 1, score: 5 })]);
    });

    it('an empty list imports nothing and succeeds', async () => {
      const { user, as } = await member();
      await anime(1);
      await imported('watch', watchBody([]), as);
      await imported('watch', watchBody([], true), as);
      expect(await watchRows(user)).toEqual([]);
    });

    it("writes only the caller's entries, leaving other users' alone", async () => {
      const { user, as } = await member();
      const other = await buildUser(t.orm);
      const title = await anime(1);
      await buildWatchEntry(t.orm, other, title, { status: 'dropped', score: 2, note: 'theirs' });
      await imported('watch', watchBody([watchRecord(ID + 1, { my_score: 9 })], true), as);
      expect(await watchRows(other)).toEqual([
        expect.objectContaining({ status: 'dropped', score: 2, note: 'theirs' }),
      ]);
      expect(await watchRows(user)).toEqual([expect.objectContaining({ status: 'watching', score: 9 })]);
    });
  });

  describe('matching', () => {
    it('matches anime by extcat_id; unknown ids and deleted anime are skipped', async () => {
      const { user, as } = await member();
      await anime(1);
      await anime(2, { deleted: true });
      await imported(
        'watch',
        watchBody([
          watchRecord(ID + 2, { my_score: 3 }),
          watchRecord(ID + 99, { my_score: 4 }),
          watchRecord(0),
          watchRecord(1_000_000),
          watchRecord(ID + 1, { my_score: 5 }),
        ]),
        as,
      );
      expect(await watchRows(user)).toEqual([expect.objectContaining({ extcat_id: ID + 1, score: 5 })]);
      const [deleted] = await sql<{ native_scored_by: number }>(
        `select native_scored_by from anime where extcat_id = ?`,
        [ID + 2],
      );
      expect(deleted.native_scored_by).toBe(0);
    });

    it('matches ids of manga or novels to nothing on the watch list', async () => {
      const { user, as } = await member();
      await manga(1);
      await novel(2);
      await imported('watch', watchBody([watchRecord(ID + 1), watchRecord(ID + 2)]), as);
      expect(await watchRows(user)).toEqual([]);
      expect(await readRows(user)).toEqual([]);
    });

    it('the last record of an anime wins', async () => {
      const { user, as } = await member();
      await anime(1);
      await anime(2);
      await imported(
        'watch',
        watchBody([
          watchRecord(ID + 1, { my_score: 3, my_status: 'Dropped', my_comments: 'first' }),
          watchRecord(ID + 2, { my_score: 1 }),
          watchRecord(ID + 1, {
            my_score: 8,
            my_status: 'Completed',
            my_watched_episodes: 12,
            my_comments: 'last',
          }),
          watchRecord(ID + 2, { my_score: 2, my_comments: 'second' }),
        ]),
        as,
      );
      expect(await watchRows(user)).toEqual([
        expect.objectContaining({
          extcat_id: ID + 1,
          score: 8,
          status: 'completed',
          note: 'last',
          episodes: 12,
        }),
        expect.objectContaining({ extcat_id: ID + 2, score: 2, note: 'second' }),
      ]);
      // Only the winners count for the native figures.
      await expectFiguresMatchEntries('anime');
    });
  });

  describe('caps and derived values', () => {
    it('caps episodes at the anime’s episodes_total, rewatches at 100; the duration uses the capped values', async () => {
      const { user, as } = await member();
      await anime(1, { episodes_total: 12, duration: 24 });
      await imported(
        'watch',
        watchBody([watchRecord(ID + 1, { my_watched_episodes: 30, my_times_watched: 150 })]),
        as,
      );
      expect(await watchRows(user)).toEqual([
        expect.objectContaining({ episodes: 12, rewatches: 100, duration: 24 * (12 + 12 * 100) }),
      ]);
    });

    it('episodes up to 10000 without an episodes_total; unknown totals and lengths count as 0 in the duration', async () => {
      const { user, as } = await member();
      await anime(1, { episodes_total: null, duration: 5 });
      await anime(2, { episodes_total: 10, duration: null });
      await imported(
        'watch',
        watchBody([
          watchRecord(ID + 1, { my_watched_episodes: 10000, my_times_watched: 3 }),
          watchRecord(ID + 2, { my_watched_episodes: 10, my_times_watched: 3 }),
        ]),
        as,
      );
      expect(await watchRows(user)).toEqual([
        expect.objectContaining({ episodes: 10000, rewatches: 3, duration: 5 * 10000 }),
        expect.objectContaining({ episodes: 10, rewatches: 3, duration: 0 }),
      ]);
    });

    it('the duration is what PUT /watch/{slug} computes for the same values', async () => {
      const importer = await member();
      const typer = await member();
      await anime(1, { episodes_total: 26, duration: 23 });
      await imported(
        'watch',
        watchBody([watchRecord(ID + 1, { my_watched_episodes: 7, my_times_watched: 2 })]),
        importer.as,
      );
      const put = await rest(
        t.app,
        'PUT',
        '/watch/anime-1',
        { status: 'watching', episodes: 7, rewatches: 2 },
        typer.as,
      );
      expect(put.status).toBe(200);
      const [row] = await watchRows(importer.user);
      expect(row.duration).toBe(put.body.duration);
      expect(row.duration).toBe(23 * (7 + 26 * 2));
    });

    it('rewatches far above 100 (any integer ≥ 0 is valid) are capped at 100, not refused', async () => {
      const { user, as } = await member();
      await anime(1);
      const res = await importRest(
        'watch',
        watchBody([watchRecord(ID + 1, { my_watched_episodes: 1, my_times_watched: 3_000_000_000 })]),
        as,
      );
      expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { success: true } });
      expect(await watchRows(user)).toEqual([expect.objectContaining({ rewatches: 100 })]);
    });

    it('keeps at most 2048 characters of a note', async () => {
      const { user, as } = await member();
      await anime(1);
      await anime(2);
      await imported(
        'watch',
        watchBody([
          watchRecord(ID + 1, { my_comments: 'ж'.repeat(3000) }),
          watchRecord(ID + 2, { my_comments: 'x'.repeat(2048) }),
        ]),
        as,
      );
      expect((await watchRows(user)).map((row) => row.note)).toEqual(['ж'.repeat(2048), 'x'.repeat(2048)]);
    });

    it.each<[string, unknown]>([
      ['an empty string', ''],
      ['spaces', '   '],
      ['line breaks and tabs', '\n\t \n'],
      ['an empty object (an empty XML element)', {}],
      ['an object with content', { '#cdata': 'text' }],
    ])('a note of %s is stored as null', async (_, comments) => {
      const { user, as } = await member();
      await anime(1);
      await imported('watch', watchBody([watchRecord(ID + 1, { my_comments: comments })]), as);
      expect((await watchRows(user)).map((row) => row.note)).toEqual([null]);
    });
  });

  describe('existing entries', () => {
    const existing = async (user: User, title: Anime) =>
      buildWatchEntry(t.orm, user, title, {
        status: 'dropped',
        score: 4,
        note: 'mine',
        episodes: 2,
        rewatches: 0,
        duration: 48,
        created: new Date('2024-01-01T00:00:00Z'),
        updated: new Date('2024-01-02T00:00:00Z'),
      });

    it('overwrite false keeps an existing entry untouched and still imports the new ones', async () => {
      const { user, as } = await member();
      const first = await anime(1);
      await anime(2);
      const entry = await existing(user, first);
      await imported(
        'watch',
        watchBody(
          [
            watchRecord(ID + 1, { my_score: 10, my_status: 'Completed', my_watched_episodes: 12 }),
            watchRecord(ID + 2, { my_score: 6 }),
          ],
          false,
        ),
        as,
      );
      expect(await watchRows(user)).toEqual([
        {
          extcat_id: ID + 1,
          status: 'dropped',
          score: 4,
          note: 'mine',
          episodes: 2,
          rewatches: 0,
          duration: 48,
        },
        expect.objectContaining({ extcat_id: ID + 2, score: 6 }),
      ]);
      const [kept] = await sql<{ reference: string; updated: Date }>(
        `select reference, updated from watch_entry where anime_reference = ?`,
        [first.reference],
      );
      expect(kept.reference).toBe(entry.reference);
      expect(new Date(kept.updated)).toEqual(new Date('2024-01-02T00:00:00Z'));
    });

    it('overwrite true replaces the entry’s values, keeping its reference and `created`, moving `updated`', async () => {
      const { user, as } = await member();
      const first = await anime(1);
      const entry = await existing(user, first);
      const before = Date.now();
      await imported(
        'watch',
        watchBody(
          [
            watchRecord(ID + 1, {
              my_score: 10,
              my_status: 'Completed',
              my_watched_episodes: 12,
              my_comments: {},
            }),
          ],
          true,
        ),
        as,
      );
      expect(await watchRows(user)).toEqual([
        {
          extcat_id: ID + 1,
          status: 'completed',
          score: 10,
          note: null,
          episodes: 12,
          rewatches: 0,
          duration: 24 * 12,
        },
      ]);
      const [row] = await sql<{ reference: string; created: Date; updated: Date }>(
        `select reference, created, updated from watch_entry where anime_reference = ?`,
        [first.reference],
      );
      expect(row.reference).toBe(entry.reference);
      expect(new Date(row.created)).toEqual(new Date('2024-01-01T00:00:00Z'));
      expect(new Date(row.updated).getTime()).toBeGreaterThanOrEqual(before - 1);
    });
  });

  describe('native score, list time and stats', () => {
    const SCORES = [10, 9, 9, 8, 8, 7, 7, 6, 5, 4, 0, 3];

    it('native figures move exactly as PUT /watch/{slug} moves them (same scores on another anime)', async () => {
      const imported_ = await anime(1, { slug: 'imported' });
      const typed = await anime(2, { slug: 'typed' });
      const importers: CallOptions[] = [];
      const typers: CallOptions[] = [];
      for (const score of SCORES) {
        const importer = await member();
        importers.push(importer.as);
        await imported('watch', watchBody([watchRecord(ID + 1, { my_score: score })]), importer.as);
        const typer = await member();
        typers.push(typer.as);
        const res = await rest(t.app, 'PUT', '/watch/typed', { status: 'watching', score }, typer.as);
        expect(res.status).toBe(200);
      }
      const afterFirst = await servedFigures('anime', 'imported');
      expect(afterFirst.native_scored_by).toBe(11);
      expect(afterFirst.native_score).toBeGreaterThan(0);
      expect(afterFirst).toEqual(await servedFigures('anime', 'typed'));

      // Replacing scores: 10 → 2, 9 → 0 (one fewer scored), 0 → 6 (one more); overwrite false moves nothing.
      const changes: [number, number][] = [
        [0, 2],
        [1, 0],
        [10, 6],
      ];
      for (const [i, score] of changes) {
        await imported('watch', watchBody([watchRecord(ID + 1, { my_score: score })], true), importers[i]);
        const res = await rest(t.app, 'PUT', '/watch/typed', { status: 'watching', score }, typers[i]);
        expect(res.status).toBe(200);
      }
      await imported('watch', watchBody([watchRecord(ID + 1, { my_score: 1 })], false), importers[2]);
      expect(await storedFigures('anime', imported_.reference)).toEqual(
        await storedFigures('anime', typed.reference),
      );
      expect(await servedFigures('anime', 'imported')).toEqual(await servedFigures('anime', 'typed'));
      await expectFiguresMatchEntries('anime');
    });

    it('one import moves the figures of every anime it scores, and the baseline by their sum', async () => {
      const { as } = await member();
      const titles = [await anime(1), await anime(2), await anime(3)];
      const other = await member();
      await buildWatchEntry(t.orm, other.user, titles[0], { score: 5 });
      await sql(`update anime set native_scored_by = 1, native_score_total = 5 where reference = ?`, [
        titles[0].reference,
      ]);
      await sql(
        `insert into native_score_baseline (content_type, shard, total, count) values ('anime', 3, 5, 1)`,
      );
      await imported(
        'watch',
        watchBody([
          watchRecord(ID + 1, { my_score: 7 }),
          watchRecord(ID + 2, { my_score: 0 }),
          watchRecord(ID + 3, { my_score: 10 }),
        ]),
        as,
      );
      expect(await storedFigures('anime', titles[0].reference)).toEqual({
        native_scored_by: 2,
        native_score_total: 12,
      });
      expect(await storedFigures('anime', titles[1].reference)).toEqual({
        native_scored_by: 0,
        native_score_total: 0,
      });
      expect(await storedFigures('anime', titles[2].reference)).toEqual({
        native_scored_by: 1,
        native_score_total: 10,
      });
      await expectFiguresMatchEntries('anime');
    });

    it('sets the user’s list time (User `updated`)', async () => {
      const { user, as } = await member();
      await anime(1);
      expect(await listsUpdated(user)).toBeNull();
      const before = Date.now();
      await imported('watch', watchBody([watchRecord(ID + 1)]), as);
      const at = await listsUpdated(user);
      expect(at).not.toBeNull();
      expect(at!.getTime()).toBeGreaterThanOrEqual(before - 1);
      expect(at!.getTime()).toBeLessThanOrEqual(Date.now());
      const profile = await rest(t.app, 'GET', `/user/${user.username}`);
      expect(profile.status).toBe(200);
      expect(profile.body.updated).toBe(seconds(at!));
    });

    it('GET /watch/{username}/stats counts the imported entries and their minutes', async () => {
      const { user, as } = await member();
      await anime(1, { episodes_total: 12, duration: 24 });
      await anime(2, { episodes_total: 24, duration: 20 });
      await anime(3);
      await anime(4);
      await anime(5);
      await imported(
        'watch',
        watchBody([
          watchRecord(ID + 1, { my_status: 'Completed', my_watched_episodes: 12, my_times_watched: 1 }),
          watchRecord(ID + 2, { my_status: 'Watching', my_watched_episodes: 6 }),
          watchRecord(ID + 3, { my_status: 'Plan to Watch' }),
          watchRecord(ID + 4, { my_status: 'On-Hold' }),
          watchRecord(ID + 5, { my_status: 'Completed', my_watched_episodes: 1 }),
        ]),
        as,
      );
      const res = await rest(t.app, 'GET', `/watch/${user.username}/stats`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        duration: 24 * (12 + 12) + 20 * 6 + 24 * 1,
        completed: 2,
        watching: 1,
        planned: 1,
        on_hold: 1,
        dropped: 0,
      });
    });
  });
});

describe('POST /settings/import/read', () => {
  describe('import', () => {
    it('answers {"success": true} with manga and novel entries already written', async () => {
      const { user, as } = await member();
      await manga(1);
      await novel(2);
      await manga(3);
      const res = await importRest(
        'read',
        readBody([
          readRecord(ID + 1, {
            my_read_chapters: 50,
            my_read_volumes: 5,
            my_score: 8,
            my_status: 'Completed',
            my_comments: 'great',
            my_times_read: 2,
          }),
          readRecord(ID + 2, { my_read_chapters: 3, my_read_volumes: 1, my_score: 6, my_status: 'Reading' }),
          readRecord(ID + 3, { my_status: 'Plan to Read' }),
        ]),
        as,
      );
      expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { success: true } });
      expect(await readRows(user)).toEqual([
        {
          content_type: 'manga',
          extcat_id: ID + 1,
          status: 'completed',
          score: 8,
          note: 'great',
          chapters: 50,
          volumes: 5,
          rereads: 2,
        },
        {
          content_type: 'manga',
          extcat_id: ID + 3,
          status: 'planned',
          score: 0,
          note: null,
          chapters: 0,
          volumes: 0,
          rereads: 0,
        },
        {
          content_type: 'novel',
          extcat_id: ID + 2,
          status: 'reading',
          score: 6,
          note: null,
          chapters: 3,
          volumes: 1,
          rereads: 0,
        },
      ]);
    });

    it('the imported entries are served as PUT-made entries are (GET /read/{content_type}/{slug})', async () => {
      const { as } = await member();
      await manga(1);
      await novel(1);
      await imported(
        'read',
        readBody([
          readRecord(ID + 1, {
            my_read_chapters: 9,
            my_read_volumes: 2,
            my_score: 7,
            my_status: 'Dropped',
            my_comments: 'n',
          }),
        ]),
        as,
      );
      for (const kind of ['manga', 'novel'] as const) {
        const res = await rest(t.app, 'GET', `/read/${kind}/${kind}-1`, undefined, as);
        expect(res.status).toBe(200);
        const { content, ...entry } = res.body as Json;
        expect(shapeProblems(entry, READ_ENTRY, 'entry')).toEqual([]);
        expect(entry).toMatchObject({
          status: 'dropped',
          score: 7,
          chapters: 9,
          volumes: 2,
          rereads: 0,
          note: 'n',
        });
        expect(content).toMatchObject({ slug: `${kind}-1`, data_type: kind });
      }
    });

    it.each([
      ['Completed', 'completed'],
      ['Reading', 'reading'],
      ['Plan to Read', 'planned'],
      ['On-Hold', 'on_hold'],
      ['Dropped', 'dropped'],
    ])('MAL status %s becomes %s', async (mal, status) => {
      const { user, as } = await member();
      await manga(1);
      await imported('read', readBody([readRecord(ID + 1, { my_status: mal })]), as);
      expect((await readRows(user)).map((row) => row.status)).toEqual([status]);
    });

    it('my_times_watched stands for my_times_read', async () => {
      const { user, as } = await member();
      await manga(1);
      const record = readRecord(ID + 1, { my_times_watched: 4 });
      delete record.my_times_read;
      await imported('read', readBody([record]), as);
      expect((await readRows(user)).map((row) => row.rereads)).toEqual([4]);
    });

    it('reads decimal strings as integers, and ignores unknown keys inside records', async () => {
      const { user, as } = await member();
      await novel(1);
      await imported(
        'read',
        readBody([
          {
            ...MAL_EXTRAS,
            manga_mangadb_id: String(ID + 1),
            my_read_chapters: '21',
            my_read_volumes: '3',
            my_score: '9',
            my_status: 'Reading',
            my_comments: 'n',
            my_times_read: '1',
          },
        ]),
        as,
      );
      expect(await readRows(user)).toEqual([
        {
          content_type: 'novel',
          extcat_id: ID + 1,
          status: 'reading',
          score: 9,
          note: 'n',
          chapters: 21,
          volumes: 3,
          rereads: 1,
        },
      ]);
    });
  });

  describe('matching', () => {
    it('matches each id against both manga and novels: one record can make a manga and a novel entry', async () => {
      const { user, as } = await member();
      await manga(1);
      await novel(1);
      await manga(2);
      await novel(3);
      await imported(
        'read',
        readBody([
          readRecord(ID + 1, { my_score: 5 }),
          readRecord(ID + 2, { my_score: 6 }),
          readRecord(ID + 3, { my_score: 7 }),
        ]),
        as,
      );
      expect((await readRows(user)).map((row) => [row.content_type, row.extcat_id, row.score])).toEqual([
        ['manga', ID + 1, 5],
        ['manga', ID + 2, 6],
        ['novel', ID + 1, 5],
        ['novel', ID + 3, 7],
      ]);
      await expectFiguresMatchEntries('manga');
      await expectFiguresMatchEntries('novel');
    });

    it('skips unknown ids, deleted titles and anime ids; the last record of a title wins', async () => {
      const { user, as } = await member();
      await manga(1);
      await novel(1, { deleted: true });
      await manga(2, { deleted: true });
      await anime(3);
      await imported(
        'read',
        readBody([
          readRecord(ID + 1, { my_score: 1, my_comments: 'first' }),
          readRecord(ID + 2, { my_score: 2 }),
          readRecord(ID + 3, { my_score: 3 }),
          readRecord(ID + 99, { my_score: 4 }),
          readRecord(ID + 1, { my_score: 9, my_comments: 'last' }),
        ]),
        as,
      );
      expect(await readRows(user)).toEqual([
        expect.objectContaining({ content_type: 'manga', extcat_id: ID + 1, score: 9, note: 'last' }),
      ]);
      expect(await watchRows(user)).toEqual([]);
      await expectFiguresMatchEntries('manga');
      await expectFiguresMatchEntries('novel');
    });
  });

  describe('caps', () => {
    it('caps chapters and volumes at 10000 (not at the title’s totals) and rereads at 100', async () => {
      const { user, as } = await member();
      await manga(1, { chapters: 100, volumes: 10 });
      await imported(
        'read',
        readBody([
          readRecord(ID + 1, { my_read_chapters: 20000, my_read_volumes: 15000, my_times_read: 150 }),
        ]),
        as,
      );
      expect(await readRows(user)).toEqual([
        expect.objectContaining({ chapters: 10000, volumes: 10000, rereads: 100 }),
      ]);
    });

    it('keeps counts up to the caps as given (above the title’s own totals)', async () => {
      const { user, as } = await member();
      await novel(1, { chapters: 10, volumes: 1 });
      await imported(
        'read',
        readBody([readRecord(ID + 1, { my_read_chapters: 10000, my_read_volumes: 500, my_times_read: 100 })]),
        as,
      );
      expect(await readRows(user)).toEqual([
        expect.objectContaining({ chapters: 10000, volumes: 500, rereads: 100 }),
      ]);
    });

    it('counts far above the caps (any integer ≥ 0 is valid) are capped, not refused', async () => {
      const { user, as } = await member();
      await manga(1);
      const res = await importRest(
        'read',
        readBody([
          readRecord(ID + 1, {
            my_read_chapters: 3_000_000_000,
            my_read_volumes: 3_000_000_000,
            my_times_read: 3_000_000_000,
          }),
        ]),
        as,
      );
      expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { success: true } });
      expect(await readRows(user)).toEqual([
        expect.objectContaining({ chapters: 10000, volumes: 10000, rereads: 100 }),
      ]);
    });

    it('keeps at most 2048 characters of a note; blank notes and objects become null', async () => {
      const { user, as } = await member();
      await manga(1);
      await manga(2);
      await manga(3);
      await imported(
        'read',
        readBody([
          readRecord(ID + 1, { my_comments: 'я'.repeat(2500) }),
          readRecord(ID + 2, { my_comments: ' \n ' }),
          readRecord(ID + 3, { my_comments: {} }),
        ]),
        as,
      );
      expect((await readRows(user)).map((row) => row.note)).toEqual(['я'.repeat(2048), null, null]);
    });
  });

  describe('existing entries', () => {
    it('overwrite false keeps existing entries (of either kind); true replaces them', async () => {
      const { user, as } = await member();
      await manga(1);
      const n = await novel(1);
      // Made by PUT, so that the native figures count it as a list write does.
      const put = await rest(
        t.app,
        'PUT',
        '/read/manga/manga-1',
        { status: 'dropped', score: 3, note: 'old', chapters: 1 },
        as,
      );
      expect(put.status).toBe(200);
      const record = readRecord(ID + 1, { my_score: 9, my_status: 'Completed', my_read_chapters: 100 });
      await imported('read', readBody([record], false), as);
      expect(await readRows(user)).toEqual([
        {
          content_type: 'manga',
          extcat_id: ID + 1,
          status: 'dropped',
          score: 3,
          note: 'old',
          chapters: 1,
          volumes: 0,
          rereads: 0,
        },
        expect.objectContaining({ content_type: 'novel', status: 'completed', score: 9, chapters: 100 }),
      ]);
      const [novelEntry] = await sql<{ reference: string }>(
        `select reference from read_entry where novel_reference = ?`,
        [n.reference],
      );
      await imported('read', readBody([readRecord(ID + 1, { my_score: 2, my_status: 'On-Hold' })], true), as);
      expect(await readRows(user)).toEqual([
        expect.objectContaining({
          content_type: 'manga',
          status: 'on_hold',
          score: 2,
          note: null,
          chapters: 0,
        }),
        expect.objectContaining({
          content_type: 'novel',
          status: 'on_hold',
          score: 2,
          note: null,
          chapters: 0,
        }),
      ]);
      const [again] = await sql<{ reference: string }>(
        `select reference from read_entry where novel_reference = ?`,
        [n.reference],
      );
      expect(again.reference).toBe(novelEntry.reference);
      await expectFiguresMatchEntries('manga');
      await expectFiguresMatchEntries('novel');
    });
  });

  describe('native score, list time and stats', () => {
    const SCORES = [10, 9, 9, 8, 8, 7, 7, 6, 5, 4, 0, 3];

    it('manga and novel native figures move exactly as PUT /read/{content_type}/{slug} moves them', async () => {
      await manga(1, { slug: 'imported-manga' });
      await novel(1, { slug: 'imported-novel' });
      await manga(2, { slug: 'typed-manga' });
      await novel(3, { slug: 'typed-novel' });
      const importers: CallOptions[] = [];
      const typers: CallOptions[] = [];
      for (const score of SCORES) {
        const importer = await member();
        importers.push(importer.as);
        await imported('read', readBody([readRecord(ID + 1, { my_score: score })]), importer.as);
        const typer = await member();
        typers.push(typer.as);
        for (const kind of ['manga', 'novel']) {
          const res = await rest(
            t.app,
            'PUT',
            `/read/${kind}/typed-${kind}`,
            { status: 'reading', score },
            typer.as,
          );
          expect(res.status).toBe(200);
        }
      }
      for (const [i, score] of [
        [0, 1],
        [3, 0],
        [10, 10],
      ] as const) {
        await imported('read', readBody([readRecord(ID + 1, { my_score: score })], true), importers[i]);
        for (const kind of ['manga', 'novel']) {
          const res = await rest(
            t.app,
            'PUT',
            `/read/${kind}/typed-${kind}`,
            { status: 'reading', score },
            typers[i],
          );
          expect(res.status).toBe(200);
        }
      }
      for (const kind of ['manga', 'novel'] as const) {
        const figures = await servedFigures(kind, `imported-${kind}`);
        expect(figures.native_scored_by).toBe(11);
        expect(figures.native_score).toBeGreaterThan(0);
        expect(figures).toEqual(await servedFigures(kind, `typed-${kind}`));
        await expectFiguresMatchEntries(kind);
      }
    });

    it('manga stats (§6.2) and GET /read/{content_type}/{username}/stats reflect the import', async () => {
      const { user, as } = await member();
      await manga(1, { slug: 'shared' });
      await novel(1);
      await manga(2);
      await novel(3);
      await imported(
        'read',
        readBody([
          readRecord(ID + 1, { my_status: 'Completed', my_score: 8 }),
          readRecord(ID + 2, { my_status: 'On-Hold' }),
          readRecord(ID + 3, { my_status: 'Dropped', my_score: 2 }),
        ]),
        as,
      );
      const mangaStats = await rest(t.app, 'GET', `/read/manga/${user.username}/stats`);
      const novelStats = await rest(t.app, 'GET', `/read/novel/${user.username}/stats`);
      expect(mangaStats.body).toEqual({ completed: 1, reading: 0, planned: 0, on_hold: 1, dropped: 0 });
      expect(novelStats.body).toEqual({ completed: 1, reading: 0, planned: 0, on_hold: 0, dropped: 1 });
      const page = await rest(t.app, 'GET', '/manga/shared');
      expect(page.status).toBe(200);
      expect(page.body.stats).toMatchObject({ completed: 1, reading: 0, score_8: 1 });
    });

    it('sets the user’s list time', async () => {
      const { user, as } = await member();
      await novel(1);
      const before = Date.now();
      await imported('read', readBody([readRecord(ID + 1)]), as);
      const at = await listsUpdated(user);
      expect(at!.getTime()).toBeGreaterThanOrEqual(before - 1);
      expect(at!.getTime()).toBeLessThanOrEqual(Date.now());
    });
  });
});

// ===========================================================================

describe('validation (both doors)', () => {
  describe('the closed top level', () => {
    it.each(DOORS)('%s: unknown top-level keys, missing and mistyped fields', async (door) => {
      const { as } = await member();
      const list = LIST[door];
      const cases: [Json, string][] = [
        [{ overwrite: false, [list]: [], extra: 1 }, 'extra'],
        [
          { overwrite: false, [list]: [], [door === 'watch' ? 'content' : 'anime']: [] },
          door === 'watch' ? 'content' : 'anime',
        ],
        [{ [list]: [] }, 'overwrite'],
        [{ overwrite: false }, list],
        [{}, 'overwrite'],
        [{ overwrite: 'true', [list]: [] }, 'overwrite'],
        [{ overwrite: 1, [list]: [] }, 'overwrite'],
        [{ overwrite: null, [list]: [] }, 'overwrite'],
        [{ overwrite: true, [list]: null }, list],
        [{ overwrite: true, [list]: {} }, list],
        [{ overwrite: true, [list]: 'records' }, list],
        // Body fields in order, then unknown keys.
        [{ overwrite: 'x', [list]: 'x' }, 'overwrite'],
        [{ extra: 1, overwrite: true, [list]: 'x' }, list],
      ];
      for (const [body, field] of cases) await expectFailure(door, body, as, validation(field));
    });

    it.each(DOORS)('%s: a body that is missing or no object names no field', async (door) => {
      const { as } = await member();
      for (const body of [undefined, [], ['x'], 'text']) {
        await expectFailure(door, body, as, validation());
      }
    });

    it.each(DOORS)('%s: the message in Ukrainian', async (door) => {
      const { as } = await member();
      const res = await importRest(door, { overwrite: false }, { ...as, language: 'uk' });
      expect(res.body).toEqual({
        code: 'system:validation_error',
        message: `Некоректне поле ${LIST[door]} у запиті body`,
      });
    });
  });

  describe('watch records', () => {
    const missing = (field: string) => {
      const record = watchRecord(ID + 1);
      delete record[field];
      return record;
    };
    it.each<[string, unknown]>([
      ['a number', 1],
      ['null', null],
      ['a string', 'record'],
      ['an array', [watchRecord(ID + 1)]],
      ['no series_animedb_id', missing('series_animedb_id')],
      ['no my_watched_episodes', missing('my_watched_episodes')],
      ['no my_status', missing('my_status')],
      ['no my_comments', missing('my_comments')],
      ['series_animedb_id -1', watchRecord(-1)],
      ['series_animedb_id 1000001', watchRecord(1_000_001)],
      ['series_animedb_id "1000001"', watchRecord('1000001' as unknown as number)],
      ['series_animedb_id 1.5', watchRecord(1.5)],
      ['series_animedb_id "x"', watchRecord('x' as unknown as number)],
      ['series_animedb_id ""', watchRecord('' as unknown as number)],
      ['series_animedb_id null', watchRecord(null as unknown as number)],
      ['series_animedb_id true', watchRecord(true as unknown as number)],
      ['my_watched_episodes -1', watchRecord(ID + 1, { my_watched_episodes: -1 })],
      ['my_watched_episodes 10001', watchRecord(ID + 1, { my_watched_episodes: 10001 })],
      ['my_watched_episodes "2.0"', watchRecord(ID + 1, { my_watched_episodes: '2.0' })],
      ['my_watched_episodes null', watchRecord(ID + 1, { my_watched_episodes: null })],
      ['my_times_watched -1', watchRecord(ID + 1, { my_times_watched: -1 })],
      ['my_times_watched "-1"', watchRecord(ID + 1, { my_times_watched: '-1' })],
      ['my_times_watched 0.5', watchRecord(ID + 1, { my_times_watched: 0.5 })],
      ['my_times_watched null', watchRecord(ID + 1, { my_times_watched: null })],
      ['my_score -1', watchRecord(ID + 1, { my_score: -1 })],
      ['my_score 11', watchRecord(ID + 1, { my_score: 11 })],
      ['my_score "11"', watchRecord(ID + 1, { my_score: '11' })],
      ['my_score false', watchRecord(ID + 1, { my_score: false })],
      ['my_status in lower case', watchRecord(ID + 1, { my_status: 'completed' })],
      ['my_status of the service', watchRecord(ID + 1, { my_status: 'planned' })],
      ['a read status', watchRecord(ID + 1, { my_status: 'Plan to Read' })],
      ['my_status "Reading"', watchRecord(ID + 1, { my_status: 'Reading' })],
      ['my_status null', watchRecord(ID + 1, { my_status: null })],
      ['my_comments null', watchRecord(ID + 1, { my_comments: null })],
      ['my_comments a number', watchRecord(ID + 1, { my_comments: 5 })],
      ['my_comments an array', watchRecord(ID + 1, { my_comments: ['a'] })],
      ['my_comments true', watchRecord(ID + 1, { my_comments: true })],
    ])('a record with %s → 400 Invalid field anime in request body', async (_, record) => {
      const { as } = await member();
      await anime(1);
      // The bad record after a good one: nothing is imported.
      await expectFailure('watch', watchBody([watchRecord(ID + 1), record]), as, validation('anime'));
    });

    it.each<[string, Json]>([
      ['the lower bounds', watchRecord(0, { my_watched_episodes: 0, my_times_watched: 0, my_score: 0 })],
      [
        'the upper bounds',
        watchRecord(1_000_000, { my_watched_episodes: 10000, my_times_watched: 100, my_score: 10 }),
      ],
      ['"-0" as 0', watchRecord(ID + 1, { my_watched_episodes: '-0' })],
      ['an empty note', watchRecord(ID + 1, { my_comments: '' })],
    ])('accepts %s', async (_, record) => {
      const { as } = await member();
      await anime(1);
      await imported('watch', watchBody([record]), as);
    });
  });

  describe('read records', () => {
    const missing = (field: string) => {
      const record = readRecord(ID + 1);
      delete record[field];
      return record;
    };
    it.each<[string, unknown]>([
      ['a number', 1],
      ['null', null],
      ['no manga_mangadb_id', missing('manga_mangadb_id')],
      ['no my_read_chapters', missing('my_read_chapters')],
      ['no my_read_volumes', missing('my_read_volumes')],
      ['no my_score', missing('my_score')],
      ['no my_status', missing('my_status')],
      ['no my_comments', missing('my_comments')],
      ['neither my_times_read nor my_times_watched', missing('my_times_read')],
      ['manga_mangadb_id -1', readRecord(-1)],
      ['manga_mangadb_id 1000001', readRecord(1_000_001)],
      ['manga_mangadb_id "abc"', readRecord('abc' as unknown as number)],
      ['my_read_chapters -1', readRecord(ID + 1, { my_read_chapters: -1 })],
      ['my_read_chapters 1.5', readRecord(ID + 1, { my_read_chapters: 1.5 })],
      ['my_read_volumes "-2"', readRecord(ID + 1, { my_read_volumes: '-2' })],
      ['my_read_volumes null', readRecord(ID + 1, { my_read_volumes: null })],
      ['my_score 11', readRecord(ID + 1, { my_score: 11 })],
      ['my_score -1', readRecord(ID + 1, { my_score: -1 })],
      ['my_score null', readRecord(ID + 1, { my_score: null })],
      ['my_status "Watching"', readRecord(ID + 1, { my_status: 'Watching' })],
      ['my_status "Plan to Watch"', readRecord(ID + 1, { my_status: 'Plan to Watch' })],
      ['my_status "reading"', readRecord(ID + 1, { my_status: 'reading' })],
      ['my_comments null', readRecord(ID + 1, { my_comments: null })],
      ['my_comments 0', readRecord(ID + 1, { my_comments: 0 })],
      ['my_times_read -1', readRecord(ID + 1, { my_times_read: -1 })],
      ['my_times_read null', readRecord(ID + 1, { my_times_read: null })],
      ['my_times_watched -1 (alias)', { ...missing('my_times_read'), my_times_watched: -1 }],
      ['my_times_watched "x" (alias)', { ...missing('my_times_read'), my_times_watched: 'x' }],
    ])('a record with %s → 400 Invalid field content in request body', async (_, record) => {
      const { as } = await member();
      await manga(1);
      await expectFailure('read', readBody([readRecord(ID + 1), record]), as, validation('content'));
    });

    it.each<[string, Json]>([
      [
        'the lower bounds',
        readRecord(0, { my_read_chapters: 0, my_read_volumes: 0, my_score: 0, my_times_read: 0 }),
      ],
      [
        'the upper bounds',
        readRecord(1_000_000, { my_score: 10, my_read_chapters: 10000, my_times_read: 100 }),
      ],
      ['my_times_watched alone', { ...readRecord(ID + 1), my_times_read: undefined, my_times_watched: 1 }],
    ])('accepts %s', async (_, record) => {
      const { as } = await member();
      await manga(1);
      await imported('read', readBody([JSON.parse(JSON.stringify(record))]), as);
    });
  });
});

describe('authentication and scopes (both doors)', () => {
  it.each(DOORS)('%s: 401 for a missing, unknown or expired token, before validation', async (door) => {
    const { user } = await member();
    await anime(1);
    await manga(1);
    const expired = await buildToken(t.orm, user, { expiration: new Date(Date.now() - 1000) });
    // A valid body, a bad record, and (REST only: GraphQL coerces variable types before
    // anything runs, semantics §1.1) a mistyped top-level field.
    const bodies: [unknown, boolean][] = [
      [bodyOf(door, [recordOf(door, ID + 1)]), false],
      [bodyOf(door, [{}]), false],
      [{ overwrite: 'bad' }, true],
    ];
    for (const [body, restOnly] of bodies) {
      const missing = { status: 401, code: 'auth:missing_token', message: 'Auth token is missing' };
      await expectFailure(door, body, {}, missing, { restOnly });
      await expectFailure(
        door,
        body,
        { token: 'not-a-token' },
        { status: 401, code: 'auth:invalid_token' },
        { restOnly },
      );
      await expectFailure(
        door,
        body,
        { token: expired },
        { status: 401, code: 'auth:token_expired' },
        { restOnly },
      );
    }
    expect(await listsUpdated(user)).toBeNull();
  });

  it.each(DOORS)(
    "%s: a deleted user's token is 400 user:deleted; a banned user's 403 auth:banned",
    async (door) => {
      const gone = await member({ role: 'deleted' });
      const banned = await member({ banned: true });
      await anime(1);
      await manga(1);
      const body = bodyOf(door, [recordOf(door, ID + 1)]);
      await expectFailure(door, body, gone.as, { status: 400, code: 'user:deleted' });
      await expectFailure(door, body, banned.as, { status: 403, code: 'auth:banned' });
    },
  );

  it.each(DOORS)('%s: the auth cookie works as the header does', async (door) => {
    const { user, as } = await member();
    await anime(1);
    await manga(1);
    await imported(door, bodyOf(door, [recordOf(door, ID + 1)]), { cookie: as.token });
    expect(await rowsOf(door, user)).toHaveLength(1);
  });

  const SCOPES: [string, string[], Record<Door, number>][] = [
    ['update:watchlist', ['update:watchlist'], { watch: 200, read: 403 }],
    ['update:readlist', ['update:readlist'], { watch: 403, read: 200 }],
    ['the watchlist group', ['watchlist'], { watch: 200, read: 403 }],
    ['the readlist group', ['readlist'], { watch: 403, read: 200 }],
    ['read scopes only', ['read:watchlist', 'read:readlist', 'export'], { watch: 403, read: 403 }],
    ['all', ['all'], { watch: 200, read: 200 }],
  ];
  it.each(SCOPES)('a third-party token with %s: watch / read answer %p', async (_, scope, statuses) => {
    const { user } = await member();
    await anime(1);
    await manga(1);
    const token = await thirdParty(user, scope);
    for (const door of DOORS) {
      const body = bodyOf(door, [recordOf(door, ID + 1, { my_score: 5 })]);
      if (statuses[door] === 403) {
        await expectFailure(door, body, token, DENIED);
        expect(await rowsOf(door, user)).toEqual([]);
      } else {
        await imported(door, body, token);
        expect(await rowsOf(door, user)).toEqual([expect.objectContaining({ score: 5 })]);
      }
    }
  });

  it.each(DOORS)('%s: the body is checked before the scope (400 before 403)', async (door) => {
    const { user } = await member();
    const token = await thirdParty(user, ['read:watchlist']);
    await expectFailure(door, { overwrite: true, [LIST[door]]: [{}] }, token, validation(LIST[door]));
    await expectFailure(door, bodyOf(door, []), token, DENIED);
  });

  it.each(DOORS)('%s: a refused import changes neither figures nor the list time', async (door) => {
    const { user } = await member();
    const title = door === 'watch' ? await anime(1) : await manga(1);
    const token = await thirdParty(user, ['favourite']);
    await expectFailure(door, bodyOf(door, [recordOf(door, ID + 1, { my_score: 9 })]), token, DENIED);
    expect(await storedFigures(door === 'watch' ? 'anime' : 'manga', title.reference)).toEqual({
      native_scored_by: 0,
      native_score_total: 0,
    });
    expect(await listsUpdated(user)).toBeNull();
  });
});

describe('nothing half-written', () => {
  it('watch: a failure while writing the list time leaves no entry, no figure moved, no list time', async () => {
    const { user, as } = await member();
    const titles = [await anime(1), await anime(2)];
    const body = watchBody([watchRecord(ID + 1, { my_score: 8 }), watchRecord(ID + 2, { my_score: 6 })]);
    for (const call of [() => importRest('watch', body, as), () => importGql('watch', body, as)]) {
      const res = await withFailingWrites(
        '"user"',
        'new.lists_updated is distinct from old.lists_updated',
        call,
      );
      const error = res.body.errors ? graphError(res.body) : { status: res.status, ...res.body };
      expect(error).toEqual({ status: 500, code: 'system:internal_error', message: 'Internal server error' });
      expect(await watchRows(user)).toEqual([]);
      for (const title of titles) {
        expect(await storedFigures('anime', title.reference)).toEqual({
          native_scored_by: 0,
          native_score_total: 0,
        });
      }
      expect(await sql(`select * from native_score_baseline`)).toEqual([]);
      expect(await listsUpdated(user)).toBeNull();
    }
    // The same import succeeds once nothing fails.
    await imported('watch', body, as);
    expect(await watchRows(user)).toHaveLength(2);
    await expectFiguresMatchEntries('anime');
  });

  it('watch: a failure on one record keeps existing entries as they were, even with overwrite', async () => {
    const { user, as } = await member();
    const first = await anime(1);
    await anime(2);
    await buildWatchEntry(t.orm, user, first, { status: 'dropped', score: 4, note: 'kept' });
    const before = await watchRows(user);
    const res = await withFailingWrites('watch_entry', 'new.score = 7', () =>
      importRest(
        'watch',
        watchBody([watchRecord(ID + 1, { my_score: 1 }), watchRecord(ID + 2, { my_score: 7 })], true),
        as,
      ),
    );
    expect(res.status).toBe(500);
    expect(await watchRows(user)).toEqual(before);
  });

  it('read: a failure writing the novels leaves none of the manga written before them', async () => {
    const { user, as } = await member();
    const m = await manga(1);
    const n = await novel(1);
    const body = readBody([readRecord(ID + 1, { my_score: 9 })]);
    for (const call of [() => importRest('read', body, as), () => importGql('read', body, as)]) {
      const res = await withFailingWrites('read_entry', "new.content_type = 'novel'", call);
      const error = res.body.errors ? graphError(res.body) : { status: res.status, ...res.body };
      expect(error).toEqual({ status: 500, code: 'system:internal_error', message: 'Internal server error' });
      expect(await readRows(user)).toEqual([]);
      expect(await storedFigures('manga', m.reference)).toEqual({
        native_scored_by: 0,
        native_score_total: 0,
      });
      expect(await storedFigures('novel', n.reference)).toEqual({
        native_scored_by: 0,
        native_score_total: 0,
      });
      expect(await sql(`select * from native_score_baseline`)).toEqual([]);
      expect(await listsUpdated(user)).toBeNull();
    }
    await imported('read', body, as);
    expect((await readRows(user)).map((row) => row.content_type)).toEqual(['manga', 'novel']);
  });

  it('concurrent imports of one user: one entry per title, figures consistent with the entries', async () => {
    const { user, as } = await member();
    await anime(1);
    await anime(2);
    const answers = await Promise.all(
      [3, 5, 7, 9].map((score) =>
        importRest(
          'watch',
          watchBody(
            [watchRecord(ID + 1, { my_score: score }), watchRecord(ID + 2, { my_score: score })],
            true,
          ),
          as,
        ),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200]);
    const rows = await watchRows(user);
    expect(rows).toHaveLength(2);
    expect(rows[0].score).toBe(rows[1].score);
    await expectFiguresMatchEntries('anime');
  });
});

describe('REST ≡ GraphQL', () => {
  it.each(DOORS)(
    '%s: both GraphQL documents answer {success: true} and write what REST writes',
    async (door) => {
      const viaRest = await member();
      const viaGql = await member();
      const viaTwin = await member();
      await anime(1);
      await anime(2, { episodes_total: null, duration: 30 });
      await manga(1);
      await novel(2);
      const records =
        door === 'watch'
          ? [
              watchRecord(ID + 1, {
                my_watched_episodes: '40',
                my_times_watched: 3,
                my_score: 6,
                my_comments: 'n',
              }),
              watchRecord(ID + 2, { my_watched_episodes: 2, my_status: 'Dropped', ...MAL_EXTRAS }),
              watchRecord(ID + 3),
            ]
          : [
              readRecord(ID + 1, {
                my_read_chapters: '12000',
                my_read_volumes: 4,
                my_score: 6,
                my_comments: 'n',
              }),
              {
                ...readRecord(ID + 2, { my_status: 'Completed', my_times_watched: 2, ...MAL_EXTRAS }),
                my_times_read: undefined,
              },
              readRecord(ID + 3),
            ];
      const body = JSON.parse(JSON.stringify(bodyOf(door, records))) as Json;
      const restAnswer = await importRest(door, body, viaRest.as);
      const gqlAnswer = await importGql(door, body, viaGql.as);
      const twinAnswer = await importGql(door, body, viaTwin.as, executedTwin(routeOf(door).document));
      expect(restAnswer.status).toBe(200);
      expect(gqlAnswer.body.errors).toBeUndefined();
      expect(twinAnswer.body.errors).toBeUndefined();
      expect(gqlAnswer.body.data[ROOT[door]]).toEqual(restAnswer.body);
      expect(twinAnswer.body.data).toEqual({ __typename: 'Mutation', [ROOT[door]]: restAnswer.body });
      const written = await rowsOf(door, viaRest.user);
      expect(written).toHaveLength(2);
      expect(await rowsOf(door, viaGql.user)).toEqual(written);
      expect(await rowsOf(door, viaTwin.user)).toEqual(written);
    },
  );

  it.each<[string, Door, (as: CallOptions) => unknown]>([
    ['watch: a bad record', 'watch', () => watchBody([watchRecord(ID + 1, { my_score: 11 })])],
    ['watch: an unknown top-level key', 'watch', () => ({ ...watchBody([]), anime_list: [] })],
    ['watch: no overwrite', 'watch', () => ({ anime: [] })],
    ['read: a bad record', 'read', () => readBody([readRecord(ID + 1, { my_status: 'Watching' })])],
    ['read: an unknown top-level key', 'read', () => ({ ...readBody([]), novel: [] })],
    ['read: no content', 'read', () => ({ overwrite: true })],
  ])('%s fails alike over REST and GraphQL (also in Ukrainian)', async (_, door, body) => {
    const { as } = await member();
    const expected = await importRest(door, body(as), as);
    expect(expected.status).toBe(400);
    await expectFailure(door, body(as), as, {
      status: 400,
      code: 'system:validation_error',
      message: expected.body.message,
    });
    const uk = await importRest(door, body(as), { ...as, language: 'uk' });
    const ukGql = await importGql(door, body(as), { ...as, language: 'uk' });
    expect(graphError(ukGql.body)).toEqual({ status: 400, code: uk.body.code, message: uk.body.message });
  });
});

describe('bounded SQL', () => {
  /** Names the round trips of an import: the user's lock and each kind's import statement. */
  const kindOf = (statement: string) => {
    if (statement.startsWith('select 1 from "user"')) return 'lock';
    if (statement.startsWith('with input')) return 'import';
    return undefined;
  };

  /** The round trips of one import of `n` records (all matching) by a warmed-up caller. */
  async function statements(door: Door, n: number, via: 'rest' | 'gql'): Promise<string[]> {
    const { as } = await member();
    await importRest(door, bodyOf(door, []), as);
    const body = bodyOf(
      door,
      Array.from({ length: n }, (_, i) => recordOf(door, ID + 1 + i, { my_score: (i % 10) + 1 })),
    );
    return t.queries.kinds(async () => {
      const res = via === 'rest' ? await importRest(door, body, as) : await importGql(door, body, as);
      expect(res.status).toBe(200);
      expect(res.body.errors).toBeUndefined();
    }, kindOf);
  }

  it.each(DOORS)('%s: the same statements for 1 and for 200 records, over REST and GraphQL', async (door) => {
    for (let i = 1; i <= 200; i += 1) {
      if (door === 'watch') await anime(i);
      else if (i % 2 === 0) await manga(i);
      else await novel(i);
    }
    const one = await statements(door, 1, 'rest');
    // The token, the lock, one set-based statement per title kind, the commit.
    expect(one).toEqual(
      door === 'watch'
        ? ['token', 'begin+lock', 'import', 'commit']
        : ['token', 'begin+lock', 'import', 'import', 'commit'],
    );
    expect(await statements(door, 200, 'rest')).toEqual(one);
    expect(await statements(door, 200, 'gql')).toEqual(one);
    const counts = await sql<{ n: number }>(
      door === 'watch'
        ? `select count(*)::int as n from watch_entry`
        : `select count(*)::int as n from read_entry`,
    );
    expect(counts[0].n).toBe(1 + 200 + 200);
  });

  it('a record matching both a manga and a novel costs no more statements than one matching one', async () => {
    await manga(1);
    await novel(1);
    await manga(2);
    const { as } = await member();
    await importRest('read', readBody([]), as);
    const both = await t.queries.kinds(() => importRest('read', readBody([readRecord(ID + 1)]), as), kindOf);
    const one = await t.queries.kinds(() => importRest('read', readBody([readRecord(ID + 2)]), as), kindOf);
    expect(both).toEqual(one);
  });
});
