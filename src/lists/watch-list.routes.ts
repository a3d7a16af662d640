import type { RestRoute } from '../rest/route';
import { slugParam } from '../rest/schemas';
import { WATCH_LIST_SPEC } from './watch-list.inputs';

export const watchListRoutes: RestRoute[] = [
  {
    contract: 21,
    method: 'POST',
    path: '/watch/{username}/list',
    summary: "A user's watch list",
    description:
      "A user's watch entries with their anime, filtered by entry status (`watch_status`) and by the anime's years or seasons, scores, media type, rating, release status, source, studios, producers and genres, sorted by `field:asc|desc` entries (by default the user's score, then the newest entry).",
    auth: 'none',
    params: { username: slugParam },
    paged: true,
    body: WATCH_LIST_SPEC,
    rootField: 'watchList',
    document: `query WatchList($username: String!, $page: Int, $size: Int, $input: WatchListInput) {
        watchList(username: $username, page: $page, size: $size, input: $input) {
          pagination { total pages page }
          list { ...WatchEntryFields anime { ...AnimeSummary } }
        }
      }`,
  },
];
