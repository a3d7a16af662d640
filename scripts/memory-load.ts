import 'reflect-metadata';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import WebSocket from 'ws';
import { ensureDatabase } from '../src/db/database';
import { freeLoopbackPort, startEmbeddedPostgres } from '../src/db/embedded';
import { createOrm } from '../src/orm';

/**
 * `npm run test:memory`: the service started as `npm start` starts it (its Node flags,
 * the heap capped) receives MEMORY_DOCUMENTS (default 50,000) distinct GraphQL documents
 * that compile to SQL, as fast as it answers them from MEMORY_CLIENTS (16) connections:
 * small ones (about 200 characters), large ones (about 2,300: 25 aliased roots spreading
 * a fragment), pages of other sizes, documents with `@include`/`@skip` variables sent with
 * every combination of values (up to 16 plans each), and automatic persisted queries.
 * Meanwhile one WebSocket asks for 20,000 subscriptions, and 25 more fill the live
 * subscriptions' memory with large documents. It passes when the service stays up and
 * answers every request, a refusal being a 4xx with its code, never a 5xx or a dropped
 * connection, and its resident memory stays under MEMORY_RSS_LIMIT_MB (the README's bound).
 *
 * DATABASE_URL names the server (the database `catalog_memory` is made anew on it for each
 * run, and the service loads the demo data into it); unset, an embedded PostgreSQL under
 * .data/. The service seals the demo clients' secrets under a key made for the run, so no
 * key file of an earlier run (or of another checkout) is needed to open them.
 */
const DOCUMENTS = Number(process.env.MEMORY_DOCUMENTS ?? '50000');
const CLIENTS = Number(process.env.MEMORY_CLIENTS ?? '16');
const RSS_LIMIT_MB = Number(process.env.MEMORY_RSS_LIMIT_MB ?? '300');
const SUBSCRIPTIONS_ON_ONE_SOCKET = 20_000;
/** Sockets (five per user, the default limit) whose subscriptions send large documents. */
const HEAVY_SOCKETS = 25;

const MANGA_FIELDS = [
  'slug',
  'title_en',
  'title_ua',
  'title_original',
  'score',
  'scored_by',
  'media_type',
  'status',
  'chapters',
  'volumes',
  'year',
  'start_date',
  'end_date',
  'synopsis_en',
  'nsfw',
  'image',
  'translated_ua',
  'native_score',
  'comments_count',
  'updated',
];
const NOVEL_FIELDS = MANGA_FIELDS.filter((field) => field !== 'chapters');

/** `count` fields of `fields`, chosen by the bits of `seed`, the first always in. */
const someOf = (fields: readonly string[], seed: number, count: number): string[] =>
  fields.filter((_, bit) => bit === 0 || ((seed >> bit) & 1) === 1).slice(0, count);

interface Request {
  body: Record<string, unknown>;
  kind: string;
}

/** The i-th document: its kind by i, its text distinct from every other's. */
function documentFor(i: number, slug: string): Request[] {
  const roll = i % 20;
  if (roll < 9) {
    const query = `query Small${i} { manga(slug: "${slug}") { ${someOf(MANGA_FIELDS, i, 12).join(' ')} genres { slug name_en } } }`;
    return [{ kind: 'small', body: { query } }];
  }
  if (roll < 11) {
    const roots = Array.from({ length: 25 }, (_, r) => `m${r}: manga(slug: "${slug}") { ...Title }`);
    const query =
      `query Large${i} { ${roots.join(' ')} } fragment Title on Manga { ${MANGA_FIELDS.join(' ')} ` +
      `genres { slug name_en name_ua } authors { person { slug name_en name_ua } roles { slug name_en } } }`;
    return [{ kind: 'large', body: { query } }];
  }
  if (roll < 15) {
    const query = `query Page${i} { novelSearch(page: ${1 + (i % 3)}, size: ${1 + (i % 100)}) { pagination { total pages } list { ${someOf(NOVEL_FIELDS, i, 10).join(' ')} } } }`;
    return [{ kind: 'page', body: { query } }];
  }
  if (roll < 18) {
    // Four conditions: each combination of their values is a plan of its own.
    const query =
      `query Variants${i}($a: Boolean!, $b: Boolean!, $c: Boolean!, $d: Boolean!) { manga(slug: "${slug}") { slug ` +
      `title_en @include(if: $a) genres @skip(if: $b) { slug } authors @include(if: $c) { person { slug } } ` +
      `score @skip(if: $d) } }`;
    const bits = i % 16;
    const variables = { a: (bits & 1) > 0, b: (bits & 2) > 0, c: (bits & 4) > 0, d: (bits & 8) > 0 };
    return [{ kind: 'variants', body: { query, variables } }];
  }
  // An automatic persisted query: by hash alone (not found), then with its text.
  const query = `query Persisted${i} { manga(slug: "${slug}") { ${someOf(MANGA_FIELDS, i, 8).join(' ')} } }`;
  const extensions = {
    persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') },
  };
  return [
    { kind: 'apq-hash', body: { extensions } },
    { kind: 'apq', body: { query, extensions } },
  ];
}

