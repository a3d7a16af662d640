import { counted, LogSummary } from '../logger';

/** How long a client should wait before retrying a request that failed because the database is unreachable. */
export const RETRY_AFTER_SECONDS = 5;

/** Socket and DNS failures of a connection attempt or of an open connection (Node's `error.code`). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that is going away, starting up or refusing sessions:
 * admin_shutdown, crash_shutdown, cannot_connect_now ("starting up", "shutting
 * down"), too_many_connections. Class 08 (connection exceptions) is matched as a class.
 */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * Failures that pg and knex report without a code, as the end of the message
 * (MikroORM and knex put the SQL in front: `select 1 - Connection terminated unexpectedly`):
 * a connection lost or never made, pg's connect timeout, the pool acquire timeouts of knex
 * and of pg's pool (which reports its connect timeout in the same words).
 */
const CONNECTION_MESSAGE =
  /(?:^| - )(?:Connection terminated(?: unexpectedly| due to connection timeout)?|timeout expired|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable|Client was closed and is not queryable|Knex: Timeout acquiring a connection\. The pool is probably full\. Are you missing a \.transacting\(trx\) call\?)$/;

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

function isErrorLike(value: unknown): value is ErrorLike {
  return typeof value === 'object' && value !== null;
}

/**
 * Whether `error` means that the database cannot be reached right now (stopped,
 * restarting, unreachable, or the pool could not hand out a connection in time),
 * rather than that a statement failed. Follows `cause` chains and AggregateErrors,
 * as Node reports a failed connection to several addresses.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!isErrorLike(error) || depth > 5) return false;
  const { name, code, message, cause, errors } = error;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
    // Any other SQLSTATE is the server's answer to a statement, whatever its message says.
    if (/^[0-9A-Z]{5}$/.test(code)) return false;
  }
  if (name === 'KnexTimeoutError') return true;
  if (typeof message === 'string' && CONNECTION_MESSAGE.test(message)) return true;
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}

/**
 * SQLSTATEs of a transaction that PostgreSQL aborted so that another could go on:
 * serialization_failure and deadlock_detected. Run again, it may well succeed.
 */
const CONFLICT_CODES = new Set(['40001', '40P01']);

/** Whether `error` (or an error it wraps) is a transaction PostgreSQL aborted for a conflict. */
export function isTransactionConflict(error: unknown, depth = 0): boolean {
  if (!isErrorLike(error) || depth > 5) return false;
  if (typeof error.code === 'string' && CONFLICT_CODES.has(error.code)) return true;
  return isTransactionConflict(error.cause, depth + 1);
}

/** The driver's own words: MikroORM and knex put the failed SQL, with its values, in front of them. */
export function databaseCause(error: unknown): string {
  const message = isErrorLike(error) && typeof error.message === 'string' ? error.message : String(error);
  const separator = message.lastIndexOf(' - ');
  return separator === -1 ? message : message.slice(separator + 3);
}

/**
 * Requests that failed because the database was unreachable, keyed by request id: each
 * failure itself is logged only by the request log, in one line without a stack.
 */
export function outageSummary(): LogSummary {
  return new LogSummary({
    countField: 'failed',
    message: (failed, seconds) =>
      `database unavailable: ${counted(failed, 'request')} failed in the last ${seconds}s`,
  });
}

/** One summary per process, like the error renderer that feeds it. */
export const outageReport = outageSummary();
