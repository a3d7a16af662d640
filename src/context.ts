import { type ConnectionType, FlushMode } from '@mikro-orm/core';
import type { EntityManager, Knex } from '@mikro-orm/postgresql';
import type { OperationTypeNode } from 'graphql';
import type DataLoader from 'dataloader';
import type { Logger } from 'pino';
import type { AccountServices } from './accounts/account-services';
import { AuthSession } from './accounts/session';
import type { Language } from './common/errors/app-error';
import { joinTransactions, readFromReplicas, useOutbox } from './db/entity-manager';
import { isDatabaseUnavailable } from './db/unavailable';
import type { LiveConnection } from './notifications/live/notification-feed';
import type { NotificationBus } from './notifications/live/notification-bus';
import { Outbox } from './notifications/live/outbox';

/**
 * The one database transaction a GraphQL mutation runs in, on the request's entity
 * manager (src/graphql/database-plugin.ts begins and settles it). Services' own
 * `em.transactional(...)` calls run in it (as savepoints when the operation has several
 * root fields), so nothing commits until the whole response has been resolved: a write
 * is never answered as failed after it committed. Effects that must follow the commit
 * (emails) wait for it, and are dropped on rollback.
 */
export class RequestTransaction {
  /** Effects to run after the commit; undefined while no transaction is open. */
  private effects: (() => void)[] | undefined;
  /** Set from the moment the commit is sent: the request's answer is then the commit's outcome. */
  private committing = false;
  private expired = false;
  private lost: unknown;

  /** `em` is read when needed, so that a request that never writes never forks one. */
  constructor(private readonly entityManager: () => EntityManager) {}

  private get em(): EntityManager {
    return this.entityManager();
  }

  /**
   * Begins the transaction. `joined`: the operation has one root field, so its service's
   * own transaction is this one (no savepoint), and a failure of that field rolls all
   * of it back ({@link joinTransactions}).
   */
  async begin({ joined }: { joined: boolean }): Promise<void> {
    this.lost = undefined;
    this.committing = false;
    joinTransactions(this.em, joined);
    // Sends nothing yet: BEGIN goes with the first statement (src/db/deferred-begin.ts),
    // whose failure then tells of a lost connection.
    await this.em.begin();
    this.effects = [];
  }

  /** The request was answered 408: nothing of it may commit, and no new attempt starts. */
  get timedOut(): boolean {
    return this.expired;
  }

  /** Why the transaction's connection was lost, when a rollback found it gone (the server discarded the work). */
  get lostConnection(): unknown {
    return this.lost;
  }

  /**
   * The request ran out of time (`REQUEST_TIMEOUT_MS`): true when it may be answered as
   * failed, so that nothing will commit; false when the commit is already under way, and
   * its outcome is the answer.
   */
  expire(): boolean {
    if (this.committing) return false;
    this.expired = true;
    return true;
  }

  /**
   * Flushes and commits, then runs the deferred effects; rolls back when that fails,
   * or when the request was already answered as timed out.
   */
  async commit(): Promise<void> {
    if (this.expired) {
      await this.rollback();
      return;
    }
    const effects = this.effects ?? [];
    this.effects = undefined;
    this.committing = true;
    // Services flush their own work (their transactions are savepoints); whatever else
    // sits changed in memory (an entity touched before a refusal) is not theirs to keep,
    // and MikroORM's commit would flush it.
    this.em.clear();
    try {
      await this.em.commit();
    } catch (error) {
      await this.abandon();
      throw error;
    }
    for (const effect of effects) effect();
  }

  async rollback(): Promise<void> {
    this.effects = undefined;
    await this.abandon();
  }

  /** Runs `effect` once the transaction has committed, or now when none is open. */
  afterCommit(effect: () => void): void {
    if (this.effects) this.effects.push(effect);
    else effect();
  }

  /**
   * Rolls back what is still open. A lost connection cannot roll back, and need not:
   * the server discards the transaction with the session. knex does not throw a failed
   * ROLLBACK; it ends the transaction with that failure, so that is where it is read.
   * (A statement's own failure may hide the loss: a SAVEPOINT sent on the dead connection
   * fails silently the same way, and the service's next statement meets only
   * "Transaction query already complete".)
   */
  private async abandon(): Promise<void> {
    const transaction = this.em.getTransactionContext<Knex.Transaction>();
    if (!transaction || !this.em.isInTransaction()) return;
    try {
      await this.em.rollback();
    } catch (error) {
      if (isDatabaseUnavailable(error)) this.lost = error;
      this.em.resetTransactionContext();
      return;
    }
    const failure = await endingFailure(transaction);
    if (isDatabaseUnavailable(failure)) this.lost = failure;
  }
}

/** The failure knex ended `transaction` with (a BEGIN, COMMIT or ROLLBACK of it that failed); undefined if none. */
function endingFailure(transaction: Knex.Transaction): Promise<unknown> {
  if (!transaction.isCompleted()) return Promise.resolve(undefined);
  return transaction.executionPromise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
}

