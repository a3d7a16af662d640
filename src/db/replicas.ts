import type {
  AnyEntity,
  Configuration,
  ConnectionOptions,
  ConnectionType,
  EntityData,
  LoggingOptions,
  QueryResult,
  Transaction,
} from '@mikro-orm/core';
import { type Knex, type MikroORM, PostgreSqlConnection, PostgreSqlDriver } from '@mikro-orm/postgresql';
import { closeStatementPools } from './statement-pool';
import { isDatabaseUnavailable } from './unavailable';

/** How often a replica that stopped answering is tried again, in the background. */
const PROBE_INTERVAL_MS = 2_000;

/**
 * Statements a replica refuses that the primary answers: a hot standby cancels a read
 * whose rows replay needs (serialization_failure, "conflict with recovery"), and refuses
 * a write (read_only_sql_transaction) that a read path made after all.
 */
const PRIMARY_ONLY_CODES = new Set(['40001', '25006']);

const isPrimaryOnly = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  'code' in error &&
  PRIMARY_ONLY_CODES.has(String(error.code));

/** What raw SQL (MikroORM's `execute`) takes and gives. */
export type RawQuery = string | Knex.QueryBuilder | Knex.Raw;
export type RawResult = QueryResult | EntityData<AnyEntity> | EntityData<AnyEntity>[];

export interface ReplicaStatus {
  name: string;
  status: 'up' | 'down';
}

/**
 * A streaming replica's connection (MikroORM's `replicas`). A read it cannot answer
 * because the replica is unreachable is answered by the primary instead, and the
 * replica is skipped until a background probe reaches it again: a replica going away
 * fails no request.
 */
export class ReplicaConnection extends PostgreSqlConnection {
  private probe: NodeJS.Timeout | undefined;
  private probing = false;
  private closed = false;

  constructor(
    config: Configuration,
    options: ConnectionOptions,
    private readonly primary: () => PostgreSqlConnection,
  ) {
    super(config, options, 'read');
  }

  get name(): string {
    return this.options.name ?? 'replica';
  }

  /** False from a failure until a probe answers again. */
  get up(): boolean {
    return this.probe === undefined;
  }

  /** Runs `read` here, or with the primary when this replica cannot answer it. */
  async orPrimary<T>(read: (connection: PostgreSqlConnection) => Promise<T>): Promise<T> {
    try {
      return await read(this);
    } catch (error) {
      if (isDatabaseUnavailable(error)) this.markDown();
      else if (!isPrimaryOnly(error)) throw error;
      return read(this.primary());
    }
  }

  override execute<T extends RawResult = EntityData<AnyEntity>[]>(
    query: RawQuery,
    params?: unknown[],
    method?: 'all' | 'get' | 'run',
    ctx?: Transaction,
    loggerContext?: LoggingOptions,
  ): Promise<T> {
    // A transaction's statements run on its own (primary) connection; writes go there too.
    if (ctx || method === 'run') return this.primary().execute<T>(query, params, method, ctx, loggerContext);
    return this.orPrimary((connection) =>
      connection === this
        ? super.execute<T>(query, params, method, undefined, loggerContext)
        : connection.execute<T>(query, params, method, undefined, loggerContext),
    );
  }

  /** Asks the replica now (`/readyz`), updating whether reads are sent to it. */
  async check(): Promise<ReplicaStatus> {
    const answers = await this.answers();
    if (answers) this.markUp();
    else this.markDown();
    return { name: this.name, status: answers ? 'up' : 'down' };
  }

  override async close(force?: boolean): Promise<void> {
    this.closed = true;
    this.markUp();
    await super.close(force);
  }

  private async answers(): Promise<boolean> {
    try {
      await super.execute('select 1');
      return true;
    } catch {
      return false;
    }
  }

  private markDown(): void {
    // Once closed, a late failure must not reopen the pool through a probe.
    if (this.closed) return;
    this.probe ??= setInterval(() => {
      if (this.probing) return;
      this.probing = true;
      void this.answers()
        .then((answers) => answers && this.markUp())
        .finally(() => (this.probing = false));
    }, PROBE_INTERVAL_MS).unref();
  }

  private markUp(): void {
    clearInterval(this.probe);
    this.probe = undefined;
  }
}

/**
 * PostgreSQL with MikroORM's read replicas (`DATABASE_REPLICA_URLS`), where a read
 * connection is one of the replicas that answer, in turn, or the primary when none does.
 * Which reads ask for one is the entity manager's choice (src/db/entity-manager.ts).
 */
export class ReplicatedPostgreSqlDriver extends PostgreSqlDriver {
  private turn = 0;

  protected override createReplicas(): PostgreSqlConnection[] {
    // Runs inside the base constructor: `this.connection` is read later, when a read fails.
    return super.createReplicas(
      (options) => new ReplicaConnection(this.config, options, () => this.connection),
    );
  }

  override getConnection(type: ConnectionType = 'write'): PostgreSqlConnection {
    if (type === 'write') return this.connection;
    for (let tried = 0; tried < this.replicas.length; tried += 1) {
      this.turn = (this.turn + 1) % this.replicas.length;
      const replica = this.replicas[this.turn] as ReplicaConnection;
      if (replica.up) return replica;
    }
    return this.connection;
  }

  /** Closes the statement pools beside the connections too (./statement-pool.ts). */
  override async close(force?: boolean): Promise<void> {
    await super.close(force);
    await closeStatementPools([this.connection, ...this.replicas]);
  }

  /** Every replica's state, each asked now. */
  checkReplicas(): Promise<ReplicaStatus[]> {
    return Promise.all(this.replicas.map((replica) => (replica as ReplicaConnection).check()));
  }
}

/** Every read replica's state, each asked now; none without `DATABASE_REPLICA_URLS`. */
export async function checkReplicas(orm: MikroORM): Promise<ReplicaStatus[]> {
  const driver = orm.em.getDriver();
  return driver instanceof ReplicatedPostgreSqlDriver ? driver.checkReplicas() : [];
}

/** MikroORM's replica options for `DATABASE_REPLICA_URLS`, named `replica-1`, `replica-2`, ... */
export function replicaOptions(urls: readonly string[]): ConnectionOptions[] {
  return urls.map((clientUrl, index) => ({ name: `replica-${index + 1}`, clientUrl }));
}
