import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { RateLimiterClusterMaster } from 'rate-limiter-flexible';
import { openClientSecretBox } from './clients/client-secret-keys';
import type { Config } from './config';
import { type Database, openDatabase } from './db/database';

/**
 * `WEB_CONCURRENCY` > 1: this process only supervises. It generates the client-secret
 * key if there is none (before any worker reads it), opens the database (starting the
 * embedded one when `DATABASE_URL` is unset), holds the in-memory rate-limit budgets
 * the workers share (without `REDIS_URL`), and starts the workers, which listen on one
 * port (node:cluster hands them connections in turn) and run everything else as an
 * instance does (they take turns for migrations and demo data, as instances do). A
 * worker that dies once serving is replaced; one that dies before it listened stops
 * the service. SIGTERM or SIGINT stops the workers, then the database (returned).
 */
export async function superviseWorkers(config: Config, log: Logger): Promise<Database> {
  openClientSecretBox(config, { onGenerated: (message) => log.warn(message) });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    log: (line) => log.debug({ postgres: line }),
  });
  if (config.rateLimit && !config.redisUrl) new RateLimiterClusterMaster();

  const listening = new WeakSet<Worker>();
  let stopping = false;
  const stop = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined);
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((done) => {
            if (worker.isDead()) return done();
            worker.once('exit', () => done());
            worker.process.kill('SIGTERM');
          }),
      ),
    );
    await database.stop().catch((error: unknown) => log.error({ err: error }, 'stopping the database'));
    process.exit(exitCode);
  };

  const env = { DATABASE_URL: database.url };
  cluster.on('listening', (worker) => listening.add(worker));
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    if (!listening.has(worker)) {
      log.error({ worker: worker.id, code, signal }, 'a worker exited before it listened: stopping');
      void stop(code || 1);
      return;
    }
    log.error({ worker: worker.id, code, signal }, 'a worker exited: starting another');
    cluster.fork(env);
  });
  for (let i = 0; i < config.webConcurrency; i += 1) cluster.fork(env);
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGINT', () => void stop(0));
  return database;
}
