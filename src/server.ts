import 'reflect-metadata';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { buildApp } from './app';
import { superviseWorkers } from './cluster';
import { isClusterSupervisor, isClusterWorker, isFirstWorker } from './process-role';
import { CLIENT_SECRET_KEY_FILE, openClientSecretBox } from './clients/client-secret-keys';
import { type Config, ConfigError, loadConfig } from './config';
import { type Database, EMBEDDED_DATA_DIR, openDatabase } from './db/database';
import { createOrm, migrate } from './orm';
import { ADVISORY_LOCKS, withSessionLock } from './db/advisory-locks';
import { EmbeddedPostgresError } from './db/embedded';
import { seedDemoDataIfEmpty } from './import/demo-data';
import { checkHeapBudget } from './heap-budget';
import { applyHeapGrowth } from './heap-policy';
import { createLogger } from './logger';
import { startNewEpisodeJob } from './notifications/new-episode-job';
import { exampleMangaSlug } from './catalog/catalog.service';

/** The address could not be taken (a port in use, say); what had started was released. */
class ListenError extends Error {}

/** Listens on `host:port`; rejects with the reason when the address cannot be taken. */
function listen(app: RequestListener, host: string, port: number, log: Logger): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer(app);
    const failed = (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        reject(
          new ListenError(
            `cannot listen on ${host}:${port}: the address is in use. Stop what holds it, or set PORT (or HOST).`,
          ),
        );
      else reject(new ListenError(error.message));
    };
    server.once('error', failed);
    server.listen(port, host, () => {
      server.removeListener('error', failed);
      // Once listening, a server error (too many open files on accept, say) is logged; the service goes on.
      server.on('error', (error) => log.error({ err: error }, 'server error'));
      resolve(server);
    });
  });
}

/** Releases what a start that failed had opened (`close`, then the database); its own error is the one reported. */
async function releaseFailedStart(
  log: Logger,
  database: Database,
  close: () => Promise<void>,
): Promise<void> {
  try {
    await close();
  } catch (cleanup) {
    log.warn({ err: cleanup }, 'releasing after the failed start');
  } finally {
    await database.stop().catch(() => undefined);
  }
}

/** Which database the service runs on (the supervisor's line, with workers). */
function printDatabase(database: Database): void {
  console.log(
    `Database:   ${database.mode === 'embedded' ? `embedded PostgreSQL (${EMBEDDED_DATA_DIR})` : 'DATABASE_URL'}`,
  );
}

/** What `npm start` prints once the service listens at `base`: where to find what. */
async function printAddresses(
  config: Config,
  database: Database,
  em: EntityManager,
  base: string,
): Promise<void> {
  console.log(`REST API:   ${base}/   (reference: ${base}/docs, OpenAPI: ${base}/openapi.json)`);
  console.log(`GraphQL:    ${base}/graphql   (playground in a browser)`);
  console.log(`Live:       ${base.replace(/^http/, 'ws')}/graphql   (subscriptions, graphql-ws protocol)`);
  if (!isClusterWorker(config)) printDatabase(database);
  if (config.databaseReplicaUrls.length > 0)
    console.log(
      `Replicas:   ${config.databaseReplicaUrls.length} (DATABASE_REPLICA_URLS), for anonymous reads`,
    );
  console.log(`Email:      ${config.smtpUrl ? 'SMTP (SMTP_URL)' : 'written to the log (SMTP_URL is unset)'}`);
  console.log(
    `Secrets:    client secrets sealed with ${config.clientSecretKeys.length > 0 ? 'CLIENT_SECRET_KEY' : `the key in ${CLIENT_SECRET_KEY_FILE} (CLIENT_SECRET_KEY is unset)`}`,
  );
  const example = await exampleMangaSlug(em);
  if (example) console.log(`Try:        ${base}/manga/${example}`);
}

/** The service: config → database → migrations → demo data → app → listen; clean shutdown on signals. */
async function main(): Promise<void> {
  const config = loadConfig();
  // Every limit reached at once must fit in the heap node was given (src/heap-budget.ts).
  const budget = checkHeapBudget(config);
  applyHeapGrowth(config.heapGrowthPercent);
  const log = createLogger(config);
  if (budget.requests === undefined)
    log.warn('MAX_ACTIVE_REQUESTS=0: requests running at once are not limited, nor is the heap they take');
  if (isClusterSupervisor(config)) {
    printDatabase(await superviseWorkers(config, log));
    console.log(`Workers:    ${config.webConcurrency} processes on one port (WEB_CONCURRENCY)`);
    return;
  }
  const clientSecrets = openClientSecretBox(config, { onGenerated: (message) => log.warn(message) });
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    log: (line) => log.debug({ postgres: line }),
  });
  const orm = await createOrm(database.url, { replicaUrls: config.databaseReplicaUrls, log });
  // Instances starting together on one database take turns: the first migrates and
  // loads the demo data, the others then find both done.
  try {
    await withSessionLock(orm, ADVISORY_LOCKS.startup, async () => {
      const { migrations, sealedClientSecrets } = await migrate(orm, clientSecrets);
      if (migrations.length > 0) log.info({ migrations }, 'applied migrations');
      if (sealedClientSecrets > 0)
        log.info({ count: sealedClientSecrets, key: clientSecrets.sealingKeyId }, 'sealed client secrets');
      if (config.demoData) await seedDemoDataIfEmpty(orm, log, clientSecrets);
    });
  } catch (error) {
    // A refused key (CLIENT_SECRET_KEY), say: nothing keeps running.
    await releaseFailedStart(log, database, () => orm.close());
    throw error;
  }

  const { app, stop: stopApp, attach, notifications } = await buildApp({ orm, config, log, clientSecrets });
  let server: Server;
  try {
    server = await listen(app, config.host, config.port, log);
  } catch (error) {
    await releaseFailedStart(log, database, async () => {
      await stopApp();
      await orm.close();
    });
    throw error;
  }
  const newEpisodes = startNewEpisodeJob(orm, log, notifications);
  const subscriptions = attach(server);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const base = `http://${config.host}:${port}`;
  // Workers answer alike: the first says where (the primary named the database).
  if (!isClusterWorker(config) || isFirstWorker())
    await printAddresses(config, database, orm.em.fork(), base);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    try {
      // Stop accepting, let requests in flight finish, let the job finish its run (it
      // publishes through the app's bus), then release the pool and the database.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await subscriptions.close();
      await closed;
      await newEpisodes.stop();
      await stopApp();
      await orm.close();
      await database.stop();
    } catch (error) {
      log.error({ err: error }, 'shutdown failed');
      await database.stop().catch(() => undefined);
      process.exit(1);
    }
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`);
    process.exit(2);
  }
  if (error instanceof ListenError) {
    console.error(`Server: ${error.message}`);
    process.exit(1);
  }
  if (error instanceof EmbeddedPostgresError) {
    console.error(`Embedded PostgreSQL: ${error.message}`);
    process.exit(1);
  }
  console.error(error);
  process.exit(1);
});
