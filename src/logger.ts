import pino, { type DestinationStream, type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';
import type { Config } from './config';

export interface LoggerOutput {
  /** Where the lines go instead of stdout (tests). */
  destination?: DestinationStream;
  /** Whether stdout is a terminal: it chooses the format when `LOG_FORMAT` is unset. */
  isTTY?: boolean;
}

/**
 * The service's log: JSON lines (pino) on stdout, or readable lines (pino-pretty) when
 * `LOG_FORMAT` is `pretty` or, unset, when stdout is a terminal (`npm start` in a shell).
 * Pipes, files and log collectors get JSON. Request lines come from src/http/request-log.ts.
 */
export function createLogger(
  config: Pick<Config, 'logLevel' | 'logFormat'>,
  { destination, isTTY = process.stdout.isTTY === true }: LoggerOutput = {},
): Logger {
  const format = config.logFormat ?? (isTTY ? 'pretty' : 'json');
  if (format === 'json') return pino({ level: config.logLevel }, destination);
  // Prettified as each line is written, not in pino-pretty's stream: that one writes a tick
  // later, and the last lines before an exit (a failed start, a shutdown) would be lost.
  const prettify = prettyFactory({
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: true,
  });
  const out = destination ?? pino.destination({ dest: process.stdout.fd, sync: true });
  return pino({ level: config.logLevel }, { write: (line: string) => out.write(prettify(line)) });
}

/** At most one summary line per this many milliseconds. */
const SUMMARY_INTERVAL_MS = 5_000;

export interface SummaryLine {
  /** The name of the count's field in the line (`failed`: requests that failed). */
  countField: string;
  /** The line's message, from the count and the seconds it covers. */
  message(count: number, seconds: number): string;
}

/**
 * A failure that may recur by the thousand (an unreachable database, peers sending bad
 * frames) as one warn line at most every {@link SUMMARY_INTERVAL_MS}, with the count and
 * the latest cause: the first occurrence after a quiet spell at once, later ones when
 * their interval ends (so the last seconds of a burst are reported too), never a stack
 * or a line per occurrence.
 */
export class LogSummary {
  /** What happened since the last summary; a key counts once (one request failing in several fields). */
  private readonly occurrences = new Set<unknown>();
  private since: number | undefined;
  private lastSummary = Number.NEGATIVE_INFINITY;
  /** Where and why to report the occurrences counted since the last summary. */
  private pending: { log: Logger | undefined; cause: string } | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly line: SummaryLine) {}

  /** Counts one occurrence (`key` distinct, or any number under one key) and its cause. */
  record(log: Logger | undefined, cause: string, key: unknown = Symbol()): void {
    const now = Date.now();
    this.occurrences.add(key);
    this.since ??= now;
    this.pending = { log, cause };
    const wait = this.lastSummary + SUMMARY_INTERVAL_MS - now;
    if (wait <= 0) this.summarize();
    else this.timer ??= setTimeout(() => this.summarize(), wait).unref();
  }

  private summarize(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const now = Date.now();
    const count = this.occurrences.size;
    if (!this.pending || count === 0) return;
    const seconds = Math.max(1, Math.round((now - (this.since ?? now)) / 1000));
    this.pending.log?.warn(
      { [this.line.countField]: count, seconds, cause: this.pending.cause },
      this.line.message(count, seconds),
    );
    this.occurrences.clear();
    this.since = undefined;
    this.pending = undefined;
    this.lastSummary = now;
  }
}

/** `1 request`, `2 requests`: a count and its noun. */
export function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
