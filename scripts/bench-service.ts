import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Starts `node <args>` with `env` added to this process's environment, and resolves once
 * `readyUrl` answers 2xx (within a minute).
 */
export async function startProcess(
  name: string,
  args: readonly string[],
  env: Record<string, string>,
  readyUrl: string,
  cwd = '.',
): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let attempt = 0; attempt < 120; attempt += 1) {
    try {
      if ((await fetch(readyUrl)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 500));
  }
  child.kill('SIGTERM');
  throw new Error(`the ${name} did not become ready`);
}

/** The Node flags of `checkout`'s `npm start` (`… node <flags> dist/src/main.js`). */
function startFlags(checkout: string): string[] {
  const { scripts } = JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const flags = /\bnode ((?:--\S+ )*)dist\/src\/main\.js/.exec(scripts.start);
  if (!flags) throw new Error(`cannot read the Node flags of ${checkout}'s npm start: ${scripts.start}`);
  return flags[1].split(' ').filter(Boolean);
}

/**
 * The service as `npm start` runs it (with its script's Node flags) on `url`, listening on
 * `port`, without demo data or the rate limits a load would hit; from the built checkout
 * `checkout` (this one by default). BENCH_NODE_FLAGS adds Node flags (`--cpu-prof`, say).
 */
export function startService(url: string, port: number, checkout = '.'): Promise<ChildProcess> {
  const extraFlags = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
  return startProcess(
    'service',
    [...startFlags(checkout), ...extraFlags, 'dist/src/main.js'],
    { DATABASE_URL: url, PORT: String(port), DEMO_DATA: 'off', RATE_LIMIT: 'off', LOG_LEVEL: 'warn' },
    `http://127.0.0.1:${port}/readyz`,
    checkout,
  );
}
