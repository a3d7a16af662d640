import 'reflect-metadata';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { openClientSecretBox } from '../clients/client-secret-keys';
import { ConfigError, loadConfig } from '../config';
import { openDatabase, refreshPlannerStatistics } from '../db/database';
import { createOrm, migrate } from '../orm';
import { initNewEpisodeCursor } from '../notifications/new-episode-job';
import { ImportDataError, importDocument, readDocument, summaryLines, type ImportProgress } from './importer';

/**
 * `npm run import -- <file.json>` (or `-` for standard input): imports a catalog file
 * (import-format.md). Exit code 0 on success, 1 on a data error (nothing is written),
 * 2 on a usage error. Summary lines go to standard output, everything else to standard error.
 */
const EXIT_OK = 0;
const EXIT_DATA_ERROR = 1;
const EXIT_USAGE = 2;
const USAGE = 'Usage: npm run import -- <file.json>   (use - to read standard input)';

class UsageError extends Error {}

async function main(args: readonly string[]): Promise<number> {
  if (args.length !== 1 || args[0] === '--help' || args[0] === '-h') throw new UsageError(USAGE);
  const spool = args[0] === '-' ? await spoolStandardInput() : undefined;
  try {
    const path = spool?.file ?? args[0];
    await ensureReadableFile(path);
    // Parse before starting the database: a broken file fails fast.
    const document = await readDocument(path);
    return await importIntoDatabase(document);
  } finally {
    if (spool) await rm(spool.directory, { recursive: true, force: true });
  }
}

async function importIntoDatabase(document: unknown): Promise<number> {
  const config = loadConfig();
  const clientSecrets = openClientSecretBox(config);
  const database = await openDatabase({ databaseUrl: config.databaseUrl });
  try {
    const orm = await createOrm(database.url);
    try {
      await migrate(orm, clientSecrets);
      const progress = process.stderr.isTTY ? showProgress : undefined;
      const report = await importDocument(orm, document, { onProgress: progress });
      if (progress) process.stderr.write('\r\x1b[K');
      await refreshPlannerStatistics(orm);
      // Episodes that aired before the first import never notify (semantics §7.21).
      await initNewEpisodeCursor(orm.em.fork());
      for (const warning of report.warnings) console.error(`warning: ${warning}`);
      for (const line of summaryLines(report)) console.log(line);
      console.log(`imported in ${(report.durationMs / 1000).toFixed(2)} s`);
      return EXIT_OK;
    } finally {
      await orm.close();
    }
  } finally {
    await database.stop();
  }
}

function showProgress({ section, done, total }: ImportProgress): void {
  process.stderr.write(`\r\x1b[K${section}: ${done}/${total}`);
}

/** The importer reads its file twice, so standard input is first copied to a temporary file. */
async function spoolStandardInput(): Promise<{ directory: string; file: string }> {
  const directory = await mkdtemp(join(tmpdir(), 'catalog-import-'));
  const file = join(directory, 'stdin.json');
  await pipeline(process.stdin, createWriteStream(file));
  return { directory, file };
}

async function ensureReadableFile(path: string): Promise<void> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new UsageError(`${path} is not a file`);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

function exitCodeFor(error: unknown): number {
  if (error instanceof ImportDataError) {
    console.error(error.message);
    return EXIT_DATA_ERROR;
  }
  if (error instanceof UsageError || error instanceof ConfigError) {
    console.error(error.message);
    return EXIT_USAGE;
  }
  if (isReadError(error)) {
    console.error(`cannot read the file: ${error.message}`);
    return EXIT_USAGE;
  }
  // Not the file's fault (database unreachable, …): report it, without the bulk SQL a driver error may quote.
  console.error(`import failed: ${String((error as Error).message ?? error).slice(0, 2000)}`);
  return EXIT_DATA_ERROR;
}

function isReadError(error: unknown): error is NodeJS.ErrnoException {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR';
}

// exitCode rather than exit(): output piped to another process is flushed before the process ends.
main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => (process.exitCode = exitCodeFor(error)),
);
