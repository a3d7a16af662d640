import { isSupportedPasswordHash } from '../accounts/passwords';
import { type IssueLog, SilentIssueLog } from './import-errors';
import { INVALID, parseObject } from './import-rules';
import {
  SECTION_ORDER,
  SECTION_SPECS,
  TITLE_SECTIONS,
  type AnimeRecord,
  type CreditRecord,
  type FranchiseRecord,
  type MangaRecord,
  type NovelRecord,
  type RoleRecord,
  type SectionName,
  type SectionRecord,
  type TitleRecord,
  type TitleSection,
  type UserRecord,
} from './import-schema';

type ReadableRecord = MangaRecord | NovelRecord;

/** Kinds of records that other records refer to by slug. */
export const REFERENCE_KINDS = [
  'genre',
  'magazine',
  'company',
  'person',
  'character',
  'anime',
  'manga',
  'novel',
] as const;
export type ReferenceKind = (typeof REFERENCE_KINDS)[number];

/** The section defining each kind of referenced record. */
export const DEFINING_SECTION: Record<ReferenceKind, SectionName> = {
  genre: 'genres',
  magazine: 'magazines',
  company: 'companies',
  person: 'people',
  character: 'characters',
  anime: 'anime',
  manga: 'manga',
  novel: 'novel',
};

/** A role as the file defines it: fields never given anywhere stay undefined. */
export interface RoleDefinition {
  readonly slug: string;
  readonly given: Partial<Pick<RoleRecord, RoleField>>;
  /** Where each given field was first set, for conflict messages. */
  readonly firstPaths: Partial<Record<RoleField, string>>;
}
type RoleField = 'name_en' | 'name_ua' | 'weight';

/**
 * What the first pass learns about the whole file, so that the second pass and
 * the database checks need not keep the records: sizes stay proportional to the
 * number of records, not to their content.
 */
export interface FileFacts {
  /** The raw records of each section present in the file. */
  readonly sections: Partial<Record<SectionName, readonly unknown[]>>;
  /** Slug (franchises: key) → index of its record, per section. */
  readonly keys: Record<SectionName, Map<string, number>>;
  /** extcat_id → index of its record, per title section. */
  readonly extcatIds: Record<TitleSection, Map<number, number>>;
  /** Referenced slugs that no section of the file defines: they must exist in the database. */
  readonly external: Record<ReferenceKind, Set<string>>;
  readonly roles: Map<string, RoleDefinition>;
  /** Lower-cased email → lower-cased username of the file's users. */
  readonly userEmails: Map<string, string>;
}

/** Calls `visit` for every slug a checked record refers to, with the slug's JSON path. */
export function forEachReference(
  section: SectionName,
  record: SectionRecord<SectionName>,
  path: string,
  visit: (kind: ReferenceKind, slug: string, path: string) => void,
): void {
  const list = (kind: ReferenceKind, field: string, slugs: readonly string[] | undefined) =>
    slugs?.forEach((slug, i) => visit(kind, slug, `${path}.${field}[${i}]`));
  if (section === 'franchises') {
    const franchise = record as FranchiseRecord;
    for (const kind of TITLE_SECTIONS) list(kind, kind, franchise[kind]);
    return;
  }
  if (!isTitleSection(section)) return;
  const title = record as TitleRecord;
  list('genre', 'genres', title.genres);
  title.characters?.forEach((item, i) => visit('character', item.slug, `${path}.characters[${i}].slug`));
  if (section === 'anime') {
    const anime = record as AnimeRecord;
    list('company', 'studios', anime.studios);
    list('company', 'producers', anime.producers);
  } else {
    list('magazine', 'magazines', (record as ReadableRecord).magazines);
  }
  const { field, credits } = creditsOf(section, title);
  credits?.forEach((credit, i) => visit('person', credit.person, `${path}.${field}[${i}].person`));
}

/** Anime list their `staff`, manga and novels their `authors`: both are credits. */
export function creditsOf(
  section: TitleSection,
  title: TitleRecord,
): { field: string; credits: CreditRecord[] | undefined } {
  return section === 'anime'
    ? { field: 'staff', credits: (title as AnimeRecord).staff }
    : { field: 'authors', credits: (title as ReadableRecord).authors };
}

export function isTitleSection(section: SectionName): section is TitleSection {
  return (TITLE_SECTIONS as readonly string[]).includes(section);
}

