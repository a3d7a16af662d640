import type { FilterQuery } from '@mikro-orm/core';
import { Company } from '../catalog/company.entity';
import { Genre } from '../catalog/genre.entity';
import { Magazine } from '../catalog/magazine.entity';
import { Character } from '../characters/character.entity';
import { Person } from '../people/person.entity';
import { Role } from '../people/role.entity';
import { inBatches, type ApplyContext } from './apply-context';
import { assignChanged } from './entity-patch';
import type { IndexedKind } from './import-references';
import type { ReportSection } from './import-report';
import type {
  CharacterRecord,
  CompanyRecord,
  GenreRecord,
  MagazineRecord,
  PersonRecord,
  SectionName,
} from './import-schema';
import { readRecords, type RoleDefinition } from './import-validation';

interface SlugEntity {
  reference: string;
  slug: string;
}

/**
 * Creates or updates one batch of slug-keyed rows and records their references:
 * one query loads the stored rows, one flush writes the differences.
 */
async function upsertBySlug<E extends SlugEntity>(
  context: ApplyContext,
  section: ReportSection,
  entity: new () => E,
  kind: IndexedKind,
  patches: readonly (Partial<E> & { slug: string })[],
): Promise<void> {
  const { em } = context;
  const counts = context.counts(section);
  const slugs = patches.map((patch) => patch.slug);
  // FilterQuery cannot be inferred for a generic entity; every E here has a `slug` column.
  const stored = await em.find(entity, { slug: { $in: slugs } } as FilterQuery<E>);
  const bySlug = new Map(stored.map((row) => [row.slug, row]));
  for (const patch of patches) {
    const existing = bySlug.get(patch.slug);
    const row = existing ?? new entity();
    const changed = assignChanged(row, patch);
    if (!existing) {
      em.persist(row);
      counts.created += 1;
    } else if (changed) counts.updated += 1;
    else counts.unchanged += 1;
    context.index.set(kind, row.slug, row.reference);
  }
  await em.flush();
  em.clear();
}

type SimpleSection = 'genres' | 'magazines' | 'companies' | 'people' | 'characters';

/**
 * The records of these sections are written to their entities as they are, so
 * each record type must fit its entity: this fails to compile when one does not.
 */
type Fits<R, E> = R extends Partial<E> ? true : never;
export const RECORDS_FIT_ENTITIES: [
  Fits<GenreRecord, Genre>,
  Fits<MagazineRecord, Magazine>,
  Fits<CompanyRecord, Company>,
  Fits<PersonRecord, Person>,
  Fits<CharacterRecord, Character>,
  Fits<RoleDefinition['given'], Role>,
] = [true, true, true, true, true, true];

const SIMPLE_SECTIONS: Record<SimpleSection, { entity: new () => SlugEntity; kind: IndexedKind }> = {
  genres: { entity: Genre, kind: 'genre' },
  magazines: { entity: Magazine, kind: 'magazine' },
  companies: { entity: Company, kind: 'company' },
  people: { entity: Person, kind: 'person' },
  characters: { entity: Character, kind: 'character' },
};

export function isSimpleSection(section: SectionName): section is SimpleSection {
  return Object.hasOwn(SIMPLE_SECTIONS, section);
}

/** Genres, magazines, companies, people and characters: record fields are entity columns. */
export async function applySimpleSection(context: ApplyContext, section: SimpleSection): Promise<void> {
  const { entity, kind } = SIMPLE_SECTIONS[section];
  const total = context.facts.sections[section]?.length ?? 0;
  context.counts(section);
  await inBatches(context, section, total, async (start, end) => {
    const patches = readRecords(context.facts, section, start, end).map(({ record }) => record);
    await upsertBySlug(context, section, entity, kind, patches);
  });
}

/** Roles, merged from every credit of the file; a later import may rename a role. */
export async function applyRoles(context: ApplyContext): Promise<void> {
  const definitions = [...context.facts.roles.values()];
  if (definitions.length === 0) return;
  context.counts('roles');
  await inBatches(context, 'roles', definitions.length, async (start, end) => {
    const patches = definitions.slice(start, end).map((role) => ({ slug: role.slug, ...role.given }));
    await upsertBySlug(context, 'roles', Role, 'role', patches);
  });
}
