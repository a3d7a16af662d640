import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { MikroORM } from '@mikro-orm/postgresql';
import pino from 'pino';
import { config, ConfigError, loadConfig } from '../../src/config';
import { freeLoopbackPort } from '../../src/db/embedded';
import { ormOptions } from '../../src/db/orm-options';
import { entities } from '../../src/orm';
import { queryRows, sql } from '../../src/db/sql';
import { statementPoolOf } from '../../src/db/statement-pool';
import { databaseCause, isDatabaseUnavailable, outageSummary } from '../../src/db/unavailable';
import { workerDatabaseUrl } from '../setup/db';

/** The error `work` fails with (the test fails if it succeeds). */
async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

/** An ORM on `url` with a one-connection pool and short timeouts, closed after `use`. */
async function withOrm(url: string, use: (orm: MikroORM) => Promise<void>): Promise<void> {
  const options = ormOptions({ clientUrl: url, entities, poolMax: 1 });
  const orm = await MikroORM.init({
    ...options,
    pool: { ...options.pool, acquireTimeoutMillis: 500 },
    driverOptions: { connection: { connectionTimeoutMillis: 300 } },
  });
  try {
    await use(orm);
  } finally {
    await orm.close(true);
  }
}

describe('a database that cannot be reached', () => {
  // Real failures of the real driver stack (MikroORM → knex → pg), as a request meets them.
  it('is recognised in what pg, knex and MikroORM throw', async () => {
    const closedPort = await freeLoopbackPort();
    for (const host of ['127.0.0.1', 'localhost']) {
      await withOrm(`postgresql://postgres@${host}:${closedPort}/x`, async (orm) => {
        expect(isDatabaseUnavailable(await failureOf(() => orm.em.fork().execute('select 1')))).toBe(true);
        expect(isDatabaseUnavailable(await failureOf(() => orm.em.fork().begin()))).toBe(true);
      });
    }

    // A server that accepts connections and never answers: pg's connect timeout.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket)).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as { port: number };
    await withOrm(`postgresql://postgres@127.0.0.1:${port}/x`, async (orm) => {
      expect(isDatabaseUnavailable(await failureOf(() => orm.em.fork().execute('select 1')))).toBe(true);
    });
    sockets.forEach((socket) => socket.destroy());
    silent.close();

    await withOrm(await workerDatabaseUrl(), async (orm) => {
      // Every connection busy: knex's pool acquire timeout.
      const holder = orm.em.fork();
      await holder.begin();
      const [{ pid }] = await holder.execute<{ pid: number }[]>('select pg_backend_pid() as pid');
      expect(isDatabaseUnavailable(await failureOf(() => orm.em.fork().execute('select 1')))).toBe(true);
      expect(isDatabaseUnavailable(await failureOf(() => orm.em.fork().begin()))).toBe(true);

      // A statement running when the server ends the session (as on shutdown: 57P01), then
      // a commit on the lost connection.
      const running = failureOf(() => holder.execute('select pg_sleep(5)'));
      const admin = await MikroORM.init(
        ormOptions({ clientUrl: await workerDatabaseUrl(), entities, poolMax: 1 }),
      );
      await admin.em.fork().execute('select pg_sleep(0.2), pg_terminate_backend(?)', [pid]);
      await admin.close(true);
      const terminated = (await running) as { code?: string };
      const commit = await failureOf(() => holder.commit());
      await holder.rollback();
      expect(terminated.code).toBe('57P01');
      expect(isDatabaseUnavailable(terminated)).toBe(true);
      expect(isDatabaseUnavailable(commit)).toBe(true);
    });
  });

  // Compiled reads take their connection from pg's own pool (src/db/statement-pool.ts).
  it('is recognised in what the statement pool of compiled reads throws', async () => {
    const read = (orm: MikroORM) => queryRows(orm.em, sql('select 1'));
    const closedPort = await freeLoopbackPort();
    await withOrm(`postgresql://postgres@127.0.0.1:${closedPort}/x`, async (orm) => {
      expect(isDatabaseUnavailable(await failureOf(() => read(orm)))).toBe(true);
    });

    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket)).listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as { port: number };
    await withOrm(`postgresql://postgres@127.0.0.1:${port}/x`, async (orm) => {
      expect(isDatabaseUnavailable(await failureOf(() => read(orm)))).toBe(true);
    });
    sockets.forEach((socket) => socket.destroy());
    silent.close();

    await withOrm(await workerDatabaseUrl(), async (orm) => {
      // Its one client busy: the wait for a free one ends with the connect timeout.
      const pool = statementPoolOf(orm.em.getConnection());
      const held = await pool.connect();
      try {
        expect(isDatabaseUnavailable(await failureOf(() => read(orm)))).toBe(true);
      } finally {
        held.release();
      }
      expect(await read(orm)).toEqual([{ '?column?': 1 }]);
    });
  });

  it('is not confused with a statement the server refused, whatever its text', async () => {
    await withOrm(await workerDatabaseUrl(), async (orm) => {
      const em = orm.em.fork();
      const refusals = [
        'select 1 +',
        'select 1 / 0',
        `select 'Connection terminated unexpectedly'::int`,
        `do $$ begin raise exception 'Connection terminated unexpectedly'; end $$`,
        `do $$ begin raise exception 'x - timeout expired'; end $$`,
      ];
      for (const sql of refusals) {
        expect(isDatabaseUnavailable(await failureOf(() => em.execute(sql)))).toBe(false);
      }
    });
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });

  it('has timeouts below the request timeout, or refuses to start', () => {
    expect(loadConfig({})).toMatchObject({
      databaseAcquireTimeoutMs: 10_000,
      databaseConnectTimeoutMs: 5_000,
    });
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '4000' })).toMatchObject({
      databaseAcquireTimeoutMs: 2_000,
      databaseConnectTimeoutMs: 2_000,
    });
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: '4000', DATABASE_ACQUIRE_TIMEOUT_MS: '4000' })).toThrow(
      /DATABASE_ACQUIRE_TIMEOUT_MS must be below REQUEST_TIMEOUT_MS/,
    );
    expect(() => loadConfig({ DATABASE_CONNECT_TIMEOUT_MS: 'soon' })).toThrow(ConfigError);
  });

  it('answers before the request times out: the pool gives up first', () => {
    const options = ormOptions({ clientUrl: 'postgresql://postgres@127.0.0.1:1/x', entities });
    const { requestTimeoutMs, databaseAcquireTimeoutMs, databaseConnectTimeoutMs } = config();
    expect(options.pool?.acquireTimeoutMillis).toBe(databaseAcquireTimeoutMs);
    expect(options.driverOptions).toMatchObject({
      connection: { connectionTimeoutMillis: databaseConnectTimeoutMs },
    });
    expect(databaseAcquireTimeoutMs).toBeLessThan(requestTimeoutMs);
    expect(databaseConnectTimeoutMs).toBeLessThan(requestTimeoutMs);
  });
});

