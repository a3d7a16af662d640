import { buildNovel } from '../factories';
import { gql } from '../setup/clients';
import { useTestApp } from '../setup/harness';

const CHARACTERS = `query ($slug: String!, $page: Int, $size: Int) {
  novelCharacters(slug: $slug, page: $page, size: $size) { pagination { total page } }
}`;

describe('GraphQL argument rules', () => {
  const t = useTestApp();

  it.each([
    [{ page: 0 }, 'page', 'query'],
    [{ page: 10001 }, 'page', 'query'],
    [{ size: 0 }, 'size', 'query'],
    [{ size: 101 }, 'size', 'query'],
  ])('refuses %p with HTTP 400 system:validation_error naming the argument', async (args, name, location) => {
    await buildNovel(t.orm, { slug: 'novel' });
    const res = await gql(t.app, CHARACTERS, { slug: 'novel', ...args });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toBe(`Invalid field ${name} in request ${location}`);
    expect(res.body.errors[0].extensions).toEqual({ code: 'system:validation_error', http: { status: 400 } });
  });

  it('checks page and size before the input, as REST checks the query before the body', async () => {
    const search = `query ($page: Int, $input: NovelSearchInput!) {
      novelSearch(page: $page, input: $input) { pagination { total } }
    }`;
    const both = await gql(t.app, search, { page: 0, input: { score: [5, 1] } });
    expect(both.body.errors[0].message).toBe('Invalid field page in request query');
    const bodyOnly = await gql(t.app, search, { page: 1, input: { score: [5, 1] } });
    expect(bodyOnly.body.errors[0].message).toBe('Invalid field score in request body');
  });

  it('refuses a value of the wrong type as a coercion error naming the argument, without quoting it (HTTP 400)', async () => {
    const res = await gql(t.app, CHARACTERS, { slug: 'novel', page: 'one' });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('system:validation_error');
    expect(res.body.errors[0].message).toBe('Invalid field page in request query');
  });

  it('refuses an unknown enum value (HTTP 400)', async () => {
    const res = await gql(t.app, '{ franchise(content_type: comic, slug: "x") { anime { slug } } }');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('system:validation_error');
  });

  it('answers resolver errors with HTTP 200 and the REST status in extensions', async () => {
    const res = await gql(t.app, CHARACTERS, { slug: 'missing' }, { language: 'uk' });
    expect(res.status).toBe(200);
    expect(res.body.errors[0]).toMatchObject({
      message: 'Ранобе не знайдено',
      extensions: { code: 'novel:not_found', http: { status: 404 } },
    });
  });

  it('answers a syntax error with HTTP 400 and graphql-js message', async () => {
    const res = await gql(t.app, '{ manga(slug: ');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('system:validation_error');
    expect(res.body.errors[0].message).toMatch(/Syntax Error/);
  });
});
