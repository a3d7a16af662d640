import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
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
  /** Express middleware: spends one point of the caller's budget or answers 429. */
  middleware: RequestHandler;
  /** Closes the Redis connection, if any. */
  close(): Promise<void>;
}

/**
 * The caller's budget key. One budget covers REST and GraphQL.
 *
 * Deliberate simplification (semantics §1.2, §7.20): every request is keyed by the
 * SHA-256 of the raw `auth` value (header, else cookie) when one is present, and by
 * the client IP otherwise. The token is never resolved here, so routes without
 * authentication stay side-effect free, and an authenticated caller is keyed per
 * token. A consequence: third-party tokens are limited per token, not per client,
 * and a caller sending random `auth` values gets a fresh budget per value (the
 * per-IP budget is not additionally charged).
 */
export function rateLimitKey(req: Request, res: Response): string {
  const raw = contextOf(res).auth.rawToken;
  if (raw) return `t:${createHash('sha256').update(raw).digest('base64url')}`;
  return `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
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

/**
 * Per-caller rate limiting (`RATE_LIMIT_POINTS` requests per `RATE_LIMIT_WINDOW_SECONDS`):
 * in memory by default, in Redis when `REDIS_URL` is set so several instances share
 * one budget (with an in-memory fallback while Redis is unreachable). With
 * `RATE_LIMIT=off` the middleware does nothing.
 */
export function createRateLimit(config: Config, log: Logger): RateLimit {
  if (!config.rateLimit) {
    return { middleware: (_req, _res, next) => next(), close: async () => {} };
  }
  const options = {
    points: config.rateLimitPoints,
    duration: config.rateLimitWindowSeconds,
    keyPrefix: config.rateLimitPrefix,
  };
  let limiter: RateLimiterAbstract;
  let redis: Redis | undefined;
  if (config.redisUrl) {
    redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
    redis.on('error', (error: Error) => log.warn({ err: error }, 'rate limit: Redis error'));
    limiter = new RateLimiterRedis({
      ...options,
      storeClient: redis,
      // While Redis is unreachable each instance limits on its own rather than failing requests.
      insuranceLimiter: new RateLimiterMemory(options),
    });
  } else {
    limiter = new RateLimiterMemory(options);
  }

  const middleware: RequestHandler = (req, res, next) => {
    limiter.consume(rateLimitKey(req, res)).then(
      (result) => {
        setHeaders(res, config, result);
        next();
      },
      (rejection: unknown) => {
        if (rejection instanceof RateLimiterRes) {
          setHeaders(res, config, rejection);
          refuse(req, res, rejection.msBeforeNext);
          return;
        }
        // A store failure without a fallback: let the request through rather than fail it.
        log.error({ err: rejection }, 'rate limit: store failure');
        next();
      },
    );
  };

  return {
    middleware,
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
