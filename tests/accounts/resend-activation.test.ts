import { hashSecret, newTokenSecret } from '../../src/common/auth/secrets';
import { restRoutes } from '../../src/routes';
import { buildClient, buildToken, buildUser } from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { sortedKeys } from '../setup/json';
import { actionsOf, expectAbout, signupBody, storedUser, tokenInMail, useAccountsApp } from './helpers';

/** #1 POST /auth/activation/resend (§2): a new activation link for the caller. */
const t = useAccountsApp({ env: { IMAGE_BASE_URL: 'https://cdn.test' } });

const route = restRoutes.find((r) => r.contract === 1)!;
const resend = (options: CallOptions, body?: unknown) =>
  rest(t.app, 'POST', '/auth/activation/resend', body, options);

const HOUR = 60 * 60 * 1000;
const USER_KEYS = [
  'active',
  'avatar',
  'cover',
  'created',
  'description',
  'reference',
  'role',
  'updated',
  'username',
];

/** A not activated account whose link expired `ago` ms ago (or has none), with a first-party token. */
async function waiting(o: { linkExpiresIn?: number | null } = {}) {
  const { linkExpiresIn = -HOUR } = o;
  const user = await buildUser(t.orm, {
    role: 'not_activated',
    email_confirmed: false,
    activation_token_hash: linkExpiresIn === null ? null : hashSecret(newTokenSecret()),
    activation_expires: linkExpiresIn === null ? null : new Date(Date.now() + linkExpiresIn),
  });
  return { user, as: { token: await buildToken(t.orm, user) } };
}

