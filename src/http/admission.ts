import type { ServerResponse } from 'node:http';
import { Semaphore } from 'async-mutex';

/**
 * How many requests run their operation at once (`MAX_ACTIVE_REQUESTS`); the others wait
 * their turn, in the order their bodies were read. Without it, every request a busy
 * process has accepted runs at once, and each database round trip of each one waits
 * behind all the others' JavaScript: a write of five round trips waited five times as
 * long as a one-statement read, holding its pooled connection and its row locks all the
 * while. Admitted in turn, a request waits once and then runs at the pace of a few.
 * A request answered while it waited (408 past the time limit) or whose client left
 * is not run. 0: no limit. The default, 8, served more than 16 on two cores (each
 * event-loop turn then holds fewer requests' JavaScript, so a round trip waits less).
 */
export class Admission {
  private readonly slots: Semaphore | undefined;

  constructor(limit: number) {
    this.slots = limit > 0 ? new Semaphore(limit) : undefined;
  }

  /** Runs `operation` once a slot is free; its slot is freed when it settles. */
  run(res: ServerResponse, operation: () => Promise<void>): Promise<void> {
    if (!this.slots) return operation();
    return this.slots.runExclusive(() => (res.writableEnded || res.destroyed ? undefined : operation()));
  }
}
