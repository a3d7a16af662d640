import { TITLE_CONTENT_TYPES } from '../common/enums';
import type { RestRoute } from '../rest/route';
import { oneOf, slugParam } from '../rest/schemas';

export const franchiseRoutes: RestRoute[] = [
  {
    contract: 13,
    method: 'GET',
    path: '/related/{content_type}/{slug}/franchise',
    summary: 'Franchise of a title',
    description:
      'Every anime, manga and novel of the franchise a title belongs to, the title itself included, each list by start date, newest first.',
    auth: 'optional',
    params: { content_type: oneOf(TITLE_CONTENT_TYPES), slug: slugParam },
    rootField: 'franchise',
    document: `query Franchise($content_type: TitleContentType!, $slug: String!) {
        franchise(content_type: $content_type, slug: $slug) {
          anime { ...AnimeWithWatch }
          manga { ...MangaWithRead }
          novel { ...NovelWithRead }
        }
      }`,
  },
];
