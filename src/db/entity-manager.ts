import type {
  AnyEntity,
  ConnectionType,
  EntityData,
  CountOptions,
  EntityName,
  FilterQuery,
  FindOneOptions,
  FindOptions,
  ForkOptions,
  Loaded,
  LoggingOptions,
  PopulatePath,
  TransactionOptions,
} from '@mikro-orm/core';
import {
  type EntityManager,
  type PostgreSqlConnection,
  type PostgreSqlDriver,
  type QueryBuilder,
  SqlEntityManager,
} from '@mikro-orm/postgresql';
import type { Outbox } from '../notifications/live/outbox';
import type { RawQuery, RawResult } from './replicas';

/**
 * The service's entity manager (MikroORM's `entityManager` option). A request's fork may
 * be told to read from the replicas ({@link readFromReplicas}): then its finds, counts,
 * loads of references and collections, and query builders ask MikroORM for a read
 * connection, unless they name one or run in a transaction. Every other entity manager
 * reads from the primary (`preferReadReplicas` is off), so that nothing reads a replica
 * that has not chosen to.
 */
export class CatalogEntityManager extends SqlEntityManager<PostgreSqlDriver> {
  private replicaReads = false;
  /**
   * Where this manager's work announces notification events, published once it commits;
   * forks (a service's `transactional`) announce to the same. Absent: nothing is announced.
   */
  outbox: Outbox | undefined;
  /**
   * Set while this manager's open transaction is one request's single write
   * ({@link joinTransactions}): `transactional` then runs in it as it is.
   */
  joinsTransaction = false;

  override fork(options?: ForkOptions): this {
    const fork = super.fork(options);
    fork.outbox = this.outbox;
    return fork;
  }

  /**
   * Inside a joined transaction, the work runs on this manager and is flushed at the
   * end, with no savepoint and no fork: whoever opened the transaction rolls it all
   * back when the work fails. Otherwise (and with an explicit propagation) MikroORM's
   * own: a transaction, or a savepoint inside an open one.
   */
  override async transactional<T>(
    cb: (em: this) => T | Promise<T>,
    options?: TransactionOptions,
  ): Promise<T> {
    if (!this.joinsTransaction || options?.propagation || !this.isInTransaction())
      return super.transactional(cb, options);
    const result = await cb(this);
    await this.flush();
    return result;
  }

  /** This manager's reads go to the replicas from now on (an anonymous query's). */
  readFromReplicas(): void {
    this.replicaReads = true;
  }

  /** The connection type for a read: `read` for a replica-reading manager outside a transaction. */
  get readConnectionType(): ConnectionType {
    return this.readsReplicas ? 'read' : 'write';
  }

  private get readsReplicas(): boolean {
    return this.replicaReads && !this.isInTransaction();
  }

  override find<
    Entity extends object,
    Hint extends string = never,
    Fields extends string = PopulatePath.ALL,
    Excludes extends string = never,
  >(
    entityName: EntityName<Entity>,
    where: FilterQuery<NoInfer<Entity>>,
    options?: FindOptions<Entity, Hint, Fields, Excludes>,
  ): Promise<Loaded<Entity, Hint, Fields, Excludes>[]> {
    return super.find(entityName, where, this.reading(options));
  }

  override findOne<
    Entity extends object,
    Hint extends string = never,
    Fields extends string = '*',
    Excludes extends string = never,
  >(
    entityName: EntityName<Entity>,
    where: FilterQuery<NoInfer<Entity>>,
    options?: FindOneOptions<Entity, Hint, Fields, Excludes>,
  ): Promise<Loaded<Entity, Hint, Fields, Excludes> | null> {
    return super.findOne(entityName, where, this.reading(options));
  }

  override count<Entity extends object, Hint extends string = never>(
    entityName: EntityName<Entity>,
    where?: FilterQuery<NoInfer<Entity>>,
    options?: CountOptions<Entity, Hint>,
  ): Promise<number> {
    return super.count(entityName, where, this.reading(options));
  }

  override createQueryBuilder<Entity extends object, RootAlias extends string = never>(
    entityName: EntityName<Entity> | QueryBuilder<Entity>,
    alias?: RootAlias,
    type?: ConnectionType,
    loggerContext?: LoggingOptions,
  ): QueryBuilder<Entity, RootAlias> {
    // A builder that writes runs on the primary all the same (ReplicaConnection.execute).
    return super.createQueryBuilder(
      entityName,
      alias,
      type ?? (this.readsReplicas ? 'read' : undefined),
      loggerContext,
    );
  }

  /**
   * Raw SQL: a replica-reading manager's statements outside a transaction run on a
   * replica. Their failures are converted as the primary's are (a DriverException), so
   * that an unreachable database is told apart alike on both.
   */
  override async execute<T extends RawResult = EntityData<AnyEntity>[]>(
    query: RawQuery,
    params?: unknown[],
    method?: 'all' | 'get' | 'run',
    loggerContext?: LoggingOptions,
  ): Promise<T> {
    if (!this.readsReplicas) return super.execute<T>(query, params, method, loggerContext);
    try {
      return await this.getConnection('read').execute<T>(query, params, method, undefined, loggerContext);
    } catch (error) {
      throw this.getDriver().convertException(error as Error);
    }
  }

  private reading<Options extends { connectionType?: ConnectionType }>(
    options: Options | undefined,
  ): Options | undefined {
    if (!this.readsReplicas || options?.connectionType !== undefined) return options;
    return { ...options, connectionType: 'read' } as Options;
  }
}

/** `em` as the service's entity manager, which every manager of its ORM is. */
function catalogEntityManager(em: EntityManager): CatalogEntityManager {
  if (!(em instanceof CatalogEntityManager)) throw new Error('not an entity manager of this service');
  return em;
}

/** Sends `em`'s reads to the replicas (see {@link CatalogEntityManager}). */
export function readFromReplicas(em: EntityManager): void {
  catalogEntityManager(em).readFromReplicas();
}

/** The connection for a raw read on `em`: a replica's when `em` reads from the replicas. */
export function readConnection(em: EntityManager): PostgreSqlConnection {
  return em.getConnection(
    em instanceof CatalogEntityManager ? em.readConnectionType : 'write',
  ) as PostgreSqlConnection;
}

/**
 * Whether `em`'s open transaction is joined by the `transactional` calls made in it
 * (see {@link CatalogEntityManager.transactional}) rather than nested as savepoints.
 */
export function joinTransactions(em: EntityManager, join: boolean): void {
  catalogEntityManager(em).joinsTransaction = join;
}

/** Where `em`'s work announces notification events, if anywhere. */
export function outboxOf(em: EntityManager): Outbox | undefined {
  return em instanceof CatalogEntityManager ? em.outbox : undefined;
}

/** Makes `em`'s work (and its forks') announce to `outbox`. */
export function useOutbox(em: EntityManager, outbox: Outbox): void {
  catalogEntityManager(em).outbox = outbox;
}
