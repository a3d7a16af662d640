import { AuthToken } from '../../src/accounts/auth-token.entity';
import { Client } from '../../src/clients/client.entity';
import { TokenRequest } from '../../src/clients/token-request.entity';
import { buildClient, buildToken, buildUser, MISSING_REFERENCE } from '../factories';
import { rest, type CallOptions } from '../setup/clients';
import { shapeProblems } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { account, CLIENT, firstError, routeOf, storedSecret, thirdPartyAs, viaGraphQL } from './helpers';

/** Contract #11 DELETE and #12 PUT /client/{client_reference} (semantics §2). */
const t = useTestApp();

const put = (reference: string, body: unknown, as: CallOptions) =>
  rest(t.app, 'PUT', `/client/${reference}`, body, as);
const del = (reference: string, as: CallOptions) =>
  rest(t.app, 'DELETE', `/client/${reference}`, undefined, as);
const stored = (reference: string) => t.orm.em.fork().findOne(Client, { reference });
const updateRoute = routeOf('PUT', '/client/{client_reference}');
const deleteRoute = routeOf('DELETE', '/client/{client_reference}');

/** An owner (filled profile, so that shapes can be checked) with a client. */
async function ownedClient(overrides: Partial<Client> = {}) {
  const owner = await account(t.orm, { description: 'd', cover: '/c.jpg', lists_updated: new Date() });
  const client = await buildClient(t.orm, owner.user, { name: 'Original', ...overrides });
  return { owner, client };
}

