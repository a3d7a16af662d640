import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import {
  binariesFor,
  dataDirFor,
  EmbeddedPostgresError,
  packagedBinaries,
  serverOsUser,
  startEmbeddedPostgres,
  userPasses,
  type OsUser,
} from '../../src/db/embedded';

/**
 * §4 of issue 10: as root, a checkout under a folder only root may enter (root's home,
 * any `mktemp -d`) must still start the embedded PostgreSQL, which runs as the `postgres`
 * OS user. Only root can switch users, so elsewhere these tests are skipped.
 */
const asRoot = process.getuid?.() === 0;
const describeAsRoot = asRoot ? describe : describe.skip;

/** A folder like `mktemp -d` makes: mode 0700, closed to every other user. */
const privateFolder = () => mkdtempSync(join(tmpdir(), 'catalog-private-'));
/** A folder other users may enter, standing in for /var/lib/catalog-service. */
function stateFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'catalog-state-'));
  chmodSync(folder, 0o755);
  return folder;
}

describeAsRoot('the embedded PostgreSQL, run as root from a private folder', () => {
  let user: OsUser;
  const cleanup: string[] = [];
  beforeAll(() => {
    user = serverOsUser()!;
  });
  afterAll(() => {
    for (const folder of cleanup) rmSync(folder, { recursive: true, force: true });
  });
  const track = (folder: string) => {
    cleanup.push(folder);
    return folder;
  };

  it('runs the binaries from a reachable copy, made once, reused, and restored when damaged', () => {
    const { nativeDir, version } = packagedBinaries();
    const checkout = track(privateFolder());
    const closed = join(checkout, 'native');
    cpSync(nativeDir, closed, { recursive: true, verbatimSymlinks: true });
    const stateDir = track(stateFolder());
    expect(userPasses(user, [['-x', join(closed, 'bin', 'postgres')]])).toBe(false);

    const binaries = binariesFor(user, closed, version, stateDir);
    expect(dirname(dirname(binaries.postgres)).startsWith(stateDir)).toBe(true);
    const versionLine = execFileSync(binaries.postgres, ['--version'], {
      uid: user.uid,
      gid: user.gid,
      cwd: '/',
    });
    expect(versionLine.toString()).toMatch(/^postgres \(PostgreSQL\) 15\./);

    const copied = statSync(binaries.postgres).ino;
    expect(binariesFor(user, closed, version, stateDir)).toEqual(binaries);
    expect(statSync(binaries.postgres).ino).toBe(copied);

    const bki = join(dirname(dirname(binaries.postgres)), 'share', 'postgresql', 'postgres.bki');
    rmSync(bki);
    expect(binariesFor(user, closed, version, stateDir)).toEqual(binaries);
    expect(existsSync(bki)).toBe(true);

    // Binaries the user can reach are used where they are.
    chmodSync(checkout, 0o755);
    expect(binariesFor(user, closed, version, stateDir).postgres).toBe(join(closed, 'bin', 'postgres'));
  }, 60_000);

  it('keeps the data outside the checkout behind a link that decides how long it lives', async () => {
    const checkout = track(privateFolder());
    const stateDir = track(stateFolder());
    const dataDir = join(checkout, '.data', 'postgres');
    const query = async (url: string, sql: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query<{ name: string | null }>(sql)).rows;
      } finally {
        await client.end();
      }
    };

    const first = await startEmbeddedPostgres({ dataDir, stateDir });
    await query(first.serverUrl, 'create table kept (id int)');
    await first.stop();
    const data = readlinkSync(dataDir);
    expect(data.startsWith(join(stateDir, 'clusters'))).toBe(true);
    expect(statSync(data).uid).toBe(user.uid);

    const again = await startEmbeddedPostgres({ dataDir, stateDir });
    expect(await query(again.serverUrl, `select to_regclass('kept')::text as name`)).toEqual([
      { name: 'kept' },
    ]);
    await again.stop();

    // Deleting the link (or the checkout) discards the data, as it would in place.
    rmSync(join(checkout, '.data'), { recursive: true });
    const fresh = await startEmbeddedPostgres({ dataDir, stateDir, persistent: false });
    expect(await query(fresh.serverUrl, `select to_regclass('kept')::text as name`)).toEqual([
      { name: null },
    ]);
    await fresh.stop();
    expect(existsSync(dirname(data))).toBe(false);
    expect(() => lstatSync(dataDir)).toThrow();
  }, 90_000);

  it('stops with one line naming the cause and the fix when data it cannot move is in the way', () => {
    const checkout = track(privateFolder());
    const dataDir = join(checkout, '.data', 'postgres');
    mkdirSync(dataDir, { recursive: true });
    execFileSync('touch', [join(dataDir, 'PG_VERSION')]);
    let caught: unknown;
    try {
      dataDirFor(user, dataDir, track(stateFolder()));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(EmbeddedPostgresError);
    const message = (caught as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toContain(dataDir);
    expect(message).toContain('DATABASE_URL');
  });
});
