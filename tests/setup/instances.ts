import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import pg from 'pg';
import { ensureDatabase } from '../../src/db/database';
import { adminUrl, testDatabasePrefix } from './names';

/** The service as `npm start` runs it, from the sources (from any working folder). */
const SERVER = resolve(__dirname, '../../src/server.ts');
const TYPESCRIPT = {
  register: require.resolve('@swc-node/register'),
  project: resolve(__dirname, '../../tsconfig.json'),
};

export interface Instance {
  child: ChildProcess;
  /** Every line it wrote, stdout and stderr. */
  lines: string[];
  /** Its base URL once it listens. */
  ready: Promise<string>;
  /** Once it has exited and everything it wrote has been read. */
  closed: Promise<void>;
}

export interface InstanceOptions {
  port?: number;
  demoData?: 'on' | 'off';
  /** Its working folder, where its `.data` folder is (by default the tests' own). */
  cwd?: string;
  /** Variables set (or, undefined, removed) on top of the tests' environment. */
  env?: Record<string, string | undefined>;
}

export function startInstance(
  url: string,
  { port = 0, demoData = 'on', cwd, env = {} }: InstanceOptions = {},
): Instance {
  const child = spawn(process.execPath, ['-r', TYPESCRIPT.register, SERVER], {
    cwd,
    env: {
      ...process.env,
      SWC_NODE_PROJECT: TYPESCRIPT.project,
      DATABASE_URL: url,
      HOST: '127.0.0.1',
      PORT: String(port),
      DEMO_DATA: demoData,
      RATE_LIMIT: 'off',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const ready = new Promise<string>((resolveReady, reject) => {
    const read = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        lines.push(line);
        const listening = /^REST API:\s+(http:\/\/\S+?)\/\s/.exec(line);
        if (listening) resolveReady(listening[1]);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) =>
      reject(new Error(`exited with ${code} before listening:\n${lines.join('\n')}`)),
    );
  });
  const closed = new Promise<void>((done) => child.once('close', () => done()));
  return { child, lines, ready, closed };
}

export async function stop({ child }: Instance): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}

/** A database of its own for the enclosing describe block: empty before it, dropped after. */
export function useEmptyDatabase(label: string): string {
  const name = `${testDatabasePrefix()}${label}_w${process.env.JEST_WORKER_ID ?? '1'}`;
  let admin: pg.Client;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: adminUrl() });
    await admin.connect();
    await admin.query(`drop database if exists ${admin.escapeIdentifier(name)} with (force)`);
    await ensureDatabase(adminUrl(), name);
  });
  afterAll(async () => {
    await admin.query(`drop database if exists ${admin.escapeIdentifier(name)} with (force)`);
    await admin.end();
  });
  return name;
}
