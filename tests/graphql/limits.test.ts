import { getIntrospectionQuery, getOperationAST, parse, validate } from 'graphql';
import request from 'supertest';
import { loadConfig } from '../../src/config';
import { countTokens } from '../../src/common/errors/query-limit-error';
import { depthAndAliasRule, graphqlLimitsOf, operationCost } from '../../src/graphql/limits';
import { restRoutes } from '../../src/routes';
import { buildAppSchema } from '../../src/schema';
import { buildManga } from '../factories';
import { gql, rest } from '../setup/clients';
import { useTestApp } from '../setup/harness';

const config = loadConfig();

/** `{ manga(slug:) { genres { genres { … } } } }`-style nesting: `levels` fields deep. */
function nested(levels: number): string {
  // comment → replies → replies … each level is one field deeper.
  let inner = 'reference';
  for (let i = 0; i < levels - 2; i += 1) inner = `replies { ${inner} }`;
  return `{ commentThread(comment_reference: "00000000-0000-0000-0000-000000000000") { ${inner} } }`;
}

describe('GraphQL limits: measures', () => {
  let schema: Awaited<ReturnType<typeof buildAppSchema>>;
  beforeAll(async () => {
    schema = await buildAppSchema();
  });

  const cost = (query: string, variables: Record<string, unknown> = {}) => {
    const document = parse(query);
    return operationCost(schema, document, getOperationAST(document)!, variables);
  };

  it('computes the documented cost formula', () => {
    const query = '{ mangaList(size: 50) { list { title_en genres { name_en } } pagination { total } } }';
    expect(cost(query)).toBe(1 + (1 + 50 * (1 + (1 + 1))) + (1 + 1));
    // Default size 15, variables and variable defaults, the clamp at 100.
    expect(cost('{ mangaList { list { slug } } }')).toBe(1 + (1 + 15 * 1));
    const withVariable = 'query($size: Int! = 20) { mangaList(size: $size) { list { slug } } }';
    expect(cost(withVariable)).toBe(1 + (1 + 20));
    expect(cost(withVariable, { size: 7 })).toBe(1 + (1 + 7));
    expect(cost(withVariable, { size: 100000 })).toBe(1 + (1 + 100));
    // Fragments count like the fields they hold; introspection is free.
    const viaFragment =
      '{ mangaList(size: 10) { ...P } __typename } fragment P on MangaListPage { list { slug } }';
    expect(cost(viaFragment)).toBe(1 + (1 + 10));
    expect(cost(getIntrospectionQuery())).toBe(0);
    // A union's members are alternatives: the costliest counts, beside the shared fields.
    const members = `{ editTodo(content_type: anime, todo_type: title_ua, size: 10) { list {
      __typename ... on Anime { slug title_en } ... on Manga { slug } ...NovelSlug } } }
      fragment NovelSlug on Novel { slug title_en title_ua }`;
    expect(cost(members)).toBe(1 + (1 + 10 * 3));
  });

  it('lets every REST document through the default limits, at the largest page size', () => {
    const rule = depthAndAliasRule(graphqlLimitsOf(config));
    for (const route of restRoutes) {
      const label = `${route.method} ${route.path}`;
      const document = parse(route.document, { maxTokens: config.graphqlMaxTokens });
      expect({ label, errors: validate(schema, document, [rule]).map((e) => e.message) }).toEqual({
        label,
        errors: [],
      });
      const value = operationCost(schema, document, getOperationAST(document)!, { size: 100 });
      expect({ label, fits: value <= config.graphqlMaxCost }).toEqual({ label, fits: true });
      expect(countTokens(route.document)).toBeLessThanOrEqual(config.graphqlMaxTokens);
    }
  });
});

