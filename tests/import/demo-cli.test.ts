import { resolve } from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import { openTestOrm, resetDatabase, workerDatabaseUrl } from '../setup/db';
import { type CommandRun, rowCount, runCommand } from './helpers';

/** The demo command as `npm run demo` runs it, against this worker's database. */
const CLI = resolve(__dirname, '../../src/import/demo-cli.ts');

let orm: MikroORM;
let databaseUrl: string;

beforeAll(async () => {
  orm = await openTestOrm();
  databaseUrl = await workerDatabaseUrl();
});
beforeEach(async () => {
  await resetDatabase(orm);
});
afterAll(async () => {
  await orm.close();
});

type DemoRun = Omit<CommandRun, 'stdout'> & { stdout: string[] };

/** Scale 0.1: 200 titles and 13 accounts, a few seconds; its output as lines. */
async function runDemo(): Promise<DemoRun> {
  const run = await runCommand(CLI, ['--scale', '0.1', '--seed', '3'], databaseUrl);
  return { ...run, stdout: run.stdout.trim().split('\n') };
}

describe('npm run demo', () => {
  it('prints a line per phase with what it wrote, then the total time', async () => {
    const run = await runDemo();

    expect(run.code).toBe(0);
    expect(run.stdout).toEqual([
      expect.stringMatching(
        /^demo: catalog: 200 titles, 15 people, 30 characters, 3 franchises in \d+\.\d s$/,
      ),
      expect.stringMatching(/^demo: accounts: 13 users in \d+\.\d s$/),
      expect.stringMatching(/^demo: list entries: 39 watch entries, 26 read entries in \d+\.\d s$/),
      expect.stringMatching(/^demo: clients: 1 client in /),
      expect.stringMatching(/^demo: follows: \d+ follows, \d+ notifications in /),
      expect.stringMatching(/^demo: articles: 6 articles, 30 votes in /),
      expect.stringMatching(/^demo: collections: \d+ collections in /),
      expect.stringMatching(/^demo: comments: \d+ comments in /),
      expect.stringMatching(/^demo: favourites: [\d,]+ favourites in /),
      expect.stringMatching(/^demo: planner statistics in \d+\.\d s$/),
      expect.stringMatching(/^demo data \(scale 0\.1\) loaded in \d+\.\d s$/),
    ]);
    expect(await rowCount(orm, 'watch_entry')).toBe(39);
  }, 60000);

  it('stops at a failing phase, names it and its reason, and exits with 1', async () => {
    // A database that refuses every watch entry; the constraint goes whatever the outcome.
    await orm.em
      .getConnection()
      .execute('alter table watch_entry add constraint demo_test_refuses_entries check (false)');
    let run: DemoRun;
    try {
      run = await runDemo();
    } finally {
      await orm.em
        .getConnection()
        .execute('alter table watch_entry drop constraint demo_test_refuses_entries');
    }

    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      'demo: list entries failed: new row for relation "watch_entry" violates check constraint "demo_test_refuses_entries"',
    );
    expect(run.stdout).toEqual([
      expect.stringMatching(/^demo: catalog: /),
      expect.stringMatching(/^demo: accounts: /),
    ]);
    // The phase comes all or none: not even its read entries remain.
    expect(await rowCount(orm, 'anime')).toBe(70);
    expect(await rowCount(orm, 'read_entry')).toBe(0);
    expect(await rowCount(orm, 'follow')).toBe(0);
  }, 60000);
});
