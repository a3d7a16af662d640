import 'reflect-metadata';
import { execFileSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import pino from 'pino';
import request from 'supertest';
import { createAccountServices } from '../src/accounts/account-services';
import { hashSecret } from '../src/common/auth/secrets';
import { buildApp } from '../src/app';
import { openClientSecretBox } from '../src/clients/client-secret-keys';
import { loadConfig } from '../src/config';
import { RequestContext } from '../src/context';
import { ensureDatabase } from '../src/db/database';
import { createOrm, migrate } from '../src/orm';
import { freeLoopbackPort, startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded';
import { numbered, statementsInOrder } from '../src/db/sql';
import { graphqlLimitsOf } from '../src/graphql/limits';
import { OperationRunner } from '../src/graphql/runner';
import { describePhase, seedDemoData } from '../src/import/demo-data';
import type { RestRoute } from '../src/rest/route';
import { restRoutes } from '../src/routes';
import { startProcess, startService } from './bench-service';
import { type DoomedClient, FLOOR_SUBJECTS, prepareWriteSubjects, type WriteSubjects } from './bench-writes';
import { buildAppSchema } from '../src/schema';

/**
 * `npm run bench`: loads demo data at scale 10 (≥ 20,000 titles, ≥ 200,000 list
 * entries) into a database of its own, starts the service as `npm start` does, and
 * measures every contract endpoint at 32 concurrent connections: requests per second,
 * median and p99 latency, and the SQL statements one request sends. Each compiled read
 * is set against a floor: express and pg sending the route's final statement (one
 * statement building the same JSON, checked equal to the service's) with no look-ups,
 * checks or GraphQL. Each write is set against the statements it sends, replayed from
 * pg in one transaction (a write that cannot repeat on one subject, on another subject
 * each time; ./bench-writes.ts makes the writes' subjects). Then the mixed load of reads and writes (./mixed-load.ts) runs.
 * DATABASE_URL, when set, names the server; the database `catalog_bench` is used on it.
 * BENCH_ONLY (contract numbers or paths, comma-separated) limits the run to those endpoints,
 * without the mixed load.
 */
const SCALE = Number(process.env.BENCH_SCALE ?? '10');
const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? '10');
const WORKERS = 3;
/**
 * `BENCH_ONLY=16,19,/anime/{slug}`: only these endpoints, by contract number or path (all by
 * default, then the mixed load), for a quick look at a few.
 */
const ONLY = process.env.BENCH_ONLY?.split(',');
const chosen = (key: RouteKey): boolean =>
  !ONLY || ONLY.includes(typeof key === 'number' ? String(key) : key.slice(key.indexOf(' ') + 1));
/** `BENCH_SQL=1`: print the statements each write sends. */
const SHOW_SQL = process.env.BENCH_SQL === '1';
/** Routes with a floor run this many times, alternating with it; the best run of each counts. */
const FLOOR_ROUNDS = 2;

/** A route of the table: a contract endpoint by number, else `<method> <path>` (`GET /anime/{slug}`). */
type RouteKey = number | `${'GET' | 'POST'} /${string}`;

const routeOf = (key: RouteKey): RestRoute => {
  const route = restRoutes.find((r) =>
    typeof key === 'number' ? r.contract === key : `${r.method} ${r.path}` === key,
  );
  if (!route) throw new Error(`no route ${key}`);
  return route;
};

interface Scenario {
  name: string;
  route: RouteKey;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** POST routes: the JSON body. */
  body?: unknown;
  /** The route's GraphQL variables, for a floor: only compiled routes have one. */
  floor?: Record<string, unknown>;
  /** For a `/graphql` scenario sending a route's own document: that route's scenario, whose JSON it must answer. */
  sameAs?: string;
  /** `Accept-Encoding` of the requests (none by default: answers uncompressed). */
  encoding?: string;
  /** Request headers (a write's token). */
  headers?: Record<string, string>;
  /** What request `n` (0: the inspected one, then 1, 2, … under load) changes: a new subject for each. */
  vary?: (n: number) => { path?: string; headers?: Record<string, string>; body?: unknown };
  /**
   * A write: `replayable` where its statements can run again as they are (its floor
   * replays them); `once` where they cannot (they create or delete a row by its key):
   * its floor replays them with another subject in place of the inspected request's
   * each time ({@link Scenario.floorSubjects}).
   */
  write?: 'replayable' | 'once';
  /**
   * A `once` write's subjects for its floor: the values that name the inspected
   * request's subject in its statements (keys, a token's hash), and the same values of
   * the subjects the floor writes instead, one per request. Given the inspected
   * request's answer and a query on the bench database.
   */
  floorSubjects?: (
    answer: unknown,
    query: (sql: string, params: unknown[]) => Promise<unknown[]>,
  ) => Promise<FloorSubjects>;
}

/** See {@link Scenario.floorSubjects}. */
interface FloorSubjects {
  first: string[];
  others: string[][];
}

/** The contract route's own document sent to `/graphql`, unpersisted, as a frontend would send it. */
function viaGraphql(scenario: Scenario, variables: Record<string, unknown>): Scenario {
  const route = routeOf(scenario.route);
  return {
    name: `${scenario.name}, /graphql`,
    route: scenario.route,
    method: 'POST',
    path: '/graphql',
    body: { query: route.document, variables },
    sameAs: scenario.name,
  };
}

/** Documents a frontend writes itself: aliases, fragments, literal filters, another page size, two root fields. */
function ownDocuments(d: Data): Scenario[] {
  const graphql = (name: string, route: RouteKey, query: string, variables = {}): Scenario => ({
    name,
    route,
    method: 'POST',
    path: '/graphql',
    body: { query, variables },
  });
  return [
    graphql(
      '#16 own document, /graphql',
      16,
      `
        query MangaPage($slug: String!) {
          page: manga(slug: $slug) {
            ...Head
            title: title_en
            synopsis: synopsis_en
            authors {
              person {
                ...Person
              }
              roles {
                slug
                name_en
              }
            }
            genres {
              slug
              name_en
            }
            stats {
              completed
              reading
              score_10
            }
          }
        }
        fragment Head on Manga {
          slug
          media_type
          status
          score
          year
          image
        }
        fragment Person on Person {
          slug
          name_en
          image
        }
      `,
      { slug: d.manga },
    ),
    graphql(
      '#3 own document, /graphql',
      3,
      `
        {
          novelSearch(size: 30, input: { years: [2000, 2020], sort: ["start_date:asc"] }) {
            pagination {
              total
              pages
            }
            list {
              slug
              title_en
              score
              year
              read {
                status
                score
              }
            }
          }
        }
      `,
    ),
    graphql(
      '#16+#3 two roots, /graphql',
      16,
      `
        query Two($slug: String!) {
          manga(slug: $slug) {
            slug
            title_en
            score
          }
          novelSearch(size: 10) {
            pagination {
              total
            }
            list {
              slug
              title_en
            }
          }
        }
      `,
      { slug: d.manga },
    ),
  ];
}

async function benchDatabase(): Promise<{ url: string; embedded?: EmbeddedDatabase }> {
  if (process.env.DATABASE_URL)
    return { url: await ensureDatabase(process.env.DATABASE_URL, 'catalog_bench') };
  const embedded = await startEmbeddedPostgres({ dataDir: resolve('.data/bench-postgres') });
  return { url: await ensureDatabase(embedded.serverUrl, 'catalog_bench'), embedded };
}

async function loadData(url: string): Promise<void> {
  const orm = await createOrm(url);
  // The key the service started below finds too (CLIENT_SECRET_KEY, or the data folder's key file).
  const clientSecrets = openClientSecretBox(loadConfig());
  try {
    await migrate(orm, clientSecrets);
    const [{ titles }] = await orm.em
      .getConnection()
      .execute<{ titles: number }[]>(
        `select (select count(*) from anime) + (select count(*) from manga) + (select count(*) from novel) as titles`,
      );
    if (Number(titles) >= 2000 * SCALE) return;
    console.log(`loading demo data at scale ${SCALE} ...`);
    const started = Date.now();
    await seedDemoData(orm, pino({ level: 'warn' }), clientSecrets, {
      scale: SCALE,
      onPhase: (report) => console.log(describePhase(report)),
    });
    console.log(`loaded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await orm.close();
  }
}

/** Path values for every scenario, chosen from the loaded data (the busiest of each kind). */
async function discover(url: string) {
  const orm = await createOrm(url);
  try {
    const connection = orm.em.getConnection();
    const one = async (label: string, sql: string): Promise<string> => {
      const [row] = await connection.execute<{ value: string }[]>(sql);
      if (!row) throw new Error(`the demo data has no ${label}`);
      return row.value;
    };
    const [counts] = await connection.execute<{ titles: number; entries: number }[]>(
      `select (select count(*) from anime) + (select count(*) from manga) + (select count(*) from novel) as titles,
              (select count(*) from watch_entry) + (select count(*) from read_entry) as entries`,
    );
    const reader = await one(
      'reader',
      `select u.username || '/' || r.status as value from "user" u join read_entry r on r.user_reference = u.reference
        where r.novel_reference is not null group by u.username, r.status order by count(*) desc, 1 limit 1`,
    );
    return {
      titles: Number(counts.titles),
      entries: Number(counts.entries),
      watcher: await one(
        'watch list',
        `select u.username as value from "user" u join watch_entry w on w.user_reference = u.reference
          group by u.username order by count(*) desc, u.username limit 1`,
      ),
      manga: await one(
        'manga with authors',
        `select m.slug as value from manga m join credit c on c.manga_reference = m.reference
          where not m.deleted group by m.slug order by count(*) desc, m.slug limit 1`,
      ),
      castNovel: await one(
        'novel with characters',
        `select n.slug as value from novel n join appearance a on a.novel_reference = n.reference
          where not n.deleted group by n.slug order by count(*) desc, n.slug limit 1`,
      ),
      author: await one(
        'person with manga',
        `select p.slug as value from person p join credit c on c.person_reference = p.reference
          where c.manga_reference is not null group by p.slug order by count(*) desc, p.slug limit 1`,
      ),
      character: await one(
        'character in novels',
        `select c.slug as value from character c join appearance a on a.character_reference = c.reference
          where a.novel_reference is not null group by c.slug order by count(*) desc, c.slug limit 1`,
      ),
      commented: await one(
        'commented manga',
        `select m.slug as value from manga m where not m.deleted order by m.comments_count desc, m.slug limit 1`,
      ),
      thread: await one(
        'comment thread',
        `select reference::text as value from comment where depth = 1 and not deleted and not hidden and not private
          order by total_replies desc, reference limit 1`,
      ),
      franchise: await one(
        'franchise',
        `select a.slug as value from anime a where a.franchise_reference is not null and not a.deleted
          order by a.slug limit 1`,
      ),
      collection: await one(
        'public collection',
        `select reference::text as value from collection where visibility = 'public' and not deleted
          order by entries desc, reference limit 1`,
      ),
      reader,
      // The info pages: the title with the most to show of each kind, the busiest people.
      anime: await one(
        'anime with companies and a schedule',
        `select a.slug as value from anime a where not a.deleted
          order by (select count(*) from anime_company c where c.anime_reference = a.reference)
            + (select count(*) from airing_episode e where e.anime_reference = a.reference) desc, a.slug limit 1`,
      ),
      novel: await one(
        'novel with authors',
        `select n.slug as value from novel n join credit c on c.novel_reference = n.reference
          where not n.deleted group by n.slug order by count(*) desc, n.slug limit 1`,
      ),
      person: await one(
        'credited person',
        `select p.slug as value from person p join credit c on c.person_reference = p.reference
          group by p.slug order by count(*) desc, p.slug limit 1`,
      ),
      busyCharacter: await one(
        'character in most titles',
        `select c.slug as value from character c join appearance a on a.character_reference = c.reference
          group by c.slug order by count(*) desc, c.slug limit 1`,
      ),
      followed: await one(
        'followed user',
        `select u.username as value from "user" u join follow f on f.followed_reference = u.reference
          where u.role <> 'deleted' group by u.username order by count(*) desc, u.username limit 1`,
      ),
    };
  } finally {
    await orm.close();
  }
}

type Data = Awaited<ReturnType<typeof discover>>;

function scenarios(d: Data): Scenario[] {
  const rest = restScenarios(d);
  const graphql = rest.flatMap((scenario) => (scenario.floor ? [viaGraphql(scenario, scenario.floor)] : []));
  return [...rest, ...graphql, ...ownDocuments(d)];
}

function restScenarios(d: Data): Scenario[] {
  const [readerName, readStatus] = d.reader.split('/');
  const page = { page: 1, size: 15 };
  return [
    {
      name: '#2 anime schedule',
      route: 2,
      method: 'POST',
      path: '/schedule/anime',
      body: {},
      floor: { ...page, input: {} },
    },
    {
      name: '#3 novels, size 15',
      route: 3,
      method: 'POST',
      path: '/novel?size=15',
      body: {},
      floor: { ...page, input: {} },
    },
    {
      name: '#3 novels, size 100',
      route: 3,
      method: 'POST',
      path: '/novel?size=100',
      body: {},
      floor: { page: 1, size: 100, input: {} },
    },
    // The same page compressed (the HTTP layer's br or gzip, COMPRESSION_MIN_BYTES).
    ...['br', 'gzip'].map((encoding): Scenario => ({
      name: `#3 novels, size 100, ${encoding}`,
      route: 3,
      method: 'POST',
      path: '/novel?size=100',
      body: {},
      encoding,
      sameAs: '#3 novels, size 100',
    })),
    // Worst case: with the demo vocabulary ("<noun> of <name>") this matches nearly every novel.
    {
      name: '#3 novels, text query',
      route: 3,
      method: 'POST',
      path: '/novel?size=15',
      body: { query: 'blade of' },
    },
    // A typo of one name: a few percent of the novels match, as a real title search would.
    {
      name: '#3 novels, typo query',
      route: 3,
      method: 'POST',
      path: '/novel?size=15',
      body: { query: 'hisorau' },
    },
    // Queries never sent before (their matches computed, src/catalog/title-search.ts).
    {
      name: '#3 novels, new queries',
      route: 3,
      method: 'POST',
      path: '/novel?size=15',
      body: { query: 'hisorau' },
      vary: (n) => ({ body: { query: `hisorau ${n}` } }),
    },
    {
      name: '#3 novels, filters + sort',
      route: 3,
      method: 'POST',
      path: '/novel?size=50',
      body: {
        genres: ['fantasy', '-horror'],
        score: [5, null],
        sort: ['native_score:desc', 'start_date:desc'],
      },
    },
    {
      name: '#6 edit to-do',
      route: 6,
      method: 'GET',
      path: '/edit/todo/manga/synopsis_ua',
      floor: { content_type: 'manga', todo_type: 'synopsis_ua', ...page },
    },
    {
      name: '#7 person manga',
      route: 7,
      method: 'GET',
      path: `/people/${d.author}/manga`,
      floor: { slug: d.author, ...page },
    },
    {
      name: '#8 character novels',
      route: 8,
      method: 'GET',
      path: `/characters/${d.character}/novel`,
      floor: { slug: d.character, ...page },
    },
    {
      name: '#9 title comments',
      route: 9,
      method: 'GET',
      path: `/comments/manga/${d.commented}/list`,
      floor: { content_type: 'manga', slug: d.commented, ...page },
    },
    { name: '#10 comments list', route: 10, method: 'GET', path: '/comments/list', floor: page },
    {
      name: '#13 franchise',
      route: 13,
      method: 'GET',
      path: `/related/anime/${d.franchise}/franchise`,
      floor: { content_type: 'anime', slug: d.franchise },
    },
    {
      name: '#14 collection',
      route: 14,
      method: 'GET',
      path: `/collections/${d.collection}`,
      floor: { reference: d.collection },
    },
    {
      name: '#15 collections',
      route: 15,
      method: 'POST',
      path: '/collections',
      body: {},
      floor: { ...page, input: {} },
    },
    { name: '#16 manga', route: 16, method: 'GET', path: `/manga/${d.manga}`, floor: { slug: d.manga } },
    {
      name: '#17 comment thread',
      route: 17,
      method: 'GET',
      path: `/comments/thread/${d.thread}`,
      floor: { comment_reference: d.thread },
    },
    {
      name: '#18 random read entry',
      route: 18,
      method: 'GET',
      path: `/read/novel/random/${readerName}/${readStatus}`,
    },
    {
      name: '#19 novel characters',
      route: 19,
      method: 'GET',
      path: `/novel/${d.castNovel}/characters`,
      floor: { slug: d.castNovel, ...page },
    },
    { name: '#20 latest comments', route: 20, method: 'GET', path: '/comments/latest', floor: {} },
    {
      name: '#21 watch list',
      route: 21,
      method: 'POST',
      path: `/watch/${d.watcher}/list?size=15`,
      body: {},
      floor: { username: d.watcher, ...page, input: {} },
    },
    {
      name: 'anime info',
      route: 'GET /anime/{slug}',
      method: 'GET',
      path: `/anime/${d.anime}`,
      floor: { slug: d.anime },
    },
    {
      name: 'novel info',
      route: 'GET /novel/{slug}',
      method: 'GET',
      path: `/novel/${d.novel}`,
      floor: { slug: d.novel },
    },
    {
      name: 'person info',
      route: 'GET /people/{slug}',
      method: 'GET',
      path: `/people/${d.person}`,
      floor: { slug: d.person },
    },
    {
      name: 'character info',
      route: 'GET /characters/{slug}',
      method: 'GET',
      path: `/characters/${d.busyCharacter}`,
      floor: { slug: d.busyCharacter },
    },
    {
      name: 'anime catalog',
      route: 'POST /anime',
      method: 'POST',
      path: '/anime',
      body: {},
      floor: { ...page, input: {} },
    },
    {
      name: 'manga catalog',
      route: 'POST /manga',
      method: 'POST',
      path: '/manga',
      body: {},
      floor: { ...page, input: {} },
    },
    {
      name: 'user profile',
      route: 'GET /user/{username}',
      method: 'GET',
      path: `/user/${d.followed}`,
      floor: { username: d.followed },
    },
    {
      name: '#21 watch list, filters',
      route: 21,
      method: 'POST',
      path: `/watch/${d.watcher}/list?size=100`,
      body: { years: [2000, null], media_type: ['tv', 'movie'], sort: ['score:desc'] },
    },
  ];
}

