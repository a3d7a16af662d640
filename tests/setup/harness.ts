import type { RequestListener, Server } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import type { SubscriptionServer } from '../../src/notifications/live/subscription-server';
import { createLogger } from '../../src/logger';
import type { RestRoute } from '../../src/rest/route';
import { openTestOrm, QueryCounter, resetDatabase } from './db';

export interface TestApp {
  orm: MikroORM;
  app: RequestListener;
  /** Counts the SQL statements a piece of work sends. */
  queries: QueryCounter;
  /** Empties every table. */
  reset(): Promise<void>;
  /** Serves GraphQL subscriptions on a server listening with `app`. */
  attach(server: Server): SubscriptionServer;
  close(): Promise<void>;
}

/** The real app on this worker's database, as `npm start` builds it; `log` replaces its logger. */
export async function startTestApp(routes?: readonly RestRoute[], log?: Logger): Promise<TestApp> {
  const queries = new QueryCounter();
  const config = loadConfig();
  const logger = log ?? createLogger(config);
  const orm = await openTestOrm(queries, logger);
  const { app, stop, attach } = await buildApp({ orm, config, log: logger, routes });
  return {
    orm,
    app,
    queries,
    reset: () => resetDatabase(orm),
    attach,
    close: async () => {
      await stop();
      await orm.close();
    },
  };
}

/** Registers a test app for the enclosing describe block, reset before each test. */
export function useTestApp(routes?: readonly RestRoute[], log?: Logger): TestApp {
  const handle = {} as TestApp;
  beforeAll(async () => {
    Object.assign(handle, await startTestApp(routes, log));
  });
  beforeEach(() => handle.reset());
  afterAll(() => handle.close());
  return handle;
}
