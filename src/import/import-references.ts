import type { EntityManager } from '@mikro-orm/postgresql';
import { batches, pgArray, runSql } from './bulk-sql';
import type { IssueLog } from './import-errors';
import { TITLE_SECTIONS, type TitleSection, type UserRecord } from './import-schema';
import {
  forEachReference,
  REFERENCE_KINDS,
  readRecords,
  type FileFacts,
  type ReferenceKind,
} from './import-validation';

/** Rows per look-up query (`slug = any(...)`). */
export const LOOKUP_BATCH = 1000;

const TABLE_OF: Record<ReferenceKind, string> = {
  genre: 'genre',
  magazine: 'magazine',
  company: 'company',
  person: 'person',
  character: 'character',
  anime: 'anime',
  manga: 'manga',
  novel: 'novel',
};

/** Role slugs are references too, but they are defined inline by the titles. */
export type IndexedKind = ReferenceKind | 'role';

/** Slug → reference of every record the file refers to, filled as records are found or written. */
export class ReferenceIndex {
  private readonly maps = new Map<IndexedKind, Map<string, string>>();

  private mapOf(kind: IndexedKind): Map<string, string> {
    let map = this.maps.get(kind);
    if (!map) {
      map = new Map();
      this.maps.set(kind, map);
    }
    return map;
  }

  set(kind: IndexedKind, slug: string, reference: string): void {
    this.mapOf(kind).set(slug, reference);
  }

  /** The reference of a slug that the checks proved to exist. */
  get(kind: IndexedKind, slug: string): string {
    const reference = this.mapOf(kind).get(slug);
    if (reference === undefined) throw new Error(`import: ${kind} "${slug}" was not resolved`);
    return reference;
  }
}

/** What the writers must prepare before they apply a section (see {@link checkAgainstDatabase}). */
export interface DatabasePreparation {
  /** Slugs of stored titles whose extcat_id another record of the file takes. */
  readonly extcatHolders: Record<TitleSection, string[]>;
  /** References of stored users whose email another user of the file takes. */
  readonly emailHolders: string[];
}

/**
 * The checks that need the database, run inside the import transaction before
 * anything is written: referenced slugs the file does not define must exist;
 * extcat ids and emails must not belong to records the file does not mention.
 */
export async function checkAgainstDatabase(
  em: EntityManager,
  facts: FileFacts,
  issues: IssueLog,
  index: ReferenceIndex,
): Promise<DatabasePreparation> {
  await resolveExternalReferences(em, facts, issues, index);
  const extcatHolders = { anime: [], manga: [], novel: [] } as Record<TitleSection, string[]>;
  for (const section of TITLE_SECTIONS)
    extcatHolders[section] = await checkExtcatIds(em, facts, section, issues);
  const emailHolders = await checkEmails(em, facts, issues);
  return { extcatHolders, emailHolders };
}

async function resolveExternalReferences(
  em: EntityManager,
  facts: FileFacts,
  issues: IssueLog,
  index: ReferenceIndex,
): Promise<void> {
  const missing = new Map<ReferenceKind, Set<string>>();
  for (const kind of REFERENCE_KINDS) {
    const wanted = facts.external[kind];
    const found = new Set<string>();
    for (const batch of batches([...wanted], LOOKUP_BATCH)) {
      const rows = await runSql<{ slug: string; reference: string }>(
        em,
        `select slug, reference from "${TABLE_OF[kind]}" where slug = any(?::text[])`,
        [pgArray(batch)],
      );
      for (const row of rows) {
        index.set(kind, row.slug, row.reference);
        found.add(row.slug);
      }
    }
    const unknown = [...wanted].filter((slug) => !found.has(slug));
    if (unknown.length > 0) missing.set(kind, new Set(unknown));
  }
  if (missing.size > 0) reportUnknownReferences(facts, missing, issues);
}

/** Second reading of the referring records, only when something is missing, to name each bad path. */
function reportUnknownReferences(
  facts: FileFacts,
  missing: Map<ReferenceKind, Set<string>>,
  issues: IssueLog,
): void {
  for (const section of ['anime', 'manga', 'novel', 'franchises'] as const) {
    const total = facts.sections[section]?.length ?? 0;
    for (let start = 0; start < total; start += LOOKUP_BATCH) {
      for (const { index, record } of readRecords(facts, section, start, start + LOOKUP_BATCH)) {
        forEachReference(section, record, `${section}[${index}]`, (kind, slug, path) => {
          if (missing.get(kind)?.has(slug)) issues.add(path, `unknown ${kind} "${slug}"`);
        });
      }
    }
  }
}

/**
 * extcat_id is unique per content type: a stored title of another slug may hold the
 * id only if the file gives that title a new one. Such holders are returned so the
 * writer can release their ids first (swaps and chains then work in any order).
 */
async function checkExtcatIds(
  em: EntityManager,
  facts: FileFacts,
  section: TitleSection,
  issues: IssueLog,
): Promise<string[]> {
  const holders: string[] = [];
  const fileSlugs = facts.keys[section];
  const raw = facts.sections[section] ?? [];
  for (const batch of batches([...facts.extcatIds[section].entries()], LOOKUP_BATCH)) {
    const rows = await runSql<{ slug: string; extcat_id: number }>(
      em,
      `select slug, extcat_id from "${section}" where extcat_id = any(?::int[])`,
      [pgArray(batch.map(([id]) => id))],
    );
    const recordIndex = new Map(batch);
    for (const row of rows) {
      const index = recordIndex.get(row.extcat_id);
      if (index === undefined) continue;
      const record = raw[index] as { slug?: unknown };
      if (record.slug === row.slug) continue;
      if (fileSlugs.has(row.slug)) holders.push(row.slug);
      else
        issues.add(
          `${section}[${index}].extcat_id`,
          `extcat_id ${row.extcat_id} already belongs to ${section} "${row.slug}"`,
        );
    }
  }
  return holders;
}

/** Emails are unique ignoring case; the same release rule as extcat ids applies. */
async function checkEmails(em: EntityManager, facts: FileFacts, issues: IssueLog): Promise<string[]> {
  const holders: string[] = [];
  const fileUsers = facts.keys.users;
  for (const batch of batches([...facts.userEmails.entries()], LOOKUP_BATCH)) {
    const rows = await runSql<{ reference: string; username: string; email: string }>(
      em,
      `select reference, username, lower(email) as email from "user" where lower(email) = any(?::text[])`,
      [pgArray(batch.map(([email]) => email))],
    );
    const ownerOf = new Map(batch);
    for (const row of rows) {
      const owner = ownerOf.get(row.email);
      const storedOwner = row.username.toLowerCase();
      if (owner === undefined || owner === storedOwner) continue;
      if (fileUsers.has(storedOwner)) {
        holders.push(row.reference);
        continue;
      }
      const index = fileUsers.get(owner);
      const user =
        index === undefined ? undefined : ((facts.sections.users ?? [])[index] as Partial<UserRecord>);
      issues.add(
        `users[${index}].email`,
        `email "${user?.email ?? row.email}" already belongs to user "${row.username}"`,
      );
    }
  }
  return holders;
}
