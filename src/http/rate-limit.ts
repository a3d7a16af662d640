import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Redis } from 'ioredis';
import {
  RateLimiterCluster,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { Logger } from 'pino';
import { isClusterWorker } from '../process-role';
import { AppError } from '../common/errors/app-error';
import type { Config } from '../config';
import { contextOf, type Handler, type Next, pathOf, sendRequestError } from '../http';
import type { RouteTable } from '../rest/route-table';

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
  handler: Handler;
  /** Closes the Redis connection, if any. */
  close(): Promise<void>;
}

// No proxy is trusted: the peer's address is the client's (as express's `req.ip` gives it).
const ipKey = (req: IncomingMessage) => `ip:${req.socket.remoteAddress ?? 'unknown'}`;
const tokenKey = (raw: string) => `t:${createHash('sha256').update(raw).digest('base64url')}`;

/**
 * Every IP address also has a ceiling of this many budgets, charged whenever a token is
 * sent: keys made of raw tokens (routes without authentication never resolve them) would
 * otherwise give a caller inventing tokens a fresh budget per request.
 */
const IP_CEILING_FACTOR = 10;

/**
 * The caller's budget key; one budget covers REST and GraphQL.
 * - No `auth` value: the client IP.
 * - Where the request does not authenticate (REST routes with auth `none`, the docs,
 *   unknown paths): the SHA-256 of the raw value, never resolved (semantics §7.20).
 * - Where it authenticates (REST routes with optional or required auth, GraphQL):
 *   the client of a third-party token, so all of a client's tokens share one budget;
 *   the token itself for a first-party one (the same key as above); the IP for an
 *   unknown or expired token, or when the look-up fails, so made-up tokens buy no
 *   extra budget and a struggling database does not switch the limit off.
 */
async function rateLimitKey(req: IncomingMessage, authenticates: boolean): Promise<string> {
  const { auth } = contextOf(req);
  if (!auth.rawToken) return ipKey(req);
  if (!authenticates) return tokenKey(auth.rawToken);
  const holder = await auth.budgetHolder().catch(() => null);
  if (!holder) return ipKey(req);
  return 'client' in holder ? `c:${holder.client}` : tokenKey(auth.rawToken);
}

interface Policy {
  name: string;
  points: number;
  windowSeconds: number;
}

function setHeaders(res: ServerResponse, policy: Policy, result: RateLimiterRes): void {
  const remaining = Math.max(0, policy.points - result.consumedPoints);
  const resetSeconds = Math.max(0, Math.ceil(result.msBeforeNext / 1000));
  // IETF draft-ietf-httpapi-ratelimit-headers (structured-field form).
  res.setHeader('RateLimit-Policy', `"${policy.name}";q=${policy.points};w=${policy.windowSeconds}`);
  res.setHeader('RateLimit', `"${policy.name}";r=${remaining};t=${resetSeconds}`);
  // The widespread legacy trio; the reset is a Unix time in seconds (GitHub's convention).
  res.setHeader('X-RateLimit-Limit', String(policy.points));
  res.setHeader('X-RateLimit-Remaining', String(remaining));
  res.setHeader('X-RateLimit-Reset', String(Math.ceil((Date.now() + result.msBeforeNext) / 1000)));
}

function refuse(req: IncomingMessage, res: ServerResponse, retryAfterMs: number): void {
  res.setHeader('Retry-After', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
  res.setHeader('Cache-Control', 'no-store');
  sendRequestError(req, res, new AppError('system:rate_limit'));
}

/**
 * A limiter of `policy`: in Redis when configured (with an in-memory fallback), else in
 * memory, that of the cluster's supervisor for a worker (src/cluster.ts), so that the
 * workers share one budget.
 */
function createLimiter(
  policy: Policy,
  prefix: string,
  redis: Redis | undefined,
  clusterWorker: boolean,
): RateLimiterAbstract {
  const options = { points: policy.points, duration: policy.windowSeconds, keyPrefix: prefix };
  if (!redis) return clusterWorker ? new RateLimiterCluster(options) : new RateLimiterMemory(options);
  return new RateLimiterRedis({
    ...options,
    storeClient: redis,
    // While Redis is unreachable each instance limits on its own rather than failing requests.
    insuranceLimiter: new RateLimiterMemory(options),
  });
}

/**
 * Per-caller rate limiting (`RATE_LIMIT_POINTS` requests per `RATE_LIMIT_WINDOW_SECONDS`):
 * in memory by default (the cluster supervisor's, for workers), in Redis when
 * `REDIS_URL` is set so several instances share one budget (with an in-memory fallback
 * while Redis is unreachable). With `RATE_LIMIT=off` it does nothing. The REST table
 * tells which paths authenticate.
 */
export function createRateLimit(config: Config, log: Logger, table: RouteTable): RateLimit {
  if (!config.rateLimit) return { handler: (_req, _res, next) => next(), close: async () => {} };
  let redis: Redis | undefined;
  if (config.redisUrl) {
    redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
    redis.on('error', (error: Error) => log.warn({ err: error }, 'rate limit: Redis error'));
  }
  const windowSeconds = config.rateLimitWindowSeconds;
  const caller: Policy = { name: 'default', points: config.rateLimitPoints, windowSeconds };
  const ceiling: Policy = { name: 'ip', points: config.rateLimitPoints * IP_CEILING_FACTOR, windowSeconds };
  const worker = isClusterWorker(config);
  const callers = createLimiter(caller, config.rateLimitPrefix, redis, worker);
  const ceilings = createLimiter(ceiling, `${config.rateLimitPrefix}-ip`, redis, worker);

  /** Spends a point of `policy`'s budget under `key`; false when it answered 429. */
  const spend = async (
    req: IncomingMessage,
    res: ServerResponse,
    limiter: RateLimiterAbstract,
    policy: Policy,
    key: string,
  ): Promise<boolean> => {
    try {
      setHeaders(res, policy, await limiter.consume(key));
      return true;
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      setHeaders(res, policy, rejection);
      refuse(req, res, rejection.msBeforeNext);
      return false;
    }
  };

  const charge = (req: IncomingMessage, res: ServerResponse, next: Next, authenticates: boolean) => {
    const run = async () => {
      // The ceiling first: an exhausted IP is refused before any token look-up.
      if (contextOf(req).auth.rawToken && !(await spend(req, res, ceilings, ceiling, ipKey(req)))) return;
      if (await spend(req, res, callers, caller, await rateLimitKey(req, authenticates))) next();
    };
    run().catch((error: unknown) => {
      // A store failure without a fallback: let the request through rather than fail it here.
      log.error({ err: error }, 'rate limit: store failure');
      next();
    });
  };

  // GraphQL and the REST routes with authentication resolve the token; a known path with
  // a method it lacks (a 405), and every other path, do not.
  const handler: Handler = (req, res, next) => {
    const route = table.matchRequest(req)?.route;
    charge(req, res, next, (route !== undefined && route.auth !== 'none') || pathOf(req) === '/graphql');
  };

  return {
    handler,
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
