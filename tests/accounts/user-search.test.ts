import type { User } from '../../src/accounts/user.entity';
import { restRoutes } from '../../src/routes';
import { buildToken, buildUser } from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { keysOf, shapeProblems, USER } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { tokensToIgnore } from '../setup/ignored-tokens';
import { type Json, seconds, sortedKeys } from '../setup/json';
import { executedTwin } from '../setup/list-route';

/**
 * POST /user/list (`users(input: {query})`, pages.md "Catalogs and search"): the 15 best
 * username matches (a substring ignoring case ranks 1, else the trigram word similarity),
 * deleted and banned accounts left out, returned by last activity desc, then username, as
 * a plain array. No authentication; `page` and `size` are ignored. Not compiled: the
 * route's document and its twin are both answered by the resolver.
 */
const t = useTestApp();

const route = restRoutes.find((r) => r.method === 'POST' && r.path === '/user/list')!;
const twinDocument = executedTwin(route.document);

type Expected = { status: number; code: string; message: string };
const invalid = (name: string): Expected => ({
  status: 400,
  code: 'system:validation_error',
  message: `Invalid field ${name} in request body`,
});
const NO_FIELD = { code: 'system:validation_error', message: 'Invalid field in request body' };

// ---------------------------------------------------------------------------
// Data.

/** Far in the past: such a user is not `active`. */
const LONG_AGO = new Date('2024-01-01T00:00:00Z');
const at = (minute: number) => new Date(Date.UTC(2024, 5, 1, 12, minute));

const user = (username: string, o: Partial<User> = {}) =>
  buildUser(t.orm, { username, last_active: LONG_AGO, ...o });

// ---------------------------------------------------------------------------
// Calls.

const search = (body: unknown, options: CallOptions = {}, suffix = '') =>
  rest(t.app, 'POST', `/user/list${suffix}`, body, options);

const searchGql = (input: unknown, options: CallOptions = {}, document = route.document) =>
  gql(t.app, document, { input }, options);

/** REST, the route's document and its twin: one 200 answer, identical JSON (key order too); returns it. */
async function expectUsers(body: Json, options: CallOptions = {}): Promise<Json[]> {
  const viaRest = await search(body, options);
  const viaRoute = await searchGql(body, options);
  const viaTwin = await searchGql(body, options, twinDocument);
  expect({ status: viaRest.status, isArray: Array.isArray(viaRest.body) }).toEqual({
    status: 200,
    isArray: true,
  });
  expect(viaRoute.status).toBe(200);
  expect(viaRoute.body.errors).toBeUndefined();
  expect(viaTwin.body.errors).toBeUndefined();
  expect(viaRoute.body.data).toEqual({ users: viaRest.body });
  expect(viaTwin.body.data).toEqual({ __typename: 'Query', users: viaRest.body });
  expect(JSON.stringify(viaRoute.body.data.users)).toBe(JSON.stringify(viaRest.body));
  expect(JSON.stringify(viaTwin.body.data.users)).toBe(JSON.stringify(viaRest.body));
  return viaRest.body as Json[];
}

/** The usernames found for `query` (checked on every door). */
const found = async (query: string, options: CallOptions = {}): Promise<string[]> =>
  (await expectUsers({ query }, options)).map((u) => u.username as string);

/** The same error on REST and on both GraphQL documents. */
async function expectFailure(body: unknown, expected: Expected, options: CallOptions = {}): Promise<void> {
  const viaRest = await search(body, options);
  expect({ status: viaRest.status, body: viaRest.body }).toEqual({
    status: expected.status,
    body: { code: expected.code, message: expected.message },
  });
  for (const [name, document] of [
    ['/graphql route document', route.document],
    ['/graphql executed twin', twinDocument],
  ] as const) {
    const viaGql = await searchGql(body, options, document);
    const errors = viaGql.body.errors as { message: string; extensions: Json }[];
    expect({ name, count: errors?.length, data: viaGql.body.data?.users ?? null }).toEqual({
      name,
      count: 1,
      data: null,
    });
    expect({
      name,
      code: errors[0].extensions.code,
      message: errors[0].message,
      status: (errors[0].extensions.http as Json).status,
    }).toEqual({ name, code: expected.code, message: expected.message, status: expected.status });
  }
}

