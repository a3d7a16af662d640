import { AuthToken } from '../../src/accounts/auth-token.entity';
import { hashSecret, newTokenSecret } from '../../src/common/auth/secrets';
import { buildUser } from '../factories';
import { gql, rest } from '../setup/clients';
import { sortedKeys } from '../setup/json';
import { actionsOf, signupBody, storedUser, tokenInMail, useAccountsApp } from './helpers';

/** §3.1 POST /auth/activation: the link's token confirms the email and activates the account. */
const t = useAccountsApp();

const activate = (body: unknown) => rest(t.app, 'POST', '/auth/activation', body);
const HOUR = 60 * 60 * 1000;

/** An account waiting for activation with a known token. */
async function pending(o: Parameters<typeof buildUser>[1] = {}, expiresInMs = HOUR) {
  const token = newTokenSecret();
  const user = await buildUser(t.orm, {
    role: 'not_activated',
    email_confirmed: false,
    activation_token_hash: hashSecret(token),
    activation_expires: new Date(Date.now() + expiresInMs),
    ...o,
  });
  return { user, token };
}

describe('POST /auth/activation', () => {
  describe('success', () => {
    it('confirms the email, makes the role user, clears the token, answers a token and records the action', async () => {
      const { user, token } = await pending();
      const res = await activate({ token });
      expect(res.status).toBe(200);
      expect(sortedKeys(res.body)).toEqual(['created', 'expiration', 'secret']);
      expect(res.body.expiration - res.body.created).toBe(30 * 60);

      const stored = await storedUser(t.orm, user.username);
      expect(stored).toMatchObject({
        role: 'user',
        email_confirmed: true,
        activation_token_hash: null,
        activation_expires: null,
      });
      const issued = await t.orm.em
        .fork()
        .findOneOrFail(AuthToken, { secret_hash: hashSecret(res.body.secret) }, { populate: ['user'] });
      expect(issued.user.reference).toBe(user.reference);
      expect(issued.client).toBeNull();
      expect(await actionsOf(t.orm, user)).toEqual(['activation']);
    });

    it('the whole flow: signup → link in the email → activation', async () => {
      const body = signupBody();
      await rest(t.app, 'POST', '/auth/signup', body);
      await t.mailer.idle();
      const res = await activate({ token: tokenInMail(t.sent[0].text) });
      expect(res.status).toBe(200);
      expect((await storedUser(t.orm, body.username)).role).toBe('user');
      expect(await actionsOf(t.orm, (await storedUser(t.orm, body.username)).reference)).toEqual([
        'signup',
        'activation',
      ]);
    });

    it('a staff role is kept (only not_activated becomes user)', async () => {
      const { user, token } = await pending({ role: 'moderator' });
      expect((await activate({ token })).status).toBe(200);
      expect((await storedUser(t.orm, user.username)).role).toBe('moderator');
    });

    it('a link works once: the second use → 400 auth:activation_invalid', async () => {
      const { token } = await pending();
      expect((await activate({ token })).status).toBe(200);
      expect((await activate({ token })).body.code).toBe('auth:activation_invalid');
    });
  });

  describe('errors, in order', () => {
    it('no account holds the token → 400 auth:activation_invalid', async () => {
      await pending();
      for (const token of [newTokenSecret(), '', 'x']) {
        const res = await activate({ token });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ message: 'Activation token is invalid', code: 'auth:activation_invalid' });
      }
    });

    it('deleted account → 400 user:deleted (before expiry)', async () => {
      const { token } = await pending({ role: 'deleted' }, -HOUR);
      const res = await activate({ token });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'Deleted', code: 'user:deleted' });
    });

    it('expired → 400 auth:activation_expired, and nothing changes', async () => {
      const { user, token } = await pending({}, -1000);
      const res = await activate({ token });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'Activation token has expired', code: 'auth:activation_expired' });
      const stored = await storedUser(t.orm, user.username);
      expect(stored).toMatchObject({ role: 'not_activated', email_confirmed: false });
      expect(await t.orm.em.fork().count(AuthToken, {})).toBe(0);
      expect(await actionsOf(t.orm, user)).toEqual([]);
    });

    it('Ukrainian messages', async () => {
      const res = await rest(t.app, 'POST', '/auth/activation', { token: 'x' }, { language: 'uk' });
      expect(res.body).toEqual({ message: 'Недійсний токен активації', code: 'auth:activation_invalid' });
    });
  });

  describe('validation', () => {
    it.each([
      [{}, 'Invalid field token in request body'],
      [{ token: 5 }, 'Invalid field token in request body'],
      [{ token: null }, 'Invalid field token in request body'],
      [{ token: 'x', extra: true }, 'Invalid field extra in request body'],
    ])('%p → %s', async (body, message) => {
      const res = await activate(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message, code: 'system:validation_error' });
    });
  });

  describe('GraphQL `activate`', () => {
    it('activates like REST and reports the same errors', async () => {
      const doc = `mutation($input: ActivationInput!) { activate(input: $input) { secret created expiration } }`;
      const { user, token } = await pending();
      const res = await gql(t.app, doc, { input: { token } });
      expect(res.body.errors).toBeUndefined();
      expect((await storedUser(t.orm, user.username)).role).toBe('user');
      const again = await gql(t.app, doc, { input: { token } });
      expect(again.body.errors[0].extensions).toEqual({
        code: 'auth:activation_invalid',
        http: { status: 400 },
      });
    });
  });
});