/** An article body of #4 and #5. */
const ARTICLE = {
  title: 'A benchmark article',
  document: [{ type: 'p', children: [{ text: 'Written under load' }] }],
  tags: ['bench'],
  category: 'original',
  draft: false,
};

/** The contract's writes (#1, #4, #5, #11, #12, #22), each on subjects of its own (./bench-writes.ts). */
function writeScenarios(w: WriteSubjects): Scenario[] {
  const auth = (token: string) => ({ auth: token });
  return [
    {
      name: '#22 notification seen',
      route: 22,
      method: 'POST',
      path: `/notifications/${w.notification}/seen`,
      headers: auth(w.token),
      write: 'replayable',
    },
    {
      name: '#12 client update',
      route: 12,
      method: 'PUT',
      path: `/client/${w.client}`,
      headers: auth(w.token),
      body: {
        name: 'bench write client',
        description: 'A client under load',
        endpoint: 'https://example.com/',
      },
      write: 'replayable',
    },
    {
      name: '#4 article update',
      route: 4,
      method: 'PUT',
      path: `/articles/${w.article}`,
      headers: auth(w.authorToken),
      body: ARTICLE,
      write: 'replayable',
    },
    {
      name: '#5 article create',
      route: 5,
      method: 'POST',
      path: '/articles/create',
      headers: auth(w.staffToken),
      body: ARTICLE,
      write: 'once',
      // The article's reference and slug, made by the service: the floor's are new each time.
      floorSubjects: async (answer, query) => {
        const { slug } = answer as { slug: string };
        const [{ reference }] = (await query('select reference from article where slug = ?', [slug])) as {
          reference: string;
        }[];
        return {
          first: [reference, slug],
          others: Array.from({ length: FLOOR_SUBJECTS }, (_, i) => [randomUUID(), `${slug}-${i}`]),
        };
      },
    },
    {
      name: '#11 client delete',
      route: 11,
      method: 'DELETE',
      path: `/client/${w.doomed[0].client}`,
      headers: auth(w.doomed[0].token),
      vary: (n) => ({ path: `/client/${w.doomed[n].client}`, headers: auth(w.doomed[n].token) }),
      write: 'once',
      floorSubjects: async () => {
        const values = (d: DoomedClient) => [d.client, hashSecret(d.token), d.tokenReference, d.user];
        return { first: values(w.doomed[0]), others: w.floorDoomed.map(values) };
      },
    },
    {
      name: '#1 activation resend',
      route: 1,
      method: 'POST',
      path: '/auth/activation/resend',
      headers: auth(w.unactivatedTokens[0]),
      vary: (n) => ({ headers: auth(w.unactivatedTokens[n]) }),
      write: 'replayable',
    },
  ];
}

