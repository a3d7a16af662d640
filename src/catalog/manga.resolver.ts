import { Arg, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../context';
import { findTitleBySlug } from './catalog.service';
import { Manga } from './manga.entity';
import { MangaStats, mangaStats } from './manga-stats';
import { ReadableTitleFields } from './title-fields';

@Resolver(() => Manga)
export class MangaResolver extends ReadableTitleFields(Manga, 'manga') {
  /** #16 GET /manga/{slug}: no authentication. */
  @Query(() => Manga, { description: 'Manga info (contract #16): the full record.' })
  manga(@Arg('slug', () => String) slug: string, @Ctx() ctx: RequestContext): Promise<Manga> {
    return findTitleBySlug(ctx.em, 'manga', slug, 'manga:not_found');
  }

  @FieldResolver(() => MangaStats)
  stats(@Root() manga: Manga, @Ctx() ctx: RequestContext): Promise<MangaStats> {
    return mangaStats(ctx).load(manga.reference);
  }
}
