/** One problem in an import file, located by the JSON path of the bad value. */
export interface ImportIssue {
  /** For example `manga[3].genres[1]`; `$` is the document itself. */
  readonly path: string;
  readonly message: string;
}

/** The import-format spec lists the first 20 errors, not just the first. */
export const MAX_LISTED_ERRORS = 20;

export function formatIssue(issue: ImportIssue): string {
  return `${issue.path}: ${issue.message}`;
}

/** A file that cannot be imported; nothing was written. */
export class ImportDataError extends Error {
  constructor(
    /** The first problems found, at most {@link MAX_LISTED_ERRORS}. */
    readonly errors: readonly ImportIssue[],
    /** How many problems were found in all, listed or not. */
    readonly totalErrors: number = errors.length,
  ) {
    super(describe(errors, totalErrors));
    this.name = 'ImportDataError';
  }
}

function describe(errors: readonly ImportIssue[], total: number): string {
  const lines = errors.map((issue) => `  ${formatIssue(issue)}`);
  if (total > errors.length) lines.push(`  ... and ${total - errors.length} more`);
  return [`the import file has ${total} error${total === 1 ? '' : 's'}; nothing was imported`, ...lines].join(
    '\n',
  );
}

/**
 * Collects problems while the whole file is checked, keeping the first few and
 * counting the rest, so that one run reports many mistakes at once.
 */
export class IssueLog {
  private readonly listed: ImportIssue[] = [];
  private total = 0;

  add(path: string, message: string): void {
    this.total += 1;
    if (this.listed.length < MAX_LISTED_ERRORS) this.listed.push({ path, message });
  }

  get count(): number {
    return this.total;
  }

  /** Throws the collected problems, if there are any. */
  throwIfAny(): void {
    if (this.total > 0) throw new ImportDataError([...this.listed], this.total);
  }
}

/** A log that forgets everything: used when re-reading records that already passed the checks. */
export class SilentIssueLog extends IssueLog {
  override add(): void {
    // Records are re-parsed only after they were validated; nothing new can be found.
  }
}
