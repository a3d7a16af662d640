import { readFile } from 'node:fs/promises';
import type { MikroORM } from '@mikro-orm/postgresql';
import { applyRoles, applySimpleSection, isSimpleSection } from './apply-catalog';
import type { ApplyContext } from './apply-context';
import { applyFranchises } from './apply-franchises';
import { applyTitles } from './apply-titles';
import { applyUsers } from './apply-users';
import { ImportDataError, IssueLog } from './import-errors';
import { checkAgainstDatabase, LOOKUP_BATCH, ReferenceIndex } from './import-references';
import {
  emptyCounts,
  type ImportProgress,
  type ImportReport,
  type ReportSection,
  type SectionCounts,
} from './import-report';
import { SECTION_ORDER, type SectionName } from './import-schema';
import { isTitleSection, validateDocument } from './import-validation';

export { ImportDataError, type ImportIssue } from './import-errors';
export { summaryLines, type ImportProgress, type ImportReport, type SectionCounts } from './import-report';

export interface ImportOptions {
  /** Called after each batch of records is written. */
  onProgress?: (progress: ImportProgress) => void;
  /** Records per batch (one look-up query and one flush each); 1000 by default. */
  batchSize?: number;
}

/**
 * Imports a catalog/accounts file (import-format.md): `input` is a path to a JSON
 * file or the already parsed document. The whole file is one transaction: on any
 * data error nothing is written and an {@link ImportDataError} lists the first 20
 * problems with their JSON paths. Other failures (unreadable file, database) are
 * thrown as they are.
 */
export async function importCatalog(
  orm: MikroORM,
  input: string | object,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const startedAt = Date.now();
  const document = typeof input === 'string' ? await readDocument(input) : input;
  const report = await importDocument(orm, document, options);
  return { ...report, durationMs: Date.now() - startedAt };
}

/** Imports an already parsed document (see {@link importCatalog}). */
export async function importDocument(
  orm: MikroORM,
  document: unknown,
  options: ImportOptions = {},
): Promise<ImportReport> {
  const startedAt = Date.now();
  const issues = new IssueLog();
  const facts = validateDocument(document, issues);
  const sections: Partial<Record<ReportSection, SectionCounts>> = {};
  const warnings: string[] = [];
  await orm.em.fork().transactional(async (em) => {
    const index = new ReferenceIndex();
    const preparation = await checkAgainstDatabase(em, facts, issues, index);
    issues.throwIfAny();
    const context: ApplyContext = {
      em,
      facts,
      index,
      preparation,
      issues,
      now: new Date(),
      batchSize: options.batchSize ?? LOOKUP_BATCH,
      counts: (section) => (sections[section] ??= emptyCounts()),
      warn: (message) => warnings.push(message),
      progress: (section, done, total) => options.onProgress?.({ section, done, total }),
    };
    for (const section of SECTION_ORDER) {
      if (facts.sections[section]) await applySection(context, section);
      // Roles are defined inside the titles' credits, which need them.
      if (section === 'characters') await applyRoles(context);
    }
    // Checks against stored values (e.g. a new end_date before the stored start_date) undo everything.
    issues.throwIfAny();
  });
  return { sections, warnings, durationMs: Date.now() - startedAt };
}

async function applySection(context: ApplyContext, section: SectionName): Promise<void> {
  if (isSimpleSection(section)) await applySimpleSection(context, section);
  else if (isTitleSection(section)) await applyTitles(context, section);
  else if (section === 'franchises') await applyFranchises(context);
  else await applyUsers(context);
}

/** Reads and parses a JSON file; a file that is not JSON is a data error. */
export async function readDocument(path: string): Promise<unknown> {
  const text = await readFile(path, 'utf8');
  try {
    // A byte-order mark is not JSON, but editors add it.
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new ImportDataError([{ path: '$', message: `invalid JSON: ${(error as Error).message}` }]);
  }
}
