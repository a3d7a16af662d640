import { Arg, Args, Ctx, ObjectType, Query, Resolver } from 'type-graphql';
import { PageArgs, PagedType } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { Anime } from './anime.entity';
import { AnimeListInput, animeFilters, MangaListInput, readableFilters } from './catalog-list.inputs';
import { listTitles } from './catalog-list.service';
import { Manga } from './manga.entity';
import { NovelSearchInput } from './novel-search.inputs';
import { NovelSearchPage } from './novel-search.resolver';
import { searchNovels } from './novel-search.service';

@ObjectType()
export class AnimeListPage extends PagedType(Anime) {}

@ObjectType()
export class MangaListPage extends PagedType(Manga) {}

/**
 * The catalog lists a frontend browses, one per title kind, with #3's filters, search,
 * sorts and NSFW auto-hide (anime with #21's filters instead of magazines). Optional
 * authentication: the caller's `watch`/`read` need `read:watchlist`/`read:readlist` from a
 * third-party token. Unlike #3, anime and manga lists do not check that genre, magazine
 * or company slugs exist: an unknown slug simply matches nothing (as in #21).
 */
@Resolver()
export class CatalogListResolver {
  @Query(() => AnimeListPage, { description: 'Anime catalog: #21 filters, `query`, #3 sorts.' })
  async animeList(
    @Args(() => PageArgs) page: PageArgs,
    @Arg('input', () => AnimeListInput, { nullable: true }) input: AnimeListInput | null | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<AnimeListPage> {
    await ctx.auth.optional(['read:watchlist']);
    const { query, sort, genres = [] } = input ?? {};
    const filters = animeFilters(input ?? {}, { query, hide_nsfw: genres.length === 0 && !query });
    return listTitles(ctx, 'anime', filters, sort, page);
  }

  @Query(() => MangaListPage, { description: 'Manga catalog: the filters, search and sorts of #3.' })
  async mangaList(
    @Args(() => PageArgs) page: PageArgs,
    @Arg('input', () => MangaListInput, { nullable: true }) input: MangaListInput | null | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<MangaListPage> {
    await ctx.auth.optional(['read:readlist']);
    return listTitles(ctx, 'manga', readableFilters(input ?? {}), input?.sort, page);
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
