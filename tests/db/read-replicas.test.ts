import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { RequestListener } from 'node:http';
import pg from 'pg';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { ensureDatabase } from '../../src/db/database';
import { createOrm, migrate } from '../../src/orm';
import {
  type EmbeddedDatabase,
  freeLoopbackPort,
  serverOsUser,
  startEmbeddedPostgres,
} from '../../src/db/embedded';
import { createLogger } from '../../src/logger';
import { buildAnime, buildManga, buildToken, buildUser } from '../factories';
import { gql, rest } from '../setup/clients';
import { testClientSecrets } from '../setup/client-secrets';

/**
 * Read replicas against real PostgreSQL streaming replication: a private embedded
 * primary, and a hot standby made from a file-system copy of it (a base backup taken
 * while the primary was stopped), streaming from it. Pausing the standby's replay makes
 * it visibly behind, so each read shows which server answered it.
 */
jest.setTimeout(120_000);

const DATABASE = 'replicated';
let workDir: string;
let primaryDir: string;
let replicaDir: string;
let primaryPort: number;
let replicaPort: number;
let primary: EmbeddedDatabase;
let replica: EmbeddedDatabase;
let primarySql: pg.Client;
let orm: MikroORM;
let app: RequestListener;
let stopApp: () => Promise<void>;
let token: string;
let mangaSlug: string;
let animeSlug: string;

const urlOf = (server: EmbeddedDatabase) => {
  const url = new URL(server.serverUrl);
  url.pathname = `/${DATABASE}`;
  return url.toString();
};

/** Runs one statement on the standby, on a connection of its own. */
async function onReplica<Row extends object>(text: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: urlOf(replica) });
  await client.connect();
  try {
    return (await client.query<Row>(text)).rows;
  } finally {
    await client.end();
  }
}

/** Waits until the standby has replayed everything the primary has written so far. */
async function replicaCaughtUp(): Promise<void> {
  const [{ lsn }] = (await primarySql.query<{ lsn: string }>('select pg_current_wal_lsn() as lsn')).rows;
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const [{ done }] = await onReplica<{ done: boolean }>(
      `select pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn as done`,
    );
    if (done) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the replica did not catch up');
}

/** Turns a stopped copy of the primary's data directory into a standby streaming from it. */
function makeStandby(dataDir: string): void {
  execFileSync('cp', ['-a', primaryDir, dataDir]);
  appendFileSync(
    join(dataDir, 'postgresql.auto.conf'),
    `primary_conninfo = 'host=127.0.0.1 port=${primaryPort} user=postgres password=postgres'\n`,
  );
  const signal = join(dataDir, 'standby.signal');
  writeFileSync(signal, '');
  const user = serverOsUser();
  if (user) chownSync(signal, user.uid, user.gid);
}

const startReplica = () => startEmbeddedPostgres({ dataDir: replicaDir, port: replicaPort });

async function setTitle(title: string): Promise<void> {
  await primarySql.query('update manga set title_en = $1 where slug = $2', [title, mangaSlug]);
}

const mangaTitle = 'query($slug: String!) { manga(slug: $slug) { title_en } }';

beforeAll(async () => {
  // Enterable by other users: as root, the servers run as the `postgres` OS user.
  workDir = mkdtempSync(join(tmpdir(), 'catalog-replicas-'));
  chmodSync(workDir, 0o755);
  primaryDir = join(workDir, 'primary');
  replicaDir = join(workDir, 'replica');
  primaryPort = await freeLoopbackPort();
  replicaPort = await freeLoopbackPort();

  // The schema first, then the copy: the standby starts with it.
  primary = await startEmbeddedPostgres({ dataDir: primaryDir, port: primaryPort });
  const setup = await createOrm(await ensureDatabase(primary.serverUrl, DATABASE), { poolMax: 2 });
  await migrate(setup, testClientSecrets());
  await setup.close();
  await primary.stop();
  makeStandby(replicaDir);
  primary = await startEmbeddedPostgres({ dataDir: primaryDir, port: primaryPort });
  replica = await startReplica();
  primarySql = new pg.Client({ connectionString: urlOf(primary) });
  await primarySql.connect();

  const config = loadConfig({ ...process.env, RATE_LIMIT: 'off', LOG_LEVEL: 'silent' });
  const log = createLogger(config);
  orm = await createOrm(urlOf(primary), { replicaUrls: [urlOf(replica)], poolMax: 4, log });
  ({ app, stop: stopApp } = await buildApp({ orm, config, log }));

  const user = await buildUser(orm);
  token = await buildToken(orm, user);
  mangaSlug = (await buildManga(orm, { title_en: 'Before' })).slug;
  animeSlug = (await buildAnime(orm)).slug;
  await replicaCaughtUp();
});

