import { raw } from '@mikro-orm/core';
import DataLoader from 'dataloader';
import { Ctx, Field, FieldResolver, Int, ObjectType, Resolver, Root } from 'type-graphql';
import { Manga } from '../catalog/manga.entity';
import { READ_STATUSES, type ReadStatus } from '../common/enums';
import type { RequestContext } from '../context';
import { sqlFields, sqlRowType, sqlRows, type SqlForm } from '../graphql/sql-plan/fields';
import { ReadEntry } from './read-entry.entity';

/** Read-list statistics of a manga (semantics §6.2): counts by status and by score 1..10. */
@ObjectType()
export class MangaStats {
  @Field(() => Int) completed = 0;
  @Field(() => Int) reading = 0;
  @Field(() => Int) on_hold = 0;
  @Field(() => Int) dropped = 0;
  @Field(() => Int) planned = 0;
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

type ScoreKey = `score_${1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10}`;

/**
 * Counted from the read entries when asked for, so the figures can never drift
 * from the lists; one grouped query per request.
 */
function mangaStats(ctx: RequestContext): DataLoader<string, MangaStats> {
  return ctx.loader(
    'manga:stats',
    () =>
      new DataLoader<string, MangaStats>(async (manga) => {
        const rows = await ctx.em
          .createQueryBuilder(ReadEntry)
          .select(['manga', 'status', 'score', raw('count(*)::int as count')])
          .where({ manga: { $in: [...manga] } })
          .groupBy(['manga', 'status', 'score'])
          .execute<{ manga: string; status: ReadStatus; score: number; count: number }[]>('all');
        const stats = new Map(manga.map((reference) => [reference, new MangaStats()]));
        for (const row of rows) {
          const target = stats.get(row.manga)!;
          const { count } = row;
          if (READ_STATUSES.includes(row.status)) target[row.status] += count;
          if (row.score >= 1 && row.score <= 10) target[`score_${row.score}` as ScoreKey] += count;
        }
        return manga.map((reference) => stats.get(reference)!);
      }),
  );
}

const STATS_COLUMNS = [
  ...READ_STATUSES.map((status) => `count(*) filter (where status = '${status}') as ${status}`),
  ...Array.from({ length: 10 }, (_, i) => `count(*) filter (where score = ${i + 1}) as score_${i + 1}`),
];

/** The lists add their statistics to the catalog's manga. */
@Resolver(() => Manga)
export class MangaStatsResolver {
  @FieldResolver(() => MangaStats)
  stats(@Root() manga: Manga, @Ctx() ctx: RequestContext): Promise<MangaStats> {
    return mangaStats(ctx).load(manga.reference);
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const mangaStatsSqlForms: readonly SqlForm[] = [
  // MangaStats reads the row of counts the `stats` field selects.
  sqlRowType(MangaStats),
  sqlFields(Manga, {
    stats: sqlRows((manga, stats) => ({
      from: `(select ${STATS_COLUMNS.join(', ')} from read_entry where manga_reference = ${manga}.reference) ${stats}`,
    })),
  }),
];
