import type { Logger } from 'pino';
import type { ClientSecretBox } from '../clients/client-secret-box';
import type { Config } from '../config';
import { createMailer, type Mailer } from '../mail/mailer';
import { captchaVerifier, type CaptchaVerifier } from './captcha';

/**
 * What the account flows (and the third-party clients' credentials) need from the
 * deployment, built once per app from the configuration and reached through the
 * request context.
 */
export interface AccountServices {
  mailer: Mailer;
  /** Base of the links in emails (`PUBLIC_URL`). */
  publicUrl: string;
  /** Null when `SIGNUP_CAPTCHA` is off. */
  captcha: CaptchaVerifier | null;
  /** Lower case, as the configuration gives them. */
  reservedUsernames: ReadonlySet<string>;
  /** Lower-case emails and `@domains`; empty: everyone may sign up. */
  signupAllowlist: readonly string[];
  /** Seals and opens registered clients' secrets (`CLIENT_SECRET_KEY`). */
  clientSecrets: ClientSecretBox;
}

export function createAccountServices(
  config: Config,
  log: Logger,
  clientSecrets: ClientSecretBox,
  mailer: Mailer = createMailer(config, log),
): AccountServices {
  return {
    mailer,
    publicUrl: config.publicUrl,
    captcha: captchaVerifier(config.signupCaptcha, log),
    reservedUsernames: new Set(config.reservedUsernames),
    signupAllowlist: config.signupAllowlist,
    clientSecrets,
  };
}
