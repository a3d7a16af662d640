import type { RestRoute } from '../../src/rest/route';
import { RouteTable } from '../../src/rest/route-table';

/** A route of the table's shape; only method, path and auth matter to the look-up. */
const route = (method: RestRoute['method'], path: string): RestRoute => ({
  method,
  path,
  summary: `${method} ${path}`,
  description: 'A route of the look-up test.',
  auth: 'none',
  params: {},
  document: '',
  rootField: path,
});

const routes = [
  route('GET', '/comments/{comment_reference}'),
  route('DELETE', '/comments/{comment_reference}'),
  route('GET', '/comments/latest'),
  route('GET', '/comments/{content_type}/{slug}'),
  route('PUT', '/comments/{content_type}/{slug}'),
  route('GET', '/comments/thread/{comment_reference}'),
  route('GET', '/comments/{content_type}/{slug}/list'),
  route('GET', '/manga/{slug}'),
];
const table = new RouteTable(routes);
const find = (method: string, path: string) => routes.find((r) => r.method === method && r.path === path);

describe('the REST route table', () => {
  it('finds a route and its percent-decoded parameters', () => {
    expect(table.match('GET', '/manga/frieren')).toEqual({
      route: find('GET', '/manga/{slug}'),
      params: { slug: 'frieren' },
    });
    expect(table.match('GET', '/manga/%C3%A4rger%2Fx')).toMatchObject({ params: { slug: 'ärger/x' } });
    expect(table.match('GET', '/comments/anime/frieren/list')).toEqual({
      route: find('GET', '/comments/{content_type}/{slug}/list'),
      params: { content_type: 'anime', slug: 'frieren' },
    });
  });

  it('prefers literal segments to parameters, falling back when the literal path goes no further', () => {
    expect(table.match('GET', '/comments/latest')?.route).toBe(find('GET', '/comments/latest'));
    expect(table.match('GET', '/comments/thread/abc')?.route).toBe(
      find('GET', '/comments/thread/{comment_reference}'),
    );
    expect(table.match('GET', '/comments/thread/abc/list')).toEqual({
      route: find('GET', '/comments/{content_type}/{slug}/list'),
      params: { content_type: 'thread', slug: 'abc' },
    });
  });

  it('lets the path decide before the method: a method the path lacks is a 405 with its Allow', () => {
    // DELETE /comments/{reference} exists, but /comments/latest is a path of its own.
    expect(table.match('DELETE', '/comments/latest')).toEqual({ allow: 'GET, HEAD' });
    expect(table.match('POST', '/comments/anime/frieren')).toEqual({ allow: 'GET, HEAD, PUT' });
    expect(table.match('OPTIONS', '/manga/frieren')).toEqual({ allow: 'GET, HEAD' });
    expect(table.match('PATCH', '/manga/frieren')).toEqual({ allow: 'GET, HEAD' });
  });

  it('answers HEAD with the GET route', () => {
    expect(table.match('HEAD', '/manga/frieren')?.route).toBe(find('GET', '/manga/{slug}'));
  });

  it('knows no other path: case, trailing slashes, missing or extra segments', () => {
    for (const path of [
      '/Manga/frieren',
      '/manga/frieren/',
      '/manga/',
      '/manga',
      '/manga/a/b',
      '/',
      '/graphql',
    ]) {
      expect({ path, match: table.match('GET', path) }).toEqual({ path, match: undefined });
    }
  });

  it('takes parameters of any length (their schemas bound them)', () => {
    const slug = 'a'.repeat(5000);
    expect(table.match('GET', `/manga/${slug}`)).toMatchObject({ params: { slug } });
  });
});
