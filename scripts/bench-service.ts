import { type ChildProcess, spawn } from 'node:child_process';

/**
 * Starts `node <args>` with `env` added to this process's environment, and resolves once
 * `readyUrl` answers 2xx (within a minute).
 */
export async function startProcess(
  name: string,
  args: readonly string[],
  env: Record<string, string>,
  readyUrl: string,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, {
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

/**
 * The service as `npm start` runs it (its Node flag, package.json) on `url`, listening on
 * `port`, without demo data or the rate limits a load would hit.
 */
export function startService(url: string, port: number): Promise<ChildProcess> {
  return startProcess(
    'service',
    ['--max-semi-space-size=16', '--max-old-space-size=160', 'dist/src/main.js'],
    { DATABASE_URL: url, PORT: String(port), DEMO_DATA: 'off', RATE_LIMIT: 'off', LOG_LEVEL: 'warn' },
    `http://127.0.0.1:${port}/readyz`,
  );
}
