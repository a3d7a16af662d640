import { Client } from '../../src/clients/client.entity';
import { buildClient, buildUser, MISSING_REFERENCE } from '../factories';
import { rest } from '../setup/clients';
import { shapeProblems } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { asList, seconds } from '../setup/json';
import {
  account,
  CLIENT,
  createVia,
  PAGE_OF,
  storedSecret,
  thirdPartyAs,
  UUID_PATTERN,
  validBody,
} from './helpers';

/** §3.2 POST /client, GET /client, GET /client/{ref}, GET /client/{ref}/full, POST /client/all, verify. */
const t = useTestApp();

const stored = (reference: string) => t.orm.em.fork().findOneOrFail(Client, { reference });

describe('POST /client', () => {
  it('creates an unverified client with a 128-character secret and answers it with every contract field', async () => {
    const me = await account(t.orm, {
      description: 'About me',
      cover: '/covers/me.jpg',
      lists_updated: new Date('2024-01-01T00:00:00Z'),
    });
    const before = seconds(new Date());
    const res = await createVia(t.app, validBody(), me.as);
    expect(res.status).toBe(200);
    expect(shapeProblems(res.body, CLIENT, 'client')).toEqual([]);
    expect(res.body).toMatchObject({
      name: 'My client 1',
      description: 'Reads my watch list',
      endpoint: 'https://example.com/callback',
      verified: false,
      user: { reference: me.user.reference, username: me.user.username },
    });
    expect(res.body.reference).toMatch(UUID_PATTERN);
    expect(res.body.secret).toMatch(/^[A-Za-z0-9_-]{128}$/);
    expect(res.body.created).toBeGreaterThanOrEqual(before);
    expect(res.body.updated).toBe(res.body.created);
    expect(await stored(res.body.reference)).toMatchObject({ verified: false, name: 'My client 1' });
    expect(await storedSecret(t.orm, res.body.reference)).toBe(res.body.secret);
  });

  it('stores cleaned text: U+2800 and U+FFF4 removed, whitespace trimmed; a bare http(s) host gains "/"', async () => {
    const me = await account(t.orm);
    const res = await createVia(
      t.app,
      {
        name: ' \u2800 My\uFFF4 app\u2800 ',
        description: '\tA\u2800 description\n',
        endpoint: 'https://example.com',
      },
      me.as,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'My app',
      description: 'A description',
      endpoint: 'https://example.com/',
    });
  });

  it('gives every client its own secret', async () => {
    const me = await account(t.orm);
    const a = await createVia(t.app, validBody(1), me.as);
    const b = await createVia(t.app, validBody(2), me.as);
    expect(a.body.secret).not.toBe(b.body.secret);
  });

  it('409 client:already_exists for a name of another of the caller’s clients, ignoring case and cleaning', async () => {
    const me = await account(t.orm);
    await createVia(t.app, { ...validBody(), name: 'Watcher' }, me.as);
    const res = await createVia(t.app, { ...validBody(), name: ' wATCHER\u2800' }, me.as);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      code: 'client:already_exists',
      message: 'Client with this name already exists',
    });
  });

  it('allows the same name for clients of different owners', async () => {
    const other = await account(t.orm);
    await createVia(t.app, { ...validBody(), name: 'Watcher' }, other.as);
    const me = await account(t.orm);
    expect((await createVia(t.app, { ...validBody(), name: 'watcher' }, me.as)).status).toBe(200);
  });

  it('400 client:max_clients for the 11th client; a duplicate name is reported first', async () => {
    const me = await account(t.orm);
    for (let i = 1; i <= 10; i++) expect((await createVia(t.app, validBody(i), me.as)).status).toBe(200);
    const res = await createVia(t.app, validBody(11), me.as);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('client:max_clients');
    const duplicate = await createVia(t.app, validBody(3), me.as);
    expect(duplicate.status).toBe(409);
    expect(await t.orm.em.fork().count(Client, { user: me.user.reference })).toBe(10);
  });

  it('never lets concurrent requests pass the limit', async () => {
    const me = await account(t.orm);
    for (let i = 1; i <= 8; i++) await buildClient(t.orm, me.user, { name: `c${i}` });
    const results = await Promise.all([1, 2, 3, 4].map((i) => createVia(t.app, validBody(100 + i), me.as)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 400, 400]);
    expect(await t.orm.em.fork().count(Client, { user: me.user.reference })).toBe(10);
  });

  it('403 permission:confirm_email for an account that is not activated', async () => {
    const me = await account(t.orm, { role: 'not_activated', email_confirmed: false });
    const res = await createVia(t.app, validBody(), me.as);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('permission:confirm_email');
  });

  it('403 permission:denied when the permission is withheld', async () => {
    const me = await account(t.orm, { forbidden_actions: ['client:create'] });
    const res = await createVia(t.app, validBody(), me.as);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('permission:denied');
  });

  it('403 permission:denied for a third-party token without create:client; allowed with the `client` group', async () => {
    const me = await buildUser(t.orm);
    const res = await createVia(t.app, validBody(), await thirdPartyAs(t.orm, me, ['read:watchlist']));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('permission:denied');
    expect((await createVia(t.app, validBody(), await thirdPartyAs(t.orm, me, ['client']))).status).toBe(200);
  });

  it('401 without a token, before validation', async () => {
    const res = await createVia(t.app, { name: 1 }, {});
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('auth:missing_token');
  });

  it('validates every field as required, in order', async () => {
    const me = await account(t.orm);
    const cases: [unknown, string][] = [
      [{}, 'Invalid field name in request body'],
      [{ name: 'abc' }, 'Invalid field description in request body'],
      [{ name: 'abc', description: 'abc' }, 'Invalid field endpoint in request body'],
      [{ ...validBody(), name: null }, 'Invalid field name in request body'],
      [{ ...validBody(), extra: 1 }, 'Invalid field extra in request body'],
    ];
    for (const [body, message] of cases) {
      const res = await createVia(t.app, body, me.as);
      expect({ status: res.status, message: res.body.message }).toEqual({ status: 400, message });
    }
  });
});