describe('#12 PUT /client/{client_reference}', () => {
  it('marks the routes as contract #11 and #12', () => {
    expect(updateRoute.contract).toBe(12);
    expect(deleteRoute.contract).toBe(11);
  });

  it('applies the non-null fields, cleaned, keeps the rest and `verified`, and sets `updated` to now', async () => {
    const old = new Date('2024-01-01T00:00:00Z');
    const { owner, client } = await ownedClient({
      description: 'Old description',
      endpoint: 'app://old/',
      verified: true,
      created: old,
      updated: old,
    });
    const before = Math.trunc(Date.now() / 1000);
    const res = await put(client.reference, { name: ' New\u2800 name ', description: null }, owner.as);
    expect(res.status).toBe(200);
    expect(shapeProblems(res.body, CLIENT, 'client')).toEqual([]);
    expect(res.body).toMatchObject({
      reference: client.reference,
      name: 'New name',
      description: 'Old description',
      endpoint: 'app://old/',
      verified: true,
      created: Math.trunc(old.getTime() / 1000),
      secret: client.secret,
    });
    expect(res.body.updated).toBeGreaterThanOrEqual(before);
    const endpoint = await put(
      client.reference,
      { endpoint: 'http://localhost:8080', description: '  Desc ' },
      owner.as,
    );
    expect(endpoint.body).toMatchObject({
      name: 'New name',
      description: 'Desc',
      endpoint: 'http://localhost:8080/',
    });
    expect(await stored(client.reference)).toMatchObject({
      name: 'New name',
      description: 'Desc',
      verified: true,
    });
  });

  it('an empty body changes nothing but `updated`', async () => {
    const { owner, client } = await ownedClient();
    const res = await put(client.reference, {}, owner.as);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: client.name,
      description: client.description,
      secret: client.secret,
    });
  });

  it('revoke_secret replaces the secret with a new 128-character one; false keeps it', async () => {
    const { owner, client } = await ownedClient();
    const kept = await put(client.reference, { revoke_secret: false }, owner.as);
    expect(kept.body.secret).toBe(client.secret);
    const res = await put(client.reference, { revoke_secret: true }, owner.as);
    expect(res.body.secret).toMatch(/^[A-Za-z0-9_-]{128}$/);
    expect(res.body.secret).not.toBe(client.secret);
    expect(await storedSecret(t.orm, client.reference)).toBe(res.body.secret);
  });

  it('409 client:already_exists for the name of another client of the owner, ignoring case; its own name is fine', async () => {
    const { owner, client } = await ownedClient();
    await buildClient(t.orm, owner.user, { name: 'Taken' });
    const res = await put(client.reference, { name: 'TAKEN', description: 'changed' }, owner.as);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('client:already_exists');
    expect(await stored(client.reference)).toMatchObject({ name: 'Original', updated: client.updated });
    const same = await put(client.reference, { name: 'ORIGINAL' }, owner.as);
    expect(same.status).toBe(200);
    expect(same.body.name).toBe('ORIGINAL');
    const someoneElse = await buildUser(t.orm);
    await buildClient(t.orm, someoneElse, { name: 'Elsewhere' });
    expect((await put(client.reference, { name: 'elsewhere' }, owner.as)).status).toBe(200);
  });

  it('sends the look-up, the owner lock and one update after the token, whatever it changes', async () => {
    const { owner, client } = await ownedClient();
    for (const body of [{ name: 'Renamed' }, { description: 'A new description', revoke_secret: true }, {}]) {
      const kinds = (
        await t.queries.kinds(
          async () => expect((await put(client.reference, body, owner.as)).status).toBe(200),
          (statement) => {
            if (statement.includes('from client c join "user" u')) return 'client';
            if (statement.includes('for no key update')) return 'owner lock';
            return undefined;
          },
        )
      )
        // The token's first use slides its expiry (src/common/auth/session.ts).
        .filter((kind) => kind !== 'token use');
      expect({ body, kinds }).toEqual({
        body,
        kinds: ['token', 'begin+client', 'owner lock', 'update', 'commit'],
      });
    }
  });

  it('403 client:not_owner for another user and for an admin (no override)', async () => {
    const { client } = await ownedClient();
    for (const role of ['user', 'admin'] as const) {
      const caller = await account(t.orm, { role });
      const res = await put(client.reference, { name: 'Mine now' }, caller.as);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ code: 'client:not_owner', message: 'User not owner of the client' });
    }
    expect((await stored(client.reference))?.name).toBe('Original');
  });

  it('checks in the order auth → validation → existence → permission → scope → owner → name', async () => {
    const { owner, client } = await ownedClient();
    await buildClient(t.orm, owner.user, { name: 'Taken' });
    const stranger = await account(t.orm);
    const unactivated = await account(t.orm, { role: 'not_activated' });
    const scoped = await thirdPartyAs(t.orm, owner.user, ['read:watchlist']);
    const strangerScoped = await thirdPartyAs(t.orm, stranger.user, ['read:watchlist']);
    const cases: [string, unknown, CallOptions, number, string][] = [
      [client.reference, { name: 1 }, {}, 401, 'auth:missing_token'],
      ['nope', { name: 1 }, owner.as, 400, 'system:validation_error'],
      [MISSING_REFERENCE, { name: 'x' }, owner.as, 400, 'system:validation_error'],
      [MISSING_REFERENCE, { name: 'Taken' }, stranger.as, 404, 'client:not_found'],
      [client.reference, { name: 'Taken' }, unactivated.as, 403, 'permission:confirm_email'],
      [client.reference, { name: 'Taken' }, strangerScoped, 403, 'permission:denied'],
      [client.reference, { name: 'Taken' }, scoped, 403, 'permission:denied'],
      [client.reference, { name: 'Taken' }, stranger.as, 403, 'client:not_owner'],
      [client.reference, { name: 'Taken' }, owner.as, 409, 'client:already_exists'],
    ];
    for (const [reference, body, as, status, code] of cases) {
      const res = await put(reference, body, as);
      expect({ reference, body, status: res.status, code: res.body.code }).toEqual({
        reference,
        body,
        status,
        code,
      });
    }
  });

  it('a third-party token with only read:watchlist cannot update the client; one with update:client can', async () => {
    const { owner, client } = await ownedClient();
    const res = await put(
      client.reference,
      { name: 'Renamed' },
      await thirdPartyAs(t.orm, owner.user, ['read:watchlist']),
    );
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('permission:denied');
    const ok = await put(
      client.reference,
      { name: 'Renamed' },
      await thirdPartyAs(t.orm, owner.user, ['update:client']),
    );
    expect(ok.status).toBe(200);
    expect(ok.body.name).toBe('Renamed');
  });

  it('accepts the token as the `auth` cookie', async () => {
    const { owner, client } = await ownedClient();
    const res = await put(client.reference, { name: 'Cookie' }, { cookie: owner.token });
    expect(res.status).toBe(200);
  });

  it('validates the body: fields in order, then unknown keys; a body is required', async () => {
    const { owner, client } = await ownedClient();
    const cases: [unknown, string][] = [
      [{ name: 'ab' }, 'Invalid field name in request body'],
      [
        { name: 'ok name', description: 'x', revoke_secret: 'yes' },
        'Invalid field description in request body',
      ],
      [{ endpoint: 'javascript:alert(1)' }, 'Invalid field endpoint in request body'],
      [{ revoke_secret: 1 }, 'Invalid field revoke_secret in request body'],
      [{ revoke_secret: null }, 'Invalid field revoke_secret in request body'],
      [{ secret: 'mine' }, 'Invalid field secret in request body'],
    ];
    for (const [body, message] of cases) {
      const res = await put(client.reference, body, owner.as);
      expect({ body, status: res.status, message: res.body.message }).toEqual({ body, status: 400, message });
    }
    const empty = await rest(t.app, 'PUT', `/client/${client.reference}`, undefined, owner.as);
    expect(empty.body.message).toBe('Invalid field in request body');
  });
});

