import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

/** One email as the service composes it. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/** A way to deliver emails: SMTP in deployments, the log in development, a list in tests. */
export interface MailTransport {
  /** For the start-up banner and logs: `smtp` or `log`. */
  readonly kind: string;
  deliver(mail: OutgoingMail & { from: string }): Promise<void>;
  close(): void;
}

/** What a log line about an email may say: never its text, which can carry a secret link. */
export interface MailLabel {
  /** What the email is for, e.g. `activation`. */
  purpose: string;
  /** The recipient account's reference. */
  user: string;
}

/**
 * Sends emails in the background. Callers queue a message after their transaction
 * has committed, so a slow or unreachable mail server never delays or fails the
 * request and never rolls back what the email refers to; a failed delivery is logged
 * (without the message text) and the user can ask again (e.g. #1 resend).
 */
export class Mailer {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly transport: MailTransport,
    readonly from: string,
    private readonly log: Logger,
  ) {}

  get kind(): string {
    return this.transport.kind;
  }

  /** Hands `mail` to the transport without waiting; never throws. */
  queue(mail: OutgoingMail, label: MailLabel): void {
    const delivery = this.transport
      .deliver({ ...mail, from: this.from })
      .then(
        () => {
          // The log transport has already written the whole email.
          if (this.kind !== 'log') this.log.info({ mail: label, transport: this.kind }, 'email sent');
        },
        (error: unknown) => this.log.error({ mail: label, err: error }, 'email delivery failed'),
      )
      .finally(() => this.pending.delete(delivery));
    this.pending.add(delivery);
  }

  /** Resolves once every queued email has been delivered or has failed. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Waits for queued emails (at most `graceMs`), then releases the transport. */
  async close(graceMs = 10_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
      timer.unref();
    });
    await Promise.race([this.idle(), grace]);
    clearTimeout(timer);
    this.transport.close();
  }
}

/** Fails fast instead of nodemailer's two-minute defaults, so that failures show up in the log soon. */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** SMTP through nodemailer; the URL carries host, port, credentials and options (`?pool=true`, ...). */
export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport({ url, ...SMTP_TIMEOUTS });
  return {
    kind: 'smtp',
    deliver: async (mail) => {
      await transporter.sendMail(mail);
    },
    close: () => transporter.close(),
  };
}

/**
 * Development without a mail server: the whole email, link included, is written to
 * the log at `info`, so that a developer can follow it.
 */
export function logTransport(log: Logger): MailTransport {
  return {
    kind: 'log',
    deliver: async (mail) => {
      const { text, ...envelope } = mail;
      log.info({ email: envelope }, `email not sent (SMTP_URL is unset):\n${text}`);
    },
    close: () => undefined,
  };
}

/** SMTP when `SMTP_URL` is set, otherwise the log. */
export function createMailer(config: { smtpUrl: string | undefined; mailFrom: string }, log: Logger): Mailer {
  const transport = config.smtpUrl ? smtpTransport(config.smtpUrl) : logTransport(log);
  return new Mailer(transport, config.mailFrom, log);
}
