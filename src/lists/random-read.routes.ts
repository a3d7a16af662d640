import { MangaSummary, NovelSummary } from '../catalog/catalog.fragments';
import { READ_CONTENT_TYPES, READ_STATUSES } from '../common/enums';
import { documentOf } from '../rest/fragments';
import type { RestRoute } from '../rest/route';
import { oneOf } from '../rest/schemas';

export const randomReadRoutes: RestRoute[] = [
  {
    contract: 18,
    method: 'GET',
    path: '/read/{content_type}/random/{username}/{status}',
    auth: 'none',
    params: {
      content_type: oneOf(READ_CONTENT_TYPES),
      username: { type: 'string', minLength: 1 },
      status: oneOf(READ_STATUSES),
    },
    rootField: 'randomReadEntry',
    document: documentOf(
      `query RandomReadEntry($content_type: ReadContentType!, $username: String!, $status: ReadStatus!) {
        randomReadEntry(content_type: $content_type, username: $username, status: $status) {
          ... on Manga { ...MangaSummary }
          ... on Novel { ...NovelSummary }
        }
      }`,
      MangaSummary,
      NovelSummary,
    ),
  },
];
