import { READ_CONTENT_TYPES } from '../common/enums';
import type { RestRoute } from '../rest/route';
import { oneOf, slugParam } from '../rest/schemas';
import { READ_LIST_SPEC } from './read-list.inputs';

export const readListRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/read/{content_type}/{username}/list',
    summary: "A user's manga or novel list",
    description:
      "A user's read entries of one content type with their titles, filtered by entry status (`read_status`) and by the titles' years, scores, media type, release status, magazines and genres, sorted by `field:asc|desc` entries (by default the user's score, then the newest entry).",
    auth: 'none',
    params: { content_type: oneOf(READ_CONTENT_TYPES), username: slugParam },
    paged: true,
    body: READ_LIST_SPEC,
    rootField: 'readList',
    document: `query ReadList($content_type: ReadContentType!, $username: String!, $page: Int, $size: Int, $input: ReadListInput) {
        readList(content_type: $content_type, username: $username, page: $page, size: $size, input: $input) {
          pagination { total pages page }
          list { ...ReadEntryWithContent }
        }
      }`,
  },
];