describe('GET /client/{client_reference}', () => {
  it('answers any client without authentication, with `secret: null` even for its owner', async () => {
    const me = await account(t.orm);
    const client = await buildClient(t.orm, me.user, { name: 'Public' });
    for (const options of [{}, me.as, { token: 'garbage' }]) {
      const res = await rest(t.app, 'GET', `/client/${client.reference}`, undefined, options);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ reference: client.reference, name: 'Public', secret: null });
      expect('secret' in res.body).toBe(true);
    }
  });

  it('accepts the reference in any case and answers it lower case', async () => {
    const client = await buildClient(t.orm, await buildUser(t.orm));
    const res = await rest(t.app, 'GET', `/client/${client.reference.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.reference).toBe(client.reference);
  });

  it('404 client:not_found; 400 for a malformed reference', async () => {
    const missing = await rest(t.app, 'GET', `/client/${MISSING_REFERENCE}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 'client:not_found', message: 'Client not found' });
    const bad = await rest(t.app, 'GET', '/client/not-a-uuid');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Invalid field client_reference in request path');
  });
});

describe('GET /client/{client_reference}/full', () => {
  it('answers the owner’s client with its secret', async () => {
    const me = await account(t.orm);
    const client = await buildClient(t.orm, me.user, { secret: 's'.repeat(128) });
    const res = await rest(t.app, 'GET', `/client/${client.reference}/full`, undefined, me.as);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ reference: client.reference, secret: 's'.repeat(128) });
  });

  it('403 client:not_owner for anyone else, admins included; 404 first for a missing client', async () => {
    const client = await buildClient(t.orm, await buildUser(t.orm));
    const admin = await account(t.orm, { role: 'admin' });
    const res = await rest(t.app, 'GET', `/client/${client.reference}/full`, undefined, admin.as);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('client:not_owner');
    const missing = await rest(t.app, 'GET', `/client/${MISSING_REFERENCE}/full`, undefined, admin.as);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('client:not_found');
  });

  it('needs scope read:client for a third-party token (after the existence check)', async () => {
    const me = await account(t.orm);
    const client = await buildClient(t.orm, me.user);
    const denied = await thirdPartyAs(t.orm, me.user, ['read:watchlist']);
    const res = await rest(t.app, 'GET', `/client/${client.reference}/full`, undefined, denied);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('permission:denied');
    const missing = await rest(t.app, 'GET', `/client/${MISSING_REFERENCE}/full`, undefined, denied);
    expect(missing.status).toBe(404);
    const allowed = await thirdPartyAs(t.orm, me.user, ['read:client']);
    const ok = await rest(t.app, 'GET', `/client/${client.reference}/full`, undefined, allowed);
    expect(ok.status).toBe(200);
    expect(ok.body.secret).toBe(client.secret);
  });

  it('401 without a token', async () => {
    const client = await buildClient(t.orm, await buildUser(t.orm));
    const res = await rest(t.app, 'GET', `/client/${client.reference}/full`);
    expect(res.status).toBe(401);
  });
});

