import 'reflect-metadata';
import { type ChildProcess, execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import { User } from '../src/accounts/user.entity';
import { issueToken } from '../src/accounts/tokens';
import { ensureDatabase } from '../src/db/database';
import { createOrm } from '../src/orm';
import { freeLoopbackPort, startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded';
import { restRoutes } from '../src/routes';
import { startService } from './bench-service';

/**
 * `npm run bench:mixed`: a mixed load of reads and writes over both doors (REST and
 * `/graphql`) against the service started as `npm start` starts it, then a check of every
 * write it acknowledged. Each of the CONNECTIONS clients acts as a user of its own, one
 * request after another, so the last write it saw acknowledged for a key is what the
 * database must hold; the users also follow, vote on and reply to one another, and
 * re-tag their articles from a small shared set of tags, so the shared counters (tags,
 * replies, votes, comment counts, native scores) are contended. Each user's first article,
 * and a few threads to reply in, are written before the clock starts: a burst of them
 * all at once would measure a cold start, not the steady load. Fails (exit 1) on any
 * HTTP 5xx, any acknowledged write missing or wrong, or any counter that disagrees
 * with the rows it counts.
 *
 * The first MIXED_WARMUP_SECONDS (default 15) of the load are not timed: the service's
 * code is still being compiled and its pools filled, so those answers would measure a
 * start, not the steady load. Their writes are checked, and their faults counted, all the same.
 *
 * DATABASE_URL names the server (the database `catalog_mixed` is used on it, demo data
 * loaded once at MIXED_SCALE); unset, an embedded PostgreSQL under .data/. MIXED_SECONDS
 * (default 180) and MIXED_CONNECTIONS (default 64) size the run.
 *
 * MIXED_BASELINE=<revision> runs the same load against that revision first (built once in
 * a worktree of its own under the system's temporary folder, kept for the next run, on a
 * database of its own that the revision migrates and seeds itself) and prints this
 * checkout's throughput as a multiple of the revision's. The load's users and tokens are
 * made, and its writes checked, with this checkout's entities: the revision's user, token
 * and written tables must have the same columns (true back to b2d3b3a). The exit status
 * judges this checkout alone; the revision's faults are printed with its run.
 */
const SECONDS = Number(process.env.MIXED_SECONDS ?? '180');
const WARMUP_SECONDS = Number(process.env.MIXED_WARMUP_SECONDS ?? '15');
const CONNECTIONS = Number(process.env.MIXED_CONNECTIONS ?? '64');
const SCALE = Number(process.env.MIXED_SCALE ?? '1');
const BASELINE = process.env.MIXED_BASELINE;
/** The most a route's 99th percentile may take under this load. */
const P99_TARGET_MS = 250;
/** Shared by every client's article: two at a time, so that re-tagging moves contended counters. */
const TAGS = ['alpha', 'beta', 'gamma', 'delta'];
/** How many articles the service lets a user write in an hour (semantics: article creation). */
const ARTICLES_PER_HOUR = 10;
/** Of every 100 requests, this many write. */
const WRITE_PERCENT = 35;

interface Catalog {
  anime: string[];
  manga: string[];
  collections: string[];
  /** Top-level comments on the first manga, made for the run, and the latest replies in them. */
  threads: string[];
  replies: string[];
  people: string[];
}

/** The persisted document of a contract route: `/graphql` is sent exactly what REST runs. */
function contractDocument(contract: number): string {
  const route = restRoutes.find((candidate) => candidate.contract === contract);
  if (!route) throw new Error(`no route for contract #${contract}`);
  return route.document;
}

interface LoadUser {
  username: string;
  reference: string;
  token: string;
  article?: string;
  /** Articles written this run: the service lets a user write 10 an hour (then 429). */
  articles: number;
}

/** What the database must hold once the load ends: the last acknowledged write of each key. */
class Acknowledged {
  readonly watch = new Map<string, { status: string; score: number } | null>();
  readonly follows = new Map<string, boolean>();
  readonly votes = new Map<string, number>();
  readonly comments = new Map<string, { hidden: boolean; author: string }>();
  readonly articleTags = new Map<string, string[]>();
  writes = 0;
}

interface Outcome {
  status: number;
  ms: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

class Stats {
  private readonly routes = new Map<string, { latencies: number[]; statuses: Map<number, number> }>();
  readonly serverErrors: string[] = [];
  readonly refusals = new Map<string, string>();
  /** Requests sent from now on are timed and counted; before, only their faults are. */
  measuring = false;
  private warmUpFiveHundreds = 0;

  /** `measured`: the request was sent while {@link measuring}. */
  record(route: string, outcome: Outcome, body: string, measured: boolean): void {
    if (outcome.status >= 500 && this.serverErrors.length < 20)
      this.serverErrors.push(`${route}: ${outcome.status} ${body.slice(0, 300)}`);
    // The first answer of each refusal, to tell an expected one (a rate limit) from a fault of the load.
    const refusal = `${route} ${outcome.status}`;
    if (outcome.status >= 400 && outcome.status < 500 && !this.refusals.has(refusal))
      this.refusals.set(refusal, body.slice(0, 200));
    if (!measured) {
      if (outcome.status >= 500) this.warmUpFiveHundreds += 1;
      return;
    }
    let entry = this.routes.get(route);
    if (!entry) {
      entry = { latencies: [], statuses: new Map() };
      this.routes.set(route, entry);
    }
    entry.latencies.push(outcome.ms);
    entry.statuses.set(outcome.status, (entry.statuses.get(outcome.status) ?? 0) + 1);
  }

  get total(): number {
    let total = 0;
    for (const { latencies } of this.routes.values()) total += latencies.length;
    return total;
  }

  /** Server errors of the whole load, warm-up included. */
  get fiveHundreds(): number {
    let count = this.warmUpFiveHundreds;
    for (const { statuses } of this.routes.values())
      for (const [status, n] of statuses) if (status >= 500) count += n;
    return count;
  }

  /** The route whose 99th percentile is the slowest, and that percentile. */
  get slowestP99(): { route: string; ms: number } {
    let slowest = { route: '', ms: 0 };
    for (const [route, { latencies }] of this.routes) {
      const ms = percentile(
        [...latencies].sort((a, b) => a - b),
        99,
      );
      if (ms > slowest.ms) slowest = { route, ms };
    }
    return slowest;
  }

  print(seconds: number): void {
    console.log(
      `${'route'.padEnd(34)}${'requests'.padStart(9)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}  statuses`,
    );
    for (const [route, { latencies, statuses }] of [...this.routes].sort(([a], [b]) => a.localeCompare(b))) {
      const sorted = [...latencies].sort((a, b) => a - b);
      const counts = [...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}×${n}`)
        .join(' ');
      console.log(
        `${route.padEnd(34)}${String(sorted.length).padStart(9)}${percentile(sorted, 50).toFixed(0).padStart(8)}${percentile(sorted, 99).toFixed(0).padStart(8)}  ${counts}`,
      );
    }
    for (const [refusal, body] of this.refusals) console.log(`  first ${refusal}: ${body}`);
    console.log(`\n${this.total} requests in ${seconds} s: ${(this.total / seconds).toFixed(0)} requests/s`);
  }
}

/** The PostgreSQL server the loads run on: DATABASE_URL's, else an embedded one. */
async function databaseServer(): Promise<{ serverUrl: string; embedded?: EmbeddedDatabase }> {
  if (process.env.DATABASE_URL) return { serverUrl: process.env.DATABASE_URL };
  const embedded = await startEmbeddedPostgres({ dataDir: resolve('.data/bench-postgres') });
  return { serverUrl: embedded.serverUrl, embedded };
}

/** A built checkout of `revision` of this repository, made once (worktree, `npm ci`, build). */
function baselineCheckout(revision: string): { checkout: string; commit: string } {
  const commit = execFileSync('git', ['rev-parse', '--short', `${revision}^{commit}`])
    .toString()
    .trim();
  const checkout = join(tmpdir(), `catalog-baseline-${commit}`);
  if (!existsSync(join(checkout, 'dist/src/main.js'))) {
    console.log(`building ${commit} in ${checkout} ...`);
    if (!existsSync(checkout))
      execFileSync('git', ['worktree', 'add', '--force', '--detach', checkout, commit]);
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: checkout, stdio: 'ignore' });
    execFileSync('npm', ['run', 'build'], { cwd: checkout, stdio: 'ignore' });
  }
  return { checkout, commit };
}

/**
 * The database `name` on the server, migrated by `checkout`'s own command and, when it
 * holds no catalog yet, seeded by its demo-data command at MIXED_SCALE: each revision
 * gets the schema it was written for.
 */
async function checkoutDatabase(checkout: string, serverUrl: string, name: string): Promise<string> {
  const url = await ensureDatabase(serverUrl, name);
  const orm = await createOrm(url);
  const [{ migrated }] = await orm.em
    .getConnection()
    .execute<{ migrated: boolean }[]>(`select to_regclass('anime') is not null as migrated`);
  const [{ titles }] = migrated
    ? await orm.em.getConnection().execute<{ titles: string }[]>(`select count(*) as titles from anime`)
    : [{ titles: '0' }];
  await orm.close();
  const command =
    Number(titles) === 0
      ? ['dist/src/import/demo-cli.js', '--scale', String(SCALE)]
      : // Older revisions (the baseline) keep the migrate command under src/db.
        [
          ['dist/src/migrate-cli.js', 'dist/src/db/migrate-cli.js'].find((cli) =>
            existsSync(join(checkout, cli)),
          )!,
        ];
  if (Number(titles) === 0) console.log(`loading demo data at scale ${SCALE} into ${name} ...`);
  execFileSync(process.execPath, command, {
    cwd: checkout,
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return url;
}

async function prepare(orm: MikroORM): Promise<{ catalog: Catalog; users: LoadUser[] }> {
  const connection = orm.em.getConnection();
  const slugs = async (sql: string) => (await connection.execute<{ v: string }[]>(sql)).map((row) => row.v);
  const catalog: Catalog = {
    anime: await slugs(`select slug as v from anime where not deleted order by slug limit 200`),
    manga: await slugs(
      `select slug as v from manga where not deleted order by comments_count desc, slug limit 50`,
    ),
    collections: await slugs(
      `select reference::text as v from collection where visibility = 'public' and not deleted order by reference limit 20`,
    ),
    threads: [],
    replies: [],
    people: await slugs(
      `select distinct p.slug as v from person p join credit c on c.person_reference = p.reference order by 1 limit 20`,
    ),
  };

  // One user per client, made for this run, with a first-party token.
  const run = Date.now().toString(36);
  const em = orm.em.fork();
  const users: LoadUser[] = [];
  for (let i = 0; i < CONNECTIONS; i += 1) {
    const user = Object.assign(new User(), {
      username: `load_${run}_${i}`,
      email: `load_${run}_${i}@example.com`,
      password_hash: 'not-a-password-hash',
      role: 'user' as const,
      email_confirmed: true,
      created: new Date(),
      last_active: new Date(),
    });
    em.persist(user);
    users.push({
      username: user.username,
      reference: user.reference,
      token: issueToken(em, user).secret,
      articles: 0,
    });
  }
  await em.flush();
  return { catalog, users };
}

const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });

function send(
  port: number,
  method: string,
  path: string,
  body: unknown,
  token?: string,
): Promise<Outcome & { text: string }> {
  const started = performance.now();
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolvePromise) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: {
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...(token ? { auth: token } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolvePromise({
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            text: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    // A connection error counts as a server failure: the request got no answer.
    req.on('error', (error) =>
      resolvePromise({ status: 599, ms: performance.now() - started, text: String(error) }),
    );
    req.end(payload);
  });
}

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)];

/** One client: a user sending reads and writes one after another until `deadline`. */
async function client(
  port: number,
  me: LoadUser,
  others: readonly LoadUser[],
  catalog: Catalog,
  ack: Acknowledged,
  stats: Stats,
  deadline: number,
): Promise<void> {
  const call = async (route: string, method: string, path: string, body?: unknown, token?: string) => {
    const measured = stats.measuring;
    const answer = await send(port, method, path, body, token);
    stats.record(route, answer, answer.text, measured);
    return answer;
  };
  const graphql = (route: string, query: string, variables: object, token?: string) =>
    call(`/graphql ${route}`, 'POST', '/graphql', { query, variables }, token);
  const ok = (answer: { status: number; text: string }, root?: string) => {
    if (answer.status !== 200) return undefined;
    const json = JSON.parse(answer.text) as { data?: Record<string, unknown>; errors?: unknown[] };
    if (!root) return json as Record<string, unknown>;
    return json.errors ? undefined : (json.data?.[root] as Record<string, unknown> | undefined);
  };

  const reads: (() => Promise<unknown>)[] = [
    () => call('GET /manga/{slug}', 'GET', `/manga/${pick(catalog.manga)}`),
    () => call('POST /novel', 'POST', '/novel?size=15', { sort: ['native_score:desc'] }),
    () =>
      call('POST /novel query', 'POST', '/novel?size=15', { query: pick(['blade', 'hisorau', 'sword of']) }),
    () =>
      call('GET /collections/{ref}', 'GET', `/collections/${pick(catalog.collections)}`, undefined, me.token),
    () => call('GET /comments/{type}/{slug}/list', 'GET', `/comments/manga/${pick(catalog.manga)}/list`),
    () => call('GET /comments/thread/{ref}', 'GET', `/comments/thread/${pick(catalog.threads)}`),
    () => call('GET /comments/latest', 'GET', '/comments/latest'),
    () => call('GET /notifications/count', 'GET', '/notifications/count', undefined, me.token),
    () => call('POST /watch/{username}/list', 'POST', `/watch/${me.username}/list?size=15`, {}),
    () => call('GET /people/{slug}/manga', 'GET', `/people/${pick(catalog.people)}/manga`),
    () => graphql('manga (#16)', contractDocument(16), { slug: pick(catalog.manga) }),
    () => graphql('novelSearch (#3)', contractDocument(3), { page: 1, size: 15, input: {} }),
    () => graphql('notificationCount', 'query { notificationCount { unseen } }', {}, me.token),
  ];

  const writes: (() => Promise<unknown>)[] = [
    async () => {
      const slug = pick(catalog.anime);
      const entry = {
        status: pick(['watching', 'completed', 'planned', 'dropped']),
        score: Math.floor(Math.random() * 11),
      };
      const answer = await call('PUT /watch/{slug}', 'PUT', `/watch/${slug}`, entry, me.token);
      if (ok(answer)) ack.watch.set(`${me.reference}/${slug}`, entry);
    },
    async () => {
      const slug = pick(catalog.anime);
      const entry = {
        status: pick(['watching', 'completed', 'on_hold']),
        score: Math.floor(Math.random() * 11),
      };
      const answer = await graphql(
        'saveWatchEntry',
        'mutation($slug: String!, $input: WatchEntryInput!) { saveWatchEntry(slug: $slug, input: $input) { status } }',
        { slug, input: entry },
        me.token,
      );
      if (ok(answer, 'saveWatchEntry')) ack.watch.set(`${me.reference}/${slug}`, entry);
    },
    async () => {
      const listed = [...ack.watch].filter(([key, entry]) => entry && key.startsWith(`${me.reference}/`));
      if (listed.length === 0) return;
      const [key] = pick(listed);
      const slug = key.slice(me.reference.length + 1);
      const answer = await call('DELETE /watch/{slug}', 'DELETE', `/watch/${slug}`, undefined, me.token);
      if (ok(answer)) ack.watch.set(key, null);
    },
    async () => {
      const answer = await call(
        'PUT /comments/{type}/{slug}',
        'PUT',
        `/comments/manga/${pick(catalog.manga.slice(0, 5))}`,
        { text: 'A comment under load' },
        me.token,
      );
      const comment = ok(answer);
      if (comment) ack.comments.set(String(comment.reference), { hidden: false, author: me.reference });
    },
    async () => {
      // A reply in one of a few busy threads of the first manga: their ancestors' reply counts are contended.
      const answer = await call(
        'PUT /comments (reply)',
        'PUT',
        `/comments/manga/${catalog.manga[0]}`,
        { text: 'A reply under load', parent: pick(threads()) },
        me.token,
      );
      const comment = ok(answer);
      if (!comment) return;
      ack.comments.set(String(comment.reference), { hidden: false, author: me.reference });
      catalog.replies.push(String(comment.reference));
      if (catalog.replies.length > 20) catalog.replies.shift();
    },
    async () => {
      const own = [...ack.comments].filter(([, c]) => c.author === me.reference && !c.hidden);
      if (own.length === 0) return;
      const [reference] = pick(own);
      const answer = await call(
        'DELETE /comments/{ref}',
        'DELETE',
        `/comments/${reference}`,
        undefined,
        me.token,
      );
      if (ok(answer)) ack.comments.set(reference, { hidden: true, author: me.reference });
    },
    async () => {
      const other = pick(others);
      const key = `${me.reference}/${other.reference}`;
      const following = ack.follows.get(key) ?? false;
      const method = following ? 'DELETE' : 'PUT';
      const answer = await call(
        `${method} /follow/{username}`,
        method,
        `/follow/${other.username}`,
        undefined,
        me.token,
      );
      if (ok(answer)) ack.follows.set(key, !following);
    },
    async () => {
      // The target's article now: the target may write a new one while the vote is on its way.
      const article = pick(others).article;
      if (!article) return;
      const score = pick([-1, 1]);
      const answer = await call(
        'PUT /vote/article/{slug}',
        'PUT',
        `/vote/article/${article}`,
        { score },
        me.token,
      );
      if (ok(answer)) ack.votes.set(`${me.reference}/${article}`, score);
    },
    async () => {
      // A new article, which its author re-tags from then on; past the hourly limit, a re-tag.
      if (me.articles >= ARTICLES_PER_HOUR) return retag();
      me.articles += 1;
      const answer = await call(
        'POST /articles/create',
        'POST',
        '/articles/create',
        articleBody(['alpha', 'beta']),
        me.token,
      );
      const article = ok(answer);
      if (!article) return;
      me.article = String(article.slug);
      ack.articleTags.set(me.article, ['alpha', 'beta']);
    },
    retag,
  ];

  async function retag(): Promise<void> {
    if (!me.article) return;
    const first = pick(TAGS);
    const tags = [first, pick(TAGS.filter((tag) => tag !== first))];
    const answer = await call(
      'PUT /articles/{slug}',
      'PUT',
      `/articles/${me.article}`,
      articleBody(tags),
      me.token,
    );
    if (ok(answer)) ack.articleTags.set(me.article, tags);
  }

  /** The first manga's threads, and now and then a reply in them (a deeper chain). */
  function threads(): string[] {
    return catalog.replies.length > 0 && Math.random() < 0.3 ? catalog.replies : catalog.threads;
  }

  while (Date.now() < deadline) {
    const writing = Math.random() * 100 < WRITE_PERCENT;
    await pick(writing ? writes : reads)();
    if (writing) ack.writes += 1;
  }
}

function articleBody(tags: string[]): object {
  return {
    title: 'A load test article',
    document: [{ type: 'p', children: [{ text: 'Written under load' }] }],
    tags,
    category: 'original',
    draft: false,
  };
}

/** Every acknowledged write as the database holds it, and the counters against the rows they count. */
async function verify(orm: MikroORM, ack: Acknowledged): Promise<string[]> {
  const problems: string[] = [];
  const db = orm.em.getConnection();
  const rows = async <T>(sql: string, params: unknown[] = []) => db.execute<T[]>(sql, params);

  for (const [key, expected] of ack.watch) {
    const [user, slug] = key.split('/');
    const [row] = await rows<{ status: string; score: number }>(
      `select w.status, w.score from watch_entry w join anime a on a.reference = w.anime_reference
        where w.user_reference = ? and a.slug = ?`,
      [user, slug],
    );
    const found = row ? { status: row.status, score: row.score } : null;
    if (JSON.stringify(found) !== JSON.stringify(expected))
      problems.push(`watch ${key}: expected ${JSON.stringify(expected)}, found ${JSON.stringify(found)}`);
  }
  for (const [reference, expected] of ack.comments) {
    const [row] = await rows<{ hidden: boolean }>(`select hidden from comment where reference = ?`, [
      reference,
    ]);
    if (!row || row.hidden !== expected.hidden)
      problems.push(
        `comment ${reference}: expected hidden=${expected.hidden}, found ${row ? `hidden=${row.hidden}` : 'none'}`,
      );
  }
  for (const [key, expected] of ack.follows) {
    const [follower, followed] = key.split('/');
    const [row] = await rows(`select 1 from follow where follower_reference = ? and followed_reference = ?`, [
      follower,
      followed,
    ]);
    if (Boolean(row) !== expected)
      problems.push(`follow ${key}: expected ${expected}, found ${Boolean(row)}`);
  }
  for (const [key, expected] of ack.votes) {
    const [user, slug] = key.split('/');
    const [row] = await rows<{ score: number }>(
      `select v.score from vote v join article a on a.reference = v.content_reference
        where v.user_reference = ? and v.content_type = 'article' and a.slug = ?`,
      [user, slug],
    );
    if (row?.score !== expected) problems.push(`vote ${key}: expected ${expected}, found ${row?.score}`);
  }
  for (const [slug, expected] of ack.articleTags) {
    const found = (
      await rows<{ name: string }>(
        `select t.name from article_tag at join tag t on t.reference = at.tag_reference
           join article a on a.reference = at.article_reference where a.slug = ? order by at.position`,
        [slug],
      )
    ).map((row) => row.name);
    if (found.join() !== expected.join())
      problems.push(`article ${slug}: tags ${found} instead of ${expected}`);
  }

  // Counters against what they count.
  const drift = async (label: string, sql: string) => {
    const bad = await rows<Record<string, unknown>>(sql);
    if (bad.length > 0) problems.push(`${label}: ${bad.length} disagree, e.g. ${JSON.stringify(bad[0])}`);
  };
  await drift(
    'tag content_count',
    `select t.name, t.content_count, count(a.reference) as counted from tag t
       left join article_tag at on at.tag_reference = t.reference
       left join article a on a.reference = at.article_reference and not a.deleted
      group by t.reference having t.content_count <> count(a.reference)`,
  );
  await drift(
    'comment total_replies',
    `with recursive below (ancestor, reference) as (
       select reference, reference from comment
       union all
       select b.ancestor, c.reference from comment c join below b on c.parent_reference = b.reference
     )
     select c.reference, c.total_replies, count(d.reference) as counted from comment c
       left join below b on b.ancestor = c.reference and b.reference <> c.reference
       left join comment d on d.reference = b.reference and not d.hidden and not d.deleted
      group by c.reference having c.total_replies <> count(d.reference)`,
  );
  await drift(
    'manga comments_count',
    `select m.slug, m.comments_count, count(c.reference) as counted from manga m
       left join comment c on c.content_type = 'manga' and c.content_reference = m.reference
        and not c.hidden and not c.deleted
      group by m.reference having m.comments_count <> count(c.reference)`,
  );
  await drift(
    'article vote_score',
    `select a.slug, a.vote_score, coalesce(sum(v.score), 0) as counted from article a
       left join vote v on v.content_type = 'article' and v.content_reference = a.reference
      group by a.reference having a.vote_score <> coalesce(sum(v.score), 0)`,
  );
  await drift(
    'anime native_scored_by',
    `select a.slug, a.native_scored_by, count(w.score) filter (where w.score > 0) as counted from anime a
       left join watch_entry w on w.anime_reference = a.reference
      group by a.reference having a.native_scored_by <> count(w.score) filter (where w.score > 0)`,
  );
  return problems;
}

interface LoadResult {
  requestsPerSecond: number;
  slowestP99: { route: string; ms: number };
  /** No 5xx, no lost or wrong write, no drifted counter. */
  sound: boolean;
}

/** Linux's clock ticks per second (USER_HZ), the unit of /proc's CPU times. */
const TICKS_PER_SECOND = 100;

/**
 * CPU time so far, in clock ticks, of the service's process (user and system) and of
 * the whole machine (every CPU's time not idle): what a request costs is steadier
 * across runs than the throughput of a machine shared with others. Undefined where
 * /proc is not there to read.
 */
function cpuTicks(pid: number | undefined): { service: number; machine: number } | undefined {
  try {
    // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
    const own = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const [, user, nice, system, , , irq, softirq] = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]
      .split(/\s+/)
      .map(Number);
    return {
      service: Number(own[11]) + Number(own[12]),
      machine: user + nice + system + irq + softirq,
    };
  } catch {
    return undefined;
  }
}

/** The load against `checkout`'s service on `url`, then the check of what it acknowledged. */
async function runLoad(checkout: string, url: string): Promise<LoadResult> {
  const orm = await createOrm(url);
  let service: ChildProcess | undefined;
  try {
    const { catalog, users } = await prepare(orm);
    const port = await freeLoopbackPort();
    service = await startService(url, port, checkout);
    console.log(
      `${CONNECTIONS} clients, each its own user, for ${SECONDS} s; ${WRITE_PERCENT}% writes, REST and /graphql\n`,
    );
    const ack = new Acknowledged();
    // Before the clock starts: each user's first article (re-tagged from the shared tags
    // all along) and a few threads of the first manga, for the replies.
    for (const user of users) {
      const answer = await send(port, 'POST', '/articles/create', articleBody(['alpha', 'beta']), user.token);
      if (answer.status !== 200)
        throw new Error(`could not write an article: ${answer.status} ${answer.text}`);
      user.article = String((JSON.parse(answer.text) as { slug: string }).slug);
      user.articles = 1;
      ack.articleTags.set(user.article, ['alpha', 'beta']);
    }
    for (const user of users.slice(0, 5)) {
      const answer = await send(
        port,
        'PUT',
        `/comments/manga/${catalog.manga[0]}`,
        { text: 'A thread' },
        user.token,
      );
      if (answer.status !== 200) throw new Error(`could not start a thread: ${answer.status} ${answer.text}`);
      const reference = String((JSON.parse(answer.text) as { reference: string }).reference);
      catalog.threads.push(reference);
      ack.comments.set(reference, { hidden: false, author: user.reference });
    }
    const stats = new Stats();
    let cpuBefore: ReturnType<typeof cpuTicks>;
    let started = Date.now();
    const startMeasuring = () => {
      cpuBefore = cpuTicks(service?.pid);
      started = Date.now();
      stats.measuring = true;
    };
    const deadline = started + (WARMUP_SECONDS + SECONDS) * 1000;
    if (WARMUP_SECONDS > 0) {
      console.log(`warming up for ${WARMUP_SECONDS} s (not timed) ...`);
      setTimeout(startMeasuring, WARMUP_SECONDS * 1000);
    } else startMeasuring();
    await Promise.all(
      users.map((me) =>
        client(
          port,
          me,
          users.filter((other) => other !== me),
          catalog,
          ack,
          stats,
          deadline,
        ),
      ),
    );
    const seconds = (Date.now() - started) / 1000;
    const rss = Number(execFileSync('ps', ['-o', 'rss=', '-p', String(service.pid)]));
    const cpuAfter = cpuTicks(service.pid);
    stats.print(Math.round(seconds));
    console.log(`service RSS after the load: ${Math.round(rss / 1024)} MB`);
    if (cpuBefore && cpuAfter) {
      const perRequest = (ticks: number) => ((ticks * 1000) / TICKS_PER_SECOND / stats.total).toFixed(2);
      console.log(
        `CPU per request: service ${perRequest(cpuAfter.service - cpuBefore.service)} ms, ` +
          `whole machine ${perRequest(cpuAfter.machine - cpuBefore.machine)} ms (database and load included)`,
      );
    }

    const problems = await verify(orm, ack);
    const checked =
      ack.watch.size + ack.comments.size + ack.follows.size + ack.votes.size + ack.articleTags.size;
    console.log(`\nwrites sent: ${ack.writes}; acknowledged keys checked in the database: ${checked}`);
    console.log(
      `HTTP 5xx: ${stats.fiveHundreds}; lost or wrong writes and drifted counters: ${problems.length}`,
    );
    for (const line of [...stats.serverErrors, ...problems.slice(0, 20)]) console.log(`  ${line}`);
    return {
      requestsPerSecond: stats.total / seconds,
      slowestP99: stats.slowestP99,
      sound: stats.fiveHundreds === 0 && problems.length === 0,
    };
  } finally {
    service?.kill('SIGTERM');
    await orm.close();
  }
}

async function main(): Promise<number> {
  const { serverUrl, embedded } = await databaseServer();
  try {
    const baseline = BASELINE
      ? await (async () => {
          const { checkout, commit } = baselineCheckout(BASELINE);
          const url = await checkoutDatabase(checkout, serverUrl, `catalog_mixed_${commit}`);
          console.log(`\nbaseline ${commit}:`);
          return runLoad(checkout, url);
        })()
      : undefined;
    if (baseline) console.log(`\nthis checkout:`);
    const result = await runLoad('.', await checkoutDatabase('.', serverUrl, 'catalog_mixed'));
    const { route, ms } = result.slowestP99;
    console.log(
      `\nslowest p99: ${route} ${ms.toFixed(0)} ms (target ≤ ${P99_TARGET_MS} ms: ${ms <= P99_TARGET_MS ? 'met' : 'missed'})`,
    );
    if (baseline)
      console.log(
        `throughput: ${result.requestsPerSecond.toFixed(0)} requests/s, ${(result.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)}× ${BASELINE}'s ${baseline.requestsPerSecond.toFixed(0)}`,
      );
    return result.sound ? 0 : 1;
  } finally {
    agent.destroy();
    await embedded?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
