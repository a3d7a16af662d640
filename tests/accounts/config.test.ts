import { ConfigError, DEFAULT_RESERVED_USERNAMES, loadConfig } from '../../src/config';

/** §7.25: the account settings of the configuration. */
describe('account configuration', () => {
  it('defaults: no SMTP (log), captcha off, no allow-list, the default reserved names', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      smtpUrl: undefined,
      mailFrom: 'no-reply@localhost',
      signupCaptcha: { kind: 'off' },
      signupAllowlist: [],
    });
    expect(config.reservedUsernames).toEqual(DEFAULT_RESERVED_USERNAMES);
    expect(config.reservedUsernames).toEqual(expect.arrayContaining(['admin', 'api', 'auth', 'www']));
  });

  it('MAIL_FROM defaults to no-reply at the host of PUBLIC_URL', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://catalog.example.org' }).mailFrom).toBe(
      'no-reply@catalog.example.org',
    );
    expect(loadConfig({ MAIL_FROM: 'Catalog <a@b.example>' }).mailFrom).toBe('Catalog <a@b.example>');
  });

  it('reads SMTP_URL, SIGNUP_CAPTCHA, SIGNUP_ALLOWLIST and RESERVED_USERNAMES', () => {
    const config = loadConfig({
      SMTP_URL: 'smtps://user:pass@mail.example.org:465',
      SIGNUP_CAPTCHA: 'secret:abc',
      SIGNUP_ALLOWLIST: ' A@Example.com ,@Staff.example.org,,',
      RESERVED_USERNAMES: 'Bot_Name, other_name',
    });
    expect(config).toMatchObject({
      smtpUrl: 'smtps://user:pass@mail.example.org:465',
      signupCaptcha: { kind: 'secret', secret: 'abc' },
      signupAllowlist: ['a@example.com', '@staff.example.org'],
      reservedUsernames: ['bot_name', 'other_name'],
    });
    expect(
      loadConfig({ SIGNUP_CAPTCHA: 'https://verify.example/siteverify?secret=x' }).signupCaptcha,
    ).toEqual({
      kind: 'service',
      url: 'https://verify.example/siteverify?secret=x',
    });
    expect(loadConfig({ SIGNUP_CAPTCHA: 'OFF' }).signupCaptcha).toEqual({ kind: 'off' });
  });

  it.each([
    [{ SMTP_URL: 'http://mail.example.org' }, /SMTP_URL/],
    [{ SMTP_URL: 'not a url' }, /SMTP_URL/],
    [{ SIGNUP_CAPTCHA: 'on' }, /SIGNUP_CAPTCHA/],
    [{ SIGNUP_CAPTCHA: 'secret:' }, /SIGNUP_CAPTCHA/],
    [{ SIGNUP_ALLOWLIST: 'example.com' }, /SIGNUP_ALLOWLIST/],
  ])('rejects %p with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
