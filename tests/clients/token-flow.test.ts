import { ActionRecord } from '../../src/accounts/action-record.entity';
import { AuthToken } from '../../src/accounts/auth-token.entity';
import { TokenRequest } from '../../src/clients/token-request.entity';
import { hashSecret } from '../../src/common/auth/secrets';
import { Notification } from '../../src/notifications/notification.entity';
import {
  buildAnime,
  buildClient,
  buildToken,
  buildUser,
  buildWatchEntry,
  MISSING_REFERENCE,
} from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { shapeProblems } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { asList, seconds } from '../setup/json';
import { account, CLIENT, PAGE_OF, thirdPartyAs, UUID_PATTERN } from './helpers';

/** §3.2 token request → exchange, §3.1 GET /auth/token/info and /auth/token/thirdparty, scopes (§1.4). */
const t = useTestApp();

const requestToken = (client: string, body: unknown, as: CallOptions) =>
  rest(t.app, 'POST', `/auth/token/request/${client}`, body, as);
const exchange = (body: unknown) => rest(t.app, 'POST', '/auth/token', body);
const info = (as: CallOptions) => rest(t.app, 'GET', '/auth/token/info', undefined, as);

/** A client owned by a developer, and a user (with a first-party token) who will consent. */
async function setup() {
  const developer = await account(t.orm);
  const client = await buildClient(t.orm, developer.user, {
    name: 'Tracker',
    description: 'Syncs your list',
    endpoint: 'https://tracker.example/callback',
    secret: 'S'.repeat(128),
  });
  const me = await account(t.orm);
  return { developer, client, me };
}

/** The whole flow: request with `scope`, exchange with `secret`; returns the third-party token. */
async function thirdPartyToken(
  client: { reference: string },
  as: CallOptions,
  scope: string[],
  secret: string,
) {
  const request = await requestToken(client.reference, { scope }, as);
  expect(request.status).toBe(200);
  const res = await exchange({ request_reference: request.body.reference, client_secret: secret });
  expect(res.status).toBe(200);
  return res.body.secret as string;
}

describe('POST /auth/token/request/{client_reference}', () => {
  it('creates a request for the caller, valid 1 minute, with the redirect to the client endpoint', async () => {
    const { client, me } = await setup();
    const before = Date.now();
    const res = await requestToken(
      client.reference,
      { scope: ['read:watchlist', 'readlist', 'read:watchlist'] },
      me.as,
    );
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['expiration', 'redirect_url', 'reference']);
    expect(res.body.reference).toMatch(UUID_PATTERN);
    expect(res.body.redirect_url).toBe(`https://tracker.example/callback?reference=${res.body.reference}`);
    expect(res.body.expiration).toBeGreaterThanOrEqual(seconds(new Date(before + 60000)));
    expect(res.body.expiration).toBeLessThanOrEqual(seconds(new Date(Date.now() + 60000)));
    const stored = await t.orm.em.fork().findOneOrFail(TokenRequest, { reference: res.body.reference });
    expect(stored).toMatchObject({ scope: ['read:watchlist', 'readlist'], used: false });
    expect(stored.user.reference).toBe(me.user.reference);
    expect(stored.client.reference).toBe(client.reference);
  });

  it('400 auth:invalid_scope for an unknown entry, 400 auth:scope_empty for []', async () => {
    const { client, me } = await setup();
    const invalid = await requestToken(
      client.reference,
      { scope: ['read:watchlist', 'read:everything'] },
      me.as,
    );
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ code: 'auth:invalid_scope', message: 'Invalid scope' });
    const empty = await requestToken(client.reference, { scope: [] }, me.as);
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ code: 'auth:scope_empty', message: 'Scope is empty' });
    for (const scope of [
      ['all'],
      ['upload', 'read:history'],
      ['update:user-details'],
      ['client', 'follow'],
    ]) {
      expect((await requestToken(client.reference, { scope }, me.as)).status).toBe(200);
    }
  });

  it('404 auth:client_not_found, before the first-party and scope rules', async () => {
    const { me } = await setup();
    const res = await requestToken(MISSING_REFERENCE, { scope: ['nope'] }, me.as);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'auth:client_not_found', message: 'Client not found' });
  });

  it('403 permission:denied for a third-party token, even with every scope', async () => {
    const { client, me } = await setup();
    const res = await requestToken(
      client.reference,
      { scope: ['read:watchlist'] },
      await thirdPartyAs(t.orm, me.user, ['all']),
    );
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('permission:denied');
  });

  it('validates auth, then path, then the body', async () => {
    const { client, me } = await setup();
    expect((await requestToken(client.reference, { scope: 'x' }, {})).body.code).toBe('auth:missing_token');
    expect((await requestToken('x', { scope: 'x' }, me.as)).body.message).toBe(
      'Invalid field client_reference in request path',
    );
    for (const body of [{ scope: 'read:watchlist' }, { scope: [1] }, { scope: null }, {}]) {
      expect((await requestToken(client.reference, body, me.as)).body.message).toBe(
        'Invalid field scope in request body',
      );
    }
  });
});

