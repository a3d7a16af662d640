import DataLoader from 'dataloader';
import { Ctx, Field, FieldResolver, Int, ObjectType, Resolver, Root, type ClassType } from 'type-graphql';
import { Anime } from '../catalog/anime.entity';
import type { CatalogTitle } from '../catalog/catalog-title.entity';
import { Manga } from '../catalog/manga.entity';
import { Novel } from '../catalog/novel.entity';
import type { TitleContentType } from '../common/enums';
import type { RequestContext } from '../context';
import { sqlFields, sqlRowType, sqlRows, type SqlForm } from '../graphql/sql-plan/fields';

/** Counts of a title's reviews by recommendation (semantics §6.4: hidden reviews not counted). */
@ObjectType()
export class ReviewStats {
  @Field(() => Int) yes = 0;
  @Field(() => Int) no = 0;
  @Field(() => Int) maybe = 0;
}

/** The review statistics' columns, over the comments of one title (`comment` rows). */
const REVIEW_COUNTS = `count(*) filter (where review_recommendation = 'yes')::int as yes,
  count(*) filter (where review_recommendation = 'no')::int as no,
  count(*) filter (where review_recommendation = 'maybe')::int as maybe`;

/** The live reviews of titles of `kind`: not hidden, not deleted. */
const reviewsOf = (kind: TitleContentType) =>
  `content_type = '${kind}' and review_recommendation is not null and not hidden and not deleted`;

/** Counted when asked for, so the figures never drift from the comments; one grouped query per request and kind. */
function reviewStats(ctx: RequestContext, kind: TitleContentType): DataLoader<string, ReviewStats> {
  return ctx.loader(
    `${kind}:review-stats`,
    () =>
      new DataLoader<string, ReviewStats>(async (titles) => {
        const rows = await ctx.em.execute<(ReviewStats & { title: string })[]>(
          `select content_reference as title, ${REVIEW_COUNTS} from comment
            where ${reviewsOf(kind)} and content_reference in (?) group by content_reference`,
          [[...titles]],
        );
        const byTitle = new Map(rows.map(({ title, ...stats }) => [title, stats]));
        return titles.map((title) => byTitle.get(title) ?? new ReviewStats());
      }),
  );
}

/** The comments add their review statistics to the catalog's titles of `kind`. */
function TitleReviewStatsResolver<T extends CatalogTitle>(Title: ClassType<T>, kind: TitleContentType) {
  @Resolver(() => Title)
  class ReviewStatsResolver {
    @FieldResolver(() => ReviewStats, { description: 'Reviews by recommendation, hidden ones not counted.' })
    review_stats(@Root() title: T, @Ctx() ctx: RequestContext): Promise<ReviewStats> {
      return reviewStats(ctx, kind).load(title.reference);
    }
  }
  return ReviewStatsResolver;
}

export const reviewStatsResolvers = [
  TitleReviewStatsResolver(Anime, 'anime'),
  TitleReviewStatsResolver(Manga, 'manga'),
  TitleReviewStatsResolver(Novel, 'novel'),
] as const;

/** `review_stats` of a title of `kind` in SQL: the row of counts the field selects. */
const reviewStatsSql = (kind: TitleContentType) =>
  sqlRows((title, stats) => ({
    from: `(select ${REVIEW_COUNTS} from comment where ${reviewsOf(kind)} and content_reference = ${title}.reference) ${stats}`,
  }));

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const reviewStatsSqlForms: readonly SqlForm[] = [
  sqlRowType(ReviewStats),
  sqlFields(Anime, { review_stats: reviewStatsSql('anime') }),
  sqlFields(Manga, { review_stats: reviewStatsSql('manga') }),
  sqlFields(Novel, { review_stats: reviewStatsSql('novel') }),
];
