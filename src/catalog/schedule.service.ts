import type { EntityManager } from '@mikro-orm/postgresql';
import type { AgeRating, ReleaseStatus, Season } from '../common/enums';
import { type Page, type PageArgs, pageWindow, toPage } from '../common/pagination/pagination';
import { type Anime, AiringEpisode } from './anime.entity';

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
 * then entry reference. Two queries (page and count) whatever the page size.
 */
export async function animeSchedule(
  em: EntityManager,
  filter: ScheduleFilter,
  args: PageArgs,
  now: Date,
): Promise<Page<ScheduleEntry>> {
  const { offset, limit } = pageWindow(args);
  const qb = em
    .createQueryBuilder(AiringEpisode, 'e')
    .select('e.*')
    .joinAndSelect('e.anime', 'a')
    .where({ airing_at: { $gte: new Date(now.getTime() - SCHEDULE_LOOKBACK_MS) } })
    .andWhere({ 'a.deleted': false, 'a.nsfw': false });
  if (filter.rating.length > 0) qb.andWhere({ 'a.rating': { $in: [...filter.rating] } });
  if (filter.status.length > 0) qb.andWhere({ 'a.status': { $in: [...filter.status] } });
  if (filter.airingSeason) {
    const { season, year } = filter.airingSeason;
    if (year > LAST_REPRESENTABLE_YEAR) qb.andWhere('false');
    else qb.andWhere('anime_aired_in(a.start_date, a.end_date, ?, ?)', [season, year]);
  }
  if (filter.watcher !== null) {
    qb.andWhere(
      'exists (select 1 from watch_entry w where w.anime_reference = a.reference and w.user_reference = ?)',
      [filter.watcher],
    );
  }
  const [rows, total] = await qb
    .orderBy([{ airing_at: 'asc' }, { reference: 'asc' }])
    .limit(limit)
    .offset(offset)
    .getResultAndCount();
  const list = rows.map((row) => ({
    anime: row.anime,
    time_left: Math.trunc((row.airing_at.getTime() - now.getTime()) / 1000) || 0,
    airing_at: row.airing_at,
    episode: row.episode,
  }));
  return toPage(list, total, args);
}