const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });

function post(port: number, body: unknown): Promise<{ status: number; text: string }> {
  const payload = JSON.stringify(body);
  return new Promise((done) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/graphql',
        agent,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', (error) => done({ status: 599, text: String(error) }));
    req.end(payload);
  });
}

/** The outcome of one answer: `ok`, or the status and error code it refused with; anything else is a fault. */
function outcome(status: number, text: string): { fine: boolean; label: string } {
  let body: { data?: unknown; errors?: { extensions?: { code?: string } }[] };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return { fine: false, label: `${status} not JSON` };
  }
  const code = body.errors?.[0]?.extensions?.code;
  if (status === 200 && !body.errors) return { fine: true, label: 'ok' };
  return { fine: status >= 400 && status < 500 && typeof code === 'string', label: `${status} ${code}` };
}

/** The service's resident memory, from /proc. */
function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : 0;
}

/** The Node flags of `npm start` (`… node <flags> dist/src/main.js`). */
function startFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
  const flags = /\bnode ((?:--\S+ )*)dist\/src\/main\.js/.exec(scripts.start);
  if (!flags) throw new Error(`cannot read the Node flags of npm start: ${scripts.start}`);
  return flags[1].split(' ').filter(Boolean);
}

interface Service {
  child: ChildProcess;
  /** The service's JSON log lines, as they come. */
  lines: Record<string, unknown>[];
}

async function startService(url: string, port: number): Promise<Service> {
  const child = spawn(process.execPath, [...startFlags(), 'dist/src/main.js'], {
    env: {
      ...process.env,
      CLIENT_SECRET_KEY: randomBytes(32).toString('base64'),
      NODE_ENV: 'production',
      DATABASE_URL: url,
      PORT: String(port),
      DEMO_DATA: 'on',
      RATE_LIMIT: 'off',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Record<string, unknown>[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  let exit: string | undefined;
  child.once('exit', (code, signal) => (exit = `exit ${code ?? signal}`));
  for (let attempt = 0; attempt < 600 && !exit; attempt += 1) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return { child, lines };
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 500));
  }
  child.kill('SIGTERM');
  throw new Error(`the service did not become ready${exit ? ` (${exit})` : ''}`);
}

/** `name` on the server at `serverUrl`, dropped first if an earlier run left it. */
async function freshDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`drop database if exists ${client.escapeIdentifier(name)} with (force)`);
  } finally {
    await client.end();
  }
  return ensureDatabase(serverUrl, name);
}

/** A first-party token of `username` (a demo account). */
async function login(port: number, username: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'demo-password' }),
  });
  const body = (await res.json()) as { secret?: string };
  if (!body.secret) throw new Error(`cannot log in as ${username}: ${JSON.stringify(body)}`);
  return body.secret;
}

interface SocketTally {
  accepted: number;
  refusals: Map<string, number>;
  closed?: string;
}

/**
 * A graphql-ws connection as `token` that asks for `count` subscriptions at once, each
 * with `documentOf(i)`; tallies the first answers (a `next` or an `error`) and whether
 * the socket closes before the end.
 */