describe('POST /auth/token', () => {
  it('issues a third-party token bound to the client and the scopes, valid 30 minutes until first use', async () => {
    const { client, me } = await setup();
    const request = await requestToken(client.reference, { scope: ['watchlist', 'read:readlist'] }, me.as);
    const before = Date.now();
    const res = await exchange({ request_reference: request.body.reference, client_secret: client.secret });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['created', 'expiration', 'secret']);
    expect(res.body.secret.length).toBeGreaterThanOrEqual(43);
    expect(res.body.expiration - res.body.created).toBe(30 * 60);
    expect(res.body.created).toBeGreaterThanOrEqual(seconds(new Date(before)));
    const token = await t.orm.em
      .fork()
      .findOneOrFail(AuthToken, { secret_hash: hashSecret(res.body.secret) });
    expect(token.client?.reference).toBe(client.reference);
    expect(token.user.reference).toBe(me.user.reference);
    expect(token.scope).toEqual(['watchlist', 'read:readlist']);
    expect(token.used).toBeNull();
  });

  it('records the action login_thirdparty and notifies the user (thirdparty_login) in the same transaction', async () => {
    const { client, me } = await setup();
    await thirdPartyToken(client, me.as, ['read:watchlist'], client.secret);
    const em = t.orm.em.fork();
    const actions = await em.find(ActionRecord, { user: me.user.reference });
    expect(actions.map((a) => [a.type, a.target])).toEqual([['login_thirdparty', client.reference]]);
    const notifications = await em.find(Notification, { user: me.user.reference });
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toMatchObject({
      notification_type: 'thirdparty_login',
      initiator_user: null,
      seen: false,
      data: {
        client: { name: 'Tracker', description: 'Syncs your list', reference: client.reference },
        scope: ['read:watchlist'],
      },
    });
  });

  it('400 auth:invalid_token_request for an unknown or already used request', async () => {
    const { client, me } = await setup();
    const unknown = await exchange({ request_reference: MISSING_REFERENCE, client_secret: client.secret });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ code: 'auth:invalid_token_request', message: 'Token request is invalid' });
    const request = await requestToken(client.reference, { scope: ['read:watchlist'] }, me.as);
    const body = { request_reference: request.body.reference, client_secret: client.secret };
    expect((await exchange(body)).status).toBe(200);
    const used = await exchange(body);
    expect(used.status).toBe(400);
    expect(used.body.code).toBe('auth:invalid_token_request');
  });

  it('a request is exchanged once even when two exchanges race', async () => {
    const { client, me } = await setup();
    const request = await requestToken(client.reference, { scope: ['read:watchlist'] }, me.as);
    const body = { request_reference: request.body.reference, client_secret: client.secret };
    const results = await Promise.all([exchange(body), exchange(body), exchange(body)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    expect(await t.orm.em.fork().count(AuthToken, { client: client.reference })).toBe(1);
  });

  it('400 auth:token_request_expired after a minute (an unknown secret does not matter then)', async () => {
    const { client, me } = await setup();
    const request = await requestToken(client.reference, { scope: ['read:watchlist'] }, me.as);
    await t.orm.em
      .fork()
      .nativeUpdate(
        TokenRequest,
        { reference: request.body.reference },
        { expiration: new Date(Date.now() - 1000) },
      );
    const res = await exchange({ request_reference: request.body.reference, client_secret: 'wrong' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'auth:token_request_expired', message: 'Token request has expired' });
  });

  it('401 auth:invalid_client_credentials for another secret (another client’s included); the request survives', async () => {
    const { client, me, developer } = await setup();
    const other = await buildClient(t.orm, developer.user, { name: 'Other', secret: 'O'.repeat(128) });
    const request = await requestToken(client.reference, { scope: ['read:watchlist'] }, me.as);
    for (const secret of ['wrong', other.secret, '']) {
      const res = await exchange({ request_reference: request.body.reference, client_secret: secret });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        code: 'auth:invalid_client_credentials',
        message: 'Invalid client credentials',
      });
    }
    const ok = await exchange({ request_reference: request.body.reference, client_secret: client.secret });
    expect(ok.status).toBe(200);
  });

  it('validates the body', async () => {
    for (const [body, field] of [
      [{ request_reference: 'x', client_secret: 's' }, 'request_reference'],
      [{ client_secret: 's' }, 'request_reference'],
      [{ request_reference: MISSING_REFERENCE }, 'client_secret'],
      [{ request_reference: MISSING_REFERENCE, client_secret: 1 }, 'client_secret'],
      [{ request_reference: MISSING_REFERENCE, client_secret: 's', scope: [] }, 'scope'],
    ] as const) {
      const res = await exchange(body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(`Invalid field ${field} in request body`);
    }
  });

  it('after revoke_secret the old secret fails at once and the new one works; issued tokens stay valid', async () => {
    const { client, me, developer } = await setup();
    const issued = await thirdPartyToken(client, me.as, ['read:watchlist'], client.secret);
    const pending = await requestToken(client.reference, { scope: ['read:watchlist'] }, me.as);
    const revoked = await rest(
      t.app,
      'PUT',
      `/client/${client.reference}`,
      { revoke_secret: true },
      developer.as,
    );
    const newSecret = revoked.body.secret as string;
    expect(newSecret).toHaveLength(128);
    expect(newSecret).not.toBe(client.secret);

    const old = await exchange({ request_reference: pending.body.reference, client_secret: client.secret });
    expect(old.status).toBe(401);
    expect(old.body.code).toBe('auth:invalid_client_credentials');
    const fresh = await exchange({ request_reference: pending.body.reference, client_secret: newSecret });
    expect(fresh.status).toBe(200);
    expect((await info({ token: issued })).status).toBe(200);
    expect((await info({ token: fresh.body.secret })).status).toBe(200);
  });
});

