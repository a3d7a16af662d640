import { AuthToken } from '../../src/accounts/auth-token.entity';
import { hashSecret } from '../../src/common/auth/secrets';
import { buildClient, buildToken, buildUser, MISSING_REFERENCE } from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { useAccountsApp } from './helpers';

/** §3.1 DELETE /auth/token/{token_reference}: a user revokes one of their tokens. */
const t = useAccountsApp();

const del = (reference: string, options: CallOptions) =>
  rest(t.app, 'DELETE', `/auth/token/${reference}`, undefined, options);
const referenceOf = async (secret: string) =>
  (await t.orm.em.fork().findOneOrFail(AuthToken, { secret_hash: hashSecret(secret) })).reference;
const exists = async (reference: string) => (await t.orm.em.fork().count(AuthToken, { reference })) === 1;

const INVALID = { message: 'Auth token is invalid', code: 'auth:invalid_token' };

describe('DELETE /auth/token/{token_reference}', () => {
  describe('success', () => {
    it('deletes another token of the caller and answers {success: true}', async () => {
      const user = await buildUser(t.orm);
      const mine = await buildToken(t.orm, user);
      const other = await referenceOf(await buildToken(t.orm, user));
      const res = await del(other, { token: mine });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect(await exists(other)).toBe(false);
    });

    it('deletes the token in use: it is refused afterwards (401 auth:invalid_token)', async () => {
      const user = await buildUser(t.orm);
      const token = await buildToken(t.orm, user);
      expect((await del(await referenceOf(token), { token })).status).toBe(200);
      const after = await rest(t.app, 'POST', '/auth/activation/resend', undefined, { token });
      expect(after.status).toBe(401);
      expect(after.body).toEqual(INVALID);
    });

    it("revokes one of the caller's third-party tokens (with a first-party caller)", async () => {
      const user = await buildUser(t.orm);
      const client = await buildClient(t.orm, await buildUser(t.orm));
      const thirdParty = await referenceOf(await buildToken(t.orm, user, { client, scope: ['all'] }));
      expect((await del(thirdParty, { token: await buildToken(t.orm, user) })).status).toBe(200);
      expect(await exists(thirdParty)).toBe(false);
    });

    it('accepts the reference in upper case', async () => {
      const user = await buildUser(t.orm);
      const other = await referenceOf(await buildToken(t.orm, user));
      expect((await del(other.toUpperCase(), { token: await buildToken(t.orm, user) })).status).toBe(200);
      expect(await exists(other)).toBe(false);
    });
  });

  describe('errors, in order', () => {
    it('authentication first: no token → 401 even with a malformed reference', async () => {
      const res = await del('not-a-uuid', {});
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('auth:missing_token');
    });

    it('a malformed reference → 400 Invalid field token_reference in request path', async () => {
      const token = await buildToken(t.orm, await buildUser(t.orm));
      for (const reference of ['not-a-uuid', '123', 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz']) {
        const res = await del(reference, { token });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          message: 'Invalid field token_reference in request path',
          code: 'system:validation_error',
        });
      }
    });

    it('no such token → 404 auth:invalid_token', async () => {
      const token = await buildToken(t.orm, await buildUser(t.orm));
      const res = await del(MISSING_REFERENCE, { token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(INVALID);
    });

    it('an expired token → 404 auth:invalid_token (even the caller’s own)', async () => {
      const user = await buildUser(t.orm);
      const expired = await referenceOf(
        await buildToken(t.orm, user, { expiration: new Date(Date.now() - 1000) }),
      );
      const res = await del(expired, { token: await buildToken(t.orm, user) });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(INVALID);
      expect(await exists(expired)).toBe(true);
    });

    it("another user's token → 403 auth:not_token_owner", async () => {
      const stranger = await referenceOf(await buildToken(t.orm, await buildUser(t.orm)));
      const res = await del(stranger, { token: await buildToken(t.orm, await buildUser(t.orm)) });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        message: 'You are not the owner of this token',
        code: 'auth:not_token_owner',
      });
      expect(await exists(stranger)).toBe(true);
    });

    it('a third-party caller → 403 permission:denied, after the existence check', async () => {
      const user = await buildUser(t.orm);
      const client = await buildClient(t.orm, await buildUser(t.orm));
      const thirdParty = await buildToken(t.orm, user, { client, scope: ['all'] });
      const own = await referenceOf(await buildToken(t.orm, user));
      const denied = await del(own, { token: thirdParty });
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe('permission:denied');
      expect(await exists(own)).toBe(true);
      const missing = await del(MISSING_REFERENCE, { token: thirdParty });
      expect(missing.status).toBe(404);
      const stranger = await referenceOf(await buildToken(t.orm, await buildUser(t.orm)));
      expect((await del(stranger, { token: thirdParty })).body.code).toBe('permission:denied');
    });
  });

  describe('GraphQL `deleteToken`', () => {
    const DELETE = `mutation($token_reference: String!) { deleteToken(token_reference: $token_reference) { success } }`;

    it('deletes like REST', async () => {
      const user = await buildUser(t.orm);
      const other = await referenceOf(await buildToken(t.orm, user));
      const res = await gql(
        t.app,
        DELETE,
        { token_reference: other },
        { token: await buildToken(t.orm, user) },
      );
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data).toEqual({ deleteToken: { success: true } });
      expect(await exists(other)).toBe(false);
    });

    it('same errors: 404 in extensions for a missing token, validation naming the path field', async () => {
      const token = await buildToken(t.orm, await buildUser(t.orm));
      const missing = await gql(t.app, DELETE, { token_reference: MISSING_REFERENCE }, { token });
      expect(missing.body.errors[0]).toMatchObject({
        message: 'Auth token is invalid',
        extensions: { code: 'auth:invalid_token', http: { status: 404 } },
      });
      const malformed = await gql(t.app, DELETE, { token_reference: 'x' }, { token });
      expect(malformed.status).toBe(400);
      expect(malformed.body.errors[0].message).toBe('Invalid field token_reference in request path');
      const anonymous = await gql(t.app, DELETE, { token_reference: 'x' });
      expect(anonymous.body.errors[0].extensions.code).toBe('auth:missing_token');
    });
  });
});