function emptyKeys(): Record<SectionName, Map<string, number>> {
  return Object.fromEntries(SECTION_ORDER.map((name) => [name, new Map<string, number>()])) as Record<
    SectionName,
    Map<string, number>
  >;
}

function emptyExternal(): Record<ReferenceKind, Set<string>> {
  return Object.fromEntries(REFERENCE_KINDS.map((kind) => [kind, new Set<string>()])) as Record<
    ReferenceKind,
    Set<string>
  >;
}

/** Parses one record of a section; problems go to `issues`. */
export function parseRecord<S extends SectionName>(
  section: S,
  raw: unknown,
  path: string,
  issues: IssueLog,
): SectionRecord<S> | undefined {
  const parsed = parseObject(SECTION_SPECS[section], raw, path, issues);
  return parsed === INVALID ? undefined : (parsed as SectionRecord<S>);
}

/**
 * Re-reads a slice of a section's records, already validated by {@link validateDocument}.
 * Keeping only raw records between passes bounds memory to the parsed file.
 */
export function readRecords<S extends SectionName>(
  facts: FileFacts,
  section: S,
  start: number,
  end: number,
): { index: number; record: SectionRecord<S> }[] {
  const raw = facts.sections[section] ?? [];
  const silent = new SilentIssueLog();
  const records: { index: number; record: SectionRecord<S> }[] = [];
  for (let index = start; index < Math.min(end, raw.length); index += 1) {
    const record = parseRecord(section, raw[index], `${section}[${index}]`, silent);
    if (record) records.push({ index, record });
  }
  return records;
}

/**
 * First pass: checks every record's shape and values and the rules that span
 * records (duplicate slugs and extcat ids, role definitions, franchise membership,
 * users). References that the file does not define are collected for the database check.
 */
export function validateDocument(document: unknown, issues: IssueLog): FileFacts {
  const facts: FileFacts = {
    sections: {},
    keys: emptyKeys(),
    extcatIds: { anime: new Map(), manga: new Map(), novel: new Map() },
    external: emptyExternal(),
    roles: new Map(),
    userEmails: new Map(),
  };
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    issues.add('$', 'the file must hold one JSON object');
    return facts;
  }
  const sections = facts.sections as Partial<Record<SectionName, readonly unknown[]>>;
  for (const [name, value] of Object.entries(document)) {
    if (!(SECTION_ORDER as readonly string[]).includes(name)) issues.add(name, `unknown section "${name}"`);
    else if (!Array.isArray(value)) issues.add(name, 'a section must be a list of records');
    else sections[name as SectionName] = value;
  }
  for (const section of SECTION_ORDER) {
    const records = facts.sections[section];
    if (records) validateSection(section, records, facts, issues);
  }
  return facts;
}

function validateSection(
  section: SectionName,
  records: readonly unknown[],
  facts: FileFacts,
  issues: IssueLog,
): void {
  const franchiseOf = new Map<string, string>();
  records.forEach((raw, index) => {
    const path = `${section}[${index}]`;
    registerKey(section, raw, index, facts, issues);
    const record = parseRecord(section, raw, path, issues);
    if (!record) return;
    forEachReference(section, record, path, (kind, slug, at) => {
      if (!facts.keys[DEFINING_SECTION[kind]].has(slug)) facts.external[kind].add(slug);
      if (section === 'franchises')
        checkSingleFranchise(kind, slug, at, record as FranchiseRecord, franchiseOf, issues);
    });
    if (isTitleSection(section)) validateTitle(section, record as TitleRecord, index, facts, issues);
    if (section === 'users') validateUser(record as UserRecord, path, facts, issues);
  });
}

/** Records are keyed by slug (franchises: key; users: username ignoring case); a key may appear once per section. */
function registerKey(
  section: SectionName,
  raw: unknown,
  index: number,
  facts: FileFacts,
  issues: IssueLog,
): void {
  if (typeof raw !== 'object' || raw === null) return;
  const field = section === 'franchises' ? 'key' : section === 'users' ? 'username' : 'slug';
  const value: unknown = (raw as Record<string, unknown>)[field];
  if (typeof value !== 'string') return;
  const key = section === 'users' ? value.toLowerCase() : value;
  const keys = facts.keys[section];
  const earlier = keys.get(key);
  if (earlier === undefined) keys.set(key, index);
  else
    issues.add(
      `${section}[${index}].${field}`,
      `duplicate ${field} "${value}" (also ${section}[${earlier}])`,
    );
}

