import { cleanText, normalizeEndpoint } from '../../src/clients/client.inputs';
import { useTestApp } from '../setup/harness';
import { account, createVia, firstError, routeOf, viaGraphQL } from './helpers';

/** Name, description and endpoint rules (§2 #12, §7.18), the same through REST and GraphQL. */
const t = useTestApp();
const createRoute = routeOf('POST', '/client');

const base = { name: 'Client name', description: 'A description', endpoint: 'https://example.com/cb' };

/** Creates through both doors; answers [REST status, REST message, GraphQL message or null]. */
async function bothDoors(body: Record<string, unknown>) {
  const me = await account(t.orm);
  const viaRest = await createVia(t.app, body, me.as);
  // A second owner, so that the first door's client never makes the second one a duplicate.
  const other = await account(t.orm);
  const viaGql = await viaGraphQL(t.app, createRoute, { input: body }, other.as);
  return {
    rest: viaRest.status === 200 ? 'ok' : viaRest.body.message,
    gql: viaGql.body.errors ? firstError(viaGql.body).message : 'ok',
    restBody: viaRest.body,
  };
}

const NAME_ERROR = 'Invalid field name in request body';
const DESCRIPTION_ERROR = 'Invalid field description in request body';
const ENDPOINT_ERROR = 'Invalid field endpoint in request body';

describe('name and description cleaning', () => {
  it.each([
    ['abc', 'ok'],
    ['ab', NAME_ERROR],
    ['  ab  ', NAME_ERROR],
    ['a\u2800b', NAME_ERROR],
    ['\u2800ab\uFFF4c', 'ok'],
    ['a b', 'ok'],
    ['\u2800 \u2800', NAME_ERROR],
    ['', NAME_ERROR],
    ['x'.repeat(128), 'ok'],
    [` ${'x'.repeat(128)}\u2800 `, 'ok'],
    ['x'.repeat(129), NAME_ERROR],
    ['😀😀😀', 'ok'],
  ])('name %j → %s', async (name, expected) => {
    const result = await bothDoors({ ...base, name });
    expect(result.rest).toBe(expected);
    expect(result.gql).toBe(expected);
  });

  it.each([
    ['abc', 'ok'],
    ['a\n\nb', 'ok'],
    ['ab', DESCRIPTION_ERROR],
    ['d'.repeat(512), 'ok'],
    ['d'.repeat(513), DESCRIPTION_ERROR],
    [`\t${'d'.repeat(512)}\uFFF4\uFFF4`, 'ok'],
  ])('description %j → %s', async (description, expected) => {
    const result = await bothDoors({ ...base, description });
    expect(result.rest).toBe(expected);
    expect(result.gql).toBe(expected);
  });

  it('cleanText removes U+2800 and U+FFF4 anywhere and trims whitespace', () => {
    expect(cleanText(' \u2800 a\uFFF4 b \u2800\n')).toBe('a b');
    expect(cleanText('a\u2800\u2800b')).toBe('ab');
  });
});

describe('endpoint', () => {
  it.each([
    ['https://example.com/callback', 'ok'],
    ['https://example.com', 'ok'],
    ['http://localhost/auth', 'ok'],
    ['http://localhost:3000/cb?x=1', 'ok'],
    ['http://127.0.0.1:8080/', 'ok'],
    ['https://[::1]/', 'ok'],
    ['app://auth/', 'ok'],
    ['com.example.app:/oauth', 'ok'],
    ['https://пример.укр/', 'ok'],
    ['javascript:alert(1)', ENDPOINT_ERROR],
    ['JavaScript:alert(1)', ENDPOINT_ERROR],
    ['data:text/html,<b>x</b>', ENDPOINT_ERROR],
    ['file:///etc/passwd', ENDPOINT_ERROR],
    ['example.com', ENDPOINT_ERROR],
    ['/relative/path', ENDPOINT_ERROR],
    ['https://', ENDPOINT_ERROR],
    ['https://exa mple.com/', ENDPOINT_ERROR],
    ['https://example.com:99999/', ENDPOINT_ERROR],
    ['https://example.1/', ENDPOINT_ERROR],
    [' https://example.com/', ENDPOINT_ERROR],
    ['', ENDPOINT_ERROR],
    [`https://example.com/${'p'.repeat(108)}`, 'ok'],
    [`https://example.com/${'p'.repeat(109)}`, ENDPOINT_ERROR],
    [`https://${'h'.repeat(119)}`, 'ok'],
    [`https://${'h'.repeat(120)}`, ENDPOINT_ERROR],
  ])('%j → %s', async (endpoint, expected) => {
    const result = await bothDoors({ ...base, endpoint });
    expect(result.rest).toBe(expected);
    expect(result.gql).toBe(expected);
    if (expected === 'ok') expect(() => new URL(result.restBody.endpoint)).not.toThrow();
  });

  it('a bare http(s) host gains "/"; the normalised text may be exactly 128 characters', async () => {
    const host = `https://${'h'.repeat(119)}`;
    const res = await bothDoors({ ...base, endpoint: host });
    expect(res.restBody.endpoint).toBe(`${host}/`);
    expect(res.restBody.endpoint).toHaveLength(128);
  });

  it('normalizeEndpoint touches nothing but a bare http(s) host', () => {
    expect(normalizeEndpoint('https://example.com')).toBe('https://example.com/');
    expect(normalizeEndpoint('HTTP://localhost:3000')).toBe('HTTP://localhost:3000/');
    expect(normalizeEndpoint('https://example.com?x=1')).toBe('https://example.com?x=1');
    expect(normalizeEndpoint('https://example.com/a')).toBe('https://example.com/a');
    expect(normalizeEndpoint('app://auth')).toBe('app://auth');
  });
});
