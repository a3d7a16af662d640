import pino, { type Logger } from 'pino';
import type { Config } from './config';

/** JSON logs on stdout; the request id is attached by pino-http. */
export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({ level: config.logLevel, redact: ['req.headers.auth', 'req.headers.cookie'] });
}