afterAll(async () => {
  await stopApp?.();
  await orm?.close(true);
  await primarySql?.end();
  await replica?.stop();
  await primary?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

it('is a real streaming replica', async () => {
  const [{ state }] = (await primarySql.query<{ state: string }>('select state from pg_stat_replication'))
    .rows;
  expect(state).toBe('streaming');
  expect(await onReplica('select pg_is_in_recovery() as standby')).toEqual([{ standby: true }]);
});

describe('with the replica behind the primary', () => {
  beforeAll(async () => {
    await onReplica('select pg_wal_replay_pause()');
    await setTitle('After');
  });

  afterAll(async () => {
    await onReplica('select pg_wal_replay_resume()');
    await replicaCaughtUp();
  });

  it('answers anonymous reads from the replica, through both doors', async () => {
    const restRead = await rest(app, 'GET', `/manga/${mangaSlug}`);
    expect(restRead.status).toBe(200);
    expect(restRead.body.title_en).toBe('Before');
    const graphqlRead = await gql(app, mangaTitle, { slug: mangaSlug });
    expect(graphqlRead.body.data).toEqual({ manga: { title_en: 'Before' } });
    // A route that never looks at the caller reads the replica even when a token comes.
    const withToken = await rest(app, 'GET', `/manga/${mangaSlug}`, undefined, { token });
    expect(withToken.body.title_en).toBe('Before');
  });

  it('answers an authenticated caller from the primary', async () => {
    const read = await gql(app, mangaTitle, { slug: mangaSlug }, { token });
    expect(read.body.data).toEqual({ manga: { title_en: 'After' } });
  });

  it('lets a user read their own write at once', async () => {
    const put = await rest(app, 'PUT', `/watch/${animeSlug}`, { status: 'watching', episodes: 3 }, { token });
    expect(put.status).toBe(200);
    const own = await rest(app, 'GET', `/watch/${animeSlug}`, undefined, { token });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ status: 'watching', episodes: 3 });
    // The replica has not seen it: it is still behind.
    expect(await onReplica(`select count(*)::int as entries from watch_entry where episodes = 3`)).toEqual([
      { entries: 0 },
    ]);
  });

  it('reports the replica in /readyz', async () => {
    const ready = await rest(app, 'GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ok', replicas: [{ name: 'replica-1', status: 'up' }] });
  });
});

describe('with the replica stopped', () => {
  beforeAll(async () => {
    // Warm the pool's replica connections first: they break under the requests below.
    expect((await rest(app, 'GET', `/manga/${mangaSlug}`)).body.title_en).toBe('After');
    await replica.stop();
  });

  it('answers every read from the primary, and /readyz stays ready', async () => {
    for (let round = 0; round < 3; round += 1) {
      const restRead = await rest(app, 'GET', `/manga/${mangaSlug}`);
      expect(restRead.status).toBe(200);
      expect(restRead.body.title_en).toBe('After');
      const graphqlRead = await gql(app, mangaTitle, { slug: mangaSlug });
      expect(graphqlRead.body.data).toEqual({ manga: { title_en: 'After' } });
      const list = await rest(app, 'POST', '/novel?page=1&size=5', {});
      expect(list.status).toBe(200);
    }
    const ready = await rest(app, 'GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ok', replicas: [{ name: 'replica-1', status: 'down' }] });
  });

  it('sends anonymous reads to the replica again once it is back', async () => {
    replica = await startReplica();
    await replicaCaughtUp();
    const ready = await rest(app, 'GET', '/readyz');
    expect(ready.body).toEqual({ status: 'ok', replicas: [{ name: 'replica-1', status: 'up' }] });
    await onReplica('select pg_wal_replay_pause()');
    await setTitle('Latest');
    expect((await rest(app, 'GET', `/manga/${mangaSlug}`)).body.title_en).toBe('After');
    await onReplica('select pg_wal_replay_resume()');
  });
});
