import type { Options } from '@mikro-orm/core';
import { MikroORM, type PostgreSqlDriver } from '@mikro-orm/postgresql';
import pg from 'pg';
import { deferTransactionBegin } from './deferred-begin';
import { startEmbeddedPostgres } from './embedded';

export type DatabaseMode = 'external' | 'embedded';

export interface Database {
  mode: DatabaseMode;
  url: string;
  /** Stops the embedded server; a no-op for an external database. */
  stop(): Promise<void>;
}

const EMBEDDED_DATABASE = 'catalog';
/**
 * Where the embedded PostgreSQL keeps its data unless told otherwise. Run as root from a
 * folder the `postgres` OS user cannot enter, this becomes a link to the data's place
 * under /var/lib/catalog-service (see `dataDirFor` in ./embedded).
 */
export const EMBEDDED_DATA_DIR = '.data/postgres';

/** Creates `name` on the server at `serverUrl` unless it exists. */
export async function ensureDatabase(serverUrl: string, name: string, template?: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      const from = template ? ` template ${client.escapeIdentifier(template)}` : '';
      await client.query(`create database ${client.escapeIdentifier(name)}${from}`);
    }
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The database the service uses: `DATABASE_URL` when set, else an embedded
 * PostgreSQL with its data under `dataDir` ({@link EMBEDDED_DATA_DIR} by default).
 */
export async function openDatabase(options: {
  databaseUrl: string | undefined;
  dataDir?: string;
  log?: (line: string) => void;
}): Promise<Database> {
  if (options.databaseUrl) {
    return { mode: 'external', url: options.databaseUrl, stop: async () => undefined };
  }
  const embedded = await startEmbeddedPostgres({
    dataDir: options.dataDir ?? EMBEDDED_DATA_DIR,
    log: options.log,
  });
  try {
    const url = await ensureDatabase(embedded.serverUrl, EMBEDDED_DATABASE);
    return { mode: 'embedded', url, stop: embedded.stop };
  } catch (error) {
    await embedded.stop();
    throw error;
  }
}

/**
 * MikroORM with `options` (src/orm.ts gives every entity), each transaction's BEGIN sent
 * with its first statement (./deferred-begin).
 */
export async function initOrm(options: Options<PostgreSqlDriver>): Promise<MikroORM> {
  deferTransactionBegin();
  return MikroORM.init(options);
}

/**
 * Refreshes the planner's statistics and the visibility map after a bulk load; without
 * them PostgreSQL plans the first queries on a freshly loaded catalog badly (nested
 * loops over thousands of rows) and index-only scans still read every heap page, until
 * autovacuum catches up. Runs outside any transaction, as VACUUM must.
 */
export async function refreshPlannerStatistics(orm: MikroORM): Promise<void> {
  await orm.em.getConnection().execute('vacuum (analyze)');
}
