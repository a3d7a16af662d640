import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { RequestListener } from 'node:http';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { ensureDatabase } from '../../src/db/database';
import { createOrm, migrate } from '../../src/orm';
import { type EmbeddedDatabase, freeLoopbackPort, startEmbeddedPostgres } from '../../src/db/embedded';
import { createLogger } from '../../src/logger';
import { buildAnime, buildManga, buildToken, buildUser } from '../factories';
import { gql, rest } from '../setup/clients';
import { testClientSecrets } from '../setup/client-secrets';

/**
 * A database outage against a real PostgreSQL: a private embedded cluster that the test
 * stops and starts again, on the same port, under the running app.
 */
jest.setTimeout(120_000);

let server: EmbeddedDatabase;
let dataDir: string;
let port: number;
let workDir: string;
let orm: MikroORM;
let app: RequestListener;
let stopApp: () => Promise<void>;
const logLines: string[] = [];
let token: string;
let mangaSlug: string;
let animeSlug: string;

beforeAll(async () => {
  // Enterable by other users: as root, the server runs as the `postgres` OS user.
  workDir = mkdtempSync(join(tmpdir(), 'catalog-outage-'));
  chmodSync(workDir, 0o755);
  dataDir = join(workDir, 'db');
  port = await freeLoopbackPort();
  server = await startEmbeddedPostgres({ dataDir, port });

  const url = await ensureDatabase(server.serverUrl, 'outage');
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'info', RATE_LIMIT: 'off' });
  const log = createLogger(config, { destination: { write: (line: string) => void logLines.push(line) } });
  orm = await createOrm(url, { poolMax: 4, log });
  await migrate(orm, testClientSecrets());
  const built = await buildApp({ orm, config, log });
  app = built.app;
  stopApp = built.stop;

  const user = await buildUser(orm);
  token = await buildToken(orm, user);
  mangaSlug = (await buildManga(orm)).slug;
  animeSlug = (await buildAnime(orm)).slug;
});

afterAll(async () => {
  await stopApp?.();
  await orm?.close(true);
  await server?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const mangaQuery = 'query($slug: String!) { manga(slug: $slug) { slug } }';
const loginMutation = 'mutation($input: LoginInput!) { login(input: $input) { secret } }';

/** Every request the outage test sends: reads and writes through both doors. */
const calls = () => ({
  restRead: rest(app, 'GET', `/manga/${mangaSlug}`),
  restWrite: rest(app, 'PUT', `/watch/${animeSlug}`, { status: 'watching' }, { token }),
  restWriteAnonymous: rest(app, 'POST', '/auth/login', { username: 'nobody_here', password: 'password' }),
  graphqlRead: gql(app, mangaQuery, { slug: mangaSlug }),
  graphqlWrite: gql(app, loginMutation, { input: { username: 'nobody_here', password: 'password' } }),
});

describe('while PostgreSQL is stopped', () => {
  afterEach(() => jest.restoreAllMocks());

  it('answers 503 system:unavailable with Retry-After everywhere, quickly, with a quiet log', async () => {
    // At least one pooled connection for the stop to break.
    await orm.em.getConnection().execute('select 1');
    await server.stop();
    logLines.length = 0;
    // knex would print each pooled connection the stop broke.
    const consoleLog = jest.spyOn(console, 'log');
    const started = Date.now();
    const { restRead, restWrite, restWriteAnonymous, graphqlRead, graphqlWrite } = calls();

    for (const res of [await restRead, await restWrite, await restWriteAnonymous]) {
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toEqual({
        message: 'Service temporarily unavailable, try again later',
        code: 'system:unavailable',
      });
    }
    for (const res of [await graphqlRead, await graphqlWrite]) {
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body.errors).toEqual([
        expect.objectContaining({
          message: 'Service temporarily unavailable, try again later',
          extensions: { code: 'system:unavailable', http: { status: 503 } },
        }),
      ]);
    }
    const ukrainian = await rest(app, 'GET', `/manga/${mangaSlug}`, undefined, { language: 'uk' });
    expect(ukrainian.body).toEqual({
      message: 'Сервіс тимчасово недоступний, спробуйте пізніше',
      code: 'system:unavailable',
    });
    expect((await rest(app, 'GET', '/readyz')).status).toBe(503);
    // Connection refused fails at once: nothing waits for the pool or the request timeout.
    expect(Date.now() - started).toBeLessThan(5_000);

    // One line per failed request, one summary of them and one of the driver's warnings, no stack anywhere.
    expect(consoleLog.mock.calls).toEqual([]);
    const lines = logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logLines.filter((line) => line.includes('stack'))).toEqual([]);
    const requestLines = lines.filter((line) => 'responseTime' in line);
    expect(requestLines.map((line) => (line.res as { statusCode: number }).statusCode)).toEqual(
      Array(6).fill(503),
    );
    const summaries = lines.filter((line) => /^database unavailable: /.test(String(line.msg)));
    expect(summaries).toEqual([
      expect.objectContaining({ msg: 'database unavailable: 1 request failed in the last 1s', failed: 1 }),
    ]);
    const driverLines = lines.filter((line) => /^database driver: /.test(String(line.msg)));
    expect(driverLines).toEqual([
      expect.objectContaining({
        msg: 'database driver: 1 warning in the last 1s',
        cause: expect.stringMatching(/^Connection Error: /),
      }),
    ]);
    expect(lines).toHaveLength(requestLines.length + summaries.length + driverLines.length);
  });
});

describe('once PostgreSQL is back', () => {
  it('answers again without a restart of the service', async () => {
    server = await startEmbeddedPostgres({ dataDir, port });
    expect((await rest(app, 'GET', '/readyz')).status).toBe(200);
    const { restRead, restWrite, graphqlRead } = calls();
    expect((await restRead).status).toBe(200);
    expect((await restWrite).status).toBe(200);
    const read = await graphqlRead;
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({ manga: { slug: mangaSlug } });
    const write = await calls().graphqlWrite;
    expect(write.body.errors[0].extensions.code).toBe('auth:user_not_found');
  });
});