describe('GET /client', () => {
  it('lists only the caller’s clients, oldest first, paged, with their secrets', async () => {
    const me = await account(t.orm, { description: 'd', cover: '/c.jpg', lists_updated: new Date() });
    const other = await buildUser(t.orm);
    await buildClient(t.orm, other);
    const times = ['2024-03-01', '2024-01-01', '2024-02-01'].map((d) => new Date(`${d}T00:00:00Z`));
    const clients = [];
    for (const [i, created] of times.entries()) {
      clients.push(await buildClient(t.orm, me.user, { name: `c${i}`, created, updated: created }));
    }
    const res = await rest(t.app, 'GET', '/client?size=2', undefined, me.as);
    expect(res.status).toBe(200);
    expect(shapeProblems(res.body, PAGE_OF(CLIENT), 'page')).toEqual([]);
    expect(res.body.pagination).toEqual({ total: 3, pages: 2, page: 1 });
    expect(asList(res.body.list).map((c) => c.name)).toEqual(['c1', 'c2']);
    expect(
      asList(res.body.list).every((c) => typeof c.secret === 'string' && (c.secret as string).length === 128),
    ).toBe(true);
    const second = await rest(t.app, 'GET', '/client?size=2&page=2', undefined, me.as);
    expect(asList(second.body.list).map((c) => c.name)).toEqual(['c0']);
    const past = await rest(t.app, 'GET', '/client?size=2&page=3', undefined, me.as);
    expect(past.body).toEqual({ pagination: { total: 3, pages: 2, page: 3 }, list: [] });
  });

  it('needs scope read:client:list for a third-party token', async () => {
    const me = await buildUser(t.orm);
    const res = await rest(
      t.app,
      'GET',
      '/client',
      undefined,
      await thirdPartyAs(t.orm, me, ['read:client']),
    );
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('permission:denied');
    const ok = await rest(
      t.app,
      'GET',
      '/client',
      undefined,
      await thirdPartyAs(t.orm, me, ['read:client:list']),
    );
    expect(ok.status).toBe(200);
  });

  it('validates page and size', async () => {
    const me = await account(t.orm);
    const res = await rest(t.app, 'GET', '/client?page=0', undefined, me.as);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Invalid field page in request query');
  });
});

