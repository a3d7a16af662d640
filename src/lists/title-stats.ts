import DataLoader from 'dataloader';
import { Ctx, Field, FieldResolver, Int, ObjectType, Resolver, Root, type ClassType } from 'type-graphql';
import { Anime } from '../catalog/anime.entity';
import type { CatalogTitle } from '../catalog/catalog-title.entity';
import { Manga } from '../catalog/manga.entity';
import { Novel } from '../catalog/novel.entity';
import { READ_STATUSES, type TitleContentType, WATCH_STATUSES } from '../common/enums';
import type { RequestContext } from '../context';
import { sqlFields, sqlRowType, sqlRows, type SqlForm } from '../graphql/sql-plan/fields';

/** Counts by score 1..10, score 0 not counted. */
@ObjectType()
abstract class ScoreCounts {
  @Field(() => Int) score_1 = 0;
  @Field(() => Int) score_2 = 0;
  @Field(() => Int) score_3 = 0;
  @Field(() => Int) score_4 = 0;
  @Field(() => Int) score_5 = 0;
  @Field(() => Int) score_6 = 0;
  @Field(() => Int) score_7 = 0;
  @Field(() => Int) score_8 = 0;
  @Field(() => Int) score_9 = 0;
  @Field(() => Int) score_10 = 0;
}

/** Read-list statistics of a manga or novel (semantics §6.2): counts by status and by score 1..10. */
@ObjectType('MangaStats')
export class ReadingStats extends ScoreCounts {
  @Field(() => Int) completed = 0;
  @Field(() => Int) reading = 0;
  @Field(() => Int) on_hold = 0;
  @Field(() => Int) dropped = 0;
  @Field(() => Int) planned = 0;
}

/** Watch-list statistics of an anime (pages.md AnimeStats): counts by status and by score 1..10. */
@ObjectType()
export class AnimeStats extends ScoreCounts {
  @Field(() => Int) completed = 0;
  @Field(() => Int) watching = 0;
  @Field(() => Int) planned = 0;
  @Field(() => Int) on_hold = 0;
  @Field(() => Int) dropped = 0;
}

/** Where a title kind's list entries are, and the statuses they count. */
const ENTRIES = {
  anime: { table: 'watch_entry', statuses: WATCH_STATUSES },
  manga: { table: 'read_entry', statuses: READ_STATUSES },
  novel: { table: 'read_entry', statuses: READ_STATUSES },
} as const;

/** The statistics columns of `kind`'s entries: one count per status, then per score. */
const statsColumns = (kind: TitleContentType): string =>
  [
    ...ENTRIES[kind].statuses.map(
      (status) => `count(*) filter (where status = '${status}')::int as ${status}`,
    ),
    ...Array.from(
      { length: 10 },
      (_, i) => `count(*) filter (where score = ${i + 1})::int as score_${i + 1}`,
    ),
  ].join(', ');

/**
 * Counted from the list entries when asked for, so the figures can never drift from
 * the lists; one grouped query per request and title kind.
 */
function titleStats<S extends object>(
  ctx: RequestContext,
  kind: TitleContentType,
  Stats: ClassType<S>,
): DataLoader<string, S> {
  const { table } = ENTRIES[kind];
  return ctx.loader(
    `${kind}:stats`,
    () =>
      new DataLoader<string, S>(async (titles) => {
        // The request's entity manager: inside a mutation's transaction, on its connection.
        const rows = await ctx.em.execute<(S & { title: string })[]>(
          `select ${kind}_reference as title, ${statsColumns(kind)} from ${table}
            where ${kind}_reference in (?) group by ${kind}_reference`,
          [[...titles]],
        );
        const byTitle = new Map(rows.map(({ title, ...stats }) => [title, stats as S]));
        return titles.map((title) => byTitle.get(title) ?? (new Stats() as S));
      }),
  );
}

/** The lists add their statistics to the catalog's titles of `kind`. */
function TitleStatsResolver<T extends CatalogTitle, S extends object>(
  Title: ClassType<T>,
  Stats: ClassType<S>,
  kind: TitleContentType,
) {
  @Resolver(() => Title)
  class StatsResolver {
    @FieldResolver(() => Stats)
    stats(@Root() title: T, @Ctx() ctx: RequestContext): Promise<S> {
      return titleStats(ctx, kind, Stats).load(title.reference);
    }
  }
  return StatsResolver;
}

export const AnimeStatsResolver = TitleStatsResolver(Anime, AnimeStats, 'anime');
export const MangaStatsResolver = TitleStatsResolver(Manga, ReadingStats, 'manga');
export const NovelStatsResolver = TitleStatsResolver(Novel, ReadingStats, 'novel');

/** `stats` of a title of `kind` in SQL: the row of counts the field selects. */
const statsSql = (kind: TitleContentType) =>
  sqlRows((title, stats) => ({
    from: `(select ${statsColumns(kind)} from ${ENTRIES[kind].table} where ${kind}_reference = ${title}.reference) ${stats}`,
  }));

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const titleStatsSqlForms: readonly SqlForm[] = [
  sqlRowType(ReadingStats),
  sqlRowType(AnimeStats),
  sqlFields(Anime, { stats: statsSql('anime') }),
  sqlFields(Manga, { stats: statsSql('manga') }),
  sqlFields(Novel, { stats: statsSql('novel') }),
];