function checkSingleFranchise(
  kind: string,
  slug: string,
  path: string,
  franchise: FranchiseRecord,
  franchiseOf: Map<string, string>,
  issues: IssueLog,
): void {
  const member = `${kind}:${slug}`;
  const other = franchiseOf.get(member);
  if (other !== undefined && other !== franchise.key) {
    issues.add(
      path,
      `${kind} "${slug}" is also listed in franchise "${other}" (a title belongs to at most one franchise)`,
    );
  }
  franchiseOf.set(member, franchise.key);
}

function validateTitle(
  section: TitleSection,
  title: TitleRecord,
  index: number,
  facts: FileFacts,
  issues: IssueLog,
): void {
  const path = `${section}[${index}]`;
  const extcatIds = facts.extcatIds[section];
  const earlier = extcatIds.get(title.extcat_id);
  if (earlier === undefined) extcatIds.set(title.extcat_id, index);
  else
    issues.add(`${path}.extcat_id`, `duplicate extcat_id ${title.extcat_id} (also ${section}[${earlier}])`);
  for (const problem of titleRangeProblems(title)) issues.add(`${path}.${problem.field}`, problem.message);
  const { field, credits } = creditsOf(section, title);
  credits?.forEach((credit, i) =>
    credit.roles?.forEach((role, j) =>
      defineRole(role, `${path}.${field}[${i}].roles[${j}]`, facts.roles, issues),
    ),
  );
}

/** The two-field rules of import-format.md, for values that are known (given or stored). */
export function titleRangeProblems(values: {
  episodes_released?: number | null;
  episodes_total?: number | null;
  start_date?: Date | null;
  end_date?: Date | null;
}): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  const { episodes_released: released, episodes_total: total, start_date: start, end_date: end } = values;
  if (typeof released === 'number' && typeof total === 'number' && released > total) {
    problems.push({
      field: 'episodes_released',
      message: `episodes_released ${released} exceeds episodes_total ${total}`,
    });
  }
  if (start instanceof Date && end instanceof Date && start.getTime() > end.getTime()) {
    problems.push({ field: 'start_date', message: 'start_date is after end_date' });
  }
  return problems;
}

/**
 * Roles are global and keyed by slug: every use of a slug in the file must agree on
 * the fields it gives. A field no use gives keeps its stored value (or null on create).
 */
function defineRole(
  role: RoleRecord,
  path: string,
  roles: Map<string, RoleDefinition>,
  issues: IssueLog,
): void {
  let definition = roles.get(role.slug);
  if (!definition) {
    definition = { slug: role.slug, given: {}, firstPaths: {} };
    roles.set(role.slug, definition);
  }
  for (const field of ['name_en', 'name_ua', 'weight'] as const) {
    const value = role[field];
    if (value === undefined) continue;
    const firstPath = definition.firstPaths[field];
    if (firstPath === undefined) {
      Object.assign(definition.given, { [field]: value });
      definition.firstPaths[field] = path;
    } else if (definition.given[field] !== value) {
      const first = JSON.stringify(definition.given[field]);
      issues.add(
        `${path}.${field}`,
        `role "${role.slug}" has ${field} ${JSON.stringify(value)} here but ${first} at ${firstPath}`,
      );
    }
  }
}

function validateUser(user: UserRecord, path: string, facts: FileFacts, issues: IssueLog): void {
  if ((user.password === undefined) === (user.password_hash === undefined)) {
    issues.add(path, 'give either password or password_hash (exactly one)');
  }
  if (user.password_hash !== undefined && !isSupportedPasswordHash(user.password_hash)) {
    issues.add(`${path}.password_hash`, 'not a bcrypt ($2a$, $2b$, $2y$) or argon2id ($argon2id$) hash');
  }
  const email = user.email.toLowerCase();
  const owner = facts.userEmails.get(email);
  if (owner !== undefined && owner !== user.username.toLowerCase()) {
    issues.add(`${path}.email`, `email "${user.email}" is already used by user "${owner}" in this file`);
  } else {
    facts.userEmails.set(email, user.username.toLowerCase());
  }
}
