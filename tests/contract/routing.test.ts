import request from 'supertest';
import { buildManga, buildNovel } from '../factories';
import { gql, rest } from '../setup/clients';
import { useTestApp } from '../setup/harness';

/** Conventions every route shares (semantics §1.1, §7): routing, errors, GraphQL over HTTP, request ids. */
const t = useTestApp();

const NOT_FOUND = { message: 'Not found', code: 'system:not_found' };
const METHOD_NOT_ALLOWED = { message: 'Method not allowed', code: 'system:method_not_allowed' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface GraphQLErrorBody {
  data?: unknown;
  errors: { message: string; extensions: { code: string; http: { status: number } } }[];
}

describe('routing', () => {
  describe('405 on a known path with another method', () => {
    it.each([
      ['POST', '/manga/x'],
      ['PUT', '/manga/x'],
      ['DELETE', '/manga/x'],
      ['PATCH', '/manga/x'],
      ['POST', '/novel/x/characters'],
      ['DELETE', '/related/anime/x/franchise'],
    ] as const)('%s %s → 405 system:method_not_allowed with Allow: GET, HEAD', async (method, path) => {
      await buildManga(t.orm, { slug: 'x' });
      const res = await rest(t.app, method, path, method === 'PATCH' || method === 'DELETE' ? undefined : {});
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
      expect(res.body).toEqual(METHOD_NOT_ALLOWED);
    });

    it('answers 405 in Ukrainian when Accept-Language prefers uk', async () => {
      const res = await rest(t.app, 'POST', '/manga/x', {}, { language: 'uk-UA,uk;q=0.9' });
      expect(res.status).toBe(405);
      expect(res.body).toEqual({ message: 'Метод не дозволено', code: 'system:method_not_allowed' });
    });
  });

  describe('HEAD on GET routes', () => {
    it('HEAD /manga/x → 200 without a body', async () => {
      await buildManga(t.orm, { slug: 'x' });
      const res = await rest(t.app, 'HEAD', '/manga/x');
      expect(res.status).toBe(200);
      expect(res.text ?? '').toBe('');
      expect(res.body).toEqual({});
    });

    it('HEAD /novel/x/characters → 200, and HEAD on a missing manga → 404, both without a body', async () => {
      await buildNovel(t.orm, { slug: 'x' });
      const found = await rest(t.app, 'HEAD', '/novel/x/characters');
      expect(found.status).toBe(200);
      expect(found.text ?? '').toBe('');
      const missing = await rest(t.app, 'HEAD', '/manga/missing');
      expect(missing.status).toBe(404);
      expect(missing.text ?? '').toBe('');
    });
  });

  describe('404 system:not_found', () => {
    beforeEach(async () => {
      await buildManga(t.orm, { slug: 'x' });
      await buildNovel(t.orm, { slug: 'x' });
    });

    it.each([
      ['a trailing slash', '/manga/x/'],
      ['a trailing slash on #19', '/novel/x/characters/'],
      ['a literal segment in another case', '/MANGA/x'],
      ['a literal segment in another case on #19', '/novel/x/Characters'],
      ['a literal segment in another case on #13', '/Related/anime/x/franchise'],
      ['an unknown path', '/no/such/path'],
      ['an extra segment', '/manga/x/extra'],
      ['the bare collection path', '/comments'],
      ['a trailing slash on /graphql', '/graphql/'],
      ['a path below /graphql', '/graphql/x'],
      ['an unknown playground asset', '/graphql/assets/nope.js'],
      ['an unknown docs asset', '/docs/assets/nope.js'],
    ])('%s (%s)', async (_name, path) => {
      const res = await rest(t.app, 'GET', path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    });

    it('answers Ukrainian "Не знайдено" when Accept-Language prefers uk', async () => {
      const res = await rest(t.app, 'GET', '/no/such/path', undefined, { language: 'uk' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Не знайдено', code: 'system:not_found' });
    });

    it('gives a q-value tie to the first listed language', async () => {
      const english = await rest(t.app, 'GET', '/nope', undefined, { language: 'en;q=0.8, uk;q=0.8' });
      expect(english.body.message).toBe('Not found');
      const ukrainian = await rest(t.app, 'GET', '/nope', undefined, { language: 'uk, en' });
      expect(ukrainian.body.message).toBe('Не знайдено');
    });

    it('follows the highest q-value, not the first listed language', async () => {
      const english = await rest(t.app, 'GET', '/nope', undefined, { language: 'uk;q=0.5, en;q=0.9' });
      expect(english.body.message).toBe('Not found');
      const ukrainian = await rest(t.app, 'GET', '/nope', undefined, { language: 'en;q=0.4, uk-UA;q=0.8' });
      expect(ukrainian.body.message).toBe('Не знайдено');
    });
  });

  describe('error bodies', () => {
    it.each([
      ['a missing manga', '/manga/missing', 404],
      ['a validation error', '/novel/x/characters?page=0', 400],
      ['a bad path parameter', '/related/person/x/franchise', 400],
      ['a method not allowed', '/manga/x', 405],
      ['an unknown path', '/nope', 404],
    ])('%s has exactly the keys message and code, as JSON', async (_name, path, status) => {
      const res = await rest(t.app, status === 405 ? 'POST' : 'GET', path, status === 405 ? {} : undefined);
      expect(res.status).toBe(status);
      expect(Object.keys(res.body).sort()).toEqual(['code', 'message']);
      expect(typeof res.body.message).toBe('string');
      expect(res.body.code).toMatch(/^[a-z_]+:[a-z_]+$/);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    });

    it('successful REST responses are application/json; charset=utf-8', async () => {
      await buildManga(t.orm, { slug: 'x' });
      const res = await rest(t.app, 'GET', '/manga/x');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    });
  });
});

describe('GraphQL over HTTP', () => {
  it('a resolver error answers HTTP 200 with extensions.code and extensions.http.status of the REST call', async () => {
    const res = await gql(t.app, 'query ($slug: String!) { manga(slug: $slug) { slug } }', {
      slug: 'missing',
    });
    expect(res.status).toBe(200);
    const body = res.body as GraphQLErrorBody;
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].message).toBe('Manga not found');
    expect(body.errors[0].extensions).toEqual(
      expect.objectContaining({ code: 'manga:not_found', http: expect.objectContaining({ status: 404 }) }),
    );
    expect(body.data).toBeNull();
  });

  it('a resolver error message follows Accept-Language', async () => {
    const res = await gql(
      t.app,
      '{ novelCharacters(slug: "missing") { pagination { total } } }',
      {},
      { language: 'uk' },
    );
    expect(res.status).toBe(200);
    const [error] = (res.body as GraphQLErrorBody).errors;
    expect(error.message).toBe('Ранобе не знайдено');
    expect(error.extensions.code).toBe('novel:not_found');
    expect(error.extensions.http.status).toBe(404);
  });

  it('a business-rule error carries its REST status (related:no_franchise → 400) with HTTP 200', async () => {
    await buildManga(t.orm, { slug: 'alone' });
    const res = await gql(t.app, '{ franchise(content_type: manga, slug: "alone") { manga { slug } } }');
    expect(res.status).toBe(200);
    const [error] = (res.body as GraphQLErrorBody).errors;
    expect(error.extensions.code).toBe('related:no_franchise');
    expect(error.extensions.http.status).toBe(400);
  });

  it('a document with a syntax error → HTTP 400 system:validation_error with graphql-js message', async () => {
    const res = await gql(t.app, '{ manga(slug: "x") { slug ');
    expect(res.status).toBe(400);
    const [error] = (res.body as GraphQLErrorBody).errors;
    expect(error.extensions.code).toBe('system:validation_error');
    expect(error.message).toMatch(/^Syntax Error/);
  });

  it('a document failing schema validation → HTTP 400 system:validation_error', async () => {
    const res = await gql(t.app, '{ manga(slug: "x") { no_such_field } }');
    expect(res.status).toBe(400);
    const [error] = (res.body as GraphQLErrorBody).errors;
    expect(error.extensions.code).toBe('system:validation_error');
    expect(error.message).toContain('no_such_field');
  });

  it('an input coercion error → HTTP 400 system:validation_error', async () => {
    const res = await gql(t.app, 'query ($slug: String!) { manga(slug: $slug) { slug } }', { slug: 42 });
    expect(res.status).toBe(400);
    const [error] = (res.body as GraphQLErrorBody).errors;
    expect(error.extensions.code).toBe('system:validation_error');
  });
});

describe('request ids and probes', () => {
  it('echoes X-Request-Id when sent', async () => {
    const res = await request(t.app).get('/healthz').set('X-Request-Id', 'trace-123.abc:def');
    expect(res.headers['x-request-id']).toBe('trace-123.abc:def');
  });

  it('generates a UUID X-Request-Id when none is sent, a new one per request', async () => {
    const first = await request(t.app).get('/manga/missing');
    const second = await request(t.app).get('/manga/missing');
    expect(first.headers['x-request-id']).toMatch(UUID);
    expect(second.headers['x-request-id']).toMatch(UUID);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });

  it('echoes X-Request-Id on error responses too', async () => {
    const res = await request(t.app).get('/no/such/path').set('X-Request-Id', 'req-404');
    expect(res.status).toBe(404);
    expect(res.headers['x-request-id']).toBe('req-404');
  });

  it('GET /healthz → 200', async () => {
    const res = await request(t.app).get('/healthz');
    expect(res.status).toBe(200);
  });

  it('GET /readyz → 200 with the database reachable', async () => {
    const res = await request(t.app).get('/readyz');
    expect(res.status).toBe(200);
  });
});
