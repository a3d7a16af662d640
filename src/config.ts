/**
 * Environment → typed, validated, frozen configuration. A bad value stops the
 * process at start with a message naming the variable.
 */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
/** JSON lines, or readable lines for a person at a terminal. */
export type LogFormat = 'json' | 'pretty';

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Absent: the embedded PostgreSQL under ./.data is used. */
  readonly databaseUrl: string | undefined;
  /** Streaming replicas of that database (`DATABASE_REPLICA_URLS`): anonymous reads go there. */
  readonly databaseReplicaUrls: readonly string[];
  readonly demoData: boolean;
  readonly imageBaseUrl: string;
  readonly publicUrl: string;
  readonly logLevel: LogLevel;
  /** `LOG_FORMAT`; undefined: pretty when stdout is a terminal, else JSON (src/logger.ts). */
  readonly logFormat: LogFormat | undefined;
  readonly rateLimit: boolean;
  /** Requests each caller may make per `rateLimitWindowSeconds` across REST and GraphQL. */
  readonly rateLimitPoints: number;
  readonly rateLimitWindowSeconds: number;
  /** Prefix of the rate-limit keys in Redis (instances sharing a budget use the same prefix). */
  readonly rateLimitPrefix: string;
  /** `redis://` or `rediss://` URL; present: rate-limit budgets are shared through Redis. */
  readonly redisUrl: string | undefined;
  /** Origins allowed by CORS (exact `scheme://host[:port]`, or `*`); empty: no CORS headers. */
  readonly corsOrigins: readonly string[];
  /** Live notifications over WebSocket (GraphQL subscriptions at /graphql): the limits. */
  readonly subscriptions: SubscriptionLimits;
  /** `max-age` of anonymous catalog GET responses, in seconds. */
  readonly cacheMaxAgeSeconds: number;
  /** Answers from this many bytes on are compressed when the client accepts `br` or `gzip`; 0: never. */
  readonly compressionMinBytes: number;
  readonly requestTimeoutMs: number;
  /**
   * How far the JavaScript heap may grow past the live data before a full collection, in
   * percent (`HEAP_GROWTH_PERCENT`); 0 leaves it to V8 (src/heap-policy.ts).
   */
  readonly heapGrowthPercent: number;
  /**
   * How many worker processes serve HTTP (`WEB_CONCURRENCY`, node:cluster, src/cluster.ts);
   * 1: this process serves, with no workers.
   */
  readonly webConcurrency: number;
  /** How many requests run their operation at once; the others wait in turn (src/http/admission.ts). 0: no limit. */
  readonly maxActiveRequests: number;
  /** How long opening a database connection may take; below `requestTimeoutMs`. */
  readonly databaseConnectTimeoutMs: number;
  /** How long a request may wait for a pooled database connection; below `requestTimeoutMs`. */
  readonly databaseAcquireTimeoutMs: number;
  readonly graphqlMaxDepth: number;
  /** Query cost limit (formula in src/graphql/limits.ts). */
  readonly graphqlMaxCost: number;
  /** Aliased fields per operation, fragments expanded. */
  readonly graphqlMaxAliases: number;
  /** Lexical tokens per GraphQL document. */
  readonly graphqlMaxTokens: number;
  /** Heap that parsed documents and their compiled plans may take (`GRAPHQL_DOCUMENT_CACHE_MB`), in bytes. */
  readonly graphqlDocumentCacheBytes: number;
  /** Heap that automatic persisted queries' texts may take (`GRAPHQL_PERSISTED_QUERY_CACHE_MB`), in bytes. */
  readonly graphqlPersistedQueryCacheBytes: number;
  readonly introspection: boolean;
  readonly trgmThreshold: number;
  /** `smtp://` or `smtps://` URL of the mail server; absent: emails are written to the log. */
  readonly smtpUrl: string | undefined;
  /** The From address of outgoing emails. */
  readonly mailFrom: string;
  /** How signup and login verify the `captcha` header (semantics §3.1); off by default. */
  readonly signupCaptcha: CaptchaSetting;
  /** Emails (`user@example.com`) or domains (`@example.com`) allowed to sign up; empty: everyone. */
  readonly signupAllowlist: readonly string[];
  /** Usernames nobody may sign up with, lower case. */
  readonly reservedUsernames: readonly string[];
  /**
   * `CLIENT_SECRET_KEY`: the 32-byte keys that seal registered clients' secrets; the first
   * seals, every one opens. Empty when unset: the key file in the data folder is used
   * (src/clients/client-secret-keys.ts).
   */
  readonly clientSecretKeys: readonly Buffer[];
}

