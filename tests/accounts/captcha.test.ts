import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gql, rest } from '../setup/clients';
import { withConflictingActionRecords } from '../setup/db';
import { signupBody, useAccountsApp } from './helpers';

/** §3.1: a deployment may configure a captcha verifier (`SIGNUP_CAPTCHA`) for signup and login. */
const INVALID = { message: 'Invalid captcha', code: 'captcha:invalid' };

describe('without SIGNUP_CAPTCHA (the default)', () => {
  const t = useAccountsApp();

  it('signup and login need no captcha header', async () => {
    const body = signupBody();
    expect((await rest(t.app, 'POST', '/auth/signup', body)).status).toBe(200);
    const login = await rest(t.app, 'POST', '/auth/login', {
      username: body.username,
      password: body.password,
    });
    expect(login.status).toBe(200);
  });
});

describe('SIGNUP_CAPTCHA=secret:<value>', () => {
  const t = useAccountsApp({ env: { SIGNUP_CAPTCHA: 'secret:let-me-in' } });
  const signup = (body: unknown, captcha?: string) => {
    const call = rest(t.app, 'POST', '/auth/signup', body);
    return captcha === undefined ? call : call.set('captcha', captcha);
  };

  it('a missing captcha header → 400 captcha:invalid', async () => {
    const res = await signup(signupBody());
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID);
  });

  it('a wrong captcha header → 400 captcha:invalid', async () => {
    for (const captcha of ['let-me-out', 'LET-ME-IN', 'let-me-in2', '']) {
      expect((await signup(signupBody(), captcha)).body).toEqual(INVALID);
    }
  });

  it('the right one passes', async () => {
    expect((await signup(signupBody(), 'let-me-in')).status).toBe(200);
  });

  it('is checked right after validation: after the body, before the reserved name', async () => {
    expect((await signup(signupBody({ password: 'short' }))).body.code).toBe('system:validation_error');
    expect((await signup(signupBody({ username: 'admin' }))).body).toEqual(INVALID);
    expect((await signup(signupBody({ username: 'admin' }), 'let-me-in')).body.code).toBe(
      'auth:invalid_username',
    );
  });

  it('applies to login too, before the account look-up', async () => {
    const login = (captcha?: string) => {
      const call = rest(t.app, 'POST', '/auth/login', { username: 'nobody_here', password: 'x' });
      return captcha === undefined ? call : call.set('captcha', captcha);
    };
    expect((await login()).body).toEqual(INVALID);
    expect((await login('let-me-in')).body.code).toBe('auth:user_not_found');
  });

  it('GraphQL reads the same header', async () => {
    const doc = `mutation($input: SignupInput!) { signup(input: $input) { secret } }`;
    const refused = await gql(t.app, doc, { input: signupBody() });
    expect(refused.body.errors[0].extensions).toEqual({ code: 'captcha:invalid', http: { status: 400 } });
    const passed = await gql(t.app, doc, { input: signupBody() }).set('captcha', 'let-me-in');
    expect(passed.body.errors).toBeUndefined();
  });

  it('activation needs no captcha', async () => {
    const res = await rest(t.app, 'POST', '/auth/activation', { token: 'unknown' });
    expect(res.body.code).toBe('auth:activation_invalid');
  });
});

describe('SIGNUP_CAPTCHA=<URL of a verification service>', () => {
  /** A siteverify-style service: success when the form holds the right secret and response. */
  let service: Server;
  let port = 0;
  const received: URLSearchParams[] = [];
  let broken = false;
  beforeAll(async () => {
    service = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        received.push(form);
        if (broken) {
          res.writeHead(503).end();
          return;
        }
        const success = form.get('secret') === 's3cret' && form.get('response') === 'human';
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ success }));
      });
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    port = (service.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => service.close(resolve)));
  beforeEach(() => {
    received.length = 0;
    broken = false;
  });

  const t = useAccountsApp({
    env: () => ({ SIGNUP_CAPTCHA: `http://127.0.0.1:${port}/siteverify?secret=s3cret` }),
  });
  const signup = (captcha?: string) => {
    const call = rest(t.app, 'POST', '/auth/signup', signupBody());
    return captcha === undefined ? call : call.set('captcha', captcha);
  };

  it('POSTs the configured query parameters and the header as a form; success passes', async () => {
    expect((await signup('human')).status).toBe(200);
    expect(received).toHaveLength(1);
    expect(Object.fromEntries(received[0])).toEqual({ secret: 's3cret', response: 'human' });
  });

  it('success: false → 400 captcha:invalid', async () => {
    expect((await signup('robot')).body).toEqual(INVALID);
  });

  it('a missing header → 400 captcha:invalid without asking the service', async () => {
    expect((await signup()).body).toEqual(INVALID);
    expect(received).toHaveLength(0);
  });

  it('asks the service once for a signup run again after a transaction conflict (a response is good once)', async () => {
    const res = await withConflictingActionRecords(t.orm, { sqlstate: '40P01', times: 2 }, () =>
      signup('human'),
    );
    expect(res.status).toBe(200);
    expect(received).toHaveLength(1);
  });

  it('a failing service refuses the captcha (and is logged)', async () => {
    broken = true;
    expect((await signup('human')).body).toEqual(INVALID);
    expect(t.logs.some((line) => line.msg === 'captcha service answered an error')).toBe(true);
  });
});
