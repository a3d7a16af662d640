import { AuthToken } from '../../src/accounts/auth-token.entity';
import { hashSecret } from '../../src/common/auth/secrets';
import { buildUser } from '../factories';
import { gql, rest } from '../setup/clients';
import { sortedKeys } from '../setup/json';
import { actionsOf, expectAbout, signupBody, storedUser, tokenInMail, useAccountsApp } from './helpers';

/** §3.1 POST /auth/signup: rules, errors in order, effects, and the GraphQL `signup` mutation. */
const t = useAccountsApp({ env: { PUBLIC_URL: 'https://catalog.example.org' } });

const signup = (body: unknown, language?: string) => rest(t.app, 'POST', '/auth/signup', body, { language });

const SIGNUP = `mutation Signup($input: SignupInput!) { signup(input: $input) { secret created expiration } }`;

const THIRTY_MINUTES = 30 * 60 * 1000;
const THREE_HOURS = 3 * 60 * 60 * 1000;

describe('POST /auth/signup', () => {
  describe('success', () => {
    it('answers a TokenResponse of a first-party token expiring in 30 minutes', async () => {
      const before = Date.now();
      const res = await signup(signupBody());
      expect(res.status).toBe(200);
      expect(sortedKeys(res.body)).toEqual(['created', 'expiration', 'secret']);
      expect(res.body.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(res.body.expiration - res.body.created).toBe(30 * 60);
      expectAbout(res.body.created * 1000, before, 2000);

      const token = await t.orm.em
        .fork()
        .findOneOrFail(AuthToken, { secret_hash: hashSecret(res.body.secret) });
      expect(token.client).toBeNull();
      expect(token.scope).toEqual([]);
      expect(token.used).toBeNull();
      expectAbout(token.expiration, token.created.getTime() + THIRTY_MINUTES, 0);
    });

    it('creates a not activated account with a 3-hour activation link, argon2id hash and the signup action', async () => {
      const body = signupBody({ username: 'New_Reader', email: 'New.Reader@Example.com' });
      const before = Date.now();
      expect((await signup(body)).status).toBe(200);

      const user = await storedUser(t.orm, 'New_Reader');
      expect(user).toMatchObject({
        username: 'New_Reader',
        email: 'New.Reader@Example.com',
        role: 'not_activated',
        email_confirmed: false,
        banned: false,
      });
      expect(user.password_hash).toMatch(/^\$argon2id\$/);
      expect(user.activation_token_hash).toMatch(/^[0-9a-f]{64}$/);
      expectAbout(user.activation_expires!, before + THREE_HOURS);
      expect(user.last_active.getTime()).toBe(user.created.getTime());
      expectAbout(user.created, before);
      expect(await actionsOf(t.orm, user)).toEqual(['signup']);
    });

    it('emails the activation link PUBLIC_URL/activation?token=… whose token is the stored one', async () => {
      const body = signupBody();
      await signup(body);
      await t.mailer.idle();
      expect(t.sent).toHaveLength(1);
      const [mail] = t.sent;
      expect(mail.to).toBe(body.email);
      expect(mail.from).toBe('no-reply@catalog.example.org');
      expect(mail.text).toMatch(/https:\/\/catalog\.example\.org\/activation\?token=[A-Za-z0-9_-]{43}\n/);
      const user = await storedUser(t.orm, body.username);
      expect(hashSecret(tokenInMail(mail.text))).toBe(user.activation_token_hash);
    });

    it('writes the email in Ukrainian when the request prefers uk', async () => {
      await signup(signupBody(), 'uk-UA,uk;q=0.9');
      await t.mailer.idle();
      expect(t.sent[0].subject).toBe('Підтвердіть вашу пошту');
    });

    it('the token authenticates at once (and its first use slides it to 30 days)', async () => {
      const res = await signup(signupBody());
      const resend = await rest(t.app, 'POST', '/auth/activation/resend', undefined, {
        token: res.body.secret,
      });
      expect(resend.body.code).toBe('auth:activation_valid');
      const token = await t.orm.em
        .fork()
        .findOneOrFail(AuthToken, { secret_hash: hashSecret(res.body.secret) });
      expectAbout(token.expiration, Date.now() + 30 * 24 * 60 * 60 * 1000);
      expect(token.used).toBeInstanceOf(Date);
    });

    it.each(['abcde', 'A' + 'b'.repeat(63), 'user_1', 'X_9_y'])(
      'accepts the username %p',
      async (username) => {
        expect((await signup(signupBody({ username }))).status).toBe(200);
      },
    );

    it.each([8, 256])('accepts a password of %p characters', async (length) => {
      expect((await signup(signupBody({ password: 'p'.repeat(length) }))).status).toBe(200);
    });
  });

  describe('validation (400 system:validation_error)', () => {
    it.each([
      ['a username starting with a digit', { username: '1abcde' }, 'username'],
      ['a username of 4 characters', { username: 'abcd' }, 'username'],
      ['a username of 65 characters', { username: 'a'.repeat(65) }, 'username'],
      ['a username with a dash', { username: 'ab-cde' }, 'username'],
      ['a username with a space', { username: 'abc de' }, 'username'],
      ['a password of 7 characters', { password: 'p'.repeat(7) }, 'password'],
      ['a password of 257 characters', { password: 'p'.repeat(257) }, 'password'],
      ['a numeric password', { password: 12345678 }, 'password'],
      ['an email with +', { email: 'reader+tag@example.com' }, 'email'],
      ['an email without @', { email: 'reader.example.com' }, 'email'],
      ['an email without a domain dot', { email: 'reader@localhost' }, 'email'],
      ['a null email', { email: null }, 'email'],
      ['an unknown key', { role: 'admin' }, 'role'],
    ])('%s → Invalid field %s', async (_name, override, field) => {
      const res = await signup(signupBody(override));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: `Invalid field ${field} in request body`,
        code: 'system:validation_error',
      });
    });

    it('reports fields in the order email, username, password, then unknown keys', async () => {
      const res = await signup({ password: 'x', username: '1', email: 'bad', extra: 1 });
      expect(res.body.message).toBe('Invalid field email in request body');
      const missing = await signup({});
      expect(missing.body.message).toBe('Invalid field email in request body');
      const noPassword = await signup({ email: 'a@example.com', username: 'abcdef' });
      expect(noPassword.body.message).toBe('Invalid field password in request body');
    });

    it('a missing, non-object or non-JSON body names no field', async () => {
      for (const res of [
        await signup(undefined),
        await signup([1]),
        await rest(t.app, 'POST', '/auth/signup').set('Content-Type', 'text/plain').send('x'),
        await rest(t.app, 'POST', '/auth/signup').set('Content-Type', 'application/json').send('{bad'),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          message: 'Invalid field in request body',
          code: 'system:validation_error',
        });
      }
    });

    it('answers in Ukrainian when asked', async () => {
      const res = await signup(signupBody({ username: '1' }), 'uk');
      expect(res.body).toEqual({
        message: 'Некоректне поле username у запиті body',
        code: 'system:validation_error',
      });
    });

    it('creates nothing', async () => {
      await signup(signupBody({ password: 'short' }));
      expect(await t.orm.em.fork().count(AuthToken, {})).toBe(0);
      await t.mailer.idle();
      expect(t.sent).toEqual([]);
    });
  });

  describe('business rules, in order', () => {
    it.each(['admin', 'ADMIN', 'Admin', 'support', 'Webmaster'])(
      'a reserved username (%p, ignoring case) → 400 auth:invalid_username',
      async (username) => {
        const res = await signup(signupBody({ username }));
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ message: 'This username is reserved', code: 'auth:invalid_username' });
      },
    );

    it('a username taken, ignoring case → 409 auth:username_taken', async () => {
      await buildUser(t.orm, { username: 'Taken_Name' });
      const res = await signup(signupBody({ username: 'tAKEN_nAME' }));
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: 'Username already taken', code: 'auth:username_taken' });
    });

    it('an email taken, ignoring case → 409 auth:email_exists', async () => {
      await buildUser(t.orm, { email: 'Taken@Example.com' });
      const res = await signup(signupBody({ email: 'taken@EXAMPLE.com' }));
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: 'Email already in use', code: 'auth:email_exists' });
    });

    it('a deleted account still holds its username and email', async () => {
      await buildUser(t.orm, { username: 'gone_user', email: 'gone@example.com', role: 'deleted' });
      expect((await signup(signupBody({ username: 'gone_user' }))).body.code).toBe('auth:username_taken');
      expect((await signup(signupBody({ email: 'gone@example.com' }))).body.code).toBe('auth:email_exists');
    });

    it('validation → reserved name → username taken → email taken', async () => {
      await buildUser(t.orm, { username: 'taken_name', email: 'taken@example.com' });
      const bad = await signup({ email: 'taken@example.com', username: 'admin', password: 'short' });
      expect(bad.body.code).toBe('system:validation_error');
      const reserved = await signup({
        email: 'taken@example.com',
        username: 'admin',
        password: 'long enough',
      });
      expect(reserved.body.code).toBe('auth:invalid_username');
      const both = await signup({
        email: 'taken@example.com',
        username: 'taken_name',
        password: 'long enough',
      });
      expect(both.body.code).toBe('auth:username_taken');
      const email = await signup({
        email: 'taken@example.com',
        username: 'free_name',
        password: 'long enough',
      });
      expect(email.body.code).toBe('auth:email_exists');
    });

    it('the same username twice at the same time: one account, the other 409', async () => {
      const bodies = [signupBody({ username: 'race_name' }), signupBody({ username: 'RACE_NAME' })];
      const results = await Promise.all(bodies.map((body) => signup(body)));
      expect(results.map((res) => res.status).sort()).toEqual([200, 409]);
      expect(results.find((res) => res.status === 409)!.body.code).toBe('auth:username_taken');
    });
  });

  describe('GraphQL `signup`', () => {
    it('creates the account and answers the same TokenResponse shape', async () => {
      const body = signupBody();
      const res = await gql(t.app, SIGNUP, { input: body });
      expect(res.status).toBe(200);
      expect(res.body.errors).toBeUndefined();
      expect(sortedKeys(res.body.data.signup)).toEqual(['created', 'expiration', 'secret']);
      expect((await storedUser(t.orm, body.username)).role).toBe('not_activated');
    });

    it('refuses the inputs REST refuses, naming the same field (HTTP 400)', async () => {
      const res = await gql(t.app, SIGNUP, { input: signupBody({ email: 'a+b@example.com' }) });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].message).toBe('Invalid field email in request body');
      expect(res.body.errors[0].extensions.code).toBe('system:validation_error');
    });

    it('answers business errors with their code and REST status', async () => {
      const res = await gql(t.app, SIGNUP, { input: signupBody({ username: 'admin' }) });
      expect(res.status).toBe(200);
      expect(res.body.errors[0].extensions).toEqual({ code: 'auth:invalid_username', http: { status: 400 } });
    });
  });
});

