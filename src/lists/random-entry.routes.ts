import { READ_CONTENT_TYPES, READ_STATUSES, WATCH_STATUSES } from '../common/enums';
import type { RestRoute } from '../rest/route';
import { oneOf } from '../rest/schemas';

const username = { type: 'string', minLength: 1 };

export const randomEntryRoutes: RestRoute[] = [
  {
    contract: 18,
    method: 'GET',
    path: '/read/{content_type}/random/{username}/{status}',
    summary: "A random title from a user's read list",
    description:
      "A manga or novel picked uniformly at random from the entries of a user's read list with that status.",
    auth: 'none',
    params: { content_type: oneOf(READ_CONTENT_TYPES), username, status: oneOf(READ_STATUSES) },
    rootField: 'randomReadEntry',
    document: `query RandomReadEntry($content_type: ReadContentType!, $username: String!, $status: ReadStatus!) {
        randomReadEntry(content_type: $content_type, username: $username, status: $status) {
          ... on Manga { ...MangaSummary }
          ... on Novel { ...NovelSummary }
        }
      }`,
  },
  {
    method: 'GET',
    path: '/watch/random/{username}/{status}',
    summary: "A random anime from a user's watch list",
    description:
      "An anime picked uniformly at random from the entries of a user's watch list with that status; 400 `watch:empty_random` when there is none.",
    auth: 'none',
    params: { username, status: oneOf(WATCH_STATUSES) },
    rootField: 'randomWatchEntry',
    document: `query RandomWatchEntry($username: String!, $status: WatchStatus!) {
        randomWatchEntry(username: $username, status: $status) { ...AnimeSummary }
      }`,
  },
];
