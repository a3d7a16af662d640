import type { MikroORM } from '@mikro-orm/postgresql';
import type { RequestListener } from 'node:http';
import type { Logger } from 'pino';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';

export interface HttpTestApp {
  app: RequestListener;
  stop(): Promise<void>;
}

/** An app instance on `orm` with the test environment plus `env` (e.g. RATE_LIMIT: 'on'). */
export async function startHttpApp(
  orm: MikroORM,
  env: Record<string, string>,
  log?: Logger,
): Promise<HttpTestApp> {
  const config = loadConfig({ ...process.env, ...env });
  const { app, stop } = await buildApp({ orm, config, log: log ?? createLogger(config) });
  return { app, stop };
}
