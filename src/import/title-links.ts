import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { CompanyRole } from '../common/enums';
import {
  deleteByReference,
  deleteMatching,
  insertRows,
  pgArray,
  runSql,
  updateRows,
  type Columns,
  type Row,
} from './bulk-sql';
import type { TitleSection } from './import-schema';

/** The links a title record gives, as references; an absent list keeps the stored links. */
export interface DesiredLinks {
  genres?: readonly string[];
  magazines?: readonly string[];
  /** Studios and producers: each role's list replaces only that role's links. */
  companies?: Partial<Record<CompanyRole, readonly string[]>>;
  /** Character reference → `main`. */
  characters?: ReadonlyMap<string, boolean>;
  /** Person reference → role references. */
  credits?: ReadonlyMap<string, readonly string[]>;
  /** Episode number → airing time. */
  schedule?: ReadonlyMap<number, Date>;
}
export type LinkName = keyof DesiredLinks;

interface StoredLinks {
  genres: Set<string>;
  magazines: Set<string>;
  /** `role:company` → row reference. */
  companies: Map<string, string>;
  characters: Map<string, { reference: string; main: boolean }>;
  credits: Map<string, { reference: string; roles: Set<string> }>;
  schedule: Map<number, { reference: string; airingMs: number }>;
}

function noLinks(): StoredLinks {
  return {
    genres: new Set(),
    magazines: new Set(),
    companies: new Map(),
    characters: new Map(),
    credits: new Map(),
    schedule: new Map(),
  };
}

/** Queued writes to one table, applied together after the chunk's titles are flushed. */
class TableWrites {
  readonly inserts: Row[] = [];
  readonly updates: Row[] = [];
  readonly deletedReferences: string[] = [];
  readonly deletedRows: Row[] = [];

  constructor(
    readonly table: string,
    readonly columns: Columns,
    /** Columns of `updates` (reference first) or of `deletedRows`. */
    readonly keyColumns: Columns = {},
  ) {}

  async deleteAll(em: EntityManager): Promise<void> {
    await deleteByReference(em, this.table, this.deletedReferences);
    await deleteMatching(em, this.table, this.keyColumns, this.deletedRows);
  }

  async updateAll(em: EntityManager): Promise<void> {
    await updateRows(em, this.table, this.keyColumns, this.updates);
  }

  async insertAll(em: EntityManager): Promise<void> {
    await insertRows(em, this.table, this.columns, this.inserts);
  }
}

/**
 * Synchronises the rows hanging off anime, manga or novels (genre and magazine
 * pivots, studios/producers, appearances, credits with their roles, the airing
 * schedule) for one chunk of titles: load what is stored, diff against the file,
 * then write only the differences. Rows that stay keep their references.
 */
export class TitleLinks {
  private stored = new Map<string, StoredLinks>();
  private writes: ReturnType<TitleLinks['emptyWrites']>;

  constructor(
    private readonly em: EntityManager,
    private readonly kind: TitleSection,
  ) {
    this.writes = this.emptyWrites();
  }

  private get titleColumn(): string {
    return `${this.kind}_reference`;
  }

  private emptyWrites() {
    const title = `${this.kind}_reference`;
    return {
      genres: new TableWrites(
        `${this.kind}_genres`,
        { [title]: 'uuid', genre_reference: 'uuid' },
        { [title]: 'uuid', genre_reference: 'uuid' },
      ),
      magazines: new TableWrites(
        `${this.kind}_magazines`,
        { [title]: 'uuid', magazine_reference: 'uuid' },
        { [title]: 'uuid', magazine_reference: 'uuid' },
      ),
      companies: new TableWrites('anime_company', {
        reference: 'uuid',
        anime_reference: 'uuid',
        company_reference: 'uuid',
        role: 'text',
      }),
      appearances: new TableWrites(
        'appearance',
        { reference: 'uuid', character_reference: 'uuid', [title]: 'uuid', main: 'boolean' },
        { reference: 'uuid', main: 'boolean' },
      ),
      credits: new TableWrites('credit', { reference: 'uuid', person_reference: 'uuid', [title]: 'uuid' }),
      creditRoles: new TableWrites(
        'credit_roles',
        { credit_reference: 'uuid', role_reference: 'uuid' },
        { credit_reference: 'uuid', role_reference: 'uuid' },
      ),
      schedule: new TableWrites(
        'airing_episode',
        { reference: 'uuid', anime_reference: 'uuid', episode: 'integer', airing_at: 'timestamptz' },
        { reference: 'uuid', airing_at: 'timestamptz' },
      ),
    };
  }

  private linksOf(title: string): StoredLinks {
    let links = this.stored.get(title);
    if (!links) {
      links = noLinks();
      this.stored.set(title, links);
    }
    return links;
  }

