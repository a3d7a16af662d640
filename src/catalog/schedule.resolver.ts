import { Arg, Args, Ctx, Field, InputType, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { AGE_RATINGS, RELEASE_STATUSES, SEASONS } from '../common/enums';
import type { AgeRating, ReleaseStatus, Season } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import { PageArgs, PagedType } from '../common/pagination/pagination';
import { AgeRatingEnum, JSONScalar, ReleaseStatusEnum, UnixTime } from '../common/scalars';
import { registerInputSpec } from '../common/validation/input-specs';
import type { ObjectSpec } from '../common/validation/json-schema';
import { booleanField, enumArray, nullableSeasonYear } from '../common/validation/schemas';
import type { RequestContext } from '../context';
import { sqlFields, sqlRoot, sqlRows, sqlValue, type SqlForm } from '../graphql/sql-plan/fields';
import { AiringEpisode, Anime } from './anime.entity';
import { animeSchedule, type ScheduleEntry, type ScheduleFilter, scheduleQuery } from './schedule.service';

/** The earliest year `airing_season` accepts. */
export const SCHEDULE_FIRST_YEAR = 2020;

/** The #2 request body, in the contract's field order: the REST schema and the GraphQL input's rules. */
export const SCHEDULE_BODY: ObjectSpec = {
  properties: {
    airing_season: nullableSeasonYear(SEASONS, SCHEDULE_FIRST_YEAR),
    rating: enumArray(AGE_RATINGS),
    status: enumArray(RELEASE_STATUSES),
    only_watch: booleanField,
  },
};

@InputType({ description: 'Filters of the anime airing schedule (contract #2).' })
export class AnimeScheduleInput {
  /**
   * Mixed-type on the wire (`[season, year]` where the year may be a numeric string),
   * so it is a JSON value here and SCHEDULE_BODY's schema does the checking.
   */
  @Field(() => JSONScalar, {
    nullable: true,
    description: `null, [] (no filter) or [season, year]: year an integer ≥ ${SCHEDULE_FIRST_YEAR} or its decimal string.`,
  })
  airing_season: unknown = null;

  @Field(() => [AgeRatingEnum], { description: 'The anime rating is one of these ([] = any).' })
  rating: AgeRating[] = [];

  @Field(() => [ReleaseStatusEnum], { description: 'The anime status is one of these ([] = any).' })
  status: ReleaseStatus[] = [];

  @Field(() => Boolean, { description: "Only anime on the caller's watch list (any status)." })
  only_watch: boolean = false;
}
registerInputSpec(AnimeScheduleInput, SCHEDULE_BODY);

@ObjectType({ description: 'One airing episode of the schedule.' })
export class ScheduleItem implements ScheduleEntry {
  @Field(() => Anime)
  anime!: Anime;

  @Field(() => Int, {
    description: 'airing_at − now in seconds, truncated toward zero; negative once aired.',
  })
  time_left!: number;

  @Field(() => UnixTime)
  airing_at!: Date;

  @Field(() => Int)
  episode!: number;
}

@ObjectType()
export class AnimeSchedulePage extends PagedType(ScheduleItem) {}

/** A validated `airing_season` (see SCHEDULE_BODY) as a season and a numeric year, or no filter. */
function airingSeasonOf(value: unknown): { season: Season; year: number } | null {
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [season, year] = value as [Season, number | string];
  return { season, year: Number(year) };
}

/** The caller's checks (scope, then `only_watch` needs a caller) and the filters of `input`. */
async function scheduleFilter(ctx: RequestContext, input: AnimeScheduleInput): Promise<ScheduleFilter> {
  const viewer = await ctx.auth.optional(['read:watchlist']);
  if (input.only_watch && !viewer) throw new AppError('schedule:watch_no_user');
  return {
    airingSeason: airingSeasonOf(input.airing_season),
    rating: input.rating,
    status: input.status,
    watcher: input.only_watch && viewer ? viewer.user.reference : null,
  };
}

@Resolver()
export class ScheduleResolver {
  /** #2 POST /schedule/anime: optional authentication, scope `read:watchlist`. */
  @Query(() => AnimeSchedulePage, {
    description:
      'Anime airing schedule (contract #2): episodes from 6 hours ago on, by airing_at then entry reference.',
  })
  async animeSchedule(
    @Args(() => PageArgs) page: PageArgs,
    @Arg('input', () => AnimeScheduleInput) input: AnimeScheduleInput,
    @Ctx() ctx: RequestContext,
  ): Promise<AnimeSchedulePage> {
    return animeSchedule(ctx.em, await scheduleFilter(ctx, input), page, ctx.now);
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const scheduleSqlForms: readonly SqlForm[] = [
  // The same page in one SQL statement (src/graphql/sql-plan): an item is a view of an airing episode row.
  sqlRoot('animeSchedule', {
    kind: 'page',
    item: AiringEpisode,
    view: ScheduleItem,
    query: async (ctx, args) =>
      scheduleQuery(await scheduleFilter(ctx, args.input as AnimeScheduleInput), ctx.now),
  }),
  sqlFields(ScheduleItem, {
    anime: sqlRows((episode, anime) => ({
      from: `anime ${anime}`,
      where: `${anime}.reference = ${episode}.anime_reference`,
    })),
    // secondsLeft
    time_left: sqlValue(
      (episode, { now }) => `trunc(extract(epoch from ${episode}.airing_at - ${now}))::integer`,
    ),
    airing_at: sqlValue((episode) => `${episode}.airing_at`),
    episode: sqlValue((episode) => `${episode}.episode`),
  }),
];
