import { account, validBody } from '../clients/helpers';
import { gql, rest } from '../setup/clients';
import { expectNotStored, storedText } from '../setup/stored-text';
import { signupBody, tokenInMail, useAccountsApp } from './helpers';

/**
 * Bar: no plaintext token, password or client secret is stored. Every column of every
 * row of every table is read as text (and the database dumped with pg_dump, where it is
 * installed) after the flows that handle them, and none holds one, in any encoding.
 */
const t = useAccountsApp();

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

  expect(await t.orm.em.getConnection().execute(`select count(*)::int as n from auth_token`)).toEqual([
    { n: 3 },
  ]);
  expectNotStored(await storedText(t.orm), body.username, [body.password, ...secrets, firstLink, secondLink]);
});

it('a pending activation link is stored only as its hash', async () => {
  const signup = await rest(t.app, 'POST', '/auth/signup', signupBody());
  expect(signup.status).toBe(200);
  await t.mailer.idle();
  const link = tokenInMail(t.sent[0].text);
  expectNotStored(await storedText(t.orm), 'reader_', [link, signup.body.secret]);
});

it('registered clients’ secrets are stored only sealed; their owner still reads, uses and revokes them', async () => {
  const owner = await account(t.orm);
  const created = await rest(t.app, 'POST', '/client', { ...validBody(), name: 'Sealed tracker' }, owner.as);
  expect(created.status).toBe(200);
  const { reference, secret: first } = created.body;
  const revoked = await rest(t.app, 'PUT', `/client/${reference}`, { revoke_secret: true }, owner.as);
  const second: string = revoked.body.secret;
  expect(second).toMatch(/^[A-Za-z0-9_-]{128}$/);
  expect(second).not.toBe(first);

  // The owner sees the current secret through both interfaces.
  const full = await rest(t.app, 'GET', `/client/${reference}/full`, undefined, owner.as);
  expect(full.body.secret).toBe(second);
  const viaGraphQL = await gql(
    t.app,
    'query ($ref: String!) { clientFull(client_reference: $ref) { secret } }',
    { ref: reference },
    owner.as,
  );
  expect(viaGraphQL.body.data.clientFull.secret).toBe(second);

  // The token exchange opens the stored secret: the current one passes, the revoked one not.
  const user = await account(t.orm);
  const exchange = async (secret: string) => {
    const request = await rest(
      t.app,
      'POST',
      `/auth/token/request/${reference}`,
      { scope: ['readlist'] },
      user.as,
    );
    return rest(t.app, 'POST', '/auth/token', {
      request_reference: request.body.reference,
      client_secret: secret,
    });
  };
  expect((await exchange(first)).status).toBe(401);
  expect((await exchange(second)).status).toBe(200);

  expectNotStored(await storedText(t.orm), 'Sealed tracker', [first, second]);
});
