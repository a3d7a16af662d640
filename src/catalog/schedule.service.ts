import type { EntityManager } from '@mikro-orm/postgresql';
import type { AgeRating, ReleaseStatus, Season } from '../common/enums';
import { type ListQuery, listPage } from '../common/pagination/paged-query';
import type { Page, PageArgs } from '../common/pagination/pagination';
import { joinSql, sql } from '../db/sql';
import { type Anime, AiringEpisode } from './anime.entity';
import { listed } from './title-filters';

/** Episodes that aired up to 6 hours ago are still listed (with a negative `time_left`). */
export const SCHEDULE_LOOKBACK_MS = 6 * 60 * 60 * 1000;

/** No timestamp PostgreSQL can store lies after this year, so nothing can have aired later. */
const LAST_REPRESENTABLE_YEAR = 294276;

/** One row of the airing schedule (#2). */
export interface ScheduleEntry {
  anime: Anime;
  /** `airing_at` − now, whole seconds truncated toward zero; negative once aired. */
  time_left: number;
  airing_at: Date;
  episode: number;
}

/** The checked filters of #2; `watcher` is set exactly when `only_watch` applies. */
export interface ScheduleFilter {
  airingSeason: { season: Season; year: number } | null;
  rating: readonly AgeRating[];
  status: readonly ReleaseStatus[];
  /** Only anime on this user's watch list (any status). */
  watcher: string | null;
}

/**
 * #2: airing entries from `now` − 6 h on, of live, non-NSFW anime, by `airing_at`
 * then entry reference.
 */
export function scheduleQuery(filter: ScheduleFilter, now: Date): ListQuery {
  const conditions = [
    sql('e.airing_at >= ?', new Date(now.getTime() - SCHEDULE_LOOKBACK_MS)),
    sql('not a.deleted and not a.nsfw'),
    ...listed('a.rating', filter.rating),
    ...listed('a.status', filter.status),
  ];
  if (filter.airingSeason) {
    const { season, year } = filter.airingSeason;
    conditions.push(
      year > LAST_REPRESENTABLE_YEAR
        ? sql('false')
        : sql('anime_aired_in(a.start_date, a.end_date, ?, ?)', season, year),
    );
  }
  if (filter.watcher !== null) {
    conditions.push(
      sql(
        'exists (select 1 from watch_entry w where w.anime_reference = a.reference and w.user_reference = ?)',
        filter.watcher,
      ),
    );
  }
  return {
    reference: 'e.reference',
    from: 'airing_episode e join anime a on a.reference = e.anime_reference',
    where: joinSql(conditions),
    orderBy: sql('e.airing_at asc, e.reference asc'),
  };
}

/** `airing_at` − `now` in whole seconds, truncated toward zero (never −0). */
export const secondsLeft = (airingAt: Date, now: Date): number =>
  Math.trunc((airingAt.getTime() - now.getTime()) / 1000) || 0;

/** A page of {@link scheduleQuery}: three queries whatever the page size. */
export async function animeSchedule(
  em: EntityManager,
  filter: ScheduleFilter,
  args: PageArgs,
  now: Date,
): Promise<Page<ScheduleEntry>> {
  const page = await listPage(em, AiringEpisode, scheduleQuery(filter, now), args, ['anime']);
  const list = page.list.map((row) => ({
    anime: row.anime,
    time_left: secondsLeft(row.airing_at, now),
    airing_at: row.airing_at,
    episode: row.episode,
  }));
  return { ...page, list };
}