export interface SubscriptionLimits {
  /** Open WebSocket connections per instance; more are refused with HTTP 503. */
  readonly maxConnections: number;
  /** Open connections per user; one more is closed with 4429. */
  readonly maxPerUser: number;
  /** Subscriptions running on one connection; one more is refused with `subscription:too_many`. */
  readonly maxSubscriptionsPerSocket: number;
  /** Subscriptions running on all of one user's connections to this instance; likewise. */
  readonly maxSubscriptionsPerUser: number;
  /** Largest message a client may send; a larger one closes the connection (1009). */
  readonly maxMessageBytes: number;
  /**
   * Heap that running subscriptions may take, by their estimates with their documents
   * (`SUBSCRIPTION_MAX_MEMORY_MB`, in bytes): beyond it a subscription is refused with
   * `system:unavailable`.
   */
  readonly maxMemoryBytes: number;
  /** A connection with no running subscription for this long is closed (4408). */
  readonly idleSeconds: number;
  /** How often a connection's token is checked again; a revoked or expired one closes it (4401). */
  readonly tokenCheckSeconds: number;
}

/**
 * `SIGNUP_CAPTCHA`: `off` (default); `secret:<value>`, a fixed value the header must
 * equal (tests, closed deployments); or the `http(s)` URL of a verification service
 * in the siteverify style (reCAPTCHA, hCaptcha, Turnstile): the URL's query parameters
 * (e.g. `?secret=...`) plus `response=<header>` are POSTed as a form to the URL without
 * its query, and the answer must be JSON with `success: true`.
 */
export type CaptchaSetting =
  | { readonly kind: 'off' }
  | { readonly kind: 'secret'; readonly secret: string }
  | { readonly kind: 'service'; readonly url: string };

/** Common system words (semantics §3.1); only names of 5+ characters can collide with a valid username. */
export const DEFAULT_RESERVED_USERNAMES: readonly string[] = [
  'admin',
  'administrator',
  'anonymous',
  'api',
  'auth',
  'catalog',
  'graphql',
  'help',
  'hostmaster',
  'info',
  'login',
  'logout',
  'mail',
  'moderator',
  'noreply',
  'no_reply',
  'null',
  'owner',
  'postmaster',
  'root',
  'security',
  'settings',
  'signup',
  'staff',
  'support',
  'system',
  'undefined',
  'webmaster',
  'www',
];

export class ConfigError extends Error {}

