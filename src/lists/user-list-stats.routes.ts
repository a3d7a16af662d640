import { READ_CONTENT_TYPES } from '../common/enums';
import type { RestRoute } from '../rest/route';
import { oneOf, slugParam } from '../rest/schemas';

/** A profile's list figures (pages.md "User profile"). */
export const userListStatsRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/watch/{username}/stats',
    summary: "A user's watch list in figures",
    description:
      "Minutes watched and the number of entries by status of a user's watch list, counting entries whose anime is not deleted.",
    auth: 'none',
    params: { username: slugParam },
    rootField: 'watchStats',
    document: `query WatchStats($username: String!) {
        watchStats(username: $username) { duration completed watching planned on_hold dropped }
      }`,
  },
  {
    method: 'GET',
    path: '/read/{content_type}/{username}/stats',
    summary: "A user's manga or novel list in figures",
    description:
      "The number of entries by status of a user's manga or novel list, counting entries whose title is not deleted.",
    auth: 'none',
    params: { content_type: oneOf(READ_CONTENT_TYPES), username: slugParam },
    rootField: 'readStats',
    document: `query ReadStats($content_type: ReadContentType!, $username: String!) {
        readStats(content_type: $content_type, username: $username) { completed reading planned on_hold dropped }
      }`,
  },
];