describe('#1 POST /auth/activation/resend', () => {
  describe('success', () => {
    it("answers the caller's User (contract fields, no is_followed)", async () => {
      const { user, as } = await waiting();
      const res = await resend(as);
      expect(res.status).toBe(200);
      expect(sortedKeys(res.body)).toEqual(USER_KEYS);
      expect(res.body).toEqual({
        reference: user.reference,
        created: Math.trunc(user.created.getTime() / 1000),
        updated: null,
        description: null,
        username: user.username,
        avatar: 'https://cdn.test/avatar.jpg',
        cover: null,
        active: true,
        role: 'not_activated',
      });
    });

    it('replaces the expired link with a new one valid 3 hours, emails it and records the action', async () => {
      const { user, as } = await waiting();
      const before = Date.now();
      expect((await resend(as)).status).toBe(200);
      await t.mailer.idle();
      expect(t.sent).toHaveLength(1);
      expect(t.sent[0].to).toBe(user.email);
      const token = tokenInMail(t.sent[0].text);
      const stored = await storedUser(t.orm, user.username);
      expect(stored.activation_token_hash).toBe(hashSecret(token));
      expect(stored.activation_token_hash).not.toBe(user.activation_token_hash);
      expectAbout(stored.activation_expires!, before + 3 * HOUR);
      expect(await actionsOf(t.orm, user)).toEqual(['activation_resend']);

      expect((await rest(t.app, 'POST', '/auth/activation', { token })).status).toBe(200);
    });

    it('the old link stops working', async () => {
      const oldToken = newTokenSecret();
      const user = await buildUser(t.orm, {
        role: 'not_activated',
        email_confirmed: false,
        activation_token_hash: hashSecret(oldToken),
        activation_expires: new Date(Date.now() - 1000),
      });
      await resend({ token: await buildToken(t.orm, user) });
      const res = await rest(t.app, 'POST', '/auth/activation', { token: oldToken });
      expect(res.body.code).toBe('auth:activation_invalid');
    });

    it('an account without a pending link passes', async () => {
      const { as } = await waiting({ linkExpiresIn: null });
      expect((await resend(as)).status).toBe(200);
    });

    it('ignores a body, whatever it contains', async () => {
      const { as } = await waiting();
      for (const send of [
        () => resend(as, { unknown: 'field' }),
        () => resend(as).set('Content-Type', 'application/json').send('{not json'),
        () => resend(as).set('Content-Type', 'text/plain').send('hello'),
        () => resend(as, [1, 2]),
      ]) {
        const res = await send();
        expect(res.status).toBe(200);
        // Expire the new link again so that the next call may resend.
        await t.orm.em
          .getConnection()
          .execute(`update "user" set activation_expires = now() - interval '1 hour'`);
      }
    });

    it('any valid token will do: a third-party one needs no scope', async () => {
      const { user } = await waiting();
      const client = await buildClient(t.orm, await buildUser(t.orm));
      const token = await buildToken(t.orm, user, { client, scope: ['read:watchlist'] });
      expect((await resend({ token })).status).toBe(200);
    });

    it('the token may come in the auth cookie', async () => {
      const { user } = await waiting();
      expect((await resend({ cookie: await buildToken(t.orm, user) })).status).toBe(200);
    });

    it('does not wait for the email to be delivered', async () => {
      const { as } = await waiting();
      const release = t.holdDeliveries();
      const res = await resend(as);
      expect(res.status).toBe(200);
      expect(t.sent).toHaveLength(0);
      release();
      await t.mailer.idle();
      expect(t.sent).toHaveLength(1);
    });
  });

  describe('authentication (step 1)', () => {
    it.each([
      ['no token', {}, 401, 'auth:missing_token'],
      ['an unknown token', { token: 'garbage' }, 401, 'auth:invalid_token'],
    ] as const)('%s → %s %s', async (_name, options, status, code) => {
      const res = await resend(options, { ignored: true });
      expect(res.status).toBe(status);
      expect(res.body.code).toBe(code);
    });

    it('an expired token → 401 auth:token_expired', async () => {
      const user = await buildUser(t.orm, { role: 'not_activated', email_confirmed: false });
      const token = await buildToken(t.orm, user, { expiration: new Date(Date.now() - 1000) });
      const res = await resend({ token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Token has expired', code: 'auth:token_expired' });
    });

    it('a banned account → 403 auth:banned; a deleted one → 400 user:deleted', async () => {
      const banned = await buildUser(t.orm, { banned: true, email_confirmed: false });
      const deleted = await buildUser(t.orm, { role: 'deleted', email_confirmed: false });
      const bannedRes = await resend({ token: await buildToken(t.orm, banned) });
      expect([bannedRes.status, bannedRes.body.code]).toEqual([403, 'auth:banned']);
      const deletedRes = await resend({ token: await buildToken(t.orm, deleted) });
      expect([deletedRes.status, deletedRes.body.code]).toEqual([400, 'user:deleted']);
    });
  });

  describe('business rules, in order', () => {
    it('an already confirmed email → 400 auth:already_activated, whatever the role', async () => {
      for (const role of ['user', 'not_activated', 'admin'] as const) {
        const user = await buildUser(t.orm, { role, email_confirmed: true });
        const res = await resend({ token: await buildToken(t.orm, user) });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ message: 'Already activated', code: 'auth:already_activated' });
      }
    });

    it('a confirmed email wins over a still valid link', async () => {
      const user = await buildUser(t.orm, {
        email_confirmed: true,
        activation_token_hash: hashSecret('x'),
        activation_expires: new Date(Date.now() + HOUR),
      });
      expect((await resend({ token: await buildToken(t.orm, user) })).body.code).toBe(
        'auth:already_activated',
      );
    });

    it('the link is still valid → 400 auth:activation_valid; nothing is sent or recorded', async () => {
      const { user, as } = await waiting({ linkExpiresIn: HOUR });
      const res = await resend(as);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: 'Previous activation token still valid',
        code: 'auth:activation_valid',
      });
      await t.mailer.idle();
      expect(t.sent).toEqual([]);
      expect(await actionsOf(t.orm, user)).toEqual([]);
      expect((await storedUser(t.orm, user.username)).activation_token_hash).toBe(user.activation_token_hash);
    });

    it('right after signup → 400 auth:activation_valid', async () => {
      const signup = await rest(t.app, 'POST', '/auth/signup', signupBody());
      const res = await resend({ token: signup.body.secret });
      expect(res.body.code).toBe('auth:activation_valid');
    });

    it('after activation → 400 auth:already_activated', async () => {
      await rest(t.app, 'POST', '/auth/signup', signupBody());
      await t.mailer.idle();
      const activated = await rest(t.app, 'POST', '/auth/activation', { token: tokenInMail(t.sent[0].text) });
      const res = await resend({ token: activated.body.secret });
      expect(res.body.code).toBe('auth:already_activated');
    });

    it('Ukrainian messages', async () => {
      const { as } = await waiting({ linkExpiresIn: HOUR });
      const res = await resend({ ...as, language: 'uk' });
      expect(res.body).toEqual({
        message: 'Попередній токен активації досі дійсний',
        code: 'auth:activation_valid',
      });
    });
  });

  describe('REST ≡ GraphQL', () => {
    it('the route runs its persisted document; GraphQL answers the same User', async () => {
      expect(route.path).toBe('/auth/activation/resend');
      expect(route.rootField).toBe('resendActivation');
      const { user, as } = await waiting();
      const restRes = await resend(as);
      await t.orm.em
        .getConnection()
        .execute(`update "user" set activation_expires = now() - interval '1 hour'`);
      const gqlRes = await gql(t.app, route.document, {}, as);
      expect(restRes.status).toBe(200);
      expect(gqlRes.status).toBe(200);
      expect(gqlRes.body.errors).toBeUndefined();
      expect(restRes.body).toEqual(gqlRes.body.data.resendActivation);
      expect(await actionsOf(t.orm, user)).toEqual(['activation_resend', 'activation_resend']);
    });

    it('errors carry the same code and status both ways', async () => {
      const { as } = await waiting({ linkExpiresIn: HOUR });
      const restRes = await resend(as);
      const gqlRes = await gql(t.app, route.document, {}, as);
      expect(gqlRes.status).toBe(200);
      expect(gqlRes.body.errors[0]).toMatchObject({
        message: restRes.body.message,
        extensions: { code: restRes.body.code, http: { status: restRes.status } },
      });
      const anonymous = await gql(t.app, route.document, {});
      expect(anonymous.body.errors[0].extensions).toEqual({
        code: 'auth:missing_token',
        http: { status: 401 },
      });
    });
  });
});
