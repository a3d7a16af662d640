import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MikroORM } from '@mikro-orm/postgresql';
import request from 'supertest';
import { buildManga } from '../factories';
import { openTestOrm, resetDatabase } from '../setup/db';
import { type HttpTestApp, startHttpApp } from './http-app';

/** The REST door (src/rest/rest-router.ts) answers on Node's own request and response, without express. */
let orm: MikroORM;
let app: HttpTestApp;

beforeAll(async () => {
  orm = await openTestOrm();
  await resetDatabase(orm);
  await buildManga(orm, { slug: 'door-manga' });
  app = await startHttpApp(orm, {});
});

afterAll(async () => {
  await app.stop();
  await orm.close();
});

/** One GET with the raw request target `target` (Node's client sends it as given). */
async function getTarget(server: Server, target: string): Promise<{ status: number; body: string }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: target }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the REST door', () => {
  it('answers HEAD as GET, with the same headers and no body', async () => {
    const get = await request(app.app).get('/manga/door-manga').expect(200);
    const head = await request(app.app).head('/manga/door-manga').expect(200);
    expect(head.text ?? '').toBe('');
    for (const header of ['etag', 'content-length', 'content-type', 'cache-control', 'vary'])
      expect([header, head.headers[header]]).toEqual([header, get.headers[header]]);
  });

  it('routes a request target in absolute form by its path, with its query', async () => {
    const server = createServer(app.app);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const { port } = server.address() as AddressInfo;
      const origin = await getTarget(server, '/manga/door-manga');
      const absolute = await getTarget(server, `http://127.0.0.1:${port}/manga/door-manga`);
      expect(absolute).toEqual(origin);
      expect(JSON.parse(origin.body)).toMatchObject({ slug: 'door-manga' });

      // Node's parser lets these targets through; they are no valid URL: a 404, and the service goes on.
      for (const target of ['http://[::1/manga/door-manga', `http://127.0.0.1:99999/manga/door-manga`]) {
        const unreadable = await getTarget(server, target);
        expect([target, unreadable.status]).toEqual([target, 404]);
        expect(JSON.parse(unreadable.body)).toEqual({
          message: expect.any(String),
          code: 'system:not_found',
        });
      }
      // Dot segments stay as sent, in either form, as express reads them: no route.
      expect((await getTarget(server, `http://127.0.0.1:${port}/x/../manga/door-manga`)).status).toBe(404);
      expect((await getTarget(server, '/x/../manga/door-manga')).status).toBe(404);
      expect(await getTarget(server, '/manga/door-manga')).toEqual(origin);

      const paged = await getTarget(server, `http://127.0.0.1:${port}/novel/door-novel/characters?size=0`);
      expect(paged.status).toBe(400);
      expect(JSON.parse(paged.body)).toMatchObject({ code: 'system:validation_error' });
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it('leaves the other paths to the rest of the layer: health checks, GraphQL, unknown paths', async () => {
    await request(app.app).get('/healthz').expect(200, { status: 'ok' });
    const graphql = await request(app.app)
      .post('/graphql')
      .send({ query: '{ manga(slug: "door-manga") { slug } }' })
      .expect(200);
    expect(graphql.body.data).toEqual({ manga: { slug: 'door-manga' } });
    const unknown = await request(app.app).get('/mangas/door-manga').expect(404);
    expect(unknown.body).toEqual({ message: expect.any(String), code: 'system:not_found' });
  });
});
