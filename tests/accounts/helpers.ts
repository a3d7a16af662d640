import type { MikroORM } from '@mikro-orm/postgresql';
import type { RequestListener } from 'node:http';
import pino from 'pino';
import { ActionRecord } from '../../src/accounts/action-record.entity';
import { User } from '../../src/accounts/user.entity';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { createMailer, Mailer, type MailTransport, type OutgoingMail } from '../../src/mail/mailer';
import { openTestOrm, resetDatabase } from '../setup/db';

type Env = Record<string, string | undefined>;
export type SentMail = OutgoingMail & { from: string };

/** The real app on this worker's database, with the mail and log under the test's control. */
export interface AccountsApp {
  orm: MikroORM;
  app: RequestListener;
  mailer: Mailer;
  /** Emails delivered by the in-memory transport (empty when a real transport is used). */
  sent: SentMail[];
  /** Every log line the app wrote, parsed. */
  logs: Record<string, unknown>[];
  /** Makes the in-memory transport wait until the returned function is called. */
  holdDeliveries(): () => void;
}

export interface AccountsAppOptions {
  /** Environment on top of the process's; a function is read when the app starts. */
  env?: Env | (() => Env);
  /** `memory` (default) keeps emails in `sent`; `config` builds the transport from the configuration. */
  transport?: 'memory' | 'config';
}

/**
 * Like `useTestApp()`, but with an app-specific configuration (captcha, allow-list,
 * SMTP) and with the emails and log lines it produced visible to the test.
 */
export function useAccountsApp(options: AccountsAppOptions = {}): AccountsApp {
  let gate: Promise<void> = Promise.resolve();
  const handle = {
    sent: [],
    logs: [],
    holdDeliveries: () => {
      let release: () => void = () => undefined;
      gate = new Promise((resolve) => (release = resolve));
      return release;
    },
  } as unknown as AccountsApp;
  let stop: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    const extra = typeof options.env === 'function' ? options.env() : (options.env ?? {});
    const config = loadConfig({ ...process.env, LOG_LEVEL: 'info', ...extra });
    const log = pino(
      { level: 'info' },
      { write: (line: string) => void handle.logs.push(JSON.parse(line) as Record<string, unknown>) },
    );
    const memory: MailTransport = {
      kind: 'memory',
      deliver: async (mail) => {
        await gate;
        handle.sent.push(mail);
      },
      close: () => undefined,
    };
    const mailer =
      options.transport === 'config' ? createMailer(config, log) : new Mailer(memory, config.mailFrom, log);
    const orm = await openTestOrm();
    const app = await buildApp({ orm, config, log, mailer });
    Object.assign(handle, { orm, app: app.app, mailer });
    stop = async () => {
      await app.stop();
      await orm.close();
    };
  });
  beforeEach(async () => {
    await handle.mailer.idle();
    await resetDatabase(handle.orm);
    handle.sent.length = 0;
    handle.logs.length = 0;
  });
  afterAll(() => stop());
  return handle;
}

/** The activation token of a link in an email's text. */
export function tokenInMail(text: string): string {
  const match = /\/activation\?token=([A-Za-z0-9_-]+)/.exec(text);
  if (!match) throw new Error(`no activation link in: ${text}`);
  return match[1];
}

export const storedUser = (orm: MikroORM, username: string) =>
  orm.em.fork().findOneOrFail(User, { username });

export const actionsOf = async (orm: MikroORM, user: User | string) =>
  (
    await orm.em
      .fork()
      .find(
        ActionRecord,
        { user: typeof user === 'string' ? user : user.reference },
        { orderBy: { id: 'asc' } },
      )
  ).map((action) => action.type);

let counter = 0;
/** A valid signup body with unique names. */
export function signupBody(overrides: Record<string, unknown> = {}) {
  counter += 1;
  const id = `${Date.now().toString(36)}${counter}`;
  return {
    email: `reader${id}@example.com`,
    username: `reader_${id}`,
    password: 'correct horse',
    ...overrides,
  };
}

/** A Date about `ms` from `from` (one second of slack for the request itself). */
export function expectAbout(at: Date | number, expected: number, slackMs = 5_000): void {
  const value = typeof at === 'number' ? at : at.getTime();
  expect(Math.abs(value - expected)).toBeLessThanOrEqual(slackMs);
}
