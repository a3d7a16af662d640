import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import autocannon from 'autocannon';
import pino from 'pino';
import request from 'supertest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createOrm, ensureDatabase, migrate } from '../src/db/database';
import { freeLoopbackPort, startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded';
import { seedDemoData } from '../src/import/demo-data';

/**
 * `npm run bench`: loads demo data at scale 10 (≥ 20,000 titles, ≥ 200,000 list
 * entries) into a database of its own, starts the service as `npm start` does, and
 * measures contract endpoints #3 and #21 at 32 concurrent connections: median and
 * p99 latency, requests per second, and the SQL statements one request sends.
 * DATABASE_URL, when set, names the server; the database `catalog_bench` is used on it.
 */
const SCALE = Number(process.env.BENCH_SCALE ?? '10');
const CONNECTIONS = 32;
const SECONDS = Number(process.env.BENCH_SECONDS ?? '10');

interface Scenario {
  name: string;
  path: string;
  body: unknown;
}

async function benchDatabase(): Promise<{ url: string; embedded?: EmbeddedDatabase }> {
  if (process.env.DATABASE_URL)
    return { url: await ensureDatabase(process.env.DATABASE_URL, 'catalog_bench') };
  const embedded = await startEmbeddedPostgres({ dataDir: resolve('.data/bench-postgres') });
  return { url: await ensureDatabase(embedded.serverUrl, 'catalog_bench'), embedded };
}

async function loadData(url: string): Promise<void> {
  const orm = await createOrm(url);
  try {
    await migrate(orm);
    const [{ titles }] = await orm.em
      .getConnection()
      .execute<{ titles: number }[]>(
        `select (select count(*) from anime) + (select count(*) from manga) + (select count(*) from novel) as titles`,
      );
    if (Number(titles) >= 2000 * SCALE) return;
    console.log(`loading demo data at scale ${SCALE} ...`);
    const started = Date.now();
    await seedDemoData(orm, pino({ level: 'warn' }), { scale: SCALE });
    console.log(`loaded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    await orm.close();
  }
}

async function describeData(url: string): Promise<{ titles: number; entries: number; busiestUser: string }> {
  const orm = await createOrm(url);
  try {
    const connection = orm.em.getConnection();
    const [counts] = await connection.execute<{ titles: number; entries: number }[]>(
      `select (select count(*) from anime) + (select count(*) from manga) + (select count(*) from novel) as titles,
              (select count(*) from watch_entry) + (select count(*) from read_entry) as entries`,
    );
    const [busiest] = await connection.execute<{ username: string }[]>(
      `select u.username from "user" u join watch_entry w on w.user_reference = u.reference
        group by u.username order by count(*) desc, u.username limit 1`,
    );
    return {
      titles: Number(counts.titles),
      entries: Number(counts.entries),
      busiestUser: busiest?.username ?? 'demo_user',
    };
  } finally {
    await orm.close();
  }
}

function scenarios(username: string): Scenario[] {
  return [
    { name: '#3 novels, default sort', path: '/novel?size=15', body: {} },
    // Worst case: with the demo vocabulary ("<noun> of <name>") this matches nearly every novel.
    { name: '#3 novels, text query', path: '/novel?size=15', body: { query: 'blade of' } },
    // A typo of one name: a few percent of the novels match, as a real title search would.
    { name: '#3 novels, typo query', path: '/novel?size=15', body: { query: 'hisorau' } },
    {
      name: '#3 novels, filters + sort',
      path: '/novel?size=50',
      body: {
        genres: ['fantasy', '-horror'],
        score: [5, null],
        sort: ['native_score:desc', 'start_date:desc'],
      },
    },
    { name: '#21 watch list, default', path: `/watch/${username}/list?size=15`, body: {} },
    {
      name: '#21 watch list, filters',
      path: `/watch/${username}/list?size=100`,
      body: { years: [2000, null], media_type: ['tv', 'movie'], sort: ['score:desc'] },
    },
  ];
}

/** SQL statements one request sends, measured in-process with the query logger. */
async function queryCounts(url: string, list: Scenario[]): Promise<Map<string, number>> {
  let counting = false;
  let count = 0;
  const orm = await createOrm(url, {
    onQuery: (message) => {
      if (counting && message.includes('[query]')) count += 1;
    },
  });
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const { app, stop } = await buildApp({ orm, config, log: pino({ level: 'silent' }) });
  const counts = new Map<string, number>();
  try {
    for (const scenario of list) {
      counting = true;
      count = 0;
      const res = await request(app)
        .post(scenario.path)
        .send(scenario.body as object);
      counting = false;
      if (res.status !== 200)
        throw new Error(`${scenario.name}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
      counts.set(scenario.name, count);
    }
  } finally {
    await stop();
    await orm.close();
  }
  return counts;
}

async function startService(url: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(port),
      DEMO_DATA: 'off',
      RATE_LIMIT: 'off',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let attempt = 0; attempt < 120; attempt += 1) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (res.ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 500));
  }
  child.kill('SIGTERM');
  throw new Error('the service did not become ready');
}

async function load(port: number, scenario: Scenario) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${scenario.path}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(scenario.body),
    connections: CONNECTIONS,
    duration: SECONDS,
  });
  return {
    median: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    errors: result.non2xx + result.errors + result.timeouts,
  };
}

async function main(): Promise<void> {
  const { url, embedded } = await benchDatabase();
  let service: ChildProcess | undefined;
  try {
    await loadData(url);
    const data = await describeData(url);
    console.log(`data: ${data.titles} titles, ${data.entries} list entries; #21 user: ${data.busiestUser}`);
    const list = scenarios(data.busiestUser);
    const counts = await queryCounts(url, list);
    const port = await freeLoopbackPort();
    service = await startService(url, port);
    console.log(`\n${CONNECTIONS} connections, ${SECONDS} s per scenario\n`);
    console.log('scenario                      median ms   p99 ms    req/s   SQL/request  errors');
    for (const scenario of list) {
      const { median, p99, rps, errors } = await load(port, scenario);
      console.log(
        `${scenario.name.padEnd(30)}${String(median).padStart(9)}${String(p99).padStart(9)}${rps
          .toFixed(0)
          .padStart(9)}${String(counts.get(scenario.name)).padStart(13)}${String(errors).padStart(8)}`,
      );
    }
  } finally {
    service?.kill('SIGTERM');
    await embedded?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
