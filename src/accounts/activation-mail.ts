import type { Language } from '../common/errors/app-error';
import type { OutgoingMail } from '../mail/mailer';

/** Activation links live 3 hours (semantics §2 #1, §3.1). */
export const ACTIVATION_LIFETIME_MS = 3 * 60 * 60 * 1000;

/**
 * The link in the email: the frontend's activation page under `PUBLIC_URL`, which
 * posts the token to `POST /auth/activation`.
 */
export function activationLink(publicUrl: string, token: string): string {
  return `${publicUrl}/activation?token=${encodeURIComponent(token)}`;
}

/** The activation email, in the language of the request that caused it. */
export function activationMail(
  to: { email: string; username: string },
  link: string,
  language: Language,
): OutgoingMail {
  if (language === 'uk') {
    return {
      to: to.email,
      subject: 'Підтвердіть вашу пошту',
      text: [
        `Вітаємо, ${to.username}!`,
        '',
        'Щоб активувати обліковий запис, відкрийте посилання (воно дійсне 3 години):',
        link,
        '',
        'Якщо ви не реєструвалися, просто проігноруйте цей лист.',
      ].join('\n'),
    };
  }
  return {
    to: to.email,
    subject: 'Confirm your email',
    text: [
      `Hello, ${to.username}!`,
      '',
      'To activate your account, open this link (valid for 3 hours):',
      link,
      '',
      'If you did not sign up, ignore this email.',
    ].join('\n'),
  };
}
