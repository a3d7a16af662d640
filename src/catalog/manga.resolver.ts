import { Arg, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import { READ_STATUSES } from '../common/enums';
import type { RequestContext } from '../context';
import { sqlFields, sqlRoot, sqlRows } from '../graphql/sql-plan/fields';
import { findTitleBySlug, moduleSlug } from './catalog.service';
import { Manga } from './manga.entity';
import { MangaStats, mangaStats } from './manga-stats';
import { ReadableTitleFields } from './title-fields';

// The same look-up and statistics in SQL (src/graphql/sql-plan).
sqlRoot('manga', {
  kind: 'one',
  type: Manga,
  // findTitleBySlug: the module slug, deleted titles never found.
  rows: (manga, { slug }) => ({
    from: `manga ${manga}`,
    where: `${manga}.slug = ${slug} and not ${manga}.deleted`,
  }),
  values: ({ slug }) => ({ slug: moduleSlug(String(slug)) }),
  notFound: 'manga:not_found',
});
const STATS_COLUMNS = [
  ...READ_STATUSES.map((status) => `count(*) filter (where status = '${status}') as ${status}`),
  ...Array.from({ length: 10 }, (_, i) => `count(*) filter (where score = ${i + 1}) as score_${i + 1}`),
];
sqlFields(Manga, {
  stats: sqlRows((manga, stats) => ({
    from: `(select ${STATS_COLUMNS.join(', ')} from read_entry where manga_reference = ${manga}.reference) ${stats}`,
  })),
});

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