describe('#11 DELETE /client/{client_reference}', () => {
  it('deletes the client for good and answers it with the owner’s secret', async () => {
    const { owner, client } = await ownedClient();
    const res = await del(client.reference, owner.as);
    expect(res.status).toBe(200);
    expect(shapeProblems(res.body, CLIENT, 'client')).toEqual([]);
    expect(res.body).toMatchObject({ reference: client.reference, name: 'Original', secret: client.secret });
    expect(await stored(client.reference)).toBeNull();
    const again = await del(client.reference, owner.as);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('client:not_found');
  });

  it('an admin deletes another user’s client and sees `secret: null`; a moderator cannot', async () => {
    const { client } = await ownedClient();
    const moderator = await account(t.orm, { role: 'moderator' });
    const refused = await del(client.reference, moderator.as);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('client:not_owner');
    const admin = await account(t.orm, { role: 'admin' });
    const res = await del(client.reference, admin.as);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ reference: client.reference, secret: null });
    expect(await stored(client.reference)).toBeNull();
  });

  it('deletes the client’s token requests and tokens: those tokens stop working at once', async () => {
    const { owner, client } = await ownedClient();
    const user = await buildUser(t.orm);
    const token = await buildToken(t.orm, user, { client, scope: ['read:watchlist'] });
    const other = await buildClient(t.orm, owner.user, { name: 'Other' });
    const otherToken = await buildToken(t.orm, user, { client: other, scope: ['read:watchlist'] });
    const em = t.orm.em.fork();
    em.create(TokenRequest, {
      client: client.reference,
      user: user.reference,
      scope: ['read:watchlist'],
      created: new Date(),
      expiration: new Date(Date.now() + 60000),
    } as never);
    await em.flush();
    expect((await rest(t.app, 'GET', '/auth/token/info', undefined, { token })).status).toBe(200);

    expect((await del(client.reference, owner.as)).status).toBe(200);
    const after = await rest(t.app, 'GET', '/auth/token/info', undefined, { token });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('auth:invalid_token');
    expect(await t.orm.em.fork().count(AuthToken, { client: client.reference })).toBe(0);
    expect(await t.orm.em.fork().count(TokenRequest, { client: client.reference })).toBe(0);
    expect((await rest(t.app, 'GET', '/auth/token/info', undefined, { token: otherToken })).status).toBe(200);
  });

  it('checks in the order auth → validation → existence → permission → scope → owner', async () => {
    const { owner, client } = await ownedClient();
    const stranger = await account(t.orm);
    const cases: [string, CallOptions, number, string][] = [
      [client.reference, {}, 401, 'auth:missing_token'],
      [client.reference, { token: 'unknown' }, 401, 'auth:invalid_token'],
      ['1234', owner.as, 400, 'system:validation_error'],
      [MISSING_REFERENCE, stranger.as, 404, 'client:not_found'],
      [
        client.reference,
        (await account(t.orm, { role: 'not_activated' })).as,
        403,
        'permission:confirm_email',
      ],
      [
        client.reference,
        (await account(t.orm, { forbidden_actions: ['client:delete'] })).as,
        403,
        'permission:denied',
      ],
      [client.reference, await thirdPartyAs(t.orm, owner.user, ['update:client']), 403, 'permission:denied'],
      [client.reference, stranger.as, 403, 'client:not_owner'],
    ];
    for (const [reference, as, status, code] of cases) {
      const res = await del(reference, as);
      expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
    }
    expect(await stored(client.reference)).not.toBeNull();
    const scoped = await del(client.reference, await thirdPartyAs(t.orm, owner.user, ['delete:client']));
    expect(scoped.status).toBe(200);
  });

  it('a malformed reference names the path parameter', async () => {
    const { owner } = await ownedClient();
    const res = await del('not-a-uuid', owner.as);
    expect(res.body).toEqual({
      code: 'system:validation_error',
      message: 'Invalid field client_reference in request path',
    });
  });
});

