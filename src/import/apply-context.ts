import type { EntityManager } from '@mikro-orm/postgresql';
import type { IssueLog } from './import-errors';
import type { DatabasePreparation, ReferenceIndex } from './import-references';
import type { ReportSection, SectionCounts } from './import-report';
import type { FileFacts } from './import-validation';

/** Everything a section writer needs; one per import, inside its transaction. */
export interface ApplyContext {
  readonly em: EntityManager;
  readonly facts: FileFacts;
  readonly index: ReferenceIndex;
  readonly preparation: DatabasePreparation;
  /** Problems only visible against stored values (they still fail the whole import). */
  readonly issues: IssueLog;
  /** The import time: `created`/`updated` of what this import writes. */
  readonly now: Date;
  readonly batchSize: number;
  counts(section: ReportSection): SectionCounts;
  warn(message: string): void;
  progress(section: ReportSection, done: number, total: number): void;
}

/** Calls `work` for consecutive index ranges of `total` records, then reports progress. */
export async function inBatches(
  context: ApplyContext,
  section: ReportSection,
  total: number,
  work: (start: number, end: number) => Promise<void>,
): Promise<void> {
  for (let start = 0; start < total; start += context.batchSize) {
    const end = Math.min(total, start + context.batchSize);
    await work(start, end);
    context.progress(section, end, total);
  }
}
