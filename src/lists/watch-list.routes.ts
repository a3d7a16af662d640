import { AnimeSummary } from '../catalog/catalog.fragments';
import { documentOf } from '../rest/fragments';
import type { RestRoute } from '../rest/route';
import { slugParam } from '../rest/schemas';
import { WatchEntryFields } from './list.fragments';
import { WATCH_LIST_SPEC } from './watch-list.inputs';

export const watchListRoutes: RestRoute[] = [
  {
    contract: 21,
    method: 'POST',
    path: '/watch/{username}/list',
    auth: 'none',
    params: { username: slugParam },
    paged: true,
    body: WATCH_LIST_SPEC,
    rootField: 'watchList',
    document: documentOf(
      `query WatchList($username: String!, $page: Int, $size: Int, $input: WatchListInput) {
        watchList(username: $username, page: $page, size: $size, input: $input) {
          pagination { total pages page }
          list { ...WatchEntryFields anime { ...AnimeSummary } }
        }
      }`,
      WatchEntryFields,
      AnimeSummary,
    ),
  },
];