describe('third-party tokens and scopes', () => {
  it('a token with only read:watchlist reads its user’s watch entry but cannot update a client or the list', async () => {
    const { client, me } = await setup();
    const anime = await buildAnime(t.orm, { slug: 'frieren', episodes_total: 12 });
    await buildWatchEntry(t.orm, me.user, anime, { status: 'watching', episodes: 3 });
    const own = await buildClient(t.orm, me.user, { name: 'Mine' });
    const token = await thirdPartyToken(client, me.as, ['read:watchlist'], client.secret);
    const as = { token };

    const read = await rest(t.app, 'GET', '/watch/frieren', undefined, as);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ status: 'watching', episodes: 3 });

    for (const [method, path, body] of [
      ['PUT', `/client/${own.reference}`, { name: 'Hijacked' }],
      ['DELETE', `/client/${own.reference}`, undefined],
      ['POST', '/client', { name: 'New one', description: 'abc', endpoint: 'app://x' }],
      ['GET', '/client', undefined],
      ['GET', `/client/${own.reference}/full`, undefined],
      ['PUT', '/watch/frieren', { status: 'completed' }],
    ] as const) {
      const res = await rest(t.app, method, path, body, as);
      expect({ method, path, status: res.status, code: res.body.code }).toEqual({
        method,
        path,
        status: 403,
        code: 'permission:denied',
      });
    }
  });

  it('scope groups expand: `watchlist` allows writing the list', async () => {
    const { client, me } = await setup();
    await buildAnime(t.orm, { slug: 'frieren', episodes_total: 12 });
    const token = await thirdPartyToken(client, me.as, ['watchlist'], client.secret);
    expect((await rest(t.app, 'PUT', '/watch/frieren', { status: 'planned' }, { token })).status).toBe(200);
  });

  it('its first use slides the expiry and records `used`', async () => {
    const { client, me } = await setup();
    const token = await thirdPartyToken(client, me.as, ['read:watchlist'], client.secret);
    const res = await info({ token });
    expect(res.status).toBe(200);
    const stored = await t.orm.em.fork().findOneOrFail(AuthToken, { secret_hash: hashSecret(token) });
    expect(stored.used).toBeInstanceOf(Date);
    expect(stored.expiration.getTime()).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
  });
});

describe('GET /auth/token/info', () => {
  it('a first-party token: no client, empty scope', async () => {
    const me = await account(t.orm);
    const res = await info(me.as);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([
      'client',
      'created',
      'expiration',
      'reference',
      'scope',
      'used',
    ]);
    expect(res.body).toMatchObject({ client: null, scope: [] });
    expect(res.body.reference).toMatch(UUID_PATTERN);
    expect(typeof res.body.expiration).toBe('number');
    expect(typeof res.body.used).toBe('number');
  });

  it('a third-party token: its client (secret null unless the user owns it) and scopes', async () => {
    const { client, me } = await setup();
    const token = await thirdPartyToken(client, me.as, ['read:watchlist', 'vote'], client.secret);
    const res = await info({ token });
    expect(res.status).toBe(200);
    expect(res.body.scope).toEqual(['read:watchlist', 'vote']);
    expect(res.body.client).toMatchObject({ reference: client.reference, name: 'Tracker', secret: null });

    const own = await buildClient(t.orm, me.user, { name: 'Own', secret: 'M'.repeat(128) });
    const ownToken = await thirdPartyToken(own, me.as, ['read:watchlist'], own.secret);
    const mine = await info({ token: ownToken });
    expect(mine.body.client).toMatchObject({ reference: own.reference, secret: own.secret });
  });

  it('401 without a token; 401 auth:token_expired for an expired one', async () => {
    expect((await info({})).body.code).toBe('auth:missing_token');
    const user = await buildUser(t.orm);
    const expired = await buildToken(t.orm, user, { expiration: new Date(Date.now() - 1000) });
    const res = await info({ token: expired });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('auth:token_expired');
  });
});