  /** Loads the stored links of existing titles, only for the kinds of links the batch gives. */
  async load(titles: readonly string[], names: ReadonlySet<LinkName>): Promise<void> {
    if (titles.length === 0) return;
    const refs = pgArray(titles);
    if (names.has('genres')) await this.loadPivot('genres', 'genre_reference', refs);
    if (names.has('magazines') && this.kind !== 'anime')
      await this.loadPivot('magazines', 'magazine_reference', refs);
    if (names.has('companies') && this.kind === 'anime') await this.loadCompanies(refs);
    if (names.has('characters')) await this.loadAppearances(refs);
    if (names.has('credits')) await this.loadCredits(refs);
    if (names.has('schedule') && this.kind === 'anime') await this.loadSchedule(refs);
  }

  private async loadPivot(link: 'genres' | 'magazines', targetColumn: string, refs: string): Promise<void> {
    const column = this.titleColumn;
    const rows = await runSql<{ title: string; target: string }>(
      this.em,
      `select "${column}" as title, "${targetColumn}" as target from "${this.kind}_${link}" where "${column}" = any(?::uuid[])`,
      [refs],
    );
    for (const row of rows) this.linksOf(row.title)[link].add(row.target);
  }

  private async loadCompanies(refs: string): Promise<void> {
    const rows = await runSql<{ reference: string; title: string; company: string; role: string }>(
      this.em,
      `select reference, anime_reference as title, company_reference as company, role
       from anime_company where anime_reference = any(?::uuid[])`,
      [refs],
    );
    for (const row of rows)
      this.linksOf(row.title).companies.set(`${row.role}:${row.company}`, row.reference);
  }

  private async loadAppearances(refs: string): Promise<void> {
    const column = this.titleColumn;
    const rows = await runSql<{ reference: string; title: string; character: string; main: boolean }>(
      this.em,
      `select reference, "${column}" as title, character_reference as character, main
       from appearance where "${column}" = any(?::uuid[])`,
      [refs],
    );
    for (const { reference, title, character, main } of rows) {
      this.linksOf(title).characters.set(character, { reference, main });
    }
  }

  private async loadCredits(refs: string): Promise<void> {
    const column = this.titleColumn;
    const rows = await runSql<{ reference: string; title: string; person: string; roles: string[] }>(
      this.em,
      `select c.reference, c."${column}" as title, c.person_reference as person,
              array_remove(array_agg(cr.role_reference::text), null) as roles
       from credit c left join credit_roles cr on cr.credit_reference = c.reference
       where c."${column}" = any(?::uuid[]) group by c.reference`,
      [refs],
    );
    for (const { reference, title, person, roles } of rows) {
      this.linksOf(title).credits.set(person, { reference, roles: new Set(roles) });
    }
  }

  private async loadSchedule(refs: string): Promise<void> {
    // Milliseconds as a float: comparable with Date.getTime() without time-zone parsing.
    const rows = await runSql<{ reference: string; title: string; episode: number; airing_ms: number }>(
      this.em,
      `select reference, anime_reference as title, episode, (extract(epoch from airing_at) * 1000)::float8 as airing_ms
       from airing_episode where anime_reference = any(?::uuid[])`,
      [refs],
    );
    for (const { reference, title, episode, airing_ms } of rows) {
      this.linksOf(title).schedule.set(episode, { reference, airingMs: airing_ms });
    }
  }

  /** The genres a title has once the record is applied (for the NSFW check). */
  genresAfter(title: string, desired: DesiredLinks): readonly string[] {
    return desired.genres ?? [...this.linksOf(title).genres];
  }

  /** Queues the writes that make the stored links equal the desired ones; true when anything differs. */
  sync(title: string, desired: DesiredLinks): boolean {
    const stored = this.linksOf(title);
    const results = [
      desired.genres !== undefined &&
        this.syncPivot(this.writes.genres, 'genre_reference', title, stored.genres, desired.genres),
      desired.magazines !== undefined &&
        this.syncPivot(
          this.writes.magazines,
          'magazine_reference',
          title,
          stored.magazines,
          desired.magazines,
        ),
      desired.companies !== undefined && this.syncCompanies(title, stored.companies, desired.companies),
      desired.characters !== undefined && this.syncAppearances(title, stored.characters, desired.characters),
      desired.credits !== undefined && this.syncCredits(title, stored.credits, desired.credits),
      desired.schedule !== undefined && this.syncSchedule(title, stored.schedule, desired.schedule),
    ];
    return results.some(Boolean);
  }

