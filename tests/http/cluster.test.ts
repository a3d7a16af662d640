import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { type Instance, startInstance, stop, useEmptyDatabase } from '../setup/instances';
import { databaseUrl } from '../setup/names';

/** The pids of `parent`'s child processes. */
function childrenOf(parent: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(parent)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when there are none
  }
}

/** The status of `GET path`, on a connection of its own (node:cluster hands connections to workers in turn). */
function statusOf(base: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (condition()) return;
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`timed out waiting until ${what}`);
}

describe('WEB_CONCURRENCY=2: two worker processes on one port', () => {
  const name = useEmptyDatabase('cluster');
  let service: Instance;
  let base: string;

  beforeAll(async () => {
    service = startInstance(databaseUrl(name), {
      demoData: 'off',
      env: { WEB_CONCURRENCY: '2', RATE_LIMIT: 'on', RATE_LIMIT_POINTS: '6' },
    });
    base = await service.ready;
  }, 60_000);
  afterAll(() => stop(service));

  it('runs two workers, and prints the addresses once', async () => {
    await until(() => childrenOf(service.child.pid!).length === 2, 'two workers run');
    expect(service.lines.filter((line) => line.startsWith('REST API:'))).toHaveLength(1);
    expect(service.lines.filter((line) => line.startsWith('Workers:'))).toEqual([
      'Workers:    2 processes on one port (WEB_CONCURRENCY)',
    ]);
  });

  it('shares one rate-limit budget between the workers', async () => {
    const statuses: number[] = [];
    // One connection each: the workers take them in turn, each seeing half of the requests.
    for (let i = 0; i < 12; i += 1) statuses.push(await statusOf(base, '/manga/no-such-manga'));
    expect(statuses.filter((status) => status === 404)).toHaveLength(6);
    expect(statuses.filter((status) => status === 429)).toHaveLength(6);
  });

  it('replaces a worker that dies, and stops every process on SIGTERM', async () => {
    const [first] = childrenOf(service.child.pid!);
    process.kill(first, 'SIGKILL');
    await until(() => {
      const workers = childrenOf(service.child.pid!);
      return workers.length === 2 && !workers.includes(first);
    }, 'another worker replaces it');
    await until(
      () => service.lines.some((line) => line.includes('a worker exited: starting another')),
      'logged',
    );

    const workers = childrenOf(service.child.pid!);
    const exited = new Promise<number | null>((done) => service.child.once('exit', done));
    service.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const worker of workers) expect(() => process.kill(worker, 0)).toThrow();
  }, 30_000);
});
