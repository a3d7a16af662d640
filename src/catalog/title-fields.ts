import { Ctx, FieldResolver, Resolver, Root, type ClassType } from 'type-graphql';
import type { ReadContentType, TitleContentType } from '../common/enums';
import type { RequestContext } from '../context';
import { sqlFields, sqlRows, sqlValue } from '../graphql/sql-plan/fields';
import { viewerReadEntries } from '../lists/list.loaders';
import { ReadEntry } from '../lists/read-entry.entity';
import { Credit } from '../people/credit.entity';
import { compareCredits, creditsOfTitle } from '../people/credit.loaders';
import { compareSlugs } from '../people/role.entity';
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
 * dataloader; their SQL forms (src/graphql/sql-plan) read the same rows in the same order.
 */
export function CatalogTitleFields<T extends CatalogTitle>(Title: ClassType<T>, kind: TitleContentType) {
  sqlFields(Title, { genres: linkedBySlug(kind, 'genre') });

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
const displayedExternalLinksSql = sqlRows((title, link) => ({
  from: `jsonb_array_elements(${title}.external) with ordinality as ${link}(link, position)`,
  where: `${link}.link->>'type' in ('general', 'read')`,
  orderBy: `case when ${link}.link->>'type' = 'general' then 0 when ${link}.link->>'text' = 'Dengeki' then 1 else 2 end, ${link}.position`,
}));
sqlFields(ExternalLink, {
  url: sqlValue((link) => `${link}.link->'url'`),
  text: sqlValue((link) => `${link}.link->'text'`),
  type: sqlValue((link) => `${link}.link->>'type'`),
});

/** Field resolvers shared by manga and novels. */
export function ReadableTitleFields<T extends ReadableTitle>(Title: ClassType<T>, kind: ReadContentType) {
  sqlFields(Title, {
    magazines: linkedBySlug(kind, 'magazine'),
    authors: sqlRows((title, credit) => ({
      from: `credit ${credit}`,
      where: `${credit}.${kind}_reference = ${title}.reference`,
      // compareCredits: the highest role weight (nulls last), then the person's slug.
      orderBy: `(select max(r.weight) from credit_roles cr join role r on r.reference = cr.role_reference
          where cr.credit_reference = ${credit}.reference) desc nulls last,
        (select p.slug from person p where p.reference = ${credit}.person_reference) collate "C"`,
    })),
    external: displayedExternalLinksSql,
    // viewerReadEntries: the caller's own entry; none for anonymous callers (viewer null).
    read: sqlRows((title, entry, { viewer }) => ({
      from: `read_entry ${entry}`,
      where: `${entry}.${kind}_reference = ${title}.reference and ${entry}.user_reference = ${viewer}`,
    })),
  });

  @Resolver(() => Title)
  abstract class ReadableTitleFieldResolver extends CatalogTitleFields(Title, kind) {
    @FieldResolver(() => [ReadEntry], {
      description: "The caller's own read entry (at most one); [] when anonymous.",
    })
    read(@Root() title: T, @Ctx() ctx: RequestContext): Promise<ReadEntry[]> {
      return viewerReadEntries(ctx, kind).load(title.reference);
    }

    @FieldResolver(() => [Magazine], { description: 'By slug.' })
    async magazines(@Root() title: T): Promise<Magazine[]> {
      return (await title.magazines.load()).getItems().sort(bySlug);
    }

    @FieldResolver(() => [Credit], {
      description: 'By highest role weight desc (null weights last), then person slug.',
    })
    async authors(@Root() title: T, @Ctx() ctx: RequestContext): Promise<Credit[]> {
      return (await creditsOfTitle(ctx, kind).load(title.reference)).sort(compareCredits);
    }

    @FieldResolver(() => [ExternalLink])
    external(@Root() title: T): ExternalLink[] {
      return displayedExternalLinks(title.external);
    }
  }
  return ReadableTitleFieldResolver;
}