async function subscribeMany(
  port: number,
  token: string,
  count: number,
  documentOf: (i: number) => string,
): Promise<{ tally: SocketTally; settled: Promise<void>; socket: WebSocket }> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws');
  const tally: SocketTally = { accepted: 0, refusals: new Map() };
  const answered = new Set<string>();
  let settle: () => void = () => {};
  const settled = new Promise<void>((done) => (settle = done));
  const answer = (id: string) => {
    answered.add(id);
    if (answered.size === count) settle();
  };
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as {
      type: string;
      id?: string;
      payload?: { extensions?: { code?: string } }[];
    };
    if (message.type === 'connection_ack') {
      for (let i = 0; i < count; i += 1)
        socket.send(JSON.stringify({ id: String(i), type: 'subscribe', payload: { query: documentOf(i) } }));
    } else if (message.type === 'next' && message.id && !answered.has(message.id)) {
      tally.accepted += 1;
      answer(message.id);
    } else if (message.type === 'error' && message.id) {
      const code = message.payload?.[0]?.extensions?.code ?? 'no code';
      tally.refusals.set(code, (tally.refusals.get(code) ?? 0) + 1);
      answer(message.id);
    }
  });
  socket.on('close', (code, reason) => {
    tally.closed = `${code} ${String(reason)}`;
    settle();
  });
  await new Promise<void>((done, fail) => {
    socket.once('open', () => {
      socket.send(JSON.stringify({ type: 'connection_init', payload: { auth: token } }));
      done();
    });
    socket.once('error', fail);
  });
  return { tally, settled, socket };
}

/** A count subscription (answered at once) selecting its field `times` times: a large document to hold. */
const countSubscription = (name: string, times: number) =>
  `subscription ${name} { notificationCount { ${'unseen '.repeat(times)}} }`;

