import type { EntityManager } from '@mikro-orm/postgresql';
import { Anime } from '../catalog/anime.entity';
import type { CatalogTitle } from '../catalog/catalog-title.entity';
import { Manga } from '../catalog/manga.entity';
import { Novel } from '../catalog/novel.entity';
import { inBatches, type ApplyContext } from './apply-context';
import { batches, pgArray, runSql } from './bulk-sql';
import { assignChanged } from './entity-patch';
import { LOOKUP_BATCH, type ReferenceIndex } from './import-references';
import type {
  AnimeRecord,
  CreditRecord,
  MangaRecord,
  NovelRecord,
  SectionRecord,
  TitleSection,
} from './import-schema';
import { readRecords, titleRangeProblems } from './import-validation';
import { NSFW_GENRES } from '../catalog/title-filters';
import { TitleLinks, type DesiredLinks, type LinkName } from './title-links';

/** Genres that make a title NSFW for catalog searches (semantics §1.9). */

interface SplitRecord<E> {
  slug: string;
  /** Column values given by the record. */
  scalars: Partial<E>;
  /** Links given by the record, as references. */
  desired: DesiredLinks;
}

interface TitleConfig<E extends CatalogTitle, R> {
  entity: new () => E;
  findBySlugs(em: EntityManager, slugs: string[]): Promise<E[]>;
  split(record: R, index: ReferenceIndex): SplitRecord<E>;
}

function creditMap(
  credits: readonly CreditRecord[] | undefined,
  index: ReferenceIndex,
): DesiredLinks['credits'] {
  if (!credits) return undefined;
  return new Map(
    credits.map((credit) => [
      index.get('person', credit.person),
      (credit.roles ?? []).map((role) => index.get('role', role.slug)),
    ]),
  );
}

function appearanceMap(
  characters: AnimeRecord['characters'],
  index: ReferenceIndex,
): DesiredLinks['characters'] {
  if (!characters) return undefined;
  return new Map(characters.map((item) => [index.get('character', item.slug), item.main ?? false]));
}

const ANIME: TitleConfig<Anime, AnimeRecord> = {
  entity: Anime,
  findBySlugs: (em, slugs) => em.find(Anime, { slug: { $in: slugs } }),
  split(record, index) {
    const { genres, studios, producers, characters, staff, schedule, ...scalars } = record;
    const companies =
      studios === undefined && producers === undefined
        ? undefined
        : {
            ...(studios && { studio: studios.map((slug) => index.get('company', slug)) }),
            ...(producers && { producer: producers.map((slug) => index.get('company', slug)) }),
          };
    return {
      slug: record.slug,
      scalars,
      desired: {
        genres: genres?.map((slug) => index.get('genre', slug)),
        companies,
        characters: appearanceMap(characters, index),
        credits: creditMap(staff, index),
        schedule: schedule && new Map(schedule.map((entry) => [entry.episode, entry.airing_at])),
      },
    };
  },
};

function splitReadable<R extends MangaRecord | NovelRecord>(record: R, index: ReferenceIndex) {
  const { genres, magazines, characters, authors, ...scalars } = record;
  return {
    slug: record.slug,
    scalars,
    desired: {
      genres: genres?.map((slug) => index.get('genre', slug)),
      magazines: magazines?.map((slug) => index.get('magazine', slug)),
      characters: appearanceMap(characters, index),
      credits: creditMap(authors, index),
    },
  };
}

const MANGA: TitleConfig<Manga, MangaRecord> = {
  entity: Manga,
  findBySlugs: (em, slugs) => em.find(Manga, { slug: { $in: slugs } }),
  split: splitReadable,
};
const NOVEL: TitleConfig<Novel, NovelRecord> = {
  entity: Novel,
  findBySlugs: (em, slugs) => em.find(Novel, { slug: { $in: slugs } }),
  split: splitReadable,
};

/** Anime, manga or novels: columns through the ORM, links through {@link TitleLinks}. */
export async function applyTitles(context: ApplyContext, section: TitleSection): Promise<void> {
  if (section === 'anime') await applyTitleSection(context, 'anime', ANIME);
  else if (section === 'manga') await applyTitleSection(context, 'manga', MANGA);
  else await applyTitleSection(context, 'novel', NOVEL);
}

/** What a title section keeps between batches. */
interface SectionState {
  /** Reference → slug of the NSFW genres (anime only). */
  readonly nsfwGenres: ReadonlyMap<string, string>;
  /** Stored titles whose `deleted` flag this import changed. */
  readonly restoredOrDeleted: string[];
}

type SplitEntry<E> = SplitRecord<E> & { path: string };

async function applyTitleSection<S extends TitleSection, E extends CatalogTitle>(
  context: ApplyContext,
  section: S,
  config: TitleConfig<E, SectionRecord<S>>,
): Promise<void> {
  context.counts(section);
  await releaseExtcatIds(context.em, section, context.preparation.extcatHolders[section]);
  const state: SectionState = {
    nsfwGenres: section === 'anime' ? await nsfwGenreSlugs(context.em) : new Map(),
    restoredOrDeleted: [],
  };
  const total = context.facts.sections[section]?.length ?? 0;
  await inBatches(context, section, total, (start, end) =>
    applyTitleBatch(context, section, config, state, start, end),
  );
  await recountCollectionEntries(context.em, state.restoredOrDeleted);
}