/** Two answers are the same JSON, but for the schedule's `time_left`, which counts down between requests. */
const sameAnswer = (a: unknown, b: unknown): boolean => {
  const timeless = (body: unknown) =>
    JSON.parse(JSON.stringify(body), (key, value: unknown) => (key === 'time_left' ? undefined : value));
  return isDeepStrictEqual(timeless(a), timeless(b));
};

/** The scenario's first request (`vary(0)`), in process. */
const call = (app: Parameters<typeof request>[0], scenario: Scenario) => {
  const first = { path: scenario.path, body: scenario.body, ...scenario.vary?.(0) };
  const agent = request(app);
  const methods = { GET: agent.get, POST: agent.post, PUT: agent.put, DELETE: agent.delete };
  const test = methods[scenario.method]
    .call(agent, first.path)
    .set('Accept-Encoding', scenario.encoding ?? 'identity')
    .set({ ...scenario.headers, ...scenario.vary?.(0).headers });
  return first.body === undefined ? test : test.send(first.body as object);
};

/** Every statement pg sends while `run` runs (the entity manager's and the statement pool's alike). */
async function capturePg<T>(
  run: () => Promise<T>,
): Promise<{ result: T; statements: { text: string; values: unknown[] }[] }> {
  const statements: { text: string; values: unknown[] }[] = [];
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function capture(this: pg.Client, ...args: unknown[]) {
    const [first, second] = args as [string | { text: string; values?: unknown[] }, unknown];
    statements.push(
      typeof first === 'string'
        ? { text: first, values: Array.isArray(second) ? second : [] }
        : { text: first.text, values: first.values ?? [] },
    );
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    return { result: await run(), statements };
  } finally {
    pg.Client.prototype.query = original;
  }
}

