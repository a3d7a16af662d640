import type { MikroORM } from '@mikro-orm/postgresql';
import { Redis } from 'ioredis';
import pg from 'pg';
import type { Logger } from 'pino';
import { databaseCause, isDatabaseUnavailable } from '../../db/unavailable';

/**
 * What changed for one user, announced once the change committed: notifications were
 * created (`created`, their references), or only the unseen count may have changed.
 */
export interface NotificationEvent {
  user: string;
  created?: string[];
}

/**
 * Carries notification events between the instances of the service: each event
 * published by one instance reaches the listener of every instance, its own included.
 */
export interface NotificationBus {
  publish(events: readonly NotificationEvent[]): Promise<void>;
  /**
   * Starts delivering events to `listener` (one per bus). `resync` runs after the bus
   * was cut off for a while (events may have been missed meanwhile).
   */
  listen(listener: (event: NotificationEvent) => void, resync: () => void): Promise<void>;
  close(): Promise<void>;
}

const CHANNEL = 'catalog_notifications';
/** PostgreSQL's NOTIFY payloads end below 8000 bytes; a reference takes 39 in a list. */
const REFERENCES_PER_MESSAGE = 150;
const RECONNECT_MS = 1_000;

/** Events of many references as several messages, each small enough for NOTIFY. */
function messagesOf(events: readonly NotificationEvent[]): string[] {
  return events.flatMap(({ user, created }) => {
    if (!created) return [JSON.stringify({ user })];
    const messages: string[] = [];
    for (let start = 0; start < created.length; start += REFERENCES_PER_MESSAGE) {
      messages.push(JSON.stringify({ user, created: created.slice(start, start + REFERENCES_PER_MESSAGE) }));
    }
    return messages;
  });
}

function eventOf(message: string): NotificationEvent | undefined {
  try {
    const value = JSON.parse(message) as { user?: unknown; created?: unknown };
    if (typeof value.user !== 'string') return undefined;
    const created = Array.isArray(value.created)
      ? value.created.filter((r) => typeof r === 'string')
      : undefined;
    return created ? { user: value.user, created } : { user: value.user };
  } catch {
    return undefined;
  }
}

/**
 * PostgreSQL's LISTEN/NOTIFY on the service's own database: no other server needed.
 * Each instance holds one connection that listens, and opens it again when it breaks.
 */
export class PostgresNotificationBus implements NotificationBus {
  private listener: pg.Client | undefined;
  private deliver: ((event: NotificationEvent) => void) | undefined;
  private resync: (() => void) | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  /** The listening connection failed and no attempt has opened it again yet. */
  private down = false;

  constructor(
    private readonly orm: MikroORM,
    /** The database to listen on (the primary: replicas do not relay NOTIFY). */
    private readonly databaseUrl: string,
    private readonly log: Logger,
  ) {}

  async publish(events: readonly NotificationEvent[]): Promise<void> {
    const messages = messagesOf(events);
    if (messages.length === 0) return;
    await this.orm.em
      .getConnection()
      .getKnex()
      .raw('select pg_notify(?, message) from unnest(?::text[]) as message', [CHANNEL, messages]);
  }

  async listen(deliver: (event: NotificationEvent) => void, resync: () => void): Promise<void> {
    this.deliver = deliver;
    this.resync = resync;
    await this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.listener;
    this.listener = undefined;
    await client?.end().catch(() => undefined);
  }

  /** Opens the listening connection; once it fails (whichever way, once), another is scheduled. */
  private async connect(): Promise<void> {
    // Keep-alive: a connection gone half-open would otherwise stop every event unnoticed.
    const client = new pg.Client({ connectionString: this.databaseUrl, keepAlive: true });
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      // One line per outage: attempts that fail while the database stays away say nothing more.
      if (!this.down) {
        const details = isDatabaseUnavailable(error) ? { cause: databaseCause(error) } : { err: error };
        this.log.warn(
          details,
          `notification bus: the listening connection failed; retrying every ${RECONNECT_MS / 1000}s`,
        );
      }
      this.down = true;
      void client.end().catch(() => undefined);
      if (this.listener === client) this.reconnectLater();
    };
    client.on('error', fail);
    client.on('notification', ({ payload }) => {
      const event = payload === undefined ? undefined : eventOf(payload);
      if (event) this.deliver?.(event);
    });
    this.listener = client;
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
      if (this.down) this.log.info('notification bus: listening again');
      this.down = false;
    } catch (error) {
      fail(error);
      throw error;
    }
  }

  private reconnectLater(): void {
    this.listener = undefined;
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      // Events published while no connection listened are lost: subscribers get fresh state.
      this.connect().then(
        () => this.resync?.(),
        () => undefined, // connect() scheduled the next attempt
      );
    }, RECONNECT_MS);
    this.retry.unref();
  }
}

/**
 * Redis pub/sub (`REDIS_URL`): instances share the Redis they already use for rate
 * limits, and hold no listening connection on the database.
 */
export class RedisNotificationBus implements NotificationBus {
  private readonly publisher: Redis;
  private subscriber: Redis | undefined;

  constructor(
    private readonly redisUrl: string,
    private readonly log: Logger,
  ) {
    this.publisher = this.connect('publish');
  }

  async publish(events: readonly NotificationEvent[]): Promise<void> {
    for (const message of messagesOf(events)) await this.publisher.publish(CHANNEL, message);
  }

  async listen(deliver: (event: NotificationEvent) => void, resync: () => void): Promise<void> {
    const subscriber = this.connect('subscribe');
    this.subscriber = subscriber;
    let connections = 0;
    subscriber.on('ready', () => {
      connections += 1;
      if (connections > 1) resync();
    });
    subscriber.on('message', (_channel: string, message: string) => {
      const event = eventOf(message);
      if (event) deliver(event);
    });
    // Waits for Redis (its errors are logged meanwhile); ioredis subscribes again by
    // itself after a reconnection.
    await subscriber.subscribe(CHANNEL);
  }

  async close(): Promise<void> {
    await Promise.all(
      [this.publisher, this.subscriber].map((redis) => redis?.quit().catch(() => redis.disconnect())),
    );
  }

  private connect(role: 'publish' | 'subscribe'): Redis {
    const redis = new Redis(this.redisUrl, {
      // A publication fails soon (the write stays committed); the subscription waits for Redis.
      maxRetriesPerRequest: role === 'publish' ? 1 : null,
      connectTimeout: 2000,
    });
    redis.on('error', (error: Error) =>
      this.log.warn({ err: error }, `notification bus: Redis ${role} error`),
    );
    return redis;
  }
}
