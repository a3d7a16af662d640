import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOpenApiDocument } from '../../src/rest/openapi';
import { restRoutes } from '../../src/routes';
import { buildAppSchema } from '../../src/schema';

type Operation = Record<string, unknown> & { parameters?: { name: string; in: string }[] };

describe('the OpenAPI document', () => {
  let document: ReturnType<typeof buildOpenApiDocument>;
  beforeAll(async () => {
    document = buildOpenApiDocument(await buildAppSchema(), restRoutes);
  });

  const operationOf = (method: string, path: string) =>
    document.paths[path]?.[method.toLowerCase()] as Operation | undefined;

  it('has every route of the table, the 22 contract paths among them', () => {
    const contract = restRoutes.filter((route) => route.contract !== undefined);
    expect(contract.map((route) => route.contract).sort((a, b) => a! - b!)).toEqual(
      Array.from({ length: 22 }, (_, i) => i + 1),
    );
    for (const route of restRoutes) {
      const operation = operationOf(route.method, route.path);
      expect(operation).toBeDefined();
      expect(operation!.operationId).toEqual(expect.stringMatching(new RegExp(`^${route.rootField}`)));
      if (route.contract !== undefined) {
        expect(operation!.summary).toBe(`Contract #${route.contract}: ${route.summary}`);
      }
    }
  });

  it('gives every operation a one-line summary of its own and a description of what it does', () => {
    const summaries = restRoutes.map((route) => operationOf(route.method, route.path)!.summary as string);
    expect(summaries.filter((summary, i) => summaries.indexOf(summary) !== i)).toEqual([]);
    for (const route of restRoutes) {
      const operation = operationOf(route.method, route.path)!;
      expect(operation.summary).toMatch(/^\S[^\n]{2,78}[^.\s]$/);
      // The path is shown beside the summary: a summary that repeats it says nothing.
      expect(operation.summary).not.toContain(route.path);
      expect(route.description).toMatch(/^[A-Z`][^\n]{20,}\.$/);
      expect((operation.description as string).startsWith(`${route.description}\n\n`)).toBe(true);
    }
  });

  it('declares path, page/size and query parameters, bodies and security from the rows', () => {
    for (const route of restRoutes) {
      const operation = operationOf(route.method, route.path)!;
      const parameters = (operation.parameters ?? []).map((p) => `${p.in}:${p.name}`);
      expect(parameters).toEqual([
        ...Object.keys(route.params).map((name) => `path:${name}`),
        ...(route.paged ? ['query:page', 'query:size'] : []),
        ...Object.keys(route.query ?? {}).map((name) => `query:${name}`),
      ]);
      expect('requestBody' in operation).toBe(route.body !== undefined);
      expect((operation.security as unknown[]).length > 0).toBe(route.auth !== 'none');
    }
  });

  it('derives the #16 response schema from its GraphQL document (nullability, enums, nesting)', () => {
    const schema = (operationOf('GET', '/manga/{slug}')!.responses as Record<string, unknown>)['200'] as {
      content: { 'application/json': { schema: Record<string, unknown> } };
    };
    const manga = schema.content['application/json'].schema as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
      additionalProperties: boolean;
    };
    expect(manga.additionalProperties).toBe(false);
    expect(manga.required).toEqual(Object.keys(manga.properties));
    expect(manga.properties.slug).toEqual({ type: 'string' });
    expect(manga.properties.nsfw).toEqual({ type: 'boolean' });
    expect(manga.properties.synonyms).toMatchObject({ type: 'array', items: { type: 'string' } });
    expect(manga.properties.media_type).toMatchObject({ enum: expect.arrayContaining(['manhwa']) });
    expect(manga.properties.external).toMatchObject({ type: 'array' });
  });

  it('declares the statuses of route rules: 409 only where a conflict can happen, login failures', () => {
    const statusesOf = (method: string, path: string) =>
      Object.keys(operationOf(method, path)!.responses as object);
    const withConflict = restRoutes.filter((route) => statusesOf(route.method, route.path).includes('409'));
    expect(withConflict.map((route) => `${route.method} ${route.path}`).sort()).toEqual([
      'POST /auth/signup',
      'POST /client',
      'PUT /client/{client_reference}',
      'PUT /comments/{comment_reference}',
      'PUT /comments/{content_type}/{slug}',
      'PUT /favourite/{content_type}/{slug}',
      'PUT /follow/{username}',
      'PUT /settings/email',
      'PUT /settings/username',
    ]);
    expect(statusesOf('POST', '/auth/login')).toEqual(expect.arrayContaining(['401', '404']));
    expect(statusesOf('POST', '/auth/signup')).toContain('403');
    expect(statusesOf('POST', '/auth/token')).toContain('401');
    // Routes without authentication answer no 401 or 403 of their own.
    expect(statusesOf('GET', '/manga/{slug}')).not.toContain('401');
    expect(statusesOf('GET', '/manga/{slug}')).not.toContain('403');
  });

  it('passes `redocly lint` (OpenAPI 3.1)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(document));
      const output = execFileSync(
        process.execPath,
        [require.resolve('@redocly/cli/bin/cli.js'), 'lint', '--format=stylish', file],
        { stdio: 'pipe', encoding: 'utf8' },
      );
      expect(output).not.toMatch(/error/i);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60000);
});