async function main(): Promise<number> {
  execFileSync('npm', ['run', '-s', 'build'], { stdio: 'inherit' });
  const embedded = process.env.DATABASE_URL
    ? undefined
    : await startEmbeddedPostgres({ dataDir: resolve('.data/bench-postgres') });
  const url = await freshDatabase(process.env.DATABASE_URL ?? embedded!.serverUrl, 'catalog_memory');
  const port = await freeLoopbackPort();
  // The service loads the demo data into an empty database as it starts.
  const service = await startService(url, port);
  const orm = await createOrm(url);
  const connection = orm.em.getConnection();
  const [{ slug }] = await connection.execute<{ slug: string }[]>(
    `select slug from manga where not deleted order by slug limit 1`,
  );
  const users = await connection.execute<{ username: string }[]>(
    `select username from "user" where role = 'user' order by username limit 6`,
  );
  await orm.close();
  const pid = service.child.pid!;
  let exited: string | undefined;
  service.child.once('exit', (code, signal) => (exited = `exit ${code ?? signal}`));
  let maxRss = rssMb(pid);
  const sampler = setInterval(() => {
    if (!exited) maxRss = Math.max(maxRss, rssMb(pid));
  }, 250);

  // The sockets: 20,000 subscriptions asked for on one, and large documents on 25 more.
  const tokens = await Promise.all(users.map(({ username }) => login(port, username)));
  // Count subscriptions answer at once: each is seen accepted (a `next`) or refused (an `error`).
  const many = await subscribeMany(
    port,
    tokens[0],
    SUBSCRIPTIONS_ON_ONE_SOCKET,
    (i) => `subscription Many${i} { notificationCount { unseen } }`,
  );
  const heavy = await Promise.all(
    Array.from({ length: HEAVY_SOCKETS }, (_, s) =>
      subscribeMany(port, tokens[1 + (s % 5)], 4, (i) => countSubscription(`Heavy${s}x${i}`, 600)),
    ),
  );

  const started = performance.now();
  const outcomes = new Map<string, number>();
  const faults: string[] = [];
  let next = 0;
  let answered = 0;
  const client = async () => {
    for (let i = next++; i < DOCUMENTS && !exited; i = next++) {
      for (const { kind, body } of documentFor(i, slug)) {
        const { status, text } = await post(port, body);
        const { fine, label } = outcome(status, text);
        const key = `${kind}: ${label}`;
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
        // A persisted query not found yet is Apollo's handshake, answered 200 as its clients expect.
        const handshake = kind === 'apq-hash' && status === 200 && text.includes('PersistedQueryNotFound');
        if (!fine && !handshake && faults.length < 20) faults.push(`${key}: ${text.slice(0, 300)}`);
      }
      answered += 1;
      if (answered % 5000 === 0)
        console.log(
          `${answered} documents, ${Math.round(answered / ((performance.now() - started) / 1000))}/s, RSS ${rssMb(pid)} MB (max ${maxRss})`,
        );
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  const seconds = (performance.now() - started) / 1000;
  await Promise.race([
    Promise.all([many.settled, ...heavy.map(({ settled }) => settled)]),
    new Promise((done) => setTimeout(done, 10_000)),
  ]);
  const ready = exited ? 0 : (await fetch(`http://127.0.0.1:${port}/readyz`)).status;
  const finalRss = exited ? 0 : rssMb(pid);
  clearInterval(sampler);

  console.log(
    `\n${answered} documents in ${seconds.toFixed(0)} s (${Math.round(answered / seconds)}/s), ${CLIENTS} clients`,
  );
  for (const [key, count] of [...outcomes].sort()) console.log(`  ${key}: ${count}`);
  const show = ({ accepted, refusals, closed }: SocketTally) =>
    `${accepted} accepted, refused: ${[...refusals].map(([code, n]) => `${n} ${code}`).join(', ') || 'none'}${closed ? `, closed ${closed}` : ''}`;
  console.log(`one socket, ${SUBSCRIPTIONS_ON_ONE_SOCKET} subscriptions asked for: ${show(many.tally)}`);
  const heavyTally: SocketTally = { accepted: 0, refusals: new Map() };
  for (const { tally } of heavy) {
    heavyTally.accepted += tally.accepted;
    for (const [code, n] of tally.refusals)
      heavyTally.refusals.set(code, (heavyTally.refusals.get(code) ?? 0) + n);
    if (tally.closed) heavyTally.closed = tally.closed;
  }
  console.log(`${HEAVY_SOCKETS} sockets of large subscriptions: ${show(heavyTally)}`);
  const cacheLines = service.lines.filter((line) => String(line.msg).startsWith('document cache'));
  if (cacheLines.length > 0)
    console.log(`last of ${cacheLines.length} cache lines: ${String(cacheLines.at(-1)!.msg)}`);
  const errors = service.lines.filter((line) => Number(line.level) >= 50);
  console.log(
    `service: ${exited ?? `up, /readyz ${ready}`}, RSS max ${maxRss} MB, at the end ${finalRss} MB (limit ${RSS_LIMIT_MB} MB), ${errors.length} error lines`,
  );

  const problems = [
    ...(exited ? [`the service died: ${exited}`] : []),
    ...(ready !== 200 ? [`/readyz answered ${ready}`] : []),
    ...(answered < DOCUMENTS ? [`only ${answered} of ${DOCUMENTS} documents answered`] : []),
    ...faults,
    ...(maxRss > RSS_LIMIT_MB ? [`RSS reached ${maxRss} MB`] : []),
    ...(many.tally.closed ? [`the socket of many subscriptions closed: ${many.tally.closed}`] : []),
    ...(many.tally.accepted + (many.tally.refusals.get('subscription:too_many') ?? 0) !==
    SUBSCRIPTIONS_ON_ONE_SOCKET
      ? ['not every subscription on the one socket was accepted or refused as too many']
      : []),
    ...errors.slice(0, 5).map((line) => `error line: ${JSON.stringify(line).slice(0, 300)}`),
  ];
  for (const problem of problems) console.log(`FAIL ${problem}`);

  for (const socket of [many.socket, ...heavy.map(({ socket: each }) => each)]) socket.close();
  if (!exited) {
    service.child.kill('SIGTERM');
    await new Promise((done) => service.child.once('exit', done));
  }
  await embedded?.stop();
  return problems.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
