import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../../src/config';
import { createMailer } from '../../src/mail/mailer';
import { hashSecret } from '../../src/common/auth/secrets';
import { rest } from '../setup/clients';
import { signupBody, storedUser, tokenInMail, useAccountsApp } from './helpers';

/**
 * Activation emails through a real SMTP listener on loopback: the email arrives with
 * its link, and a mail server that is down fails nothing (the token is kept, the
 * failure is logged, resend recovers).
 */
interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** An SMTP server on 127.0.0.1 that keeps what it receives. */
class Inbox {
  readonly messages: Received[] = [];
  private server?: SMTPServer;

  async start(port = 0): Promise<number> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          this.messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    const server = this.server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return (server.server.address() as AddressInfo).port;
  }

  stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

/** The decoded text body of a raw message (quoted-printable soft breaks undone). */
function bodyText(raw: string): string {
  const body = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  return body
    .replace(/=\r\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('with SMTP_URL pointing at a running server', () => {
  const inbox = new Inbox();
  let port = 0;
  beforeAll(async () => {
    port = await inbox.start();
  });
  afterAll(() => inbox.stop());
  beforeEach(() => {
    inbox.messages.length = 0;
  });

  const t = useAccountsApp({
    transport: 'config',
    env: () => ({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      MAIL_FROM: 'Catalog <accounts@catalog.example.org>',
      PUBLIC_URL: 'https://catalog.example.org/',
    }),
  });

  it('signup emails the activation link; following it activates the account', async () => {
    const body = signupBody();
    expect((await rest(t.app, 'POST', '/auth/signup', body)).status).toBe(200);
    await t.mailer.idle();

    expect(inbox.messages).toHaveLength(1);
    const [message] = inbox.messages;
    expect(message.from).toBe('accounts@catalog.example.org');
    expect(message.to).toEqual([body.email]);
    expect(message.raw).toMatch(/^Subject: Confirm your email\r$/m);
    const text = bodyText(message.raw);
    expect(text).toMatch(/https:\/\/catalog\.example\.org\/activation\?token=[A-Za-z0-9_-]{43}/);

    const token = tokenInMail(text);
    expect(hashSecret(token)).toBe((await storedUser(t.orm, body.username)).activation_token_hash);
    expect((await rest(t.app, 'POST', '/auth/activation', { token })).status).toBe(200);
    expect((await storedUser(t.orm, body.username)).role).toBe('user');
    expect(t.logs.some((line) => line.msg === 'email sent')).toBe(true);
  });

  it('resend emails a new link', async () => {
    const signup = await rest(t.app, 'POST', '/auth/signup', signupBody());
    await t.orm.em
      .getConnection()
      .execute(`update "user" set activation_expires = now() - interval '1 minute'`);
    expect(
      (await rest(t.app, 'POST', '/auth/activation/resend', undefined, { token: signup.body.secret })).status,
    ).toBe(200);
    await t.mailer.idle();
    expect(inbox.messages).toHaveLength(2);
    const [first, second] = inbox.messages.map((m) => tokenInMail(bodyText(m.raw)));
    expect(first).not.toBe(second);
  });
});

describe('with SMTP_URL pointing at a server that is down', () => {
  let port = 0;
  const inbox = new Inbox();
  beforeAll(async () => {
    port = await closedPort();
  });
  afterAll(() => inbox.stop());

  const t = useAccountsApp({ transport: 'config', env: () => ({ SMTP_URL: `smtp://127.0.0.1:${port}` }) });

  it('signup still succeeds, keeps the token, logs the failure without the link; resend recovers later', async () => {
    const body = signupBody();
    const signup = await rest(t.app, 'POST', '/auth/signup', body);
    expect(signup.status).toBe(200);
    await t.mailer.idle();

    const user = await storedUser(t.orm, body.username);
    expect(user.activation_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(user.activation_expires!.getTime()).toBeGreaterThan(Date.now());
    const failure = t.logs.find((line) => line.msg === 'email delivery failed');
    expect(failure).toMatchObject({ level: 50, mail: { purpose: 'activation', user: user.reference } });
    expect(JSON.stringify(t.logs)).not.toMatch(/activation\?token=/);

    // The mail server comes back; once the lost link has expired, resend sends a new one.
    await inbox.start(port);
    await t.orm.em
      .getConnection()
      .execute(`update "user" set activation_expires = now() - interval '1 minute'`);
    const resend = await rest(t.app, 'POST', '/auth/activation/resend', undefined, {
      token: signup.body.secret,
    });
    expect(resend.status).toBe(200);
    await t.mailer.idle();
    expect(inbox.messages).toHaveLength(1);
    const token = tokenInMail(bodyText(inbox.messages[0].raw));
    expect((await rest(t.app, 'POST', '/auth/activation', { token })).status).toBe(200);
  });
});

describe('without SMTP_URL', () => {
  it('writes the whole email, link included, to the log', async () => {
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const mailer = createMailer({ smtpUrl: undefined, mailFrom: 'no-reply@localhost' }, log);
    expect(mailer.kind).toBe('log');
    mailer.queue(
      { to: 'reader@example.com', subject: 'Confirm your email', text: 'open http://x/activation?token=abc' },
      { purpose: 'activation', user: 'u' },
    );
    await mailer.idle();
    const written = lines.find(
      (line) => typeof line.msg === 'string' && line.msg.includes('SMTP_URL is unset'),
    );
    expect(written?.msg).toContain('http://x/activation?token=abc');
    expect(written?.email).toMatchObject({ to: 'reader@example.com', from: 'no-reply@localhost' });
    await mailer.close();
  });

  it('the app uses the log transport by default', async () => {
    const log = pino({ level: 'silent' });
    expect(createMailer(loadConfig({}), log).kind).toBe('log');
    expect(createMailer(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' }), log).kind).toBe('smtp');
  });
});
