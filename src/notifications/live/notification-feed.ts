import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { Notification } from '../notification.entity';
import { NotificationCount } from '../notification.types';
import {
  type NotificationBus,
  type NotificationEvent,
  PostgresNotificationBus,
  RedisNotificationBus,
} from './notification-bus';

/** A subscription's WebSocket connection, as its resolvers see it. */
export interface LiveConnection {
  feed: NotificationFeed;
  /** Closes the connection of a consumer too slow to keep up. */
  dropSlowConsumer(): void;
}

/** Events a subscriber may have waiting; a consumer that falls further behind is dropped. */
const MAX_PENDING = 100;

/**
 * Events all of the instance's subscribers may have waiting at once: each keeps what
 * its delivery read (the notification, its initiator and the entity manager that read
 * them: 19 KB measured by `npm run measure:heap`), so a few stalled consumers could
 * otherwise hold MAX_PENDING of them each. When it is reached, the subscriber furthest
 * behind is dropped, however few events the one being served has waiting.
 */
export const MAX_QUEUED_EVENTS = 128;

/** What one waiting event may hold in the heap (see MAX_QUEUED_EVENTS). */
export const QUEUED_EVENT_BYTES = 24 * 1024;

/** A subscriber, as the backlog sees it. */
interface Behind {
  /** How many of its events wait. */
  readonly waits: number;
  /** Ends it for falling behind, and has its connection closed. */
  overflow(): void;
}

/** The events waiting in all of one feed's subscribers, and those subscribers. */
class Backlog {
  queued = 0;
  /** The subscribers with events waiting. */
  readonly behind = new Set<Behind>();

  /** The subscriber with the most events waiting. */
  furthestBehind(): Behind | undefined {
    let furthest: Behind | undefined;
    for (const subscriber of this.behind)
      if (!furthest || subscriber.waits > furthest.waits) furthest = subscriber;
    return furthest;
  }
}

/**
 * One live subscription's values, as the async iterator graphql-ws reads. Values wait
 * in a bounded queue; when it overflows the subscription ends and `onOverflow` runs (the
 * connection is closed) rather than buffering without bound, and so does the feed's
 * subscriber furthest behind when the feed's whole backlog is full.
 */
class Subscriber<T> implements AsyncIterableIterator<T>, Behind {
  private readonly pending: T[] = [];
  private waiting: ((result: IteratorResult<T>) => void) | undefined;
  private done = false;

  constructor(
    private readonly backlog: Backlog,
    private readonly onEnd: () => void,
    private readonly onOverflow: () => void,
  ) {}

  get waits(): number {
    return this.pending.length;
  }

