import pino, { type Logger } from 'pino';
import type { Config } from './config';

/**
 * pino-http puts on the line of every 5xx response an Error it makes itself ("failed
 * with status code 503"), whose stack only points into pino-http. The line keeps the
 * error's message: the failure itself is logged where it is caught (an
 * unexpected error with its stack, an unreachable database in the outage summary),
 * so that an outage costs one short line per request.
 */
function withoutRequestLineStack(object: Record<string, unknown>): Record<string, unknown> {
  const { err } = object;
  if (!('res' in object && 'responseTime' in object) || !(err instanceof Error)) return object;
  return { ...object, err: err.message };
}

/** JSON logs on stdout (or `destination`, for tests); the request id is attached by pino-http. */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level: config.logLevel,
      redact: ['req.headers.auth', 'req.headers.cookie'],
      formatters: { log: withoutRequestLineStack },
    },
    destination,
  );
}