describe('POST /auth/signup with a signup allow-list', () => {
  const a = useAccountsApp({ env: { SIGNUP_ALLOWLIST: 'Invited@Example.com, @staff.example.org' } });
  const call = (body: unknown) => rest(a.app, 'POST', '/auth/signup', body);

  it('an email outside the list → 403 auth:not_available', async () => {
    const res = await call(signupBody({ email: 'stranger@example.com' }));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      message: 'Signup is not available for this email',
      code: 'auth:not_available',
    });
  });

  it('a listed email (ignoring case) or an address of a listed domain may sign up', async () => {
    expect((await call(signupBody({ email: 'invited@EXAMPLE.com' }))).status).toBe(200);
    expect((await call(signupBody({ email: 'anyone@Staff.Example.org' }))).status).toBe(200);
    expect((await call(signupBody({ email: 'anyone@sub.staff.example.org' }))).status).toBe(403);
  });

  it('comes after the taken checks', async () => {
    await buildUser(a.orm, { email: 'stranger@example.com' });
    expect((await call(signupBody({ email: 'stranger@example.com' }))).body.code).toBe('auth:email_exists');
  });
});

describe('POST /auth/signup with configured reserved usernames', () => {
  const a = useAccountsApp({ env: { RESERVED_USERNAMES: ' Catalog_Bot ,editor' } });

  it('uses the configured list (trimmed, ignoring case) instead of the default', async () => {
    const reserved = await rest(a.app, 'POST', '/auth/signup', signupBody({ username: 'catalog_bot' }));
    expect(reserved.body.code).toBe('auth:invalid_username');
    expect((await rest(a.app, 'POST', '/auth/signup', signupBody({ username: 'admin' }))).status).toBe(200);
  });
});