describe('GraphQL limits over HTTP', () => {
  const t = useTestApp();

  const refused = (body: { errors?: { message: string; extensions?: Record<string, unknown> }[] }) =>
    body.errors?.[0];

  it('refuses a query past the depth limit with 400 before any SQL runs', async () => {
    const max = config.graphqlMaxDepth;
    let response!: request.Response;
    const count = await t.queries.count(async () => {
      response = await gql(t.app, nested(max + 1));
    });
    expect(count).toBe(0);
    expect(response.status).toBe(400);
    expect(refused(response.body)).toMatchObject({
      message: `Query too complex: depth is ${max + 1}, the maximum is ${max}`,
      extensions: { code: 'system:query_too_complex', http: { status: 400 } },
    });
    // One level less passes the limit (and answers the usual not-found).
    const allowed = await gql(t.app, nested(max));
    expect(refused(allowed.body)?.extensions?.code).not.toBe('system:query_too_complex');
  });

  it('refuses a query over the cost limit with 400 before any SQL runs, in Ukrainian too', async () => {
    const query = `{ ${Array.from({ length: 25 }, (_, i) => `m${i}: mangaList(size: 100) { list { slug title_en title_ua title_original genres { name_en slug } authors { reference } } }`).join(' ')} }`;
    let response!: request.Response;
    const count = await t.queries.count(async () => {
      response = await gql(t.app, query, {}, { language: 'uk' });
    });
    expect(count).toBe(0);
    expect(response.status).toBe(400);
    const error = refused(response.body)!;
    expect(error.extensions).toMatchObject({ code: 'system:query_too_complex', http: { status: 400 } });
    expect(error.message).toMatch(
      new RegExp(`^Запит надто складний: cost = \\d+, максимум ${config.graphqlMaxCost}$`),
    );
  });

  it('refuses too many aliases and too many tokens with 400', async () => {
    const max = config.graphqlMaxAliases;
    const aliases = `{ ${Array.from({ length: max + 1 }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    let response!: request.Response;
    expect(
      await t.queries.count(async () => {
        response = await gql(t.app, aliases);
      }),
    ).toBe(0);
    expect(response.status).toBe(400);
    expect(refused(response.body)).toMatchObject({
      message: `Query too complex: aliases is ${max + 1}, the maximum is ${max}`,
      extensions: { code: 'system:query_too_complex' },
    });

    const tokens = `{ ${'__typename '.repeat(config.graphqlMaxTokens)} }`;
    const tooLong = await gql(t.app, tokens);
    expect(tooLong.status).toBe(400);
    expect(refused(tooLong.body)).toMatchObject({
      message: `Query too complex: tokens is ${config.graphqlMaxTokens + 2}, the maximum is ${config.graphqlMaxTokens}`,
      extensions: { code: 'system:query_too_complex' },
    });
  });

  it('reports the cost in extensions, allows introspection and keeps syntax errors as validation errors', async () => {
    const manga = await buildManga(t.orm, { title_en: 'Limits Manga' });
    const ok = await gql(
      t.app,
      'query($slug: String!) { manga(slug: $slug) { title_en genres { name_en } } }',
      {
        slug: manga.slug,
      },
    );
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      data: { manga: { title_en: 'Limits Manga', genres: [] } },
      extensions: { cost: 4 },
    });

    const introspection = await gql(t.app, getIntrospectionQuery());
    expect(introspection.status).toBe(200);
    expect(introspection.body.data.__schema.queryType.name).toBe('Query');
    expect(introspection.body.extensions).toEqual({ cost: 0 });

    const broken = await gql(t.app, '{ manga(');
    expect(broken.status).toBe(400);
    expect(refused(broken.body)?.extensions?.code).toBe('system:validation_error');
  });

  it('keeps CSRF prevention on: a simple form POST is refused, a JSON POST works', async () => {
    const form = await request(t.app)
      .post('/graphql')
      .set('Content-Type', 'text/plain')
      .send('{"query":"{ __typename }"}');
    expect(form.status).toBe(400);
    const json = await gql(t.app, '{ __typename }');
    expect(json.status).toBe(200);
    expect(json.body.data).toEqual({ __typename: 'Query' });
  });

  it('keeps REST documents within the limits (the deepest one: comment threads)', async () => {
    const response = await rest(t.app, 'GET', '/comments/list?size=100');
    expect(response.status).toBe(200);
  });
});