/**
 * Per-request context shared by GraphQL resolvers and the REST facade: one forked
 * entity manager, the lazily resolved caller and request-scoped DataLoaders.
 */
export class RequestContext {
  /**
   * The request's time: what "now" is for the rules that read it (the airing schedule's
   * window and `time_left`), the same in resolvers and in compiled SQL.
   */
  readonly now = new Date();
  readonly auth: AuthSession;
  readonly transaction: RequestTransaction;
  private readonly loaders = new Map<string, DataLoader<unknown, unknown>>();
  /**
   * The request's fork, made on first use, and where its reads go. Held in an object of
   * its own: Apollo shallow-copies the context, and every copy must share them.
   */
  private readonly database: { em?: EntityManager; replicaReads: boolean; readOnly: boolean } = {
    replicaReads: false,
    readOnly: false,
  };
  private readonly fork: () => EntityManager;
  private captchaCheck: Promise<boolean> | undefined;

  constructor(
    /**
     * The application's entity manager. It is forked for the request on first use of
     * `em`; used as it is only by reads that bypass the identity map (compiled
     * operations), which then cost no fork.
     */
    readonly sharedEm: EntityManager,
    readonly requestId: string,
    readonly language: Language,
    readonly log: Logger,
    rawToken: string | undefined,
    /** The mailer and account settings of the app (signup, activation emails). */
    readonly accounts: AccountServices,
    /** The raw `captcha` header (signup and login, when a verifier is configured). */
    readonly captcha: string | undefined,
    /** Carries the notification events of the request's writes to live subscriptions. */
    notifications?: NotificationBus,
    /** The WebSocket connection a subscription runs on (absent over HTTP). */
    readonly live?: LiveConnection,
  ) {
    const { database } = this;
    this.fork = () => {
      if (!database.em) {
        database.em = sharedEm.fork();
        if (database.readOnly) database.em.setFlushMode(FlushMode.COMMIT);
        if (database.replicaReads) readFromReplicas(database.em);
        // Published after the request's transaction commits, dropped if it rolls back.
        if (notifications)
          useOutbox(database.em, new Outbox(notifications, (effect) => this.afterCommit(effect), log));
      }
      return database.em;
    };
    this.auth = new AuthSession(this.fork, rawToken);
    this.transaction = new RequestTransaction(this.fork);
  }

  /**
   * Whether the `captcha` header passes the configured verifier (true when none is).
   * Asked once per request: a mutation run again after a conflict must not spend a
   * one-time captcha response a second time.
   */
  captchaPasses(): Promise<boolean> {
    const verify = this.accounts.captcha;
    this.captchaCheck ??= verify ? verify(this.captcha) : Promise.resolve(true);
    return this.captchaCheck;
  }

  /** The request's own entity manager (identity map, unit of work, transaction). */
  get em(): EntityManager {
    return this.fork();
  }

  /**
   * Chooses how the operation reads. A query never flushes its unit of work: whatever an
   * entity of it holds changed, no later find writes it (reads run concurrently through
   * DataLoaders, and an automatic flush would open a transaction under them). An
   * anonymous query (no token sent, or a REST route that never looks at one) reads from
   * the read replicas, if any, and may see the catalog a moment behind; everything else
   * reads the primary, so a user always reads their own writes.
   */
  chooseReads(operation: OperationTypeNode, ignoresCaller = false): void {
    if (operation !== 'query') return;
    this.database.readOnly = true;
    this.database.em?.setFlushMode(FlushMode.COMMIT);
    if (!ignoresCaller && this.auth.rawToken !== undefined) return;
    this.database.replicaReads = true;
    if (this.database.em) readFromReplicas(this.database.em);
  }

  /** Where reads outside the request's fork (compiled operations on `sharedEm`) go. */
  get readConnectionType(): ConnectionType {
    return this.database.replicaReads ? 'read' : 'write';
  }

  /** Runs `effect` after the request's transaction commits (at once outside a mutation). */
  afterCommit(effect: () => void): void {
    this.transaction.afterCommit(effect);
  }

  /** Forgets every DataLoader's cache (before each root field of a mutation). */
  forgetLoaded(): void {
    this.loaders.clear();
  }

  /**
   * Starts the request's work afresh, for a mutation that PostgreSQL aborted to resolve
   * a conflict: a new entity manager (nothing of the failed attempt in its identity
   * map), the caller looked up again, empty DataLoaders.
   */
  restart(): void {
    this.database.em = undefined;
    this.auth.forget();
    this.loaders.clear();
  }

  /** The request's DataLoader under `key`, created on first use. */
  loader<K, V>(key: string, create: () => DataLoader<K, V>): DataLoader<K, V> {
    let loader = this.loaders.get(key) as DataLoader<K, V> | undefined;
    if (!loader) {
      loader = create();
      this.loaders.set(key, loader as DataLoader<unknown, unknown>);
    }
    return loader;
  }
}
