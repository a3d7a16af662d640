import { raw } from '@mikro-orm/core';
import DataLoader from 'dataloader';
import { Field, Int, ObjectType } from 'type-graphql';
import { READ_STATUSES, type ReadStatus } from '../common/enums';
import type { RequestContext } from '../context';
import { sqlRowType } from '../graphql/sql-plan/fields';
import { ReadEntry } from '../lists/read-entry.entity';

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

// Its SQL form is the row of counts its `stats` field selects (manga.resolver.ts).
sqlRowType(MangaStats);

type ScoreKey = `score_${1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10}`;

/**
 * Counted from the read entries when asked for, so the figures can never drift
 * from the lists; one grouped query per request.
 */
export function mangaStats(ctx: RequestContext): DataLoader<string, MangaStats> {
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