describe('the outage summary', () => {
  afterEach(() => jest.useRealTimers());

  it('reports the first failure at once, then at most one line every 5 seconds, the last window too', () => {
    jest.useFakeTimers({ now: 100_000 });
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const report = outageSummary();
    const refused = Object.assign(new Error('select 1 - connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    const failures: [number, string][] = [
      [0, 'a'],
      [1_000, 'b'],
      [1_500, 'b'], // a second failed field of the same GraphQL request
      [2_000, 'c'],
      [4_999, 'd'],
      [6_000, 'e'],
      [7_000, 'f'],
    ];
    let clock = 0;
    for (const [at, request] of failures) {
      // Moves the clock, running the summaries that fall due on the way.
      jest.advanceTimersByTime(at - clock);
      clock = at;
      report.record(log, databaseCause(refused), request);
    }
    jest.advanceTimersByTime(10_000);
    expect(lines.map((line) => line.msg)).toEqual([
      'database unavailable: 1 request failed in the last 1s',
      // b, c, d: reported when their 5-second window closes, without waiting for another failure.
      'database unavailable: 3 requests failed in the last 4s',
      // e, f: the outage's last window, reported though nothing fails after it.
      'database unavailable: 2 requests failed in the last 4s',
    ]);
    // The driver's words only: the SQL in front of them may carry values.
    expect(lines[1]).toMatchObject({ failed: 3, seconds: 4, cause: 'connect ECONNREFUSED 127.0.0.1:5432' });
  });
});
