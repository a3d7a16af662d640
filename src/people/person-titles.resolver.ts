import { Arg, Args, Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import { Anime } from '../catalog/anime.entity';
import { Manga } from '../catalog/manga.entity';
import { Novel } from '../catalog/novel.entity';
import type { TitleContentType } from '../common/enums';
import { type Page, PageArgs, PagedType } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { sqlFields, sqlRoot, sqlRows, type SqlForm } from '../graphql/sql-plan/fields';
import type { CatalogTitle } from '../catalog/catalog-title.entity';
import { Credit } from './credit.entity';
import { creditRolesSql } from './credit.resolver';
import { findPersonBySlug, personSubject, personTitles, personTitlesQuery } from './person-titles.service';
import { compareRoles, Role } from './role.entity';

const ROLES = 'By weight desc (null weights last), then slug.';

@ObjectType({ description: 'An anime of a person and the person’s roles on it.' })
export class PersonAnimeItem {
  @Field(() => [Role], { description: ROLES }) roles!: Role[];
  @Field(() => Anime) anime!: Anime;
}

@ObjectType({ description: 'A manga of a person and the person’s roles on it.' })
export class PersonMangaItem {
  @Field(() => [Role], { description: ROLES }) roles!: Role[];
  @Field(() => Manga) manga!: Manga;
}

@ObjectType({ description: 'A novel of a person and the person’s roles on it.' })
export class PersonNovelItem {
  @Field(() => [Role], { description: ROLES }) roles!: Role[];
  @Field(() => Novel) novel!: Novel;
}

@ObjectType()
export class PersonAnimePage extends PagedType(PersonAnimeItem) {}

@ObjectType()
export class PersonMangaPage extends PagedType(PersonMangaItem) {}

@ObjectType()
export class PersonNovelPage extends PagedType(PersonNovelItem) {}

/** What the caller's entries on each kind's items need from a third-party token. */
const SCOPES: Record<TitleContentType, readonly string[]> = {
  anime: ['read:watchlist'],
  manga: ['read:readlist'],
  novel: ['read:readlist'],
};

type PersonTitleItem = { roles: Role[] } & Partial<Record<TitleContentType, CatalogTitle>>;

const ORDER = 'by title score, scored_by and reference, all desc';

/**
 * The titles a person is credited on, one root per kind: optional authentication; the
 * person is found before a third-party token's scopes are checked.
 */
@Resolver()
export class PersonTitlesResolver {
  /** GET /people/{slug}/anime: scope `read:watchlist`. */
  @Query(() => PersonAnimePage, { description: `Anime of a person, ${ORDER}.` })
  personAnime(
    @Arg('slug', () => String) slug: string,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<Page<PersonTitleItem>> {
    return pageOf(ctx, 'anime', slug, page);
  }

  /** #7 GET /people/{slug}/manga: scope `read:readlist`. */
  @Query(() => PersonMangaPage, { description: `Manga of a person (contract #7), ${ORDER}.` })
  personManga(
    @Arg('slug', () => String) slug: string,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<Page<PersonTitleItem>> {
    return pageOf(ctx, 'manga', slug, page);
  }

  /** GET /people/{slug}/novel: scope `read:readlist`. */
  @Query(() => PersonNovelPage, { description: `Novels of a person, ${ORDER}.` })
  personNovel(
    @Arg('slug', () => String) slug: string,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<Page<PersonTitleItem>> {
    return pageOf(ctx, 'novel', slug, page);
  }
}

async function pageOf(
  ctx: RequestContext,
  kind: TitleContentType,
  slug: string,
  args: PageArgs,
): Promise<Page<PersonTitleItem>> {
  await ctx.auth.optional();
  const person = await findPersonBySlug(ctx.em, slug);
  await ctx.auth.optional(SCOPES[kind]);
  const page = await personTitles(ctx.em, kind, person, args);
  const list = page.list.map((credit) => ({
    roles: credit.roles.getItems().sort(compareRoles),
    [kind]: credit[kind]!,
  }));
  return { ...page, list };
}

/** `kind`'s root in one SQL statement (src/graphql/sql-plan): an item is a view of a credit row. */
const personTitlesSql = (field: string, kind: TitleContentType, Item: new () => object): SqlForm[] => [
  sqlRoot(field, {
    kind: 'page',
    item: Credit,
    view: Item,
    subject: (args) => personSubject(String(args.slug)),
    query: async (_ctx, _args, person) => personTitlesQuery(kind, person),
    scopes: SCOPES[kind],
  }),
  sqlFields(Item, {
    roles: creditRolesSql,
    [kind]: sqlRows((credit, title) => ({
      from: `${kind} ${title}`,
      where: `${title}.reference = ${credit}.${kind}_reference`,
    })),
  }),
];

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const personTitlesSqlForms: readonly SqlForm[] = [
  ...personTitlesSql('personAnime', 'anime', PersonAnimeItem),
  ...personTitlesSql('personManga', 'manga', PersonMangaItem),
  ...personTitlesSql('personNovel', 'novel', PersonNovelItem),
];
