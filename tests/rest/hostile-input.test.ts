import type { MikroORM } from '@mikro-orm/postgresql';
import fc from 'fast-check';
import request from 'supertest';
import { allowHeader } from '../../src/http/methods';
import { routesByPath } from '../../src/rest/route';
import { restRoutes } from '../../src/routes';
import { buildManga, buildToken, buildUser } from '../factories';
import { type HttpTestApp, startHttpApp } from '../http/http-app';
import { gql, rest } from '../setup/clients';
import { openTestOrm } from '../setup/db';
import { useTestApp } from '../setup/harness';

/*
 * No input may produce a 5xx (issue: generated bad input found 500s). Each defect found
 * has its own test; a seeded property-based run then throws generated bad input at
 * every route of the route table and at /graphql.
 */

const VALIDATION = { message: 'Invalid field in request body', code: 'system:validation_error' };
const paramRoutes = restRoutes.filter((route) => Object.keys(route.params).length > 0);
const bodyRoutes = restRoutes.filter((route) => route.body);
const fill = (path: string, value: (name: string) => string) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => value(name));
const sampleValue = (name: string) =>
  name === 'content_type'
    ? 'manga'
    : name.endsWith('reference')
      ? '00000000-0000-4000-8000-000000000000'
      : 'x';

describe('input that used to answer 500', () => {
  const t = useTestApp();
  let token: string;
  beforeEach(async () => {
    token = await buildToken(t.orm, await buildUser(t.orm, { role: 'admin' }));
  });

  it.each(['%zz', '%', '%FF', '%C0%AF'])(
    'answers broken %%-encoding (%s) in any path parameter with 404 system:not_found',
    async (broken) => {
      for (const route of paramRoutes) {
        for (const param of Object.keys(route.params)) {
          const path = fill(route.path, (name) => (name === param ? broken : sampleValue(name)));
          const res = await rest(t.app, route.method, path, route.body ? {} : undefined, { token });
          expect([route.method, path, res.status, res.body]).toEqual([
            route.method,
            path,
            404,
            { message: 'Not found', code: 'system:not_found' },
          ]);
        }
      }
    },
  );

  it('refuses U+0000 in a path parameter or a body string as a validation error naming the field', async () => {
    await buildManga(t.orm, { slug: 'berserk' });
    expect((await rest(t.app, 'GET', '/manga/a%00b')).body).toEqual({
      message: 'Invalid field slug in request path',
      code: 'system:validation_error',
    });
    expect((await rest(t.app, 'POST', '/novel', { query: 'a\u0000b' })).body).toEqual({
      message: 'Invalid field query in request body',
      code: 'system:validation_error',
    });
    expect((await rest(t.app, 'POST', '/novel', { genres: ['ok', 'a\u0000'] })).body).toEqual({
      message: 'Invalid field genres in request body',
      code: 'system:validation_error',
    });
    const literal = await gql(t.app, '{ manga(slug: "\\u0000") { slug } }');
    expect(literal.status).toBe(400);
    expect(literal.body.errors[0].extensions.code).toBe('system:validation_error');
    const variable = await gql(t.app, 'query ($slug: String!) { manga(slug: $slug) { slug } }', {
      slug: 'berserk\u0000',
    });
    expect(variable.status).toBe(400);
    expect(variable.body.errors[0].extensions.code).toBe('system:validation_error');
  });

  it.each(['PUT', 'PATCH', 'DELETE'] as const)('answers %s /graphql with 405 and Allow', async (method) => {
    const res = await rest(t.app, method, '/graphql', { query: '{ __typename }' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    expect(res.body.errors[0].extensions.code).toBe('system:method_not_allowed');
  });

  it.each([
    ['an unsupported charset', { 'Content-Type': 'application/json; charset=latin1' }],
    [
      'a gzip content encoding on a plain body',
      { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
    ],
    ['an unknown content encoding', { 'Content-Type': 'application/json', 'Content-Encoding': 'snappy' }],
    ['an empty body', { 'Content-Type': 'application/json' }, ''],
  ])(
    'answers a /graphql body with %s with 400 system:validation_error',
    async (_, headers, body = '{"query":"{ __typename }"}') => {
      const res = await request(t.app).post('/graphql').set(headers).send(body);
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        { message: VALIDATION.message, extensions: { code: VALIDATION.code, http: { status: 400 } } },
      ]);
    },
  );

  it('refuses a document nested 10,000 levels deep without serializing it (REST and GraphQL)', async () => {
    const deep = '[{"type":"p","children":'.repeat(10000) + '[]' + '}]'.repeat(10000);
    const body = `{"title":"Deep","document":${deep},"tags":[],"category":"original"}`;
    const viaRest = await rest(t.app, 'POST', '/articles/create', undefined, { token })
      .set('Content-Type', 'application/json')
      .send(body);
    expect(viaRest.body).toEqual({
      message: 'Invalid field document in request body',
      code: 'system:validation_error',
    });
    const viaGraphQL = await request(t.app)
      .post('/graphql')
      .set({ 'Content-Type': 'application/json', auth: token })
      .send(
        `{"query":"mutation ($input: ArticleInput!) { createArticle(input: $input) { slug } }","variables":{"input":${body}}}`,
      );
    expect(viaGraphQL.status).toBe(400);
    expect(viaGraphQL.body.errors[0].message).toBe('Invalid field document in request body');
  });

  it('refuses a document whose operation cannot be chosen with 400, not 500', async () => {
    for (const body of [
      { query: 'query A { __typename } query B { __typename }' },
      { query: 'query A { __typename }', operationName: 'B' },
      { query: 'mutation A { __typename } mutation B { __typename }' },
    ]) {
      const res = await request(t.app).post('/graphql').send(body);
      expect([res.status, res.body.errors[0].extensions]).toEqual([
        400,
        { code: 'system:validation_error', http: { status: 400 } },
      ]);
    }
  });

  it('answers a mutation over GET with 405 system:method_not_allowed, as Apollo refuses it', async () => {
    const res = await request(t.app)
      .get('/graphql')
      .query({ query: 'mutation { resendActivation { username } }' })
      .set('Apollo-Require-Preflight', 'true');
    expect(res.status).toBe(405);
    expect(res.body.errors[0].extensions).toEqual({
      code: 'system:method_not_allowed',
      http: { status: 405 },
    });
  });

  it('reads a GraphQL integer literal written 13.0 as a JSON body’s 13.0, and refuses 13.5 naming the field', async () => {
    const search = (score: string) =>
      gql(t.app, `{ novelSearch(input: { score: [${score}, null] }) { pagination { total } } }`);
    expect((await search('5.0')).body.errors).toBeUndefined();
    expect((await rest(t.app, 'POST', '/novel', { score: [5.0, null] })).status).toBe(200);
    const fraction = await search('5.5');
    expect(fraction.status).toBe(400);
    expect(fraction.body.errors[0].message).toBe('Invalid field score in request body');
  });

  it('maps Apollo’s own refusals to system:validation_error with HTTP 400', async () => {
    const subscription = await gql(t.app, 'subscription { x }');
    expect(subscription.status).toBe(400);
    expect(subscription.body.errors[0].extensions.code).toBe('system:validation_error');
    const persisted = await request(t.app)
      .post('/graphql')
      .send({ query: '{ __typename }', extensions: { persistedQuery: { version: 2, sha256Hash: 'x' } } });
    expect(persisted.status).toBe(400);
    expect(persisted.body.errors[0].extensions.code).toBe('system:validation_error');
  });

  it.each(['toString', 'constructor', '__proto__', 'valueOf', 'hasOwnProperty'])(
    'answers a body key named %s as an unknown key on every body route, quoting no value',
    async (key) => {
      for (const route of bodyRoutes) {
        const path = fill(route.path, sampleValue);
        const body = `{"password":"SECRET-PW","client_secret":"SECRET-PW","${key}":1}`;
        const res = await rest(t.app, route.method, path, undefined, { token })
          .set('Content-Type', 'application/json')
          .send(body);
        expect(res.status).toBe(400);
        expect(res.text).not.toContain('SECRET-PW');
        expect(res.body.code).toBe('system:validation_error');
      }
      const login = await rest(t.app, 'POST', '/auth/login', undefined)
        .set('Content-Type', 'application/json')
        .send(`{"username":"u","password":"SECRET-PW","${key}":1}`);
      expect(login.body).toEqual({
        message: `Invalid field ${key} in request body`,
        code: 'system:validation_error',
      });
      const viaGraphQL = await request(t.app)
        .post('/graphql')
        .set('Content-Type', 'application/json')
        .send(
          `{"query":"mutation ($input: LoginInput!) { login(input: $input) { secret } }","variables":{"input":{"username":"u","password":"SECRET-PW","${key}":1}}}`,
        );
      expect(viaGraphQL.status).toBe(400);
      expect(viaGraphQL.text).not.toContain('SECRET-PW');
      expect(viaGraphQL.body.errors[0].message).toBe(`Invalid field ${key} in request body`);
    },
  );

  it('answers OPTIONS on every path with 405 and the full Allow, and on an unknown path with 404', async () => {
    for (const [path, routes] of routesByPath(restRoutes)) {
      const res = await request(t.app).options(fill(path, sampleValue));
      expect([path, res.status, res.headers.allow, res.body.code]).toEqual([
        path,
        405,
        allowHeader(routes.map((route) => route.method)),
        'system:method_not_allowed',
      ]);
    }
    expect((await request(t.app).options('/client/00000000-0000-4000-8000-000000000000')).headers.allow).toBe(
      'GET, HEAD, DELETE, PUT',
    );
    expect((await request(t.app).options('/graphql')).headers.allow).toBe('GET, HEAD, POST');
    expect((await request(t.app).options('/no/such/path')).body.code).toBe('system:not_found');
  });
});

describe('CORS preflight', () => {
  let orm: MikroORM;
  let instance: HttpTestApp;
  beforeAll(async () => {
    orm = await openTestOrm();
    instance = await startHttpApp(orm, { CORS_ORIGINS: 'https://app.example' });
  });
  afterAll(async () => {
    await instance.stop();
    await orm.close();
  });

  it('answers a preflight from an allowed origin, and 405 with Allow for any other', async () => {
    const preflight = (origin: string) =>
      request(instance.app)
        .options('/client/00000000-0000-4000-8000-000000000000')
        .set({ Origin: origin, 'Access-Control-Request-Method': 'PUT' });
    const allowed = await preflight('https://app.example');
    expect(allowed.status).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(allowed.headers['access-control-allow-methods']).toContain('PUT');
    const other = await preflight('https://evil.example');
    expect(other.status).toBe(405);
    expect(other.headers.allow).toBe('GET, HEAD, DELETE, PUT');
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('generated bad input (seeded property-based run)', () => {
  const t = useTestApp();
  /** Every generated string value carries this, so an echo in an error is found. */
  const MARK = 'ECHO';

  const markedString = fc
    .oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.constantFrom('\u0000', '\ud800', '\udfff', 'a\u0000b', '%', '%zz', '\u2800', ' ', '\n'),
      fc.string({ minLength: 2000, maxLength: 5000 }),
    )
    .map((text) => `${MARK}${text}`);
  const scalar = fc.oneof(
    markedString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom(2 ** 53, -(2 ** 31), 1e308, -0),
    fc.constantFrom('1', '-1', '13', '99999999999999999999', '1.5', ''),
  );
  const key = fc.oneof(
    fc.constantFrom('toString', 'constructor', '__proto__', 'valueOf', 'hasOwnProperty', 'prototype'),
    fc.stringMatching(/^[a-z_]{1,12}$/),
  );
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 4 }),
    object: fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  }));
  const deep = fc
    .integer({ min: 50, max: 5000 })
    .map((depth) => '['.repeat(depth) + '"' + MARK + '"' + ']'.repeat(depth));

  /** Bodies as sent: JSON of generated values (often objects with a route's own field names), or raw text. */
  const bodyFor = (fields: string[]) =>
    fc.oneof(
      fc
        .record(Object.fromEntries(fields.map((field) => [field, value])), { requiredKeys: [] })
        .map((o) => JSON.stringify(o)),
      fc
        .tuple(fc.constantFrom(...(fields.length ? fields : ['x'])), deep)
        .map(([field, text]) => `{"${field}":${text}}`),
      value.map((v) => JSON.stringify(v)),
      fc.constantFrom('', '   ', '{', '{"a":', 'null', '[]', '"x"', '{"__proto__":{"x":1}}', '\u0000'),
    );
  const pathValue = fc.oneof(
    fc.constantFrom(
      '%zz',
      '%',
      '%FF',
      '%C0%AF',
      '%00',
      '%ED%A0%80',
      'x',
      '00000000-0000-4000-8000-000000000000',
    ),
    fc.string({ maxLength: 40 }).map((text) => encodeURIComponent(`${MARK}${text}`)),
  );
  const contentType = fc.constantFrom(
    'application/json',
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    undefined,
  );
  const encoding = fc.constantFrom(undefined, undefined, undefined, 'gzip', 'deflate', 'br', 'x-unknown');
  const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD');

  /** The shape every failure must have: REST `{message, code}`, GraphQL `errors[].extensions.code`. */
  function checkAnswer(res: request.Response, graphql: boolean, sent: string, head = false): void {
    if (res.status >= 500)
      throw new Error(`HTTP ${res.status} for ${sent.slice(0, 300)}: ${res.text?.slice(0, 300)}`);
    if (res.status < 400 || head) return;
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    if (graphql) {
      for (const error of res.body.errors)
        expect(error.extensions.code).toMatch(/^[a-z_]+:[a-z_]+$|^timeout$/);
    } else {
      expect(Object.keys(res.body).sort()).toEqual(['code', 'message']);
    }
    expect(res.text).not.toContain(MARK);
  }

  it('never answers 5xx to generated requests on any route, always with the error shape, quoting no value', async () => {
    const token = await buildToken(t.orm, await buildUser(t.orm, { role: 'admin' }));
    const route = fc.constantFrom(...restRoutes);
    await fc.assert(
      fc.asyncProperty(
        route.chain((r) =>
          fc.record({
            route: fc.constant(r),
            params: fc.array(pathValue, { minLength: 3, maxLength: 3 }),
            body: bodyFor(Object.keys(r.body?.properties ?? {})),
            method: fc.oneof(fc.constant(r.method), method),
            contentType,
            encoding,
            authenticated: fc.boolean(),
          }),
        ),
        async ({ route: r, params, body, method: verb, contentType: type, encoding: enc, authenticated }) => {
          let i = 0;
          const path = fill(r.path, () => params[i++ % params.length]);
          let call = request(t.app)[verb.toLowerCase() as 'get'](path);
          if (authenticated) call = call.set('auth', token);
          if (type) call = call.set('Content-Type', type);
          if (enc) call = call.set('Content-Encoding', enc);
          const res = await (verb === 'GET' || verb === 'HEAD' ? call : call.send(body));
          checkAnswer(res, false, `${verb} ${path} ${body}`, verb === 'HEAD');
        },
      ),
      { seed: 20261125, numRuns: 1500 },
    );
  }, 300_000);

  it('never answers 5xx to generated GraphQL requests, always with extensions.code, quoting no value', async () => {
    const token = await buildToken(t.orm, await buildUser(t.orm, { role: 'admin' }));
    const documents = fc.constantFrom(
      'query ($slug: String!) { manga(slug: $slug) { slug } }',
      'query ($input: NovelSearchInput!, $page: Int) { novelSearch(input: $input, page: $page) { pagination { total } } }',
      'mutation ($input: LoginInput!) { login(input: $input) { secret } }',
      'mutation ($input: CollectionInput!) { createCollection(input: $input) { reference } }',
      'mutation ($slug: String!, $input: WatchEntryInput!) { saveWatchEntry(slug: $slug, input: $input) { episodes } }',
      'mutation ($input: ArticleInput!) { createArticle(input: $input) { slug } }',
      'subscription { x }',
      '{ manga(slug: 5) { slug } }',
      '{',
      'query A { __typename } mutation B { __typename }',
    );
    const variables = fc.dictionary(
      fc.constantFrom('slug', 'input', 'page', 'toString', '__proto__'),
      value,
      {
        maxKeys: 3,
      },
    );
    await fc.assert(
      fc.asyncProperty(
        documents,
        fc.oneof(variables, value),
        fc.oneof(fc.constant(undefined), value),
        // Operation names are identifiers, like keys: graphql-js may name an unknown one.
        fc.oneof(fc.constant(undefined), fc.constantFrom('A', 'B', 'Missing', '')),
        contentType,
        encoding,
        fc.boolean(),
        async (query, vars, extensions, operationName, type, enc, authenticated) => {
          const body = JSON.stringify({ query, variables: vars, extensions, operationName });
          let call = request(t.app).post('/graphql');
          if (authenticated) call = call.set('auth', token);
          call = call.set('Content-Type', type ?? 'application/json');
          if (enc) call = call.set('Content-Encoding', enc);
          const res = await call.send(body);
          checkAnswer(res, true, body);
        },
      ),
      { seed: 20261125, numRuns: 700 },
    );
  }, 300_000);
});
