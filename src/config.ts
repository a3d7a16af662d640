/**
 * Environment → typed, validated, frozen configuration. A bad value stops the
 * process at start with a message naming the variable.
 */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Absent: the embedded PostgreSQL under ./.data is used. */
  readonly databaseUrl: string | undefined;
  readonly demoData: boolean;
  readonly imageBaseUrl: string;
  readonly publicUrl: string;
  readonly logLevel: LogLevel;
  readonly rateLimit: boolean;
  readonly requestTimeoutMs: number;
  readonly graphqlMaxDepth: number;
  readonly introspection: boolean;
  readonly trgmThreshold: number;
}

export class ConfigError extends Error {}

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

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

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
  return Object.freeze({
    port,
    host,
    databaseUrl,
    demoData: flag(env, 'DEMO_DATA', true),
    imageBaseUrl: url(env, 'IMAGE_BASE_URL', 'https://cdn.example.invalid'),
    publicUrl: url(env, 'PUBLIC_URL', `http://${host}:${port}`),
    logLevel,
    rateLimit: flag(env, 'RATE_LIMIT', true),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 60000, 100, 3600000),
    graphqlMaxDepth: integer(env, 'GRAPHQL_MAX_DEPTH', 12, 2, 100),
    introspection: flag(env, 'GRAPHQL_INTROSPECTION', true),
    trgmThreshold: threshold,
  });
}

let current: Config | undefined;

/** The process-wide configuration, loaded on first use. */
export function config(): Config {
  current ??= loadConfig();
  return current;
}
