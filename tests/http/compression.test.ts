import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { MikroORM } from '@mikro-orm/postgresql';
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildNovel } from '../factories';
import { openTestOrm, resetDatabase } from '../setup/db';
import { type HttpTestApp, startHttpApp } from './http-app';

/**
 * The HTTP layer compresses answers of every door (REST, /graphql, the docs) when the
 * client accepts `br` or `gzip`, from COMPRESSION_MIN_BYTES of body on (0: never).
 */
let orm: MikroORM;
let compressing: HttpTestApp;
let never: HttpTestApp;

beforeAll(async () => {
  orm = await openTestOrm();
  await resetDatabase(orm);
  for (let i = 0; i < 40; i += 1)
    await buildNovel(orm, { slug: `novel-${i}`, synopsis_en: 'A long synopsis. '.repeat(20) });
  compressing = await startHttpApp(orm, {});
  never = await startHttpApp(orm, { COMPRESSION_MIN_BYTES: '0' });
});

afterAll(async () => {
  await compressing.stop();
  await never.stop();
  await orm.close();
});

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as sent (supertest would decode it). */
  body: Buffer;
}

/** One request to `app` over a real socket, the answer read as sent. */
async function send(
  app: HttpTestApp,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<RawAnswer> {
  const server = createServer(app.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise<RawAnswer>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.on('error', reject);
      if (body !== undefined) {
        req.setHeader('Content-Type', 'application/json');
        req.end(JSON.stringify(body));
      } else req.end();
    });
  } finally {
    server.close();
  }
}

const novelPage = (app: HttpTestApp, encoding?: string) =>
  send(app, 'POST', '/novel?size=40', encoding === undefined ? {} : { 'Accept-Encoding': encoding }, {});

describe('compressed answers', () => {
  it('a REST page in br or gzip, as the client asks, decoding to the JSON sent uncompressed', async () => {
    const plain = await novelPage(compressing, 'identity');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const json = JSON.parse(plain.body.toString());
    expect(json.list).toHaveLength(40);

    const br = await novelPage(compressing, 'gzip, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/Accept-Encoding/);
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(json);
    expect(br.body.length).toBeLessThan(plain.body.length / 4);

    const gzip = await novelPage(compressing, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.body).toString())).toEqual(json);
  });

  it('a /graphql answer and the docs too: one layer for every path', async () => {
    const graphql = await send(
      compressing,
      'POST',
      '/graphql',
      { 'Accept-Encoding': 'br' },
      { query: '{ novelSearch(page: 1, size: 40, input: {}) { list { slug synopsis_en } } }' },
    );
    expect(graphql.headers['content-encoding']).toBe('br');
    const body = JSON.parse(brotliDecompressSync(graphql.body).toString());
    expect(body.data.novelSearch.list).toHaveLength(40);

    const docs = await send(compressing, 'GET', '/openapi.json', { 'Accept-Encoding': 'gzip' });
    expect(docs.headers['content-encoding']).toBe('gzip');
  });

  it('not below the threshold, nor when the client asks for none', async () => {
    // A small answer of a door that compresses above the threshold.
    const small = await send(
      compressing,
      'POST',
      '/graphql',
      { 'Accept-Encoding': 'br' },
      { query: '{ __typename }' },
    );
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString()).data).toEqual({ __typename: 'Query' });
    for (const encoding of [undefined, 'identity', 'deflate']) {
      const unasked = await novelPage(compressing, encoding);
      expect(unasked.status).toBe(200);
      expect(unasked.headers['content-encoding']).toBeUndefined();
      expect(unasked.headers['vary']).toMatch(/Accept-Encoding/);
    }
  });

  it('never with COMPRESSION_MIN_BYTES=0', async () => {
    const res = await novelPage(never, 'br, gzip');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(res.body.toString()).list).toHaveLength(40);
  });
});
