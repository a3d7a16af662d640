import { type Options } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import type { PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { config } from '../config';
import { counted, LogSummary } from '../logger';
import { CatalogEntityManager } from './entity-manager';
import { migrationsList } from './migrations';
import { replicaOptions, ReplicatedPostgreSqlDriver } from './replicas';

export interface OrmOptionsInput {
  clientUrl: string;
  /** Every entity of the model (src/orm.ts lists them). */
  entities: NonNullable<Options['entities']>;
  /** Streaming replicas of `clientUrl`'s database, for anonymous reads. */
  replicaUrls?: readonly string[];
  /** Receives every SQL statement (the tests count them). */
  onQuery?: (sql: string) => void;
  poolMax?: number;
  /** Where knex's own messages go; without it knex prints them on the console (the CLI commands). */
  log?: Logger;
}

/**
 * knex's messages (`Connection Error: ...` for each pooled connection a stopped database
 * broke) as one rate-limited warn line in the service's log, in place of knex's console
 * lines. The first line of each is the cause: knex appends stacks to some.
 */
function driverLog(log: Logger) {
  const warnings = new LogSummary({
    countField: 'warnings',
    message: (count, seconds) => `database driver: ${counted(count, 'warning')} in the last ${seconds}s`,
  });
  const record = (message: string) => warnings.record(log, message.split('\n', 1)[0]);
  return { warn: record, error: record, deprecate: record };
}

/**
 * ORM options shared by the service, the CLI commands and the tests: the same
 * driver, entities, migrations and pool in both database modes.
 */
export function ormOptions({
  clientUrl,
  entities,
  replicaUrls = [],
  onQuery,
  poolMax = 10,
  log,
}: OrmOptionsInput): Options<PostgreSqlDriver> {
  const { databaseConnectTimeoutMs, databaseAcquireTimeoutMs, trgmThreshold } = config();
  return {
    driver: ReplicatedPostgreSqlDriver,
    entityManager: CatalogEntityManager,
    clientUrl,
    // Each replica gets the primary's pool and driver options. Only reads that choose a
    // replica go there (anonymous queries, src/db/entity-manager.ts), not every read.
    replicas: replicaOptions(replicaUrls),
    preferReadReplicas: false,
    entities,
    extensions: [Migrator],
    driverOptions: {
      ...(log && { log: driverLog(log) }),
      connection: {
        // With the pool's acquire timeout below, ends before the request timeout: during an
        // outage a request fails fast with 503 (src/db/unavailable.ts) instead of its 408.
        connectionTimeoutMillis: databaseConnectTimeoutMs,
        // Set as each session starts, on every pool: typo-tolerant search (`<%`, semantics
        // §1.9) compares against this per-session threshold.
        options: `-c pg_trgm.word_similarity_threshold=${trgmThreshold}`,
      },
    },
    pool: {
      min: 0,
      max: poolMax,
      acquireTimeoutMillis: databaseAcquireTimeoutMs,
    },
    dataloader: true,
    forceUtcTimezone: true,
    // The schema is owned by the committed migrations, never synchronised at runtime.
    ensureDatabase: false,
    allowGlobalContext: false,
    colors: false,
    debug: onQuery ? ['query'] : false,
    logger: onQuery ? (message: string) => onQuery(message) : undefined,
    migrations: {
      migrationsList,
      path: 'src/db/migrations',
      pathTs: 'src/db/migrations',
      emit: 'ts',
      snapshot: false,
      silent: true,
      transactional: true,
      allOrNothing: true,
    },
  };
}