describe('REST ≡ GraphQL for #11 and #12 (same document and variables)', () => {
  it('#12: the REST body is data.updateClient of the route’s document', async () => {
    const { owner, client } = await ownedClient();
    const input = { name: 'Same', description: 'Same description', endpoint: 'https://same.example' };
    const viaRest = await put(client.reference, input, owner.as);
    const viaGql = await viaGraphQL(
      t.app,
      updateRoute,
      { client_reference: client.reference, input },
      owner.as,
    );
    expect(viaGql.status).toBe(200);
    expect(viaGql.body.errors).toBeUndefined();
    const { updated: restUpdated, ...restRest } = viaRest.body;
    const { updated: gqlUpdated, ...gqlRest } = viaGql.body.data.updateClient;
    expect(restRest).toEqual(gqlRest);
    expect(Math.abs(restUpdated - gqlUpdated)).toBeLessThanOrEqual(1);
    expect(Object.keys(viaRest.body).sort()).toEqual(Object.keys(CLIENT).sort());
  });

  it('#12 revoke_secret through GraphQL answers the new secret, as REST does', async () => {
    const { owner, client } = await ownedClient();
    const res = await viaGraphQL(
      t.app,
      updateRoute,
      { client_reference: client.reference, input: { revoke_secret: true } },
      { cookie: owner.token },
    );
    const secret = res.body.data.updateClient.secret;
    expect(secret).toHaveLength(128);
    expect(secret).not.toBe(client.secret);
    expect(await storedSecret(t.orm, client.reference)).toBe(secret);
  });

  it('#11: twin clients deleted by each door answer the same body', async () => {
    const owner = await account(t.orm, { description: 'd', cover: '/c.jpg', lists_updated: new Date() });
    const at = new Date('2024-05-05T05:05:05Z');
    const twin = {
      description: 'Twin',
      endpoint: 'app://twin/',
      secret: 'z'.repeat(128),
      created: at,
      updated: at,
    };
    const a = await buildClient(t.orm, owner.user, { ...twin, name: 'Twin' });
    const b = await buildClient(t.orm, owner.user, { ...twin, name: 'Twin' });
    const viaRest = await del(a.reference, owner.as);
    const viaGql = await viaGraphQL(t.app, deleteRoute, { client_reference: b.reference }, owner.as);
    expect(viaGql.body.errors).toBeUndefined();
    expect({ ...viaRest.body, reference: 'x' }).toEqual({ ...viaGql.body.data.deleteClient, reference: 'x' });
    expect(viaGql.body.data.deleteClient.reference).toBe(b.reference);
  });

  it('both doors answer the same errors with the same status', async () => {
    const { owner, client } = await ownedClient();
    await buildClient(t.orm, owner.user, { name: 'Taken' });
    const stranger = await account(t.orm);
    const scoped = await thirdPartyAs(t.orm, owner.user, ['read:watchlist']);
    const cases: [typeof updateRoute, string, Record<string, unknown>, CallOptions, number, string][] = [
      [updateRoute, MISSING_REFERENCE, { name: 'Whatever' }, owner.as, 404, 'client:not_found'],
      [updateRoute, client.reference, { name: 'Whatever' }, stranger.as, 403, 'client:not_owner'],
      [updateRoute, client.reference, { name: 'Whatever' }, scoped, 403, 'permission:denied'],
      [updateRoute, client.reference, { name: 'taken' }, owner.as, 409, 'client:already_exists'],
      [deleteRoute, MISSING_REFERENCE, {}, owner.as, 404, 'client:not_found'],
      [deleteRoute, client.reference, {}, stranger.as, 403, 'client:not_owner'],
      [deleteRoute, client.reference, {}, scoped, 403, 'permission:denied'],
    ];
    for (const [route, reference, input, as, status, code] of cases) {
      const isUpdate = route === updateRoute;
      const viaRest = isUpdate
        ? await put(reference, input, { ...as, language: 'uk' })
        : await del(reference, { ...as, language: 'uk' });
      const variables = isUpdate ? { client_reference: reference, input } : { client_reference: reference };
      const viaGql = await viaGraphQL(t.app, route, variables, { ...as, language: 'uk' });
      expect(viaGql.status).toBe(200);
      expect(firstError(viaGql.body)).toEqual({ code, status, message: viaRest.body.message });
      expect({ status: viaRest.status, code: viaRest.body.code }).toEqual({ status, code });
    }
  });

  it('a malformed reference or body is a 400 validation error through GraphQL too', async () => {
    const { owner, client } = await ownedClient();
    const badPath = await viaGraphQL(t.app, deleteRoute, { client_reference: 'nope' }, owner.as);
    expect(badPath.status).toBe(400);
    expect(firstError(badPath.body)).toEqual({
      code: 'system:validation_error',
      status: 400,
      message: 'Invalid field client_reference in request path',
    });
    const badBody = await viaGraphQL(
      t.app,
      updateRoute,
      { client_reference: client.reference, input: { endpoint: 'data:text/html,x' } },
      owner.as,
    );
    expect(badBody.status).toBe(400);
    expect(firstError(badBody.body).message).toBe('Invalid field endpoint in request body');
  });
});
