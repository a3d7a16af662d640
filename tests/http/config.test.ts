import { ConfigError, loadConfig } from '../../src/config';

describe('HTTP configuration', () => {
  it('has sensible defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      rateLimit: true,
      rateLimitPoints: 300,
      rateLimitWindowSeconds: 60,
      redisUrl: undefined,
      corsOrigins: [],
      cacheMaxAgeSeconds: 60,
    });
  });

  it('reads the rate limit, Redis and CORS settings', () => {
    const config = loadConfig({
      RATE_LIMIT_POINTS: '10',
      RATE_LIMIT_WINDOW_SECONDS: '5',
      REDIS_URL: 'redis://127.0.0.1:6379/2',
      CORS_ORIGINS: 'https://a.example.com, http://localhost:5173/',
    });
    expect(config.rateLimitPoints).toBe(10);
    expect(config.rateLimitWindowSeconds).toBe(5);
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379/2');
    expect(config.corsOrigins).toEqual(['https://a.example.com', 'http://localhost:5173']);
  });

  it('refuses malformed values', () => {
    expect(() => loadConfig({ REDIS_URL: 'http://x' })).toThrow(ConfigError);
    expect(() => loadConfig({ CORS_ORIGINS: 'https://a.example.com/path' })).toThrow(/CORS_ORIGINS/);
    expect(() => loadConfig({ RATE_LIMIT_POINTS: '0' })).toThrow(/RATE_LIMIT_POINTS/);
  });
});

describe('read replica configuration', () => {
  it('has none by default', () => {
    expect(loadConfig({}).databaseReplicaUrls).toEqual([]);
  });

  it('reads comma-separated postgres URLs, keeping their case', () => {
    const config = loadConfig({
      DATABASE_REPLICA_URLS:
        ' postgresql://reader:PassWord@replica-1:5432/Catalog , postgres://replica-2/catalog,',
    });
    expect(config.databaseReplicaUrls).toEqual([
      'postgresql://reader:PassWord@replica-1:5432/Catalog',
      'postgres://replica-2/catalog',
    ]);
  });

  it('refuses an entry that is not a postgres URL, without echoing it (it may hold a password)', () => {
    const load = () =>
      loadConfig({ DATABASE_REPLICA_URLS: 'postgresql://replica-1/db,mysql://u:secret@x/db' });
    expect(load).toThrow(new ConfigError('DATABASE_REPLICA_URLS entry 2 is not a postgres:// URL'));
    expect(load).not.toThrow(/secret/);
  });
});

describe('subscription limits', () => {
  it('allow 10 subscriptions per socket and 20 per user by default', () => {
    expect(loadConfig({}).subscriptions).toMatchObject({
      maxSubscriptionsPerSocket: 10,
      maxSubscriptionsPerUser: 20,
    });
  });

  it('refuse a total per user below the limit per socket', () => {
    expect(() =>
      loadConfig({ SUBSCRIPTION_MAX_PER_SOCKET: '8', SUBSCRIPTION_MAX_TOTAL_PER_USER: '5' }),
    ).toThrow(
      new ConfigError(
        'SUBSCRIPTION_MAX_TOTAL_PER_USER must be at least SUBSCRIPTION_MAX_PER_SOCKET (8), got "5"',
      ),
    );
    expect(() => loadConfig({ SUBSCRIPTION_MAX_PER_SOCKET: '0' })).toThrow(/SUBSCRIPTION_MAX_PER_SOCKET/);
  });
});

describe('log format', () => {
  it('is chosen by the terminal unless LOG_FORMAT says json or pretty', () => {
    expect(loadConfig({}).logFormat).toBeUndefined();
    expect(loadConfig({ LOG_FORMAT: 'Pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(() => loadConfig({ LOG_FORMAT: 'text' })).toThrow(
      new ConfigError('LOG_FORMAT must be json or pretty, got "text"'),
    );
  });
});
