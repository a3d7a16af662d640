import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import { openTestOrm, resetDatabase, workerDatabaseUrl } from '../setup/db';
import { animeRecord, catalog, rowCount, runCommand } from './helpers';

/** The import command as `npm run import` runs it, against this worker's database. */
const CLI = resolve(__dirname, '../../src/import/import-cli.ts');

let orm: MikroORM;
let databaseUrl: string;
let directory: string;

beforeAll(async () => {
  orm = await openTestOrm();
  databaseUrl = await workerDatabaseUrl();
  directory = await mkdtemp(join(tmpdir(), 'import-cli-'));
});
beforeEach(async () => {
  await resetDatabase(orm);
});
afterAll(async () => {
  await orm.close();
});

const runImport = (args: string[], stdin?: string) => runCommand(CLI, args, databaseUrl, stdin);

async function writeJson(name: string, document: unknown): Promise<string> {
  const path = join(directory, name);
  await writeFile(path, typeof document === 'string' ? document : JSON.stringify(document));
  return path;
}

describe('npm run import', () => {
  it('imports a file, prints one line per section and the time, warnings on stderr', async () => {
    const file = await writeJson('ok.json', catalog({ anime: [animeRecord({ genres: ['hentai'] })] }));

    const run = await runImport([file]);

    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toContain('anime: 1 created, 0 updated, 0 unchanged');
    expect(lines).toContain('genres: 3 created, 0 updated, 0 unchanged');
    expect(lines[lines.length - 1]).toMatch(/^imported in \d+\.\d\d s$/);
    expect(run.stderr).toContain('warning: anime[0]: nsfw is false but its genres include hentai');
    expect(await rowCount(orm, 'anime')).toBe(1);
  });

  it('reads standard input with -', async () => {
    const run = await runImport(
      ['-'],
      JSON.stringify({ genres: [{ slug: 'drama', name_en: 'Drama', type: 'genre' }] }),
    );

    expect(run.code).toBe(0);
    expect(run.stdout).toContain('genres: 1 created, 0 updated, 0 unchanged');
    expect(await rowCount(orm, 'genre')).toBe(1);
  });

  it('exits 1 on a data error, listing paths on stderr and writing nothing', async () => {
    const file = await writeJson('bad.json', catalog({ anime: [animeRecord({ genres: ['sci-fi'] })] }));
    const broken = await writeJson('broken.json', '{"genres": [');

    const run = await runImport([file]);
    const brokenRun = await runImport([broken]);

    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('anime[0].genres[0]: unknown genre "sci-fi"');
    expect(await rowCount(orm, 'genre')).toBe(0);
    expect(brokenRun.code).toBe(1);
    expect(brokenRun.stderr).toContain('$: invalid JSON');
  });

  it('exits 2 on a usage error', async () => {
    const noArgument = await runImport([]);
    const missing = await runImport([join(directory, 'missing.json')]);

    expect(noArgument.code).toBe(2);
    expect(noArgument.stderr).toContain('Usage: npm run import -- <file.json>');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('ENOENT');
  });
});