describe('POST /client/all', () => {
  it('lists every client for an admin, filtered by a case-insensitive name substring, secrets only for own clients', async () => {
    const admin = await account(t.orm, { role: 'admin' });
    const someone = await buildUser(t.orm);
    const at = (day: number) => new Date(Date.UTC(2024, 0, day));
    const mine = await buildClient(t.orm, admin.user, { name: 'Admin Watcher', created: at(1) });
    await buildClient(t.orm, someone, { name: 'WATCHER two', created: at(2) });
    await buildClient(t.orm, someone, { name: 'Reader', created: at(3) });
    const all = await rest(t.app, 'POST', '/client/all', {}, admin.as);
    expect(all.status).toBe(200);
    expect(all.body.pagination.total).toBe(3);
    expect(asList(all.body.list).map((c) => c.name)).toEqual(['Admin Watcher', 'WATCHER two', 'Reader']);
    expect(asList(all.body.list).map((c) => c.secret)).toEqual([mine.secret, null, null]);
    const found = await rest(t.app, 'POST', '/client/all?size=1', { query: 'watcher' }, admin.as);
    expect(found.body.pagination).toEqual({ total: 2, pages: 2, page: 1 });
    expect(asList(found.body.list).map((c) => c.name)).toEqual(['Admin Watcher']);
    const nullQuery = await rest(t.app, 'POST', '/client/all', { query: null }, admin.as);
    expect(nullQuery.body.pagination.total).toBe(3);
  });

  it('treats LIKE wildcards in the query literally', async () => {
    const admin = await account(t.orm, { role: 'admin' });
    await buildClient(t.orm, admin.user, { name: 'abc' });
    await buildClient(t.orm, admin.user, { name: '100% sure' });
    const res = await rest(t.app, 'POST', '/client/all', { query: '%' }, admin.as);
    expect(asList(res.body.list).map((c) => c.name)).toEqual(['100% sure']);
    const underscore = await rest(t.app, 'POST', '/client/all', { query: '_' }, admin.as);
    expect(underscore.body.list).toEqual([]);
  });

  it('403 permission:denied for users and moderators; 400 for a bad body', async () => {
    for (const role of ['user', 'moderator'] as const) {
      const caller = await account(t.orm, { role });
      const res = await rest(t.app, 'POST', '/client/all', {}, caller.as);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('permission:denied');
    }
    const admin = await account(t.orm, { role: 'admin' });
    const bad = await rest(t.app, 'POST', '/client/all', { query: 5 }, admin.as);
    expect(bad.body.message).toBe('Invalid field query in request body');
  });
});

describe('POST /client/{client_reference}/verify', () => {
  it('an admin verifies a client once; 400 client:already_verified after', async () => {
    const admin = await account(t.orm, { role: 'admin' });
    const client = await buildClient(t.orm, await buildUser(t.orm));
    const res = await rest(t.app, 'POST', `/client/${client.reference}/verify`, undefined, admin.as);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ reference: client.reference, verified: true, secret: null });
    expect((await stored(client.reference)).verified).toBe(true);
    const again = await rest(t.app, 'POST', `/client/${client.reference}/verify`, undefined, admin.as);
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('client:already_verified');
  });

  it('403 permission:denied for the owner and moderators; 404 before 403', async () => {
    const owner = await account(t.orm);
    const client = await buildClient(t.orm, owner.user);
    for (const caller of [owner, await account(t.orm, { role: 'moderator' })]) {
      const res = await rest(t.app, 'POST', `/client/${client.reference}/verify`, undefined, caller.as);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('permission:denied');
    }
    const missing = await rest(t.app, 'POST', `/client/${MISSING_REFERENCE}/verify`, undefined, owner.as);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('client:not_found');
  });

  it('needs scope verify:client for an admin’s third-party token', async () => {
    const admin = await buildUser(t.orm, { role: 'admin' });
    const client = await buildClient(t.orm, await buildUser(t.orm));
    const denied = await rest(
      t.app,
      'POST',
      `/client/${client.reference}/verify`,
      undefined,
      await thirdPartyAs(t.orm, admin, ['read:client']),
    );
    expect(denied.body.code).toBe('permission:denied');
    const ok = await rest(
      t.app,
      'POST',
      `/client/${client.reference}/verify`,
      undefined,
      await thirdPartyAs(t.orm, admin, ['verify:client']),
    );
    expect(ok.status).toBe(200);
  });
});

describe('batched loading', () => {
  it('lists with a number of SQL statements that does not grow with the page', async () => {
    const admin = await account(t.orm, { role: 'admin' });
    const owners = [admin.user];
    for (let i = 0; i < 4; i++) owners.push(await buildUser(t.orm));
    await buildClient(t.orm, admin.user, { name: 'first' });
    const one = await t.queries.count(() => rest(t.app, 'POST', '/client/all', {}, admin.as));
    for (const [i, owner] of owners.entries()) await buildClient(t.orm, owner, { name: `more ${i}` });
    const many = await t.queries.count(async () => {
      const res = await rest(t.app, 'POST', '/client/all', {}, admin.as);
      expect(res.body.list).toHaveLength(6);
    });
    expect(many).toBe(one);
  });
});
