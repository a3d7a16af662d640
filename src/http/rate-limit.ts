import { createHash } from 'node:crypto';
import { type Request, type RequestHandler, type Response, Router } from 'express';
import { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { Logger } from 'pino';
import { AppError } from '../common/errors/app-error';
import type { Config } from '../config';
import { contextOf, sendRequestError } from '../http';
import { expressPath, inMountingOrder, type RestRoute } from '../rest/route';

/** The headers a caller can read to pace itself (also exposed through CORS). */
export const RATE_LIMIT_HEADERS: readonly string[] = [
  'RateLimit',
  'RateLimit-Policy',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
];

export interface RateLimit {
  /**
   * Spends one point of the caller's budget per request, or answers 429. Mount it
   * before the handlers it protects; requests it does not know are keyed as
   * unauthenticated.
   */
  router: Router;
  /** Closes the Redis connection, if any. */
  close(): Promise<void>;
}

const ipKey = (req: Request) => `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
const tokenKey = (raw: string) => `t:${createHash('sha256').update(raw).digest('base64url')}`;

/**
 * The caller's budget key; one budget covers REST and GraphQL.
 * - No `auth` value: the client IP.
 * - Where the request does not authenticate (REST routes with auth `none`, the docs,
 *   unknown paths): the SHA-256 of the raw value, never resolved (semantics §7.20).
 * - Where it authenticates (REST routes with optional or required auth, GraphQL):
 *   the client of a third-party token, so all of a client's tokens share one budget;
 *   the token itself for a first-party one (the same key as above); the IP for an
 *   unknown or expired token, so made-up tokens buy no extra budget.
 */
export async function rateLimitKey(req: Request, res: Response, authenticates: boolean): Promise<string> {
  const { auth } = contextOf(res);
  if (!auth.rawToken) return ipKey(req);
  if (!authenticates) return tokenKey(auth.rawToken);
  const holder = await auth.budgetHolder();
  if (!holder) return ipKey(req);
  return 'client' in holder ? `c:${holder.client}` : tokenKey(auth.rawToken);
}

function setHeaders(res: Response, config: Config, result: RateLimiterRes): void {
  const limit = config.rateLimitPoints;
  const remaining = Math.max(0, limit - result.consumedPoints);
  const resetSeconds = Math.max(0, Math.ceil(result.msBeforeNext / 1000));
  // IETF draft-ietf-httpapi-ratelimit-headers (structured-field form).
  res.setHeader('RateLimit-Policy', `"default";q=${limit};w=${config.rateLimitWindowSeconds}`);
  res.setHeader('RateLimit', `"default";r=${remaining};t=${resetSeconds}`);
  // The widespread legacy trio; the reset is a Unix time in seconds (GitHub's convention).
  res.setHeader('X-RateLimit-Limit', String(limit));
  res.setHeader('X-RateLimit-Remaining', String(remaining));
  res.setHeader('X-RateLimit-Reset', String(Math.ceil((Date.now() + result.msBeforeNext) / 1000)));
}

function refuse(req: Request, res: Response, retryAfterMs: number): void {
  res.setHeader('Retry-After', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
  res.setHeader('Cache-Control', 'no-store');
  sendRequestError(req, res, new AppError('system:rate_limit'));
}

function createLimiter(config: Config, log: Logger): { limiter: RateLimiterAbstract; redis?: Redis } {
  const options = {
    points: config.rateLimitPoints,
    duration: config.rateLimitWindowSeconds,
    keyPrefix: config.rateLimitPrefix,
  };
  if (!config.redisUrl) return { limiter: new RateLimiterMemory(options) };
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
  redis.on('error', (error: Error) => log.warn({ err: error }, 'rate limit: Redis error'));
  const limiter = new RateLimiterRedis({
    ...options,
    storeClient: redis,
    // While Redis is unreachable each instance limits on its own rather than failing requests.
    insuranceLimiter: new RateLimiterMemory(options),
  });
  return { limiter, redis };
}

/**
 * Per-caller rate limiting (`RATE_LIMIT_POINTS` requests per `RATE_LIMIT_WINDOW_SECONDS`):
 * in memory by default, in Redis when `REDIS_URL` is set so several instances share
 * one budget (with an in-memory fallback while Redis is unreachable). With
 * `RATE_LIMIT=off` it does nothing. `routes` tell which paths authenticate.
 */
export function createRateLimit(config: Config, log: Logger, routes: readonly RestRoute[]): RateLimit {
  const router = Router({ strict: true, caseSensitive: true });
  if (!config.rateLimit) return { router, close: async () => {} };
  const { limiter, redis } = createLimiter(config, log);

  // Charges once, then leaves this router, so a request matching several rows pays once.
  const charge =
    (authenticates: boolean): RequestHandler =>
    (req, res, next) => {
      rateLimitKey(req, res, authenticates)
        .then((key) => limiter.consume(key))
        .then(
          (result) => {
            setHeaders(res, config, result);
            next('router');
          },
          (rejection: unknown) => {
            if (rejection instanceof RateLimiterRes) {
              setHeaders(res, config, rejection);
              refuse(req, res, rejection.msBeforeNext);
              return;
            }
            // A store (or token look-up) failure: let the request through rather than fail it here.
            log.error({ err: rejection }, 'rate limit: store failure');
            next('router');
          },
        );
    };

  router.all('/graphql', charge(true));
  for (const route of inMountingOrder(routes)) {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    router[method](expressPath(route.path), charge(route.auth !== 'none'));
  }
  router.use(charge(false));

  return {
    router,
    close: async () => {
      if (!redis) return;
      try {
        await redis.quit();
      } catch {
        redis.disconnect();
      }
    },
  };
}
