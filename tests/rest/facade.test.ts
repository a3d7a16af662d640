import { AuthToken } from '../../src/accounts/auth-token.entity';
import { User } from '../../src/accounts/user.entity';
import type { RestRoute } from '../../src/rest/route';
import { restRoutes } from '../../src/routes';
import { slugParam } from '../../src/rest/schemas';
import { buildManga, buildToken, buildUser } from '../factories';
import { rest } from '../setup/clients';
import { useTestApp } from '../setup/harness';

const MANGA_SLUG = `query ($slug: String!) { manga(slug: $slug) { slug } }`;

/** Routes that exist only in this test, to exercise the generic handler's auth and body rules. */
const testRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/test/required/{slug}',
    summary: 'Test: a manga for a caller',
    description: 'A route that needs authentication and checks its path parameter.',
    auth: 'required',
    params: { slug: { ...slugParam, pattern: '^[a-z-]+$' } },
    document: MANGA_SLUG,
    rootField: 'manga',
  },
  {
    method: 'POST',
    path: '/test/body',
    summary: 'Test: a manga named by the body',
    description: 'A route whose JSON body is checked and becomes the variables.',
    auth: 'none',
    params: {},
    body: {
      properties: {
        title: { type: 'string', minLength: 3 },
        tags: { type: 'array', maxItems: 3, items: { type: 'string' } },
        content: {
          type: ['object', 'null'],
          additionalProperties: false,
          properties: { slug: { type: 'string' } },
        },
      },
      required: ['title'],
    },
    document: MANGA_SLUG,
    rootField: 'manga',
    variables: ({ body }) => ({ slug: body?.title }),
  },
  {
    method: 'POST',
    path: '/test/{slug}',
    summary: 'Test: a manga by its slug',
    description: 'A route with a path parameter and no body.',
    auth: 'none',
    params: { slug: slugParam },
    document: MANGA_SLUG,
    rootField: 'manga',
  },
];

