import cors from 'cors';
import type { Config } from '../config';
import { type Handler, headerOf } from '../http';
import { RATE_LIMIT_HEADERS } from './rate-limit';

/**
 * CORS for the origins in `CORS_ORIGINS` (`*` for any origin, then without
 * credentials). Without the setting no CORS headers are sent at all.
 */
export function corsMiddleware(config: Config): Handler | undefined {
  if (config.corsOrigins.length === 0) return undefined;
  const any = config.corsOrigins.includes('*');
  const handler = cors({
    origin: any ? '*' : [...config.corsOrigins],
    credentials: !any,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: [
      'Content-Type',
      'auth',
      'captcha',
      'Accept-Language',
      'X-Request-Id',
      'If-None-Match',
      // Apollo's CSRF prevention accepts GraphQL GETs that carry one of these.
      'Apollo-Require-Preflight',
      'X-Apollo-Operation-Name',
    ],
    exposedHeaders: [...RATE_LIMIT_HEADERS, 'ETag', 'X-Request-Id'],
    maxAge: 600,
  });
  // A preflight from an origin the configuration does not allow is no preflight to
  // answer: it goes on to the 405 that any other OPTIONS gets.
  return (req, res, next) => {
    const origin = headerOf(req, 'origin');
    const allowed = origin !== undefined && (any || config.corsOrigins.includes(origin));
    if (req.method === 'OPTIONS' && !allowed) next();
    else handler(req, res, next);
  };
}
