import { FieldResolver, Resolver, Root, type ClassType } from 'type-graphql';
import type { ReadContentType, TitleContentType } from '../common/enums';
import { type SqlForm, sqlFields, sqlRoot, sqlRows, sqlValue } from '../graphql/sql-plan/fields';
import type { ErrorCode } from '../common/errors/catalog';
import { moduleSlug } from './catalog.service';
import { compareSlugs } from '../common/sorting';
import type { CatalogTitle } from './catalog-title.entity';
import { Genre } from './genre.entity';
import { Magazine } from './magazine.entity';
import { ExternalLink, type ReadableTitle } from './readable-title.entity';

const bySlug = (a: { slug: string }, b: { slug: string }) => compareSlugs(a.slug, b.slug);

/** The SQL form of a title's genres or magazines: the linked rows, by slug (as `bySlug`). */
const linkedBySlug = (kind: TitleContentType, linked: 'genre' | 'magazine') =>
  sqlRows((title, row) => ({
    from: `${kind}_${linked}s ${row}_j join ${linked} ${row} on ${row}.reference = ${row}_j.${linked}_reference`,
    where: `${row}_j.${kind}_reference = ${title}.reference`,
    orderBy: `${row}.slug collate "C"`,
  }));

/**
 * Field resolvers every catalog title has. Relations load through MikroORM's batching
 * dataloader; their SQL forms ({@link catalogTitleSqlForms}) read the same rows in the same order.
 */
export function CatalogTitleFields<T extends CatalogTitle>(Title: ClassType<T>) {
  @Resolver(() => Title)
  abstract class CatalogTitleFieldResolver {
    @FieldResolver(() => [Genre], { description: 'By slug.' })
    async genres(@Root() title: T): Promise<Genre[]> {
      return (await title.genres.load()).getItems().sort(bySlug);
    }
  }
  return CatalogTitleFieldResolver;
}

/** External links as shown: `general` first, then `read` with `Dengeki` first; other types omitted. */
export function displayedExternalLinks(links: readonly ExternalLink[]): ExternalLink[] {
  const general = links.filter((link) => link.type === 'general');
  const read = links.filter((link) => link.type === 'read');
  const dengeki = read.filter((link) => link.text === 'Dengeki');
  return [...general, ...dengeki, ...read.filter((link) => link.text !== 'Dengeki')];
}

/** {@link displayedExternalLinks} in SQL: elements of the stored array, bound as `<alias>.link`. */
export const displayedExternalLinksSql = sqlRows((title, link) => ({
  from: `jsonb_array_elements(${title}.external) with ordinality as ${link}(link, position)`,
  where: `${link}.link->>'type' in ('general', 'read')`,
  orderBy: `case when ${link}.link->>'type' = 'general' then 0 when ${link}.link->>'text' = 'Dengeki' then 1 else 2 end, ${link}.position`,
}));

/**
 * Field resolvers shared by manga and novels. Domains above the catalog extend the titles
 * with fields of their own: the authors (src/people), the caller's read entries and the
 * reading statistics (src/lists).
 */
export function ReadableTitleFields<T extends ReadableTitle>(Title: ClassType<T>) {
  @Resolver(() => Title)
  abstract class ReadableTitleFieldResolver extends CatalogTitleFields(Title) {
    @FieldResolver(() => [Magazine], { description: 'By slug.' })
    async magazines(@Root() title: T): Promise<Magazine[]> {
      return (await title.magazines.load()).getItems().sort(bySlug);
    }
  }
  return ReadableTitleFieldResolver;
}

/**
 * A title's info root (`anime`, `manga`, `novel`) in SQL: the look-up of
 * `findTitleBySlug`, the module slug, deleted titles never found.
 */
export const titleBySlugSqlRoot = (
  Title: ClassType<CatalogTitle>,
  kind: TitleContentType,
  notFound: ErrorCode,
) =>
  sqlRoot(kind, {
    kind: 'one',
    type: Title,
    rows: (title, { slug }) => ({
      from: `${kind} ${title}`,
      where: `${title}.slug = ${slug} and not ${title}.deleted`,
    }),
    values: ({ slug }) => ({ slug: moduleSlug(String(slug)) }),
    notFound,
  });

/** The SQL forms of {@link CatalogTitleFields} for `Title`, a title of `kind`. */
export const catalogTitleSqlForms = (Title: ClassType<CatalogTitle>, kind: TitleContentType): SqlForm[] => [
  sqlFields(Title, { genres: linkedBySlug(kind, 'genre') }),
];

/** The SQL forms of {@link ReadableTitleFields} for `Title`, a title of `kind`. */
export const readableTitleSqlForms = (Title: ClassType<ReadableTitle>, kind: ReadContentType): SqlForm[] => [
  ...catalogTitleSqlForms(Title, kind),
  sqlFields(Title, { magazines: linkedBySlug(kind, 'magazine') }),
];

/** Every stored external link in stored order (a novel's), bound as `<alias>.link`. */
export const storedExternalLinksSql = sqlRows((title, link) => ({
  from: `jsonb_array_elements(${title}.external) with ordinality as ${link}(link, position)`,
  orderBy: `${link}.position`,
}));

/** An external link's fields, from an element of the stored array ({@link displayedExternalLinksSql}). */
export const externalLinkSqlForms: readonly SqlForm[] = [
  sqlFields(ExternalLink, {
    url: sqlValue((link) => `${link}.link->'url'`),
    text: sqlValue((link) => `${link}.link->'text'`),
    type: sqlValue((link) => `${link}.link->>'type'`),
  }),
];
