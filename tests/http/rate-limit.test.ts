import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { Redis } from 'ioredis';
import request from 'supertest';
import { AuthToken } from '../../src/accounts/auth-token.entity';
import { hashSecret } from '../../src/common/auth/secrets';
import { buildClient, buildManga, buildToken, buildUser } from '../factories';
import { gql, rest } from '../setup/clients';
import { openTestOrm, QueryCounter, resetDatabase } from '../setup/db';
import { type HttpTestApp, startHttpApp } from './http-app';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let orm: MikroORM;
const queries = new QueryCounter();
const started: HttpTestApp[] = [];

async function start(env: Record<string, string>): Promise<HttpTestApp['app']> {
  const instance = await startHttpApp(orm, { RATE_LIMIT: 'on', ...env });
  started.push(instance);
  return instance.app;
}

beforeAll(async () => {
  orm = await openTestOrm(queries);
  await resetDatabase(orm);
  await buildManga(orm, { slug: 'limited-manga' });
});

afterEach(async () => {
  await Promise.all(started.splice(0).map((instance) => instance.stop()));
});

afterAll(async () => {
  await orm.close();
});

describe('rate limiting in memory', () => {
  it('sends the budget headers and answers 429 system:rate_limit with Retry-After past it', async () => {
    const app = await start({ RATE_LIMIT_POINTS: '3', RATE_LIMIT_WINDOW_SECONDS: '60' });
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await rest(app, 'GET', '/manga/limited-manga').expect(200);
      expect(res.headers['ratelimit-policy']).toBe('"default";q=3;w=60');
      expect(res.headers['ratelimit']).toMatch(/^"default";r=\d+;t=\d+$/);
      expect(res.headers['x-ratelimit-limit']).toBe('3');
      const reset = Number(res.headers['x-ratelimit-reset']);
      expect(reset).toBeGreaterThan(Date.now() / 1000);
      expect(reset).toBeLessThanOrEqual(Date.now() / 1000 + 61);
      remaining.push(res.headers['x-ratelimit-remaining']);
    }
    expect(remaining).toEqual(['2', '1', '0']);

    const refused = await rest(app, 'GET', '/manga/limited-manga').expect(429);
    expect(refused.body).toEqual({
      message: 'You have reached the rate limit, try later',
      code: 'system:rate_limit',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(refused.headers['ratelimit']).toMatch(/^"default";r=0;t=\d+$/);
    expect(refused.headers['cache-control']).toBe('no-store');

    const uk = await rest(app, 'GET', '/manga/limited-manga', undefined, { language: 'uk' }).expect(429);
    expect(uk.body).toEqual({ message: 'Ви досягли межі, спробуйте пізніше', code: 'system:rate_limit' });
  });

  it('shares one budget between REST and GraphQL and answers GraphQL-shaped 429s', async () => {
    const app = await start({ RATE_LIMIT_POINTS: '2' });
    await rest(app, 'GET', '/manga/limited-manga').expect(200);
    const ok = await gql(app, '{ manga(slug: "limited-manga") { slug } }').expect(200);
    expect(ok.body.data.manga.slug).toBe('limited-manga');
    expect(ok.headers['x-ratelimit-remaining']).toBe('0');

    const refused = await gql(app, '{ manga(slug: "limited-manga") { slug } }').expect(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect(refused.body).toEqual({
      errors: [
        {
          message: 'You have reached the rate limit, try later',
          extensions: { code: 'system:rate_limit', http: { status: 429 } },
        },
      ],
    });
    await rest(app, 'GET', '/manga/limited-manga').expect(429);
  });

  it('keys anonymous callers by IP and never limits health checks', async () => {
    const app = await start({ RATE_LIMIT_POINTS: '1' });
    await rest(app, 'GET', '/manga/limited-manga').expect(200);
    await rest(app, 'GET', '/manga/limited-manga').expect(429);
    await rest(app, 'POST', '/novel', {}).expect(429);
    for (let i = 0; i < 3; i++) {
      const health = await request(app).get('/healthz').expect(200);
      expect(health.headers['x-ratelimit-limit']).toBeUndefined();
      await request(app).get('/readyz').expect(200);
    }
  });

  it('keys routes without authentication by the hash of the raw auth value, never resolved', async () => {
    const app = await start({ RATE_LIMIT_POINTS: '1' });
    await rest(app, 'GET', '/manga/limited-manga').expect(200);
    // Made-up values: GET /manga/{slug} has auth none, so each raw value has its own budget.
    await rest(app, 'GET', '/manga/limited-manga', undefined, { token: 'token-a' }).expect(200);
    await rest(app, 'GET', '/manga/limited-manga', undefined, { cookie: 'token-a' }).expect(429);
    await rest(app, 'GET', '/manga/limited-manga', undefined, { token: 'token-b' }).expect(200);
    // Unknown paths and the docs do not authenticate either.
    await rest(app, 'GET', '/no-such-path', undefined, { token: 'token-c' }).expect(404);
    await rest(app, 'GET', '/openapi.json', undefined, { token: 'token-c' }).expect(429);
  });

  it('caps an IP inventing tokens at ten budgets, refused before any token look-up', async () => {
    const app = await start({ RATE_LIMIT_POINTS: '1' });
    for (let i = 0; i < 10; i++) {
      await rest(app, 'GET', '/manga/limited-manga', undefined, { token: `invented-${i}` }).expect(200);
    }
    const refused = await rest(app, 'GET', '/manga/limited-manga', undefined, {
      token: 'invented-10',
    }).expect(429);
    expect(refused.body.code).toBe('system:rate_limit');
    expect(refused.headers['ratelimit-policy']).toBe('"ip";q=10;w=60');
    expect(refused.headers['retry-after']).toBeDefined();
    // On a route that would resolve the token, the refusal comes first: no SQL at all.
    const statements = await queries.count(() =>
      rest(app, 'POST', '/novel', {}, { token: 'invented-11' }).expect(429),
    );
    expect(statements).toBe(0);
    // Callers without a token keep their own budget.
    await rest(app, 'GET', '/manga/limited-manga').expect(200);
  });

  it('keys a 405 as the REST router answers it: unauthenticated, by the raw value', async () => {
    const app = await start({ RATE_LIMIT_POINTS: '1' });
    // PUT /comments/latest is a 405 of the auth-none path, not PUT /comments/{comment_reference}.
    const statements = await queries.count(() =>
      rest(app, 'PUT', '/comments/latest', {}, { token: 'made-up' }).expect(405),
    );
    expect(statements).toBe(0);
    await rest(app, 'GET', '/manga/limited-manga').expect(200);
  });

  it('charges an unknown or expired token to the IP where the route authenticates', async () => {
    const app = await start({ RATE_LIMIT_POINTS: '2' });
    const user = await buildUser(orm);
    const expired = await buildToken(orm, user, { expiration: new Date(Date.now() - 1000) });
    // POST /novel has optional authentication: a bad token means anonymous, so the IP pays.
    await rest(app, 'POST', '/novel', {}, { token: 'made-up' }).expect(200);
    await gql(app, '{ manga(slug: "limited-manga") { slug } }', {}, { token: expired }).expect(200);
    await rest(app, 'GET', '/manga/limited-manga').expect(429);
  });

  it('gives a first-party token one budget everywhere, shared by header and cookie', async () => {
    const app = await start({ RATE_LIMIT_POINTS: '3' });
    const user = await buildUser(orm);
    const token = await buildToken(orm, user);
    await rest(app, 'POST', '/novel', {}, { token }).expect(200);
    await gql(app, '{ manga(slug: "limited-manga") { slug } }', {}, { cookie: token }).expect(200);
    const last = await rest(app, 'GET', '/manga/limited-manga', undefined, { token }).expect(200);
    expect(last.headers['x-ratelimit-remaining']).toBe('0');
    await rest(app, 'POST', '/novel', {}, { token }).expect(429);
    // Anonymous callers from the same IP keep their own budget.
    await rest(app, 'GET', '/manga/limited-manga').expect(200);
  });

  it('gives all tokens of one third-party client one budget where the route authenticates', async () => {
    const app = await start({ RATE_LIMIT_POINTS: '2' });
    const owner = await buildUser(orm);
    const client = await buildClient(orm, owner);
    const other = await buildClient(orm, owner);
    const [first, second] = [await buildUser(orm), await buildUser(orm)];
    const firstToken = await buildToken(orm, first, { client, scope: ['read:readlist'] });
    const secondToken = await buildToken(orm, second, { client, scope: ['read:readlist'] });
    const otherToken = await buildToken(orm, first, { client: other, scope: ['read:readlist'] });

    await rest(app, 'POST', '/novel', {}, { token: firstToken }).expect(200);
    await gql(app, '{ manga(slug: "limited-manga") { slug } }', {}, { token: secondToken }).expect(200);
    const refused = await rest(app, 'POST', '/novel', {}, { token: secondToken }).expect(429);
    expect(refused.body.code).toBe('system:rate_limit');
    await rest(app, 'POST', '/novel', {}, { token: otherToken }).expect(200);
    // Routes without authentication never resolve the token: there it is keyed by itself.
    await rest(app, 'GET', '/manga/limited-manga', undefined, { token: firstToken }).expect(200);
  });

  it('a refused request leaves the token untouched (no recorded use)', async () => {
    const app = await start({ RATE_LIMIT_POINTS: '1' });
    const user = await buildUser(orm);
    const token = await buildToken(orm, user);
    const stored = () =>
      orm.em.fork().findOneOrFail(AuthToken, { secret_hash: hashSecret(token) }, { refresh: true });
    await rest(app, 'GET', '/manga/limited-manga', undefined, { token }).expect(200);
    await rest(app, 'POST', '/novel', {}, { token }).expect(429);
    expect((await stored()).used).toBeNull();
  });

  it('charges a path with broken %-encoding before answering 404 system:not_found', async () => {
    const app = await start({ RATE_LIMIT_POINTS: '2', RATE_LIMIT_WINDOW_SECONDS: '60' });
    for (const path of ['/manga/%zz', '/client/%']) {
      const res = await rest(app, 'GET', path).expect(404);
      expect(res.body).toEqual({ message: 'Not found', code: 'system:not_found' });
    }
    expect((await rest(app, 'GET', '/manga/%FF').expect(429)).body.code).toBe('system:rate_limit');
  });

  it('is disabled by RATE_LIMIT=off', async () => {
    const app = await start({ RATE_LIMIT: 'off', RATE_LIMIT_POINTS: '1' });
    for (let i = 0; i < 3; i++) {
      const res = await rest(app, 'GET', '/manga/limited-manga').expect(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      expect(res.headers['ratelimit']).toBeUndefined();
    }
  });
});

describe('rate limiting in Redis', () => {
  const prefix = `test-rate-limit-${process.pid}-${randomUUID()}`;
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    await redis.ping();
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('two instances sharing Redis enforce one budget', async () => {
    const env = { REDIS_URL, RATE_LIMIT_PREFIX: `${prefix}-shared`, RATE_LIMIT_POINTS: '3' };
    const first = await start(env);
    const second = await start(env);

    expect(
      (await rest(first, 'GET', '/manga/limited-manga').expect(200)).headers['x-ratelimit-remaining'],
    ).toBe('2');
    expect(
      (await rest(second, 'GET', '/manga/limited-manga').expect(200)).headers['x-ratelimit-remaining'],
    ).toBe('1');
    await gql(first, '{ manga(slug: "limited-manga") { slug } }').expect(200);
    const refused = await rest(second, 'GET', '/manga/limited-manga').expect(429);
    expect(refused.body.code).toBe('system:rate_limit');
    expect(refused.headers['retry-after']).toBeDefined();
    await gql(first, '{ manga(slug: "limited-manga") { slug } }').expect(429);

    // The budget lives in Redis under the configured prefix.
    expect((await redis.keys(`${prefix}-shared*`)).length).toBeGreaterThan(0);

    // An instance with another prefix (another deployment) has its own budget.
    const other = await start({ ...env, RATE_LIMIT_PREFIX: `${prefix}-other` });
    await rest(other, 'GET', '/manga/limited-manga').expect(200);
  });

  it('keeps separate budgets per token across instances', async () => {
    const env = { REDIS_URL, RATE_LIMIT_PREFIX: `${prefix}-tokens`, RATE_LIMIT_POINTS: '1' };
    const first = await start(env);
    const second = await start(env);
    await rest(first, 'GET', '/manga/limited-manga', undefined, { token: 'token-a' }).expect(200);
    await rest(second, 'GET', '/manga/limited-manga', undefined, { token: 'token-a' }).expect(429);
    await rest(second, 'GET', '/manga/limited-manga', undefined, { token: 'token-b' }).expect(200);
    await rest(first, 'GET', '/manga/limited-manga').expect(200);
  });
});