// ===========================================================================

describe('POST /user/list', () => {
  it('is registered without authentication, not paged, as the `users` root field', () => {
    expect([route.auth, Boolean(route.paged), route.rootField]).toEqual(['none', false, 'users']);
  });

  describe('items', () => {
    it('answers a plain array of Users with exactly the User fields (no is_followed)', async () => {
      const full = await user('alice_full', {
        description: 'About me',
        cover: '/covers/a.jpg',
        avatar_path: 'avatars/a.png',
        lists_updated: new Date('2024-02-02T10:20:30.900Z'),
        last_active: new Date(),
        role: 'moderator',
      });
      const list = await expectUsers({ query: 'alice_full' });
      expect(list).toHaveLength(1);
      expect(shapeProblems(list[0], USER, 'user')).toEqual([]);
      expect(sortedKeys(list[0])).toEqual(keysOf(USER));
      expect(list[0]).toEqual({
        reference: full.reference,
        created: seconds(full.created),
        updated: seconds('2024-02-02T10:20:30Z'),
        description: 'About me',
        username: 'alice_full',
        avatar: 'https://cdn.test/avatars/a.png',
        cover: 'https://cdn.test/covers/a.jpg',
        active: true,
        role: 'moderator',
      });
    });

    it('serves the defaults: the default avatar, null cover, description and updated; active false long after', async () => {
      const plain = await user('alice_plain');
      expect(await expectUsers({ query: 'alice_plain' })).toEqual([
        {
          reference: plain.reference,
          created: seconds(plain.created),
          updated: null,
          description: null,
          username: 'alice_plain',
          avatar: 'https://cdn.test/avatar.jpg',
          cover: null,
          active: false,
          role: 'user',
        },
      ]);
    });

    it('answers [] when nothing matches', async () => {
      await user('alice_w');
      await user('bob_smith');
      expect(await expectUsers({ query: 'zzzzzz' })).toEqual([]);
    });
  });

  describe('matching', () => {
    async function people() {
      await user('alice_w', { last_active: at(1) }); // substring
      await user('Malice99', { last_active: at(2) }); // substring inside a word
      await user('xALICEx', { last_active: at(3) }); // substring, other case
      await user('alicia_m', { last_active: at(4) }); // similarity 0.67
      await user('alien_x', { last_active: at(5) }); // similarity 0.5
      await user('al1ce_bot', { last_active: at(6) }); // similarity 0.33
      await user('palace_k', { last_active: at(7) }); // similarity 0.17: no match
      await user('bob_smith', { last_active: at(8) }); // 0
      await user('celia_x', { last_active: at(9) }); // an anagram: 0
    }

    it('finds substrings ignoring case and close usernames (similarity ≥ 0.3), most recently active first', async () => {
      await people();
      const expected = ['al1ce_bot', 'alien_x', 'alicia_m', 'xALICEx', 'Malice99', 'alice_w'];
      expect(await found('alice')).toEqual(expected);
      expect(await found('ALICE')).toEqual(expected);
      expect(await found('aLiCe')).toEqual(expected);
    });

    it('is typo tolerant: "alcie" finds alice_w', async () => {
      await user('alice_w');
      await user('bob_smith');
      expect(await found('alcie')).toEqual(['alice_w']);
    });

    it('matches a whole username and its middle, and nothing of other fields', async () => {
      await user('someone_else', { description: 'alice fan', email: 'alice@example.com' } as Partial<User>);
      await user('the_wonder_years');
      expect(await found('the_wonder_years')).toEqual(['the_wonder_years']);
      expect(await found('onder_ye')).toEqual(['the_wonder_years']);
      expect(await found('alice')).toEqual([]);
    });

    it('takes LIKE wildcards literally: _ and % match only themselves', async () => {
      await user('x___y');
      await user('abcdef');
      await user('per%cent');
      expect(await found('___')).toEqual(['x___y']);
      expect(await found('%ce')).toEqual(['per%cent']);
      expect(await found('%%%')).toEqual([]);
    });
  });

  describe('order: last activity desc, then username', () => {
    it('orders by last_active desc, regardless of the match rank or the creation order', async () => {
      await user('alice_old', { last_active: at(1) });
      await user('alicia_new', { last_active: at(30) });
      await user('alice_mid', { last_active: at(10) });
      expect(await found('alice')).toEqual(['alicia_new', 'alice_mid', 'alice_old']);
    });

    it('breaks a last_active tie by username in code-point order', async () => {
      for (const username of ['alice_b', 'Alice_Z', 'alice-c', 'alice_a', 'alice1']) {
        await user(username, { last_active: at(5) });
      }
      await user('alice_last', { last_active: at(4) });
      expect(await found('alice')).toEqual([
        'Alice_Z',
        'alice-c',
        'alice1',
        'alice_a',
        'alice_b',
        'alice_last',
      ]);
    });

    it('follows the stored last_active as it changes', async () => {
      const first = await user('alice_one', { last_active: at(1) });
      await user('alice_two', { last_active: at(2) });
      expect(await found('alice')).toEqual(['alice_two', 'alice_one']);
      await t.orm.em
        .getConnection()
        .execute(`update "user" set last_active = ? where reference = ?`, [at(3), first.reference]);
      expect(await found('alice')).toEqual(['alice_one', 'alice_two']);
    });
  });

  describe('at most 15: the best matches, then shown by activity', () => {
    it('keeps the 15 best matches (substrings before closer-sounding names), then orders them by activity', async () => {
      for (let i = 1; i <= 15; i += 1) {
        await user(`alice_${String(i).padStart(2, '0')}`, { last_active: at(i) });
      }
      // More recently active, but worse matches.
      await user('alicia_m', { last_active: at(50) });
      await user('alien_x', { last_active: at(51) });
      await user('al1ce_bot', { last_active: at(52) });
      const list = await found('alice');
      expect(list).toEqual(Array.from({ length: 15 }, (_, i) => `alice_${String(15 - i).padStart(2, '0')}`));
    });

    it('takes the best similarities among the inexact matches', async () => {
      for (let i = 1; i <= 13; i += 1) {
        await user(`alice_${String(i).padStart(2, '0')}`, { last_active: at(i) });
      }
      await user('al1ce_bot', { last_active: at(50) }); // 0.33
      await user('alien_x', { last_active: at(20) }); // 0.5
      await user('alicia_m', { last_active: at(21) }); // 0.67
      const list = await found('alice');
      expect(list).toHaveLength(15);
      expect(list.slice(0, 2)).toEqual(['alicia_m', 'alien_x']);
      expect(list).not.toContain('al1ce_bot');
    });

    it('leaves out deleted and banned accounts before taking the 15', async () => {
      const accounts: User[] = [];
      for (let i = 1; i <= 15; i += 1) {
        accounts.push(await user(`alice_${String(i).padStart(2, '0')}`, { last_active: at(i) }));
      }
      await user('alicia_m', { last_active: at(40) });
      await user('alien_x', { last_active: at(41) });
      expect(await found('alice')).not.toContain('alicia_m');
      const sql = (text: string, params: unknown[]) => t.orm.em.getConnection().execute(text, params);
      await sql(`update "user" set banned = true where reference = ?`, [accounts[0].reference]);
      await sql(`update "user" set role = 'deleted' where reference = ?`, [accounts[1].reference]);
      const list = await found('alice');
      expect(list).toHaveLength(15);
      expect(list).not.toContain('alice_01');
      expect(list).not.toContain('alice_02');
      expect(list.slice(0, 2)).toEqual(['alien_x', 'alicia_m']);
    });

    it('answers exactly 15 of 40 matching accounts', async () => {
      for (let i = 0; i < 40; i += 1)
        await user(`alice_${String(i).padStart(2, '0')}`, { last_active: at(i) });
      expect(await found('alice')).toHaveLength(15);
    });
  });

  describe('accounts', () => {
    it('leaves out deleted and banned accounts, whatever their match or activity', async () => {
      await user('alice_gone', { role: 'deleted', last_active: at(59) });
      await user('alice_banned', { banned: true, last_active: at(58) });
      await user('alice_banned_admin', { role: 'admin', banned: true, last_active: at(57) });
      await user('alice_here', { last_active: at(1) });
      expect(await found('alice')).toEqual(['alice_here']);
      // Not even by their full usernames (the live account is close enough to be found).
      expect(await found('alice_gone')).toEqual(['alice_here']);
      expect(await found('alice_banned')).toEqual(['alice_here']);
    });

    it('lists every other role: not activated, user, moderator, admin', async () => {
      await user('alice_new', { role: 'not_activated', email_confirmed: false, last_active: at(4) });
      await user('alice_user', { role: 'user', last_active: at(3) });
      await user('alice_mod', { role: 'moderator', last_active: at(2) });
      await user('alice_admin', { role: 'admin', last_active: at(1) });
      expect((await expectUsers({ query: 'alice' })).map((u) => [u.username, u.role])).toEqual([
        ['alice_new', 'not_activated'],
        ['alice_user', 'user'],
        ['alice_mod', 'moderator'],
        ['alice_admin', 'admin'],
      ]);
    });
  });

  describe('request', () => {
    it('ignores page and size in the query string, even invalid ones, and any other query parameter', async () => {
      for (let i = 0; i < 20; i += 1)
        await user(`alice_${String(i).padStart(2, '0')}`, { last_active: at(i) });
      const plain = await expectUsers({ query: 'alice' });
      expect(plain).toHaveLength(15);
      for (const suffix of [
        '?page=2&size=1',
        '?page=0&size=abc',
        '?size=100',
        '?size=101&page=10001',
        '?x=1',
      ]) {
        const res = await search({ query: 'alice' }, {}, suffix);
        expect({ suffix, status: res.status, body: res.body }).toEqual({ suffix, status: 200, body: plain });
      }
    });

    it('accepts queries of 3 and 255 characters', async () => {
      await user('abc_user');
      expect(await found('abc')).toEqual(['abc_user']);
      expect(await found('x'.repeat(255))).toEqual([]);
    });

    it.each([
      [{}, 'query'],
      [{ query: 'ab' }, 'query'],
      [{ query: '' }, 'query'],
      [{ query: '😀😀' }, 'query'],
      [{ query: 'x'.repeat(256) }, 'query'],
      [{ query: 'ab', extra: 1 }, 'query'],
      [{ extra: 1, query: 'ab' }, 'query'],
      [{ query: 'abc', extra: 1 }, 'extra'],
      [{ query: 'abc', Query: 'abc' }, 'Query'],
      [{ query: 'abc', page: 2 }, 'page'],
    ])('%j → 400 Invalid field %s in request body', async (body, name) => {
      const res = await search(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'system:validation_error',
        message: `Invalid field ${name} in request body`,
      });
      for (const document of [route.document, twinDocument]) {
        const graph = await searchGql(body, {}, document);
        expect(graph.body.errors?.[0]?.extensions?.code).toBe('system:validation_error');
        expect(graph.body.data?.users ?? null).toBeNull();
      }
    });

    it('names the field alike on every door for a query of the wrong length', async () => {
      await user('alice_w');
      for (const query of ['ab', 'x'.repeat(256)]) await expectFailure({ query }, invalid('query'));
      await expectFailure(
        { query: 'ab' },
        { ...invalid('query'), message: 'Некоректне поле query у запиті body' },
        {
          language: 'uk',
        },
      );
    });

    it.each([
      [{ query: null }],
      [{ query: 123 }],
      [{ query: ['abc'] }],
      [{ query: true }],
      [{ query: { text: 'abc' } }],
    ])(
      '%j (not a string) → 400 Invalid field query in request body; GraphQL refuses it too',
      async (body) => {
        const res = await search(body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          code: 'system:validation_error',
          message: 'Invalid field query in request body',
        });
        for (const document of [route.document, twinDocument]) {
          const graph = await searchGql(body, {}, document);
          expect(graph.status).toBe(400);
          expect(graph.body.errors[0].extensions.code).toBe('system:validation_error');
        }
      },
    );

    it('a missing, empty or non-object body, or one without a JSON content type, is `Invalid field in request body`', async () => {
      expect((await search(undefined)).body).toEqual(NO_FIELD);
      for (const body of [[], ['alice'], '"alice"', 'null', '12']) {
        const res = await rest(t.app, 'POST', '/user/list')
          .set('Content-Type', 'application/json')
          .send(typeof body === 'string' ? body : JSON.stringify(body));
        expect({ body, status: res.status, answer: res.body }).toEqual({
          body,
          status: 400,
          answer: NO_FIELD,
        });
      }
      const malformed = await rest(t.app, 'POST', '/user/list')
        .set('Content-Type', 'application/json')
        .send('{');
      expect([malformed.status, malformed.body]).toEqual([400, NO_FIELD]);
      const plain = await rest(t.app, 'POST', '/user/list')
        .set('Content-Type', 'text/plain')
        .send('{"query": "alice"}');
      expect([plain.status, plain.body]).toEqual([400, NO_FIELD]);
    });

    it('GraphQL requires the input: a document without it is refused with HTTP 400', async () => {
      const res = await gql(t.app, `{ users { username } }`);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions.code).toBe('system:validation_error');
    });

    it('answers 405 with an Allow header to other methods', async () => {
      const res = await rest(t.app, 'GET', '/user/list');
      expect([res.status, res.body.code, res.headers.allow]).toEqual([
        405,
        'system:method_not_allowed',
        expect.stringContaining('POST'),
      ]);
    });
  });

  describe('authentication none: tokens are never resolved', () => {
    it.each(tokensToIgnore(t))(
      'ignores %s, in the header and in the cookie, on every door',
      async (_n, make) => {
        await user('alice_w', { last_active: at(1) });
        await user('alice_x', { last_active: at(2) });
        const anonymous = await expectUsers({ query: 'alice' });
        expect(anonymous.map((u) => u.username)).toEqual(['alice_x', 'alice_w']);
        const token = await make();
        for (const options of [{ token }, { cookie: token }]) {
          expect(await expectUsers({ query: 'alice' }, options)).toEqual(anonymous);
        }
      },
    );

    it('a valid token neither finds its own banned or deleted account nor changes validation', async () => {
      const banned = await user('alice_banned', { banned: true });
      const token = await buildToken(t.orm, banned);
      expect(await found('alice', { token })).toEqual([]);
      const res = await search({ query: 'ab' }, { token });
      expect(res.body.message).toBe('Invalid field query in request body');
    });

    it('sends no token look-up and leaves the caller’s last_active alone', async () => {
      const caller = await user('alice_caller', { last_active: LONG_AGO });
      const token = await buildToken(t.orm, caller);
      await t.queries.count(async () =>
        expect((await search({ query: 'alice' }, { token })).status).toBe(200),
      );
      expect(t.queries.last.filter((statement) => /auth_token/.test(statement))).toEqual([]);
      const [row] = await t.orm.em
        .getConnection()
        .execute<{ last_active: Date }[]>(`select last_active from "user" where reference = ?`, [
          caller.reference,
        ]);
      expect(new Date(row.last_active).toISOString()).toBe(LONG_AGO.toISOString());
    });
  });

  describe('bounded SQL', () => {
    it('sends one statement on REST and a fixed number on /graphql, for 1 match or 15 of 40', async () => {
      await user('alice_00', { last_active: at(0) });
      for (let i = 0; i < 20; i += 1) await user(`bob_${String(i).padStart(2, '0')}`);
      const count = async (expected: number) => {
        const counts: number[] = [];
        counts.push(
          await t.queries.count(async () => {
            const res = await search({ query: 'alice' });
            expect(res.body).toHaveLength(expected);
          }),
        );
        for (const document of [route.document, twinDocument]) {
          counts.push(
            await t.queries.count(async () => {
              const res = await searchGql({ query: 'alice' }, {}, document);
              expect(res.body.data.users).toHaveLength(expected);
            }),
          );
        }
        return counts;
      };
      const one = await count(1);
      for (let i = 1; i < 40; i += 1)
        await user(`alice_${String(i).padStart(2, '0')}`, { last_active: at(i) });
      expect(await count(15)).toEqual(one);
      expect(one).toEqual([1, 1, 1]);
    });
  });
});
