import { spawn } from 'node:child_process';
import type { MikroORM } from '@mikro-orm/postgresql';
import { formatIssue, ImportDataError } from '../../src/import/import-errors';
import { importCatalog, type ImportOptions, type ImportReport } from '../../src/import/importer';

/** Small import documents built by the tests themselves (no shared fixtures). */
export type Json = Record<string, unknown>;

/** 2020-01-01T00:00:00Z and friends, in Unix seconds as the file carries them. */
export const JAN_2020 = 1577836800;
export const APR_2020 = 1585699200;
export const WEEK = 7 * 24 * 60 * 60;

export function genres(): Json[] {
  return [
    { slug: 'action', name_en: 'Action', name_ua: 'Бойовик', type: 'genre' },
    { slug: 'comedy', name_en: 'Comedy', type: 'genre' },
    { slug: 'hentai', name_en: 'Hentai', type: 'explicit' },
  ];
}

export function animeRecord(overrides: Json = {}): Json {
  return {
    slug: 'show-one',
    extcat_id: 1,
    title_en: 'Show One',
    title_ja: 'ショー',
    synonyms: ['S1'],
    media_type: 'tv',
    status: 'finished',
    season: 'winter',
    source: 'manga',
    rating: 'pg_13',
    year: 2020,
    episodes_released: 12,
    episodes_total: 12,
    duration: 24,
    score: 8.5,
    scored_by: 100,
    start_date: JAN_2020,
    end_date: APR_2020,
    translated_ua: true,
    nsfw: false,
    synopsis_en: 'A show.',
    genres: ['action'],
    studios: ['bones'],
    producers: ['aniplex'],
    characters: [{ slug: 'hero', main: true }, { slug: 'villain' }],
    staff: [
      {
        person: 'director-a',
        roles: [{ slug: 'director', name_en: 'Director', name_ua: 'Режисер', weight: 600 }],
      },
    ],
    schedule: [
      { episode: 1, airing_at: JAN_2020 },
      { episode: 2, airing_at: JAN_2020 + WEEK },
    ],
    ...overrides,
  };
}

export function mangaRecord(overrides: Json = {}): Json {
  return {
    slug: 'book-one',
    extcat_id: 1,
    title_original: 'Book',
    media_type: 'manga',
    chapters: 10,
    volumes: 2,
    genres: ['action'],
    magazines: ['jump'],
    external: [{ url: 'https://example.com/book', text: 'Site', type: 'general' }],
    authors: [{ person: 'writer-b', roles: [{ slug: 'story', name_en: 'Story' }] }],
    characters: [{ slug: 'hero', main: true }],
    ...overrides,
  };
}

/** A complete small catalog touching every catalog section. */
export function catalog(overrides: Json = {}): Json {
  return {
    genres: genres(),
    magazines: [{ slug: 'jump', name_en: 'Jump' }],
    companies: [
      { slug: 'bones', name: 'Bones', image: '/companies/bones.png' },
      { slug: 'aniplex', name: 'Aniplex' },
    ],
    people: [
      { slug: 'director-a', name_en: 'Director A', synonyms: ['DA'] },
      { slug: 'writer-b', name_native: 'ライター' },
    ],
    characters: [{ slug: 'hero', name_en: 'Hero' }, { slug: 'villain' }],
    anime: [animeRecord()],
    manga: [mangaRecord()],
    novel: [{ slug: 'novel-one', extcat_id: 2, media_type: 'light_novel' }],
    franchises: [{ key: 'saga', anime: ['show-one'], manga: ['book-one'] }],
    ...overrides,
  };
}

/** Runs an import that must fail and returns its error. */
export async function importFailure(
  orm: MikroORM,
  document: object,
  options?: ImportOptions,
): Promise<ImportDataError> {
  const outcome = await importCatalog(orm, document, options).then(
    (report: ImportReport) => report,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(ImportDataError);
  return outcome as ImportDataError;
}

/** `path: message` lines of an import error, as the command prints them. */
export const issueLines = (error: ImportDataError): string[] => error.errors.map(formatIssue);

export async function rowCount(orm: MikroORM, table: string): Promise<number> {
  const rows = await orm.em
    .getConnection()
    .execute<{ n: number }[]>(`select count(*)::int as n from "${table}"`);
  return rows[0].n;
}

/** Counts of every table an import writes, to prove that a failed import wrote nothing. */
export async function catalogRowCounts(orm: MikroORM): Promise<Record<string, number>> {
  const tables = [
    'genre',
    'magazine',
    'company',
    'person',
    'character',
    'role',
    'anime',
    'manga',
    'novel',
    'anime_genres',
    'anime_company',
    'appearance',
    'credit',
    'credit_roles',
    'airing_episode',
    'franchise',
    'user',
  ];
  const counts: Record<string, number> = {};
  for (const table of tables) counts[table] = await rowCount(orm, table);
  return counts;
}

/** What a command run by {@link runCommand} left: its exit code and its output. */
export interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the TypeScript command `cli` with `args` against `databaseUrl`, as its npm script does, `stdin` on its input. */
export function runCommand(
  cli: string,
  args: string[],
  databaseUrl: string,
  stdin = '',
): Promise<CommandRun> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', cli, ...args], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolveRun({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}
