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
