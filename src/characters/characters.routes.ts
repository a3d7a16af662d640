import type { RestRoute } from '../rest/route';
import { slugParam } from '../rest/schemas';

export const characterRoutes: RestRoute[] = [
  {
    contract: 19,
    method: 'GET',
    path: '/novel/{slug}/characters',
    summary: 'Characters of a novel',
    description: 'The characters of a novel, main characters first, then by name.',
    auth: 'none',
    params: { slug: slugParam },
    paged: true,
    rootField: 'novelCharacters',
    document: `query NovelCharacters($slug: String!, $page: Int, $size: Int) {
        novelCharacters(slug: $slug, page: $page, size: $size) {
          pagination { total pages page }
          list { main character { ...CharacterFields } }
        }
      }`,
  },
];
