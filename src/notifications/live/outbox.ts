import type { Logger } from 'pino';
import type { NotificationBus, NotificationEvent } from './notification-bus';

/**
 * The notification events of one unit of work (a request's transaction, a job's run),
 * published together once it commits. `schedule` runs the publishing after the commit
 * (and drops it on rollback); a request's transaction provides it.
 */
export class Outbox {
  private events: NotificationEvent[] = [];

  constructor(
    private readonly bus: NotificationBus,
    private readonly schedule: (effect: () => void) => void,
    private readonly log: Logger,
  ) {}

  add(event: NotificationEvent): void {
    this.events.push(event);
    // The first event schedules the publishing (which may run at once, outside a transaction).
    if (this.events.length === 1) this.schedule(() => this.publish());
  }

  private publish(): void {
    const events = this.events;
    this.events = [];
    // The write committed: a failed announcement leaves the feed (#22) right, only late to show.
    this.bus.publish(events).catch((error: unknown) => {
      this.log.warn({ err: error }, 'notification events could not be published');
    });
  }
}
