import type { SectionName } from './import-schema';

/** Roles are reported like a section: the file defines them inside the titles' credits. */
export type ReportSection = SectionName | 'roles';

/** Report order: the order sections are applied in. */
export const REPORT_ORDER: readonly ReportSection[] = [
  'genres',
  'magazines',
  'companies',
  'people',
  'characters',
  'roles',
  'anime',
  'manga',
  'novel',
  'franchises',
  'users',
];

export interface SectionCounts {
  created: number;
  updated: number;
  unchanged: number;
  /** Franchises left without titles and removed. */
  removed: number;
}

export interface ImportReport {
  /** Counts of the sections the file contains. */
  readonly sections: Partial<Record<ReportSection, SectionCounts>>;
  /** Problems that do not fail the import, such as an anime's nsfw flag disagreeing with its genres. */
  readonly warnings: string[];
  readonly durationMs: number;
}

/** Progress of a section, reported after each batch. */
export interface ImportProgress {
  readonly section: ReportSection;
  readonly done: number;
  readonly total: number;
}

export function emptyCounts(): SectionCounts {
  return { created: 0, updated: 0, unchanged: 0, removed: 0 };
}

/** One line per section (`anime: 12 created, 3 updated, 2 unchanged`), in apply order. */
export function summaryLines(report: ImportReport): string[] {
  return REPORT_ORDER.flatMap((section) => {
    const counts = report.sections[section];
    if (!counts) return [];
    const removed = counts.removed > 0 ? `, ${counts.removed} removed` : '';
    return [
      `${section}: ${counts.created} created, ${counts.updated} updated, ${counts.unchanged} unchanged${removed}`,
    ];
  });
}
