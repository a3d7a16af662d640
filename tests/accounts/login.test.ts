import bcrypt from 'bcryptjs';
import { AuthToken } from '../../src/accounts/auth-token.entity';
import { hashPassword } from '../../src/accounts/passwords';
import { hashSecret } from '../../src/common/auth/secrets';
import { buildUser } from '../factories';
import { gql, rest } from '../setup/clients';
import { sortedKeys } from '../setup/json';
import { actionsOf, storedUser, useAccountsApp } from './helpers';

/** §3.1 POST /auth/login: by email or username, errors in order, and the GraphQL `login` mutation. */
const t = useAccountsApp();

const login = (body: unknown) => rest(t.app, 'POST', '/auth/login', body);
const PASSWORD = 'correct horse';

async function account(o: Parameters<typeof buildUser>[1] = {}) {
  return buildUser(t.orm, {
    username: 'Reader_One',
    email: 'Reader.One@Example.com',
    password_hash: await hashPassword(PASSWORD),
    ...o,
  });
}

describe('POST /auth/login', () => {
  describe('success', () => {
    it('by username, ignoring case: a first-party TokenResponse expiring in 30 minutes', async () => {
      const user = await account();
      const res = await login({ username: 'reader_ONE', password: PASSWORD });
      expect(res.status).toBe(200);
      expect(sortedKeys(res.body)).toEqual(['created', 'expiration', 'secret']);
      expect(res.body.expiration - res.body.created).toBe(30 * 60);
      const token = await t.orm.em
        .fork()
        .findOneOrFail(AuthToken, { secret_hash: hashSecret(res.body.secret) }, { populate: ['user'] });
      expect(token.user.reference).toBe(user.reference);
      expect(token.client).toBeNull();
      expect(token.scope).toEqual([]);
      expect(await actionsOf(t.orm, user)).toEqual(['login']);
    });

    it('by email, ignoring case', async () => {
      await account();
      expect((await login({ email: 'reader.one@example.COM', password: PASSWORD })).status).toBe(200);
    });

    it('email wins when both identifiers are sent', async () => {
      await account();
      await buildUser(t.orm, { username: 'other_user', password_hash: await hashPassword('other password') });
      const byEmail = await login({
        email: 'reader.one@example.com',
        username: 'other_user',
        password: PASSWORD,
      });
      expect(byEmail.status).toBe(200);
      const unknownEmail = await login({
        email: 'nobody@example.com',
        username: 'reader_one',
        password: PASSWORD,
      });
      expect(unknownEmail.body.code).toBe('auth:user_not_found');
    });

    it('each login issues a new token; earlier ones keep working', async () => {
      await account();
      const first = await login({ username: 'reader_one', password: PASSWORD });
      const second = await login({ username: 'reader_one', password: PASSWORD });
      expect(first.body.secret).not.toBe(second.body.secret);
      expect(await t.orm.em.fork().count(AuthToken, {})).toBe(2);
    });

    it('works for accounts that are not activated or banned (the token is refused on use instead)', async () => {
      await account({ role: 'not_activated', email_confirmed: false });
      expect((await login({ username: 'reader_one', password: PASSWORD })).status).toBe(200);
      await account({ username: 'banned_one', email: 'banned@example.com', banned: true });
      const banned = await login({ username: 'banned_one', password: PASSWORD });
      expect(banned.status).toBe(200);
      const use = await rest(t.app, 'POST', '/auth/activation/resend', undefined, {
        token: banned.body.secret,
      });
      expect(use.body.code).toBe('auth:banned');
    });

    it('an imported bcrypt hash verifies and is replaced by argon2id', async () => {
      await account({ password_hash: bcrypt.hashSync(PASSWORD, 4) });
      expect((await login({ username: 'reader_one', password: PASSWORD })).status).toBe(200);
      const user = await storedUser(t.orm, 'Reader_One');
      expect(user.password_hash).toMatch(/^\$argon2id\$/);
      expect((await login({ username: 'reader_one', password: PASSWORD })).status).toBe(200);
    });
  });

  describe('errors, in order', () => {
    it('unknown account → 404 auth:user_not_found', async () => {
      await account();
      for (const body of [
        { username: 'nobody_here', password: PASSWORD },
        { email: 'nobody@example.com', password: PASSWORD },
      ]) {
        const res = await login(body);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: 'User not found', code: 'auth:user_not_found' });
      }
    });

    it('deleted account → 400 user:deleted, even with the wrong password', async () => {
      await account({ role: 'deleted' });
      for (const password of [PASSWORD, 'wrong password']) {
        const res = await login({ username: 'reader_one', password });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ message: 'Deleted', code: 'user:deleted' });
      }
    });

    it('wrong password → 401 auth:invalid_password, nothing issued or recorded', async () => {
      const user = await account();
      const res = await login({ username: 'reader_one', password: 'Correct horse' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Invalid password', code: 'auth:invalid_password' });
      expect(await t.orm.em.fork().count(AuthToken, {})).toBe(0);
      expect(await actionsOf(t.orm, user)).toEqual([]);
    });

    it('validation comes first', async () => {
      const res = await login({ username: 'nobody_here', password: 5 });
      expect(res.body).toEqual({
        message: 'Invalid field password in request body',
        code: 'system:validation_error',
      });
    });
  });

  describe('validation (400 system:validation_error)', () => {
    it.each([
      [{ username: 'a', password: PASSWORD, extra: 1 }, 'Invalid field extra in request body'],
      [{ email: 1, password: PASSWORD }, 'Invalid field email in request body'],
      [{ username: null, password: PASSWORD }, 'Invalid field username in request body'],
      [{ username: 'reader_one' }, 'Invalid field password in request body'],
      [{}, 'Invalid field password in request body'],
      [{ password: PASSWORD }, 'Invalid field in request body'],
    ])('%p → %s', async (body, message) => {
      const res = await login(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message, code: 'system:validation_error' });
    });
  });

  describe('GraphQL `login`', () => {
    const LOGIN = `mutation Login($input: LoginInput!) { login(input: $input) { secret created expiration } }`;

    it('issues a token like REST', async () => {
      await account();
      const res = await gql(t.app, LOGIN, { input: { username: 'reader_one', password: PASSWORD } });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.login.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it('a missing identifier is refused like REST; a wrong password answers 401 in extensions', async () => {
      await account();
      const missing = await gql(t.app, LOGIN, { input: { password: PASSWORD } });
      expect(missing.status).toBe(400);
      expect(missing.body.errors[0].extensions.code).toBe('system:validation_error');
      const wrong = await gql(t.app, LOGIN, { input: { username: 'reader_one', password: 'nope' } });
      expect(wrong.body.errors[0].extensions).toEqual({
        code: 'auth:invalid_password',
        http: { status: 401 },
      });
    });
  });
});