/** One query for the stored titles, a few for their links, one flush, then the link writes. */
async function applyTitleBatch<S extends TitleSection, E extends CatalogTitle>(
  context: ApplyContext,
  section: S,
  config: TitleConfig<E, SectionRecord<S>>,
  state: SectionState,
  start: number,
  end: number,
): Promise<void> {
  const { em } = context;
  const entries: SplitEntry<E>[] = readRecords(context.facts, section, start, end).map(
    ({ index, record }) => ({
      path: `${section}[${index}]`,
      ...config.split(record, context.index),
    }),
  );
  const stored = await config.findBySlugs(
    em,
    entries.map((entry) => entry.slug),
  );
  const bySlug = new Map(stored.map((title) => [title.slug, title]));
  const links = new TitleLinks(em, section);
  const linkNames = givenLinks(
    entries.map((entry) => entry.desired),
    state.nsfwGenres.size > 0,
  );
  await links.load(
    stored.map((title) => title.reference),
    linkNames,
  );
  for (const entry of entries) {
    const existing = bySlug.get(entry.slug);
    applyTitle(
      context,
      section,
      existing ?? new config.entity(),
      existing !== undefined,
      entry,
      links,
      state,
    );
  }
  await em.flush();
  await links.write();
  em.clear();
}

function applyTitle<E extends CatalogTitle>(
  context: ApplyContext,
  section: TitleSection,
  title: E,
  existed: boolean,
  { path, scalars, desired }: SplitEntry<E>,
  links: TitleLinks,
  state: SectionState,
): void {
  const wasDeleted = title.deleted;
  const columnsChanged = assignChanged(title, scalars);
  const linksChanged = links.sync(title.reference, desired);
  for (const problem of titleRangeProblems(title)) {
    context.issues.add(`${path}.${problem.field}`, problem.message);
  }
  countTitle(context, section, title, existed, columnsChanged || linksChanged);
  if (existed && wasDeleted !== title.deleted) state.restoredOrDeleted.push(title.reference);
  if (section === 'anime') {
    const genres = links.genresAfter(title.reference, desired);
    warnNsfwMismatch(context, path, title.nsfw, genres, state.nsfwGenres);
  }
}

function countTitle(
  context: ApplyContext,
  section: TitleSection,
  title: CatalogTitle,
  existed: boolean,
  changed: boolean,
): void {
  const counts = context.counts(section);
  if (!existed) {
    title.created = context.now;
    title.updated = context.now;
    context.em.persist(title);
    counts.created += 1;
  } else if (changed) {
    title.updated = context.now;
    counts.updated += 1;
  } else {
    counts.unchanged += 1;
  }
}

/** The kinds of links any record of the batch gives (genres always for anime: the NSFW check reads them). */
function givenLinks(desired: readonly DesiredLinks[], withGenres: boolean): Set<LinkName> {
  const names = new Set<LinkName>(withGenres ? ['genres'] : []);
  for (const links of desired) {
    for (const [name, value] of Object.entries(links)) if (value !== undefined) names.add(name as LinkName);
  }
  return names;
}

/**
 * Stored titles whose extcat_id another record of the file takes, and which the file
 * gives a new id, first move to a temporary negative id (ids are never negative), so
 * that swapped or chained ids never collide on the unique constraint mid-import.
 */
async function releaseExtcatIds(
  em: EntityManager,
  section: TitleSection,
  slugs: readonly string[],
): Promise<void> {
  if (slugs.length === 0) return;
  await runSql(em, `update "${section}" set extcat_id = -1 - extcat_id where slug = any(?::text[])`, [
    pgArray(slugs),
  ]);
}

/** Reference → slug of the NSFW genres that exist. */
async function nsfwGenreSlugs(em: EntityManager): Promise<Map<string, string>> {
  const rows = await runSql<{ reference: string; slug: string }>(
    em,
    'select reference, slug from genre where slug = any(?::text[])',
    [pgArray(NSFW_GENRES)],
  );
  return new Map(rows.map((row) => [row.reference, row.slug]));
}

/** The schedule filters by the flag and searches by the genres, so a disagreement is worth a warning. */
function warnNsfwMismatch(
  context: ApplyContext,
  path: string,
  nsfw: boolean,
  genres: readonly string[],
  nsfwGenres: ReadonlyMap<string, string>,
): void {
  const found = genres.flatMap((reference) => nsfwGenres.get(reference) ?? []).sort();
  if (nsfw && found.length === 0) {
    context.warn(`${path}: nsfw is true but none of its genres is ${NSFW_GENRES.join(', ')}`);
  } else if (!nsfw && found.length > 0) {
    context.warn(`${path}: nsfw is false but its genres include ${found.join(', ')}`);
  }
}

/**
 * A collection's `entries` counts its items whose content is not deleted (semantics
 * §6.4), so it follows when `deleted` changes on titles that collections hold.
 */
async function recountCollectionEntries(em: EntityManager, titles: readonly string[]): Promise<void> {
  for (const batch of batches(titles, LOOKUP_BATCH)) {
    await runSql(
      em,
      `update collection c set entries = (
         select count(*) from collection_item i
         where i.collection_reference = c.reference
           and not exists (select 1 from anime t where i.content_type = 'anime' and t.reference = i.content_reference and t.deleted)
           and not exists (select 1 from manga t where i.content_type = 'manga' and t.reference = i.content_reference and t.deleted)
           and not exists (select 1 from novel t where i.content_type = 'novel' and t.reference = i.content_reference and t.deleted))
       where c.reference in (select collection_reference from collection_item where content_reference = any(?::uuid[]))`,
      [pgArray(batch)],
    );
  }
}