  /** Set semantics for pivot rows `(owner, target)`; the owner is the title unless told otherwise. */
  private syncPivot(
    writes: TableWrites,
    targetColumn: string,
    owner: string,
    stored: Set<string>,
    desired: readonly string[],
    ownerColumn = this.titleColumn,
  ): boolean {
    const wanted = new Set(desired);
    let changed = false;
    for (const target of stored) {
      if (wanted.has(target)) continue;
      writes.deletedRows.push({ [ownerColumn]: owner, [targetColumn]: target });
      changed = true;
    }
    for (const target of wanted) {
      if (stored.has(target)) continue;
      writes.inserts.push({ [ownerColumn]: owner, [targetColumn]: target });
      changed = true;
    }
    return changed;
  }

  private syncCompanies(
    title: string,
    stored: Map<string, string>,
    desired: Partial<Record<CompanyRole, readonly string[]>>,
  ): boolean {
    let changed = false;
    for (const [role, companies] of Object.entries(desired) as [CompanyRole, readonly string[]][]) {
      const wanted = new Set(companies.map((company) => `${role}:${company}`));
      for (const [key, reference] of stored) {
        if (!key.startsWith(`${role}:`) || wanted.has(key)) continue;
        this.writes.companies.deletedReferences.push(reference);
        changed = true;
      }
      for (const company of companies) {
        if (stored.has(`${role}:${company}`)) continue;
        this.writes.companies.inserts.push({
          reference: randomUUID(),
          anime_reference: title,
          company_reference: company,
          role,
        });
        changed = true;
      }
    }
    return changed;
  }

  private syncAppearances(
    title: string,
    stored: Map<string, { reference: string; main: boolean }>,
    desired: ReadonlyMap<string, boolean>,
  ): boolean {
    const writes = this.writes.appearances;
    let changed = false;
    for (const [character, appearance] of stored) {
      if (desired.has(character)) continue;
      writes.deletedReferences.push(appearance.reference);
      changed = true;
    }
    for (const [character, main] of desired) {
      const appearance = stored.get(character);
      if (!appearance) {
        writes.inserts.push({
          reference: randomUUID(),
          character_reference: character,
          [this.titleColumn]: title,
          main,
        });
        changed = true;
      } else if (appearance.main !== main) {
        writes.updates.push({ reference: appearance.reference, main });
        changed = true;
      }
    }
    return changed;
  }

  private syncCredits(
    title: string,
    stored: Map<string, { reference: string; roles: Set<string> }>,
    desired: ReadonlyMap<string, readonly string[]>,
  ): boolean {
    let changed = false;
    for (const [person, credit] of stored) {
      if (desired.has(person)) continue;
      // Its credit_roles rows go with it (on delete cascade).
      this.writes.credits.deletedReferences.push(credit.reference);
      changed = true;
    }
    for (const [person, roles] of desired) {
      let credit = stored.get(person);
      if (!credit) {
        credit = { reference: randomUUID(), roles: new Set() };
        this.writes.credits.inserts.push({
          reference: credit.reference,
          person_reference: person,
          [this.titleColumn]: title,
        });
        changed = true;
      }
      if (
        this.syncPivot(
          this.writes.creditRoles,
          'role_reference',
          credit.reference,
          credit.roles,
          roles,
          'credit_reference',
        )
      ) {
        changed = true;
      }
    }
    return changed;
  }

  private syncSchedule(
    title: string,
    stored: Map<number, { reference: string; airingMs: number }>,
    desired: ReadonlyMap<number, Date>,
  ): boolean {
    const writes = this.writes.schedule;
    let changed = false;
    for (const [episode, entry] of stored) {
      if (desired.has(episode)) continue;
      writes.deletedReferences.push(entry.reference);
      changed = true;
    }
    for (const [episode, airingAt] of desired) {
      const entry = stored.get(episode);
      if (!entry) {
        writes.inserts.push({
          reference: randomUUID(),
          anime_reference: title,
          episode,
          airing_at: airingAt.toISOString(),
        });
        changed = true;
      } else if (entry.airingMs !== airingAt.getTime()) {
        writes.updates.push({ reference: entry.reference, airing_at: airingAt.toISOString() });
        changed = true;
      }
    }
    return changed;
  }

  /** Applies the queued writes (deletes, then updates, then inserts, parents before children) and forgets the chunk. */
  async write(): Promise<void> {
    const { genres, magazines, companies, appearances, credits, creditRoles, schedule } = this.writes;
    for (const table of [genres, magazines, companies, appearances, creditRoles, credits, schedule])
      await table.deleteAll(this.em);
    for (const table of [appearances, schedule]) await table.updateAll(this.em);
    for (const table of [genres, magazines, companies, appearances, credits, creditRoles, schedule])
      await table.insertAll(this.em);
    this.stored = new Map();
    this.writes = this.emptyWrites();
  }
}
