import type { RestRoute } from '../rest/route';
import { SCHEDULE_BODY } from './schedule.resolver';

export const scheduleRoutes: RestRoute[] = [
  {
    contract: 2,
    method: 'POST',
    path: '/schedule/anime',
    summary: 'Anime airing schedule',
    description:
      "Episodes airing from 6 hours ago on, soonest first, each with its anime and the seconds left until it airs. Filters by airing season, age rating and release status; `only_watch` keeps the anime in the caller's watch list.",
    auth: 'optional',
    params: {},
    paged: true,
    body: SCHEDULE_BODY,
    rootField: 'animeSchedule',
    document: `query AnimeSchedule($page: Int, $size: Int, $input: AnimeScheduleInput!) {
        animeSchedule(page: $page, size: $size, input: $input) {
          pagination { total pages page }
          list {
            anime { ...AnimeWithWatch synopsis_en synopsis_ua }
            time_left airing_at episode
          }
        }
      }`,
  },
];
