import pino, { type Logger } from 'pino';
import type { Config } from './config';

/** JSON logs on stdout (or `destination`, for tests); request lines come from src/http/request-log.ts. */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: pino.DestinationStream): Logger {
  return pino({ level: config.logLevel }, destination);
}