const TRANSACTION_CONTROL = /^\s*(begin|commit|rollback|savepoint|release)\b/i;

/**
 * In process, before any load: the SQL statements one request of each scenario sends
 * (counted with the query logger), its JSON, and the floor statements (each compiled
 * route's final statement with this request's values).
 */
async function inspect(url: string, list: Scenario[]) {
  let counting = false;
  let count = 0;
  const orm = await createOrm(url, {
    onQuery: (message) => {
      if (counting && message.includes('[query]')) count += 1;
    },
  });
  const log = pino({ level: process.env.BENCH_LOG ?? 'silent' });
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', RATE_LIMIT: 'off' });
  const { app, stop } = await buildApp({ orm, config, log });
  const runner = new OperationRunner(await buildAppSchema(), graphqlLimitsOf(config), orm.getMetadata());
  const counts = new Map<string, string>();
  const bodies = new Map<string, unknown>();
  const floors: Floor[] = [];
  try {
    for (const scenario of list) {
      counting = true;
      count = 0;
      // A write that repeats on one subject is captured as it repeats under load (its first
      // run may change what later ones find unchanged, and slides its token's expiry).
      if (scenario.write === 'replayable' && !scenario.vary) await call(app, scenario);
      const { result: res, statements } = await capturePg(() => call(app, scenario));
      counting = false;
      if (scenario.write) {
        // A write's own statements, replayed by its floor in one transaction (the BEGIN that
        // went with the first one, src/db/deferred-begin.ts, taken off it: the floor adds its own).
        const own = statements
          .map((statement) => ({ ...statement, text: statement.text.replace(/^BEGIN;/, '') }))
          .filter((statement) => statement.text !== '' && !TRANSACTION_CONTROL.test(statement.text));
        // Statements, and the round trips that sent them where several went in one.
        const sent = own.reduce((total, statement) => total + statementsInOrder(statement.text).length, 0);
        counts.set(scenario.name, sent === own.length ? String(sent) : `${sent}/${own.length}`);
        if (SHOW_SQL)
          console.log(`${scenario.name}:\n${own.map((statement) => `  ${statement.text}`).join('\n')}`);
        const subjects = await scenario.floorSubjects?.(res.body, (text, params) =>
          orm.em.getConnection().execute(text, params),
        );
        floors.push({
          name: scenario.name,
          path: `/floor/${floors.length}`,
          statements: own,
          write: true,
          subjects,
        });
      }
      if (res.status !== 200)
        throw new Error(`${scenario.name}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
      if (scenario.path === '/graphql' && res.body.errors)
        throw new Error(`${scenario.name}: ${JSON.stringify(res.body.errors)}`);
      if (!scenario.write) counts.set(scenario.name, String(count));
      bodies.set(scenario.name, res.body);
      if (scenario.encoding && res.headers['content-encoding'] !== scenario.encoding)
        throw new Error(`${scenario.name}: answered ${res.headers['content-encoding'] ?? 'uncompressed'}`);
      if (scenario.sameAs) {
        const data =
          scenario.path === '/graphql' ? (Object.values(res.body.data as object)[0] as unknown) : res.body;
        if (!sameAnswer(data, bodies.get(scenario.sameAs)))
          throw new Error(`${scenario.name}: answers other JSON than ${scenario.sameAs}`);
      }
      if (!scenario.floor) continue;
      const route = routeOf(scenario.route);
      const prepared = runner.prepare(route.document, route.rootField);
      const variables = runner.coerce(prepared, scenario.floor);
      const plan = prepared.compiled?.planFor(variables);
      if (!plan) throw new Error(`${scenario.name}: the route is not compiled`);
      const ctx = new RequestContext(
        orm.em,
        'bench',
        'en',
        log,
        undefined,
        createAccountServices(config, log, openClientSecretBox(config)),
        undefined,
      );
      const { text, values } = numbered(await plan.statement(ctx, variables));
      floors.push({ name: scenario.name, path: `/floor/${floors.length}`, statements: [{ text, values }] });
    }
  } finally {
    await stop();
    await orm.close();
  }
  return { counts, bodies, floors };
}

/**
 * A floor: a read's final statement (answering its exact JSON), or a write's statements
 * replayed in one transaction (with another subject each time, for a `once` write).
 */
interface Floor {
  name: string;
  path: string;
  statements: { text: string; values: unknown[] }[];
  write?: boolean;
  subjects?: FloorSubjects;
}

function startFloor(url: string, port: number, statements: Floor[]): Promise<ChildProcess> {
  const file = join(tmpdir(), `catalog-bench-floor-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(statements));
  return startProcess(
    'floor',
    ['-r', '@swc-node/register', 'scripts/bench-floor.ts'],
    { DATABASE_URL: url, PORT: String(port), FLOOR_STATEMENTS: file, NODE_ENV: 'production' },
    `http://127.0.0.1:${port}/healthz`,
  );
}

/** Requests a varying scenario has sent so far: each run goes on with new subjects. */
const sentSoFar = new WeakMap<object, number>();

async function load(
  port: number,
  path: string,
  scenario: Pick<Scenario, 'method' | 'body' | 'encoding' | 'headers' | 'vary'>,
) {
  const headers = {
    ...scenario.headers,
    ...(scenario.encoding ? { 'accept-encoding': scenario.encoding } : {}),
    ...(scenario.body === undefined ? {} : { 'content-type': 'application/json' }),
  };
  const { vary } = scenario;
  let sent = sentSoFar.get(scenario) ?? 0;
  const unique = vary
    ? {
        // A function cannot reach autocannon's worker threads: one thread of load sends these.
        requests: [
          {
            setupRequest: (request: autocannon.Request): autocannon.Request => {
              sent += 1;
              sentSoFar.set(scenario, sent);
              const next = vary(sent);
              return {
                ...request,
                ...(next.path === undefined ? {} : { path: next.path }),
                headers: { ...request.headers, ...next.headers },
                ...(next.body === undefined ? {} : { body: JSON.stringify(next.body) }),
              };
            },
          },
        ],
      }
    : { workers: WORKERS };
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    method: scenario.method,
    headers,
    ...(scenario.body === undefined ? {} : { body: JSON.stringify(scenario.body) }),
    connections: CONNECTIONS,
    duration: SECONDS,
    // As ../shared/bench/side-by-side.sh loads: one thread of load would itself be the limit.
    ...unique,
  });
  return {
    median: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

const cell = (value: string | number, width: number) => String(value).padStart(width);

async function main(): Promise<void> {
  const { url, embedded } = await benchDatabase();
  const children: ChildProcess[] = [];
  try {
    await loadData(url);
    const data = await discover(url);
    console.log(`data: ${data.titles} titles, ${data.entries} list entries`);
    const writes = await prepareWriteSubjects(url, openClientSecretBox(loadConfig()));
    const list = [...scenarios(data), ...writeScenarios(writes)].filter((scenario) => chosen(scenario.route));
    // Writes first: a write may change what a read answers (its token's use makes an author
    // `active`), and each read's floor must answer what the read answered last.
    const { counts, bodies, floors } = await inspect(url, [
      ...list.filter((scenario) => scenario.write),
      ...list.filter((scenario) => !scenario.write),
    ]);
    const servicePort = await freeLoopbackPort();
    children.push(await startService(url, servicePort));
    const floorPort = await freeLoopbackPort();
    children.push(await startFloor(url, floorPort, floors));
    for (const floor of floors.filter((f) => !f.write)) {
      const same = sameAnswer(
        await (await fetch(`http://127.0.0.1:${floorPort}${floor.path}`)).json(),
        bodies.get(floor.name),
      );
      if (!same) throw new Error(`${floor.name}: the floor's JSON differs from the service's`);
    }
    console.log(
      `\n${CONNECTIONS} connections, ${WORKERS} load threads (1 where each request has its own subject), ${SECONDS} s per run; read floors answer with the service's exact JSON, write floors replay the write's statements in one transaction, BEGIN with the first as the service sends it (on a new subject each time where it cannot repeat); routes with a floor: best of ${FLOOR_ROUNDS} rounds alternating with it; SQL of a write: its statements but BEGIN, COMMIT and savepoints (n/m: n statements in m round trips)\n`,
    );
    console.log(
      `${'scenario'.padEnd(28)}${cell('req/s', 8)}${cell('p50 ms', 8)}${cell('p99 ms', 8)}${cell('SQL', 5)}${cell('errors', 8)}${cell('floor req/s', 13)}${cell('/floor', 8)}`,
    );
    for (const scenario of list) {
      const floor = floors.find((f) => f.name === scenario.name);
      let measured = await load(servicePort, scenario.path, scenario);
      let floorRps: number | undefined;
      for (let round = 0; floor && round < FLOOR_ROUNDS; round += 1) {
        if (round > 0) {
          const again = await load(servicePort, scenario.path, scenario);
          if (again.rps > measured.rps) measured = again;
        }
        const floorLoad = await load(floorPort, floor.path, { method: floor.write ? 'POST' : 'GET' });
        if (floorLoad.errors > 0) {
          const answer = await fetch(`http://127.0.0.1:${floorPort}${floor.path}`, { method: 'POST' });
          throw new Error(
            `${scenario.name}: its floor failed ${floorLoad.errors} times: ${await answer.text()}`,
          );
        }
        floorRps = Math.max(floorRps ?? 0, floorLoad.rps);
      }
      console.log(
        `${scenario.name.padEnd(28)}${cell(measured.rps.toFixed(0), 8)}${cell(measured.median, 8)}${cell(measured.p99, 8)}${cell(
          counts.get(scenario.name) ?? '?',
          5,
        )}${cell(measured.errors, 8)}${cell(floorRps?.toFixed(0) ?? '', 13)}${cell(floorRps ? (measured.rps / floorRps).toFixed(2) : '', 8)}`,
      );
    }
    const rss = Number(execFileSync('ps', ['-o', 'rss=', '-p', String(children[0].pid)]));
    console.log(`\nservice RSS after the load: ${Math.round(rss / 1024)} MB`);
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await embedded?.stop();
  }
}

/**
 * The whole bench ends with the mixed load of `npm run bench:mixed` (its own database,
 * the same server), once this run's service and database have stopped.
 */
function runMixedLoad(): void {
  console.log('\nmixed load (npm run bench:mixed):');
  execFileSync(process.execPath, ['-r', '@swc-node/register', 'scripts/mixed-load.ts'], { stdio: 'inherit' });
}

main()
  .then(() => {
    if (!ONLY) runMixedLoad();
  })
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