/** Sizes in the environment are in MiB. */
const MB = 1024 * 1024;

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['on', 'true', '1', 'yes'].includes(raw)) return true;
  if (['off', 'false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be on or off, got "${env[name]}"`);
}

function url(env: Env, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  try {
    new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

/** An optional URL whose scheme must be one of `protocols` (e.g. `smtp:`); `message` says which. */
function urlWithProtocol(
  env: Env,
  name: string,
  protocols: readonly string[],
  message: string,
): string | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  let protocol: string;
  try {
    protocol = new URL(raw).protocol;
  } catch {
    throw new ConfigError(message);
  }
  if (!protocols.includes(protocol)) throw new ConfigError(message);
  return raw;
}

/** `CORS_ORIGINS`: comma-separated origins such as `https://app.example.com`, or `*`. */
function corsOrigins(env: Env): string[] {
  const entries = (env.CORS_ORIGINS ?? '')
    .split(',')
    .map((entry) => entry.trim().replace(/\/+$/, ''))
    .filter((entry) => entry !== '');
  for (const entry of entries) {
    if (entry === '*') continue;
    let origin: string;
    try {
      origin = new URL(entry).origin;
    } catch {
      origin = 'null';
    }
    if (origin === 'null' || origin !== entry.toLowerCase()) {
      throw new ConfigError(
        `CORS_ORIGINS entries must be origins like https://example.com or *, got "${entry}"`,
      );
    }
  }
  return entries.map((entry) => entry.toLowerCase());
}

function captchaSetting(env: Env): CaptchaSetting {
  const raw = env.SIGNUP_CAPTCHA ?? '';
  if (raw === '' || raw.toLowerCase() === 'off') return { kind: 'off' };
  if (raw.startsWith('secret:') && raw.length > 'secret:'.length) {
    return { kind: 'secret', secret: raw.slice('secret:'.length) };
  }
  if (/^https?:\/\//.test(raw)) {
    try {
      new URL(raw);
      return { kind: 'service', url: raw };
    } catch {
      // Reported below with the other malformed values.
    }
  }
  throw new ConfigError(
    'SIGNUP_CAPTCHA must be off, secret:<value> or an http(s) URL of a verification service',
  );
}

/** A comma-separated list, trimmed and lower-cased, without empty entries. */
function list(env: Env, name: string): string[] | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  return raw
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');
}

function allowlist(env: Env): string[] {
  const entries = list(env, 'SIGNUP_ALLOWLIST') ?? [];
  const bad = entries.find((entry) => !/^[^@\s]*@[^@\s]+$/.test(entry));
  if (bad !== undefined) {
    throw new ConfigError(`SIGNUP_ALLOWLIST entries must be emails or @domains, got "${bad}"`);
  }
  return entries;
}

/** `no-reply@<PUBLIC_URL host>`, or `no-reply@localhost` when that host is an IP address. */
function defaultMailFrom(publicUrl: string): string {
  const host = new URL(publicUrl).hostname;
  return `no-reply@${/^[\d.]+$|:|^\[/.test(host) ? 'localhost' : host}`;
}

/** `DATABASE_REPLICA_URLS`: comma-separated postgres:// URLs, case kept (passwords, database names). */
function replicaUrls(env: Env): string[] {
  const entries = (env.DATABASE_REPLICA_URLS ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  entries.forEach((entry, index) => {
    // The entry itself is not shown: it may hold a password.
    if (!/^postgres(ql)?:\/\//.test(entry) || !URL.canParse(entry)) {
      throw new ConfigError(`DATABASE_REPLICA_URLS entry ${index + 1} is not a postgres:// URL`);
    }
  });
  return entries;
}

/** A database timeout in milliseconds, which must end before the request's own timeout. */
function databaseTimeout(env: Env, name: string, fallback: number, requestTimeoutMs: number): number {
  const value = integer(env, name, fallback, 1, 3600000);
  if (value >= requestTimeoutMs) {
    throw new ConfigError(`${name} must be below REQUEST_TIMEOUT_MS (${requestTimeoutMs}), got "${value}"`);
  }
  return value;
}

/**
 * The pool's acquire and connect timeouts: shorter than REQUEST_TIMEOUT_MS, so that a
 * request during a database outage answers 503 `system:unavailable` instead of waiting
 * for the 408. Defaults 10 s and 5 s, or half the request timeout when that is shorter.
 */
function databaseTimeouts(env: Env, requestTimeoutMs: number) {
  const databaseAcquireTimeoutMs = databaseTimeout(
    env,
    'DATABASE_ACQUIRE_TIMEOUT_MS',
    Math.min(10_000, Math.floor(requestTimeoutMs / 2)),
    requestTimeoutMs,
  );
  const databaseConnectTimeoutMs = databaseTimeout(
    env,
    'DATABASE_CONNECT_TIMEOUT_MS',
    Math.min(5_000, databaseAcquireTimeoutMs),
    requestTimeoutMs,
  );
  return { databaseConnectTimeoutMs, databaseAcquireTimeoutMs };
}

/** A 32-byte key: 64 hex digits, or 43 base64 (or base64url) characters with an optional `=`. */
const KEY_PATTERNS = { hex: /^[0-9a-f]{64}$/i, base64: /^[A-Za-z0-9+/_-]{43}=?$/ } as const;

/**
 * Comma-separated 32-byte keys in hex or base64 (`openssl rand -base64 32`), as
 * `CLIENT_SECRET_KEY` and the key file hold them; `source` names where they come from
 * in the message. The keys themselves never appear in a message.
 */
export function parseClientSecretKeys(raw: string, source: string): Buffer[] {
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return entries.map((entry, index) => {
    if (KEY_PATTERNS.hex.test(entry)) return Buffer.from(entry, 'hex');
    // Node's base64 decoder reads the URL-safe alphabet too.
    if (KEY_PATTERNS.base64.test(entry)) return Buffer.from(entry, 'base64');
    throw new ConfigError(
      `${source} entry ${index + 1} must be a 32-byte key in base64 or hex (openssl rand -base64 32)`,
    );
  });
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty'];

function logFormat(env: Env): LogFormat | undefined {
  const raw = env.LOG_FORMAT;
  if (raw === undefined || raw === '') return undefined;
  const format = LOG_FORMATS.find((candidate) => candidate === raw.toLowerCase());
  if (!format) throw new ConfigError(`LOG_FORMAT must be json or pretty, got "${raw}"`);
  return format;
}

/**
 * The WebSocket limits. One user's subscriptions may not exceed what one connection may
 * run: the per-connection limit would never be reached.
 */
function subscriptionLimits(env: Env): SubscriptionLimits {
  const maxSubscriptionsPerSocket = integer(env, 'SUBSCRIPTION_MAX_PER_SOCKET', 10, 1, 1000);
  const maxSubscriptionsPerUser = integer(env, 'SUBSCRIPTION_MAX_TOTAL_PER_USER', 20, 1, 10000);
  if (maxSubscriptionsPerUser < maxSubscriptionsPerSocket) {
    throw new ConfigError(
      `SUBSCRIPTION_MAX_TOTAL_PER_USER must be at least SUBSCRIPTION_MAX_PER_SOCKET (${maxSubscriptionsPerSocket}), got "${maxSubscriptionsPerUser}"`,
    );
  }
  return Object.freeze({
    maxConnections: integer(env, 'SUBSCRIPTION_MAX_CONNECTIONS', 500, 1, 1000000),
    maxPerUser: integer(env, 'SUBSCRIPTION_MAX_PER_USER', 5, 1, 1000),
    maxSubscriptionsPerSocket,
    maxSubscriptionsPerUser,
    maxMessageBytes: integer(env, 'SUBSCRIPTION_MAX_MESSAGE_BYTES', 16384, 1024, 1048576),
    maxMemoryBytes: MB * integer(env, 'SUBSCRIPTION_MAX_MEMORY_MB', 16, 1, 65536),
    idleSeconds: integer(env, 'SUBSCRIPTION_IDLE_SECONDS', 300, 1, 86400),
    tokenCheckSeconds: integer(env, 'SUBSCRIPTION_TOKEN_CHECK_SECONDS', 60, 1, 86400),
  });
}

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  const logLevel = (env.LOG_LEVEL || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  }
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(`DATABASE_URL must be a postgres:// URL`);
  }
  const threshold = Number(env.SEARCH_SIMILARITY_THRESHOLD ?? '0.3');
  if (!(threshold > 0 && threshold <= 1)) {
    throw new ConfigError('SEARCH_SIMILARITY_THRESHOLD must be a number in (0, 1]');
  }
  const publicUrl = url(env, 'PUBLIC_URL', `http://${host}:${port}`);
  const requestTimeoutMs = integer(env, 'REQUEST_TIMEOUT_MS', 60000, 100, 3600000);
  return Object.freeze({
    port,
    host,
    databaseUrl,
    databaseReplicaUrls: Object.freeze(replicaUrls(env)),
    demoData: flag(env, 'DEMO_DATA', true),
    imageBaseUrl: url(env, 'IMAGE_BASE_URL', 'https://cdn.example.invalid'),
    publicUrl,
    logLevel,
    logFormat: logFormat(env),
    rateLimit: flag(env, 'RATE_LIMIT', true),
    rateLimitPoints: integer(env, 'RATE_LIMIT_POINTS', 300, 1, 1000000),
    rateLimitWindowSeconds: integer(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86400),
    rateLimitPrefix: env.RATE_LIMIT_PREFIX || 'rate-limit',
    redisUrl: urlWithProtocol(
      env,
      'REDIS_URL',
      ['redis:', 'rediss:'],
      'REDIS_URL must be a redis:// or rediss:// URL',
    ),
    corsOrigins: Object.freeze(corsOrigins(env)),
    subscriptions: subscriptionLimits(env),
    cacheMaxAgeSeconds: integer(env, 'CACHE_MAX_AGE_SECONDS', 60, 0, 31536000),
    compressionMinBytes: integer(env, 'COMPRESSION_MIN_BYTES', 1024, 0, 1073741824),
    requestTimeoutMs,
    heapGrowthPercent: integer(env, 'HEAP_GROWTH_PERCENT', 0, 0, 1000),
    webConcurrency: integer(env, 'WEB_CONCURRENCY', 1, 1, 64),
    maxActiveRequests: integer(env, 'MAX_ACTIVE_REQUESTS', 8, 0, 100000),
    ...databaseTimeouts(env, requestTimeoutMs),
    graphqlMaxDepth: integer(env, 'GRAPHQL_MAX_DEPTH', 12, 2, 100),
    graphqlMaxCost: integer(env, 'GRAPHQL_MAX_COST', 20000, 1, 100000000),
    graphqlMaxAliases: integer(env, 'GRAPHQL_MAX_ALIASES', 30, 0, 10000),
    graphqlMaxTokens: integer(env, 'GRAPHQL_MAX_TOKENS', 3000, 100, 1000000),
    graphqlDocumentCacheBytes: MB * integer(env, 'GRAPHQL_DOCUMENT_CACHE_MB', 16, 1, 65536),
    graphqlPersistedQueryCacheBytes: MB * integer(env, 'GRAPHQL_PERSISTED_QUERY_CACHE_MB', 2, 1, 65536),
    introspection: flag(env, 'GRAPHQL_INTROSPECTION', true),
    trgmThreshold: threshold,
    smtpUrl: urlWithProtocol(
      env,
      'SMTP_URL',
      ['smtp:', 'smtps:'],
      'SMTP_URL must be an smtp:// or smtps:// URL',
    ),
    mailFrom: env.MAIL_FROM || defaultMailFrom(publicUrl),
    signupCaptcha: captchaSetting(env),
    signupAllowlist: Object.freeze(allowlist(env)),
    reservedUsernames: Object.freeze(list(env, 'RESERVED_USERNAMES') ?? [...DEFAULT_RESERVED_USERNAMES]),
    clientSecretKeys: Object.freeze(parseClientSecretKeys(env.CLIENT_SECRET_KEY ?? '', 'CLIENT_SECRET_KEY')),
  });
}

let current: Config | undefined;

/** The process-wide configuration, loaded on first use. */
export function config(): Config {
  current ??= loadConfig();
  return current;
}
