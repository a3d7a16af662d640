import request from 'supertest';
import { rest } from '../setup/clients';
import { useTestApp } from '../setup/harness';

const t = useTestApp();

/** Every `src` and `href` of an HTML page. */
const urlsOf = (html: string) => [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);

describe('GET /docs and GET /openapi.json', () => {
  it('serves the document as JSON', async () => {
    const res = await rest(t.app, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.openapi).toBe('3.1.0');
  });

  it('serves an HTML page whose every URL is local', async () => {
    const res = await rest(t.app, 'GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).not.toMatch(/https?:\/\//);
    expect(res.text).not.toMatch(/(src|href)=["']\/\//);
    expect(urlsOf(res.text)).toEqual([
      '/docs/assets/favicon-32x32.png',
      '/docs/assets/swagger-ui.css',
      '/docs/assets/swagger-ui-bundle.js',
      '/docs/assets/docs.js',
    ]);
  });

  it.each([
    ['swagger-ui-bundle.js', /^text\/javascript/, 500_000],
    ['swagger-ui.css', /^text\/css/, 50_000],
    ['favicon-32x32.png', /^image\/png/, 100],
  ])('serves the asset %s with its content type and a cache lifetime', async (file, type, minBytes) => {
    // As stored: no compression asked for.
    const res = await request(t.app).get(`/docs/assets/${file}`).set('Accept-Encoding', 'identity');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(type);
    expect(Number(res.headers['content-length'])).toBeGreaterThan(minBytes);
    expect(res.headers['cache-control']).toMatch(/max-age=[1-9]/);
  });

  it('initialises Swagger UI on /openapi.json without the online validator', async () => {
    const res = await rest(t.app, 'GET', '/docs/assets/docs.js');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    const config = /var config = (\{.*\});/.exec(res.text)?.[1];
    expect(JSON.parse(config ?? 'null')).toMatchObject({
      url: '/openapi.json',
      validatorUrl: null,
      deepLinking: true,
      tryItOutEnabled: true,
    });
    expect(res.text).not.toMatch(/https?:\/\//);
  });

  it.each([
    'index.html',
    'swagger-initializer.js',
    'swagger-ui-bundle.js.map',
    '..%2Fpackage.json',
    'nope.js',
  ])('answers 404 for %s, which is not on the allow-list', async (file) => {
    const res = await rest(t.app, 'GET', `/docs/assets/${file}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: expect.any(String), code: 'system:not_found' });
  });

  it('lists no directory', async () => {
    const res = await rest(t.app, 'GET', '/docs/assets/');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'system:not_found' });
  });

  it('GET / links the reference, the document, GraphQL and the health check', async () => {
    const res = await rest(t.app, 'GET', '/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      docs: '/docs',
      openapi: '/openapi.json',
      graphql: '/graphql',
      health: '/healthz',
    });
    for (const path of Object.values(res.body as Record<string, string>)) {
      expect({ path, status: (await rest(t.app, 'GET', path)).status }).not.toEqual({ path, status: 404 });
    }
  });
});
