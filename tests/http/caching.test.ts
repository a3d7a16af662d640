import type { MikroORM } from '@mikro-orm/postgresql';
import request from 'supertest';
import { buildManga, buildToken, buildUser } from '../factories';
import { gql, rest } from '../setup/clients';
import { openTestOrm, resetDatabase } from '../setup/db';
import { type HttpTestApp, startHttpApp } from './http-app';

let orm: MikroORM;
let plain: HttpTestApp;
let withCors: HttpTestApp;
let token: string;

beforeAll(async () => {
  orm = await openTestOrm();
  await resetDatabase(orm);
  await buildManga(orm, { slug: 'cached-manga' });
  token = await buildToken(orm, await buildUser(orm));
  plain = await startHttpApp(orm, {});
  withCors = await startHttpApp(orm, {
    CORS_ORIGINS: 'https://app.example.com, https://other.example.com',
    RATE_LIMIT: 'on',
  });
});

afterAll(async () => {
  await plain.stop();
  await withCors.stop();
  await orm.close();
});

describe('HTTP caching', () => {
  it('marks anonymous catalog GETs public with an ETag and answers 304 on If-None-Match', async () => {
    const first = await rest(plain.app, 'GET', '/manga/cached-manga').expect(200);
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    expect(first.headers['vary']).toMatch(/auth/);
    expect(first.headers['vary']).toMatch(/Cookie/);
    const etag = first.headers['etag'];
    expect(etag).toMatch(/^W\/".+"$/);

    const again = await rest(plain.app, 'GET', '/manga/cached-manga').set('If-None-Match', etag).expect(304);
    expect(again.text).toBe('');
    expect(again.headers['etag']).toBe(etag);
    expect(again.headers['cache-control']).toBe('public, max-age=60');

    const stale = await rest(plain.app, 'GET', '/manga/cached-manga')
      .set('If-None-Match', 'W/"stale"')
      .expect(200);
    expect(stale.body.slug).toBe('cached-manga');
  });

  it('marks responses private, no-store when a token is present (header or cookie, valid or not)', async () => {
    for (const options of [{ token }, { cookie: token }, { token: 'not-a-token' }]) {
      const res = await rest(plain.app, 'GET', '/manga/cached-manga', undefined, options).expect(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
    }
    const mine = await rest(plain.app, 'GET', '/notifications', undefined, { token }).expect(200);
    expect(mine.headers['cache-control']).toBe('private, no-store');
  });

  it('never caches or 304s errors and non-GET requests', async () => {
    const missing = await rest(plain.app, 'GET', '/manga/no-such-manga')
      .set('If-None-Match', '*')
      .expect(404);
    expect(missing.headers['etag']).toBeUndefined();
    expect(missing.headers['cache-control']).toBe('no-store');
    expect(missing.body.code).toBe('manga:not_found');

    const unauthenticated = await rest(plain.app, 'GET', '/notifications').expect(401);
    expect(unauthenticated.headers['cache-control']).toBe('no-store');
    expect(unauthenticated.headers['etag']).toBeUndefined();

    const query = '{ manga(slug: "cached-manga") { slug } }';
    const post = await gql(plain.app, query).expect(200);
    expect(post.headers['cache-control']).toBe('no-store');
    const get = await request(plain.app)
      .get(`/graphql?query=${encodeURIComponent(query)}`)
      .set('Accept', 'application/json')
      .set('apollo-require-preflight', 'true')
      .expect(200);
    expect(get.body.data.manga.slug).toBe('cached-manga');
    expect(get.headers['cache-control']).toBe('no-store');
    await gql(plain.app, query)
      .set('If-None-Match', post.headers['etag'] ?? '*')
      .expect(200);
  });
});

describe('the GraphQL door', () => {
  const query = '{ manga(slug: "cached-manga") { slug } }';
  const getQuery = (method: 'get' | 'head') => {
    const target = `/graphql?query=${encodeURIComponent(query)}`;
    const test = method === 'get' ? request(plain.app).get(target) : request(plain.app).head(target);
    return test.set('Accept', 'application/json').set('apollo-require-preflight', 'true');
  };

  it('answers GET queries with a weak ETag and 304 on If-None-Match, HEAD as GET without a body', async () => {
    const get = await getQuery('get').expect(200);
    expect(get.body.data).toEqual({ manga: { slug: 'cached-manga' } });
    const etag = get.headers['etag'];
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await getQuery('get').set('If-None-Match', etag).expect(304);
    expect(again.text).toBe('');

    const head = await getQuery('head').expect(200);
    expect(head.text ?? '').toBe('');
    for (const header of ['etag', 'content-length', 'content-type', 'cache-control'])
      expect([header, head.headers[header]]).toEqual([header, get.headers[header]]);
  });

  it("keeps Apollo's CSRF prevention: a GET or HEAD query without a preflight header is refused", async () => {
    const target = `/graphql?query=${encodeURIComponent(query)}`;
    const get = await request(plain.app).get(target).set('Accept', 'application/json').expect(400);
    expect(get.text).toMatch(/CSRF/);
    await request(plain.app).head(target).set('Accept', 'application/json').expect(400);
  });

  it('sends no ETag with answers to POST, on either door (no conditional POST exists)', async () => {
    const graphql = await gql(plain.app, query).expect(200);
    expect(graphql.headers['etag']).toBeUndefined();
    const novels = await rest(plain.app, 'POST', '/novel', {}).expect(200);
    expect(novels.headers['etag']).toBeUndefined();
  });

  it('leaves a browser page request to the playground, and answers what is below /graphql 404', async () => {
    const page = await request(plain.app).get('/graphql').set('Accept', 'text/html').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const below = await request(plain.app).post('/graphql/').send({ query }).expect(404);
    expect(below.body.code).toBe('system:not_found');
  });
});

describe('CORS', () => {
  it('sends no CORS headers without CORS_ORIGINS', async () => {
    const res = await rest(plain.app, 'GET', '/manga/cached-manga').set('Origin', 'https://app.example.com');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers preflights for listed origins, allowing the auth and captcha headers', async () => {
    const preflight = await request(withCors.app)
      .options('/graphql')
      .set('Origin', 'https://app.example.com')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type, auth, captcha')
      .expect(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(preflight.headers['access-control-allow-credentials']).toBe('true');
    const allowed = preflight.headers['access-control-allow-headers'].toLowerCase().split(',');
    expect(allowed).toEqual(expect.arrayContaining(['auth', 'captcha', 'content-type']));
    // Preflights do not spend the budget.
    expect(preflight.headers['x-ratelimit-limit']).toBeUndefined();

    const foreign = await request(withCors.app)
      .options('/graphql')
      .set('Origin', 'https://evil.example.com')
      .set('Access-Control-Request-Method', 'POST');
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('exposes the rate-limit headers on actual responses', async () => {
    const res = await rest(withCors.app, 'GET', '/manga/cached-manga')
      .set('Origin', 'https://other.example.com')
      .expect(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://other.example.com');
    const exposed = res.headers['access-control-expose-headers'].toLowerCase().split(',');
    expect(exposed).toEqual(
      expect.arrayContaining([
        'ratelimit',
        'ratelimit-policy',
        'x-ratelimit-limit',
        'x-ratelimit-remaining',
        'x-ratelimit-reset',
        'retry-after',
        'etag',
      ]),
    );
    expect(res.headers['x-ratelimit-limit']).toBe('300');
  });
});
