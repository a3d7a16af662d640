import { rest } from '../setup/clients';
import { signupBody, tokenInMail, useAccountsApp } from './helpers';

/**
 * Bar: no plaintext token or password is stored. Every column of every row of the
 * account tables is read as text after signup, resend, activation and login, and
 * none holds the password, a token secret or an activation token.
 */
const t = useAccountsApp();

const TABLES = ['user', 'auth_token', 'action_record'];

async function everyStoredValue(): Promise<string> {
  const connection = t.orm.em.getConnection();
  const dumps: string[] = [];
  for (const table of TABLES) {
    const rows = await connection.execute<{ row: string }[]>(
      `select row_to_json(t)::text as row from "${table}" t`,
    );
    dumps.push(...rows.map((r) => r.row));
  }
  return dumps.join('\n');
}

it('signup, resend, activation and login store neither passwords nor token secrets nor activation tokens', async () => {
  const body = signupBody({ password: 'Plain-Text-Password-42' });
  const secrets: string[] = [];
  const signup = await rest(t.app, 'POST', '/auth/signup', body);
  expect(signup.status).toBe(200);
  secrets.push(signup.body.secret);
  await t.mailer.idle();
  const firstLink = tokenInMail(t.sent[0].text);

  // Let the first link expire so that a second one is issued.
  await t.orm.em
    .getConnection()
    .execute(`update "user" set activation_expires = now() - interval '1 minute'`);
  const resend = await rest(t.app, 'POST', '/auth/activation/resend', undefined, {
    token: signup.body.secret,
  });
  expect(resend.status).toBe(200);
  await t.mailer.idle();
  const secondLink = tokenInMail(t.sent[1].text);

  const activation = await rest(t.app, 'POST', '/auth/activation', { token: secondLink });
  expect(activation.status).toBe(200);
  secrets.push(activation.body.secret);
  const login = await rest(t.app, 'POST', '/auth/login', { email: body.email, password: body.password });
  expect(login.status).toBe(200);
  secrets.push(login.body.secret);

  const stored = await everyStoredValue();
  expect(stored).toContain(body.username);
  expect(await t.orm.em.getConnection().execute(`select count(*)::int as n from auth_token`)).toEqual([
    { n: 3 },
  ]);
  for (const plain of [body.password, ...secrets, firstLink, secondLink]) {
    expect(stored).not.toContain(plain);
    // Not even in another encoding of the same bytes.
    expect(stored).not.toContain(Buffer.from(plain).toString('hex'));
    expect(stored).not.toContain(Buffer.from(plain).toString('base64'));
  }
});

it('a pending activation link is stored only as its hash', async () => {
  const signup = await rest(t.app, 'POST', '/auth/signup', signupBody());
  expect(signup.status).toBe(200);
  await t.mailer.idle();
  const link = tokenInMail(t.sent[0].text);
  const stored = await everyStoredValue();
  expect(stored).not.toContain(link);
  expect(stored).not.toContain(signup.body.secret);
});
