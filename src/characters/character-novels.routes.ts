import type { RestRoute } from '../rest/route';
import { slugParam } from '../rest/schemas';

export const characterNovelRoutes: RestRoute[] = [
  {
    contract: 8,
    method: 'GET',
    path: '/characters/{slug}/novel',
    summary: 'Novels of a character',
    description:
      'The novels a character appears in, best scored first, each saying whether the character is a main one there.',
    auth: 'optional',
    params: { slug: slugParam },
    paged: true,
    rootField: 'characterNovels',
    document: `query CharacterNovels($slug: String!, $page: Int, $size: Int) {
        characterNovels(slug: $slug, page: $page, size: $size) {
          pagination { total pages page }
          list { main novel { ...NovelWithRead } }
        }
      }`,
  },
];
