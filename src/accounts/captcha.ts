import { timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import type { CaptchaSetting } from '../config';

/** Whether the `captcha` request header passes; a missing header never does. */
export type CaptchaVerifier = (response: string | undefined) => Promise<boolean>;

const SERVICE_TIMEOUT_MS = 5_000;

function sameText(given: string, expected: string): boolean {
  const [a, b] = [Buffer.from(given), Buffer.from(expected)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Asks a siteverify-style service: the configured URL's query parameters (usually
 * `secret`) plus `response` are POSTed as a form to the URL without its query; the
 * answer must be JSON `{"success": true}`. An unreachable or failing service refuses
 * the captcha (and is logged), so a broken verifier never lets requests through.
 */
function serviceVerifier(serviceUrl: string, log: Logger): CaptchaVerifier {
  const url = new URL(serviceUrl);
  const form = new URLSearchParams(url.search);
  url.search = '';
  return async (response) => {
    if (!response) return false;
    const body = new URLSearchParams(form);
    body.set('response', response);
    try {
      const res = await fetch(url, { method: 'POST', body, signal: AbortSignal.timeout(SERVICE_TIMEOUT_MS) });
      if (!res.ok) {
        log.warn({ status: res.status }, 'captcha service answered an error');
        return false;
      }
      const answer = (await res.json()) as { success?: unknown };
      return answer.success === true;
    } catch (error) {
      log.warn({ err: error }, 'captcha service unreachable');
      return false;
    }
  };
}

/** The verifier `SIGNUP_CAPTCHA` describes, or null when captchas are off. */
export function captchaVerifier(setting: CaptchaSetting, log: Logger): CaptchaVerifier | null {
  switch (setting.kind) {
    case 'off':
      return null;
    case 'secret':
      return async (response) => response !== undefined && sameText(response, setting.secret);
    case 'service':
      return serviceVerifier(setting.url, log);
  }
}
