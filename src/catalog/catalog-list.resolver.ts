import { Arg, Args, Ctx, ObjectType, Query, Resolver } from 'type-graphql';
import { PageArgs, PagedType } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { sqlRoot, type SqlForm } from '../graphql/sql-plan/fields';
import { Anime } from './anime.entity';
import { AnimeListInput, MangaListInput } from './catalog-list.inputs';
import { animeListQuery, listTitles, mangaListQuery } from './catalog-list.service';
import { Manga } from './manga.entity';
import { NovelSearchInput } from './novel-search.inputs';
import { NovelSearchPage } from './novel-search.resolver';
import { searchNovels } from './novel-search.service';

@ObjectType()
export class AnimeListPage extends PagedType(Anime) {}

@ObjectType()
export class MangaListPage extends PagedType(Manga) {}

/**
 * The catalog lists a frontend browses, one per title kind (pages.md "Catalogs"):
 * `animeList` (POST /anime) with #21's filters, a text query and the #3 sorts;
 * `mangaList` (POST /manga) and `novelList` with #3's. Optional authentication with no
 * scope for anime and manga; the company, magazine and genre slugs must exist.
 */
@Resolver()
export class CatalogListResolver {
  @Query(() => AnimeListPage, {
    description:
      'POST /anime: the anime catalog, #21 filters, `query`, #3 sorts; anime rated rx hidden unless asked for.',
  })
  async animeList(
    @Args(() => PageArgs) page: PageArgs,
    @Arg('input', () => AnimeListInput, { nullable: true }) input: AnimeListInput | null | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<AnimeListPage> {
    return listTitles(ctx, 'anime', await animeListQuery(ctx, input ?? {}), page);
  }

  @Query(() => MangaListPage, {
    description: 'POST /manga: the manga catalog, the filters, search and sorts of #3.',
  })
  async mangaList(
    @Args(() => PageArgs) page: PageArgs,
    @Arg('input', () => MangaListInput, { nullable: true }) input: MangaListInput | null | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<MangaListPage> {
    return listTitles(ctx, 'manga', await mangaListQuery(ctx, input ?? {}), page);
  }

  @Query(() => NovelSearchPage, { description: 'Novel catalog: the same as `novelSearch` (#3).' })
  novelList(
    @Args(() => PageArgs) page: PageArgs,
    @Arg('input', () => NovelSearchInput, { nullable: true }) input: NovelSearchInput | null | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<NovelSearchPage> {
    return searchNovels(ctx, input ?? {}, page);
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const catalogListSqlForms: readonly SqlForm[] = [
  // The same pages in one SQL statement each (src/graphql/sql-plan).
  sqlRoot('animeList', {
    kind: 'page',
    item: Anime,
    query: (ctx, args) => animeListQuery(ctx, (args.input ?? {}) as AnimeListInput),
  }),
  sqlRoot('mangaList', {
    kind: 'page',
    item: Manga,
    query: (ctx, args) => mangaListQuery(ctx, (args.input ?? {}) as MangaListInput),
  }),
];