describe('GET /auth/token/thirdparty', () => {
  it('lists the caller’s unexpired third-party tokens, newest first, paged', async () => {
    const { client, me } = await setup();
    const owner = await account(t.orm, { description: 'd', cover: '/c.jpg', lists_updated: new Date() });
    const other = await buildClient(t.orm, owner.user, { name: 'Second' });
    const em = t.orm.em.fork();
    const at = (minutes: number) => new Date(Date.now() - minutes * 60000);
    const make = (c: typeof client, created: Date, expiration: Date, user = me.user) =>
      em.create(AuthToken, {
        secret_hash: hashSecret(`${c.reference}${created.getTime()}${user.reference}`),
        user: user.reference,
        client: c.reference,
        scope: ['read:watchlist'],
        created,
        expiration,
      } as never);
    const later = new Date(Date.now() + 3600000);
    make(client, at(30), later);
    make(other, at(10), later);
    make(client, at(20), at(1)); // expired
    make(other, at(5), later, owner.user); // someone else's, for the owner's own client
    await em.flush();

    const res = await rest(t.app, 'GET', '/auth/token/thirdparty?size=1', undefined, me.as);
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ total: 2, pages: 2, page: 1 });
    const [first] = asList(res.body.list);
    expect((first.client as { name: string }).name).toBe('Second');
    const page2 = await rest(t.app, 'GET', '/auth/token/thirdparty?size=1&page=2', undefined, me.as);
    expect((asList(page2.body.list)[0].client as { name: string }).name).toBe('Tracker');

    const ownerView = await rest(t.app, 'GET', '/auth/token/thirdparty', undefined, owner.as);
    expect(
      shapeProblems(
        ownerView.body,
        PAGE_OF({
          reference: 'string',
          created: 'integer',
          client: { object: CLIENT },
          scope: { arrayOf: 'string' },
          expiration: 'integer',
          used: 'integer',
        }),
        'page',
      ).filter((problem) => problem !== 'page.list[0].used is null, not integer'),
    ).toEqual([]);
  });

  it('401 without a token', async () => {
    const res = await rest(t.app, 'GET', '/auth/token/thirdparty');
    expect(res.status).toBe(401);
  });
});

describe('secrets at rest and in the schema', () => {
  it('auth_token rows hold only the SHA-256 of the token secret, never the secret', async () => {
    const { client, me } = await setup();
    const token = await thirdPartyToken(client, me.as, ['read:watchlist'], client.secret);
    const rows = await t.orm.em
      .getConnection()
      .execute<Record<string, unknown>[]>('select * from auth_token');
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const dump = JSON.stringify(rows);
    for (const secret of [token, me.token]) {
      expect(dump).not.toContain(secret);
      expect(rows.some((row) => row.secret_hash === hashSecret(secret))).toBe(true);
    }
    expect(Object.keys(rows[0]).sort()).toEqual(
      [
        'client_reference',
        'created',
        'expiration',
        'reference',
        'scope',
        'secret_hash',
        'used',
        'user_reference',
      ].sort(),
    );
  });

  it('the GraphQL schema exposes no token hash and the client secret only through the owner-checked field', async () => {
    const res = await gql(t.app, '{ __type(name: "TokenInfo") { fields { name } } }');
    const fields = (res.body.data.__type.fields as { name: string }[]).map((f) => f.name).sort();
    expect(fields).toEqual(['client', 'created', 'expiration', 'reference', 'scope', 'used']);
    const clientType = await gql(t.app, '{ __type(name: "Client") { fields { name type { kind } } } }');
    const secret = (clientType.body.data.__type.fields as { name: string; type: { kind: string } }[]).find(
      (f) => f.name === 'secret',
    );
    expect(secret?.type.kind).toBe('SCALAR');
  });

  it('a GraphQL document mixing the public look-up with an authenticated field shows no secret to non-owners', async () => {
    const { client, me } = await setup();
    const res = await gql(
      t.app,
      `query ($r: String!) { tokenInfo { reference } client(client_reference: $r) { secret } }`,
      { r: client.reference },
      me.as,
    );
    expect(res.body.data.client.secret).toBeNull();
  });
});