  push(value: T): void {
    if (this.done) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = undefined;
      resolve({ value, done: false });
      return;
    }
    if (this.pending.length < MAX_PENDING && this.backlog.queued >= MAX_QUEUED_EVENTS)
      this.backlog.furthestBehind()?.overflow();
    if (this.done || this.pending.length >= MAX_PENDING) {
      this.overflow();
      return;
    }
    this.pending.push(value);
    this.backlog.queued += 1;
    this.backlog.behind.add(this);
  }

  next(): Promise<IteratorResult<T>> {
    if (this.pending.length > 0) {
      this.backlog.queued -= 1;
      const value = this.pending.shift() as T;
      if (this.pending.length === 0) this.backlog.behind.delete(this);
      return Promise.resolve({ value, done: false });
    }
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  return(): Promise<IteratorResult<T>> {
    if (!this.done) {
      this.done = true;
      this.backlog.queued -= this.pending.length;
      this.backlog.behind.delete(this);
      this.pending.length = 0;
      this.waiting?.({ value: undefined, done: true });
      this.waiting = undefined;
      this.onEnd();
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  overflow(): void {
    if (this.done) return;
    void this.return();
    this.onOverflow();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

interface UserSubscribers {
  created: Set<Subscriber<Notification>>;
  counts: Set<Subscriber<NotificationCount>>;
  /** The user's deliveries, one after another, so that they arrive in order. */
  delivering: Promise<void>;
}

/**
 * This instance's live notification subscriptions, fed by the bus: each event is read
 * from the database once per instance (the notifications with their initiators, or
 * the unseen count) and handed to that user's subscribers here.
 */
export class NotificationFeed {
  private readonly users = new Map<string, UserSubscribers>();
  private readonly backlog = new Backlog();

  constructor(
    private readonly orm: MikroORM,
    private readonly bus: NotificationBus,
    private readonly log: Logger,
  ) {}

  start(): Promise<void> {
    return this.bus.listen(
      (event) => this.receive(event),
      // After a gap in the bus, every count subscriber gets the count afresh.
      () => {
        for (const user of this.users.keys()) this.receive({ user });
      },
    );
  }

  close(): Promise<void> {
    return this.bus.close();
  }

  /** The subscriptions served now: each until its iterator is returned (or overflows). */
  get subscribers(): number {
    let count = 0;
    for (const { created, counts } of this.users.values()) count += created.size + counts.size;
    return count;
  }

  /** The events waiting in all of its subscribers (at most MAX_QUEUED_EVENTS). */
  get queued(): number {
    return this.backlog.queued;
  }

  /** The user's notifications as they are created. */
  created(user: string, onOverflow: () => void): AsyncIterableIterator<Notification> {
    const { created } = this.subscribersOf(user);
    const subscriber = new Subscriber<Notification>(
      this.backlog,
      () => this.forget(user, created, subscriber),
      onOverflow,
    );
    created.add(subscriber);
    return subscriber;
  }

  /** The user's unseen count: now, then after every change. */
  counts(user: string, onOverflow: () => void): AsyncIterableIterator<NotificationCount> {
    const entry = this.subscribersOf(user);
    const subscriber = new Subscriber<NotificationCount>(
      this.backlog,
      () => this.forget(user, entry.counts, subscriber),
      onOverflow,
    );
    entry.counts.add(subscriber);
    // In line with the user's deliveries, so that a change never arrives before the count it changed.
    entry.delivering = entry.delivering.then(async () => {
      const count = await this.countFor(user);
      if (count) subscriber.push(count);
    });
    return subscriber;
  }

  private receive(event: NotificationEvent): void {
    const entry = this.users.get(event.user);
    if (!entry) return;
    entry.delivering = entry.delivering.then(() => this.deliver(event, entry));
  }

  private async deliver(event: NotificationEvent, entry: UserSubscribers): Promise<void> {
    if (event.created && entry.created.size > 0) {
      const notifications = await this.read(() =>
        this.orm.em
          .fork()
          .find(
            Notification,
            { reference: { $in: event.created }, user: event.user },
            { populate: ['initiator_user'], orderBy: { created: 'asc', reference: 'asc' } },
          ),
      );
      for (const notification of notifications ?? []) {
        for (const subscriber of entry.created) subscriber.push(notification);
      }
    }
    if (entry.counts.size > 0) {
      const count = await this.countFor(event.user);
      if (count) for (const subscriber of entry.counts) subscriber.push(count);
    }
  }

  private async countFor(user: string): Promise<NotificationCount | undefined> {
    const count = await this.read(() => this.orm.em.fork().count(Notification, { user, seen: false }));
    return count === undefined ? undefined : new NotificationCount(count);
  }

  /** A failed read skips one delivery; the next event brings the state again. */
  private async read<T>(load: () => Promise<T>): Promise<T | undefined> {
    try {
      return await load();
    } catch (error) {
      this.log.warn({ err: error }, 'live notifications: a delivery could not be read');
      return undefined;
    }
  }

  private subscribersOf(user: string): UserSubscribers {
    let entry = this.users.get(user);
    if (!entry) {
      entry = { created: new Set(), counts: new Set(), delivering: Promise.resolve() };
      this.users.set(user, entry);
    }
    return entry;
  }

  private forget<T>(user: string, set: Set<Subscriber<T>>, subscriber: Subscriber<T>): void {
    set.delete(subscriber);
    const entry = this.users.get(user);
    if (entry && entry.created.size === 0 && entry.counts.size === 0) this.users.delete(user);
  }
}

/**
 * The instance's live notifications: the bus (Redis pub/sub with `REDIS_URL`, else
 * PostgreSQL's LISTEN/NOTIFY on the primary) and the feed that serves its subscriptions.
 */
export async function startLiveNotifications(
  orm: MikroORM,
  redisUrl: string | undefined,
  log: Logger,
): Promise<{ bus: NotificationBus; feed: NotificationFeed }> {
  const bus = redisUrl
    ? new RedisNotificationBus(redisUrl, log)
    : new PostgresNotificationBus(orm, orm.config.get('clientUrl') as string, log);
  const feed = new NotificationFeed(orm, bus, log);
  try {
    await feed.start();
  } catch (error) {
    await bus.close();
    throw error;
  }
  return { bus, feed };
}
