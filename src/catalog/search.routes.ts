import type { RestRoute } from '../rest/route';
import { NOVEL_SEARCH_SPEC } from './novel-search.inputs';

export const searchRoutes: RestRoute[] = [
  {
    contract: 3,
    method: 'POST',
    path: '/novel',
    summary: 'Search novels',
    description:
      "The novel catalog filtered by years, media type, release status, magazines, genres and score ranges, with an optional typo-tolerant title `query`, sorted by `field:asc|desc` entries. Each novel carries the caller's `read` entries.",
    auth: 'optional',
    params: {},
    paged: true,
    body: NOVEL_SEARCH_SPEC,
    rootField: 'novelSearch',
    document: `query NovelSearch($page: Int, $size: Int, $input: NovelSearchInput) {
        novelSearch(page: $page, size: $size, input: $input) {
          pagination { total pages page }
          list { ...NovelWithRead }
        }
      }`,
  },
];