describe('REST facade', () => {
  const t = useTestApp([...testRoutes, ...restRoutes]);

  describe('required authentication comes first', () => {
    it('answers 401 auth:missing_token without a token, even when the path is invalid', async () => {
      const res = await rest(t.app, 'GET', '/test/required/BAD_SLUG');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Auth token is missing', code: 'auth:missing_token' });
    });

    it('answers 401 auth:invalid_token for an unknown token', async () => {
      const res = await rest(t.app, 'GET', '/test/required/x', undefined, { token: 'nope' });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('auth:invalid_token');
    });

    it('answers 401 auth:token_expired for an expired token', async () => {
      const user = await buildUser(t.orm);
      const token = await buildToken(t.orm, user, { expiration: new Date(Date.now() - 1000) });
      const res = await rest(t.app, 'GET', '/test/required/x', undefined, { token });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('auth:token_expired');
    });

    it('answers 403 auth:banned for a banned account', async () => {
      const user = await buildUser(t.orm, { banned: true });
      const token = await buildToken(t.orm, user);
      const res = await rest(t.app, 'GET', '/test/required/x', undefined, { token });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('auth:banned');
    });

    it('answers 400 user:deleted for a deleted account', async () => {
      const user = await buildUser(t.orm, { role: 'deleted' });
      const token = await buildToken(t.orm, user);
      const res = await rest(t.app, 'GET', '/test/required/x', undefined, { token });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'Deleted', code: 'user:deleted' });
    });

    it('validates the path after a valid token', async () => {
      const token = await buildToken(t.orm, await buildUser(t.orm));
      const res = await rest(t.app, 'GET', '/test/required/BAD_SLUG', undefined, { token });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: 'Invalid field slug in request path',
        code: 'system:validation_error',
      });
    });

    it('accepts the token from the auth cookie, and a non-empty header wins over the cookie', async () => {
      await buildManga(t.orm, { slug: 'found' });
      const token = await buildToken(t.orm, await buildUser(t.orm));
      const viaCookie = await rest(t.app, 'GET', '/test/required/found', undefined, { cookie: token });
      expect(viaCookie.status).toBe(200);
      const headerWins = await rest(t.app, 'GET', '/test/required/found', undefined, {
        cookie: token,
        token: 'bad-header-token',
      });
      expect(headerWins.body.code).toBe('auth:invalid_token');
    });
  });

  describe('token use', () => {
    it('slides a fresh token to 30 days and records its use', async () => {
      const user = await buildUser(t.orm);
      const token = await buildToken(t.orm, user, { expiration: new Date(Date.now() + 30 * 60 * 1000) });
      await rest(t.app, 'GET', '/test/required/x', undefined, { token });
      const [stored] = await t.orm.em.fork().find(AuthToken, { user: user.reference });
      const thirtyDays = Date.now() + 30 * 24 * 3600 * 1000;
      expect(Math.abs(stored.expiration.getTime() - thirtyDays)).toBeLessThan(60 * 1000);
      expect(stored.used).not.toBeNull();
    });

    it('does not write when the expiry is already recent enough', async () => {
      const user = await buildUser(t.orm);
      const expiration = new Date(Date.now() + 30 * 24 * 3600 * 1000 - 60 * 1000);
      const token = await buildToken(t.orm, user, { expiration });
      await rest(t.app, 'GET', '/test/required/x', undefined, { token });
      const [stored] = await t.orm.em.fork().find(AuthToken, { user: user.reference });
      expect(stored.used).toBeNull();
      expect(stored.expiration.getTime()).toBe(expiration.getTime());
    });

    it('refreshes last_active only when it is at least 5 minutes old', async () => {
      const stale = await buildUser(t.orm, { last_active: new Date(Date.now() - 10 * 60 * 1000) });
      const recentTime = new Date(Date.now() - 60 * 1000);
      const recent = await buildUser(t.orm, { last_active: recentTime });
      for (const user of [stale, recent]) {
        await rest(t.app, 'GET', '/test/required/x', undefined, { token: await buildToken(t.orm, user) });
      }
      const em = t.orm.em.fork();
      const staleNow = await em.findOneOrFail(User, { reference: stale.reference });
      const recentNow = await em.findOneOrFail(User, { reference: recent.reference });
      expect(Date.now() - staleNow.last_active.getTime()).toBeLessThan(60 * 1000);
      expect(recentNow.last_active.getTime()).toBe(recentTime.getTime());
    });
  });

  describe('body validation', () => {
    const post = (body: unknown, contentType = 'application/json') =>
      rest(t.app, 'POST', '/test/body')
        .set('Content-Type', contentType)
        .send(body as string);
    const invalid = (name?: string) => ({
      message: name ? `Invalid field ${name} in request body` : 'Invalid field in request body',
      code: 'system:validation_error',
    });

    it('rejects a missing body, malformed JSON, a non-object and a non-JSON content type without a name', async () => {
      expect((await rest(t.app, 'POST', '/test/body')).body).toEqual(invalid());
      expect((await post('{"title": ')).body).toEqual(invalid());
      expect((await post('[1, 2]')).body).toEqual(invalid());
      expect((await post('"title"')).body).toEqual(invalid());
      const textBody = await post('title=abc', 'text/plain');
      expect(textBody.status).toBe(400);
      expect(textBody.body).toEqual(invalid());
    });

    it('names the first missing required field for {}', async () => {
      const res = await post('{}');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid('title'));
    });

    it('reports fields in declared order, then unknown keys', async () => {
      expect(
        (await post(JSON.stringify({ zzz: 1, tags: ['a', 'b', 'c', 'd'], title: 'ok title' }))).body,
      ).toEqual(invalid('tags'));
      expect((await post(JSON.stringify({ zzz: 1, title: 'ok title' }))).body).toEqual(invalid('zzz'));
      expect((await post(JSON.stringify({ title: 'ab' }))).body).toEqual(invalid('title'));
    });

    it('names the top-level field for a nested violation, unknown nested keys included', async () => {
      const res = await post(JSON.stringify({ title: 'title', content: { slug: 'x', extra: true } }));
      expect(res.body).toEqual(invalid('content'));
    });

    it('accepts a JSON content type with parameters and runs the operation', async () => {
      await buildManga(t.orm, { slug: 'valid-title' });
      const res = await post(JSON.stringify({ title: 'valid-title' }), 'application/json; charset=utf-8');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ slug: 'valid-title' });
    });

    it('answers 413 system:payload_too_large for a body over 1 MiB', async () => {
      const res = await post(JSON.stringify({ title: 'x'.repeat(1024 * 1024 + 10) }));
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ message: 'Request body is too large', code: 'system:payload_too_large' });
    });

    it('ignores a body sent to a route without one', async () => {
      await buildManga(t.orm, { slug: 'plain' });
      const res = await rest(t.app, 'POST', '/test/plain')
        .set('Content-Type', 'application/json')
        .send('{"broken"');
      expect(res.status).toBe(200);
    });
  });

  describe('routing', () => {
    it('lets literal segments win over parameters', async () => {
      await buildManga(t.orm, { slug: 'body' });
      const literal = await rest(t.app, 'POST', '/test/body').send({});
      expect(literal.body).toEqual({
        message: 'Invalid field title in request body',
        code: 'system:validation_error',
      });
    });

    it('answers 405 with Allow on a known path with another method', async () => {
      const res = await rest(t.app, 'DELETE', '/test/body');
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('POST');
      expect(res.body).toEqual({ message: 'Method not allowed', code: 'system:method_not_allowed' });
    });

    it('answers errors in Ukrainian for Accept-Language uk', async () => {
      const res = await rest(t.app, 'GET', '/test/required/x', undefined, { language: 'en;q=0.5, uk-UA' });
      expect(res.body).toEqual({ message: 'Немає токену автентифікації', code: 'auth:missing_token' });
    });
  });
});
