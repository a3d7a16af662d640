import type { RestRoute } from '../rest/route';
import { slugParam } from '../rest/schemas';
import { READABLE_SUMMARY_FIELDS } from './catalog.fragments';

export const catalogRoutes: RestRoute[] = [
  {
    contract: 16,
    method: 'GET',
    path: '/manga/{slug}',
    summary: "A manga's full record",
    description:
      "Everything a manga's page shows: the summary fields, authors with their roles, magazines, external links, genres, reading statistics, synopses and synonyms.",
    auth: 'none',
    params: { slug: slugParam },
    rootField: 'manga',
    document: `query Manga($slug: String!) {
        manga(slug: $slug) {
          ${READABLE_SUMMARY_FIELDS}
          authors { roles { name_ua name_en slug weight } person { ...PersonFields } }
          magazines { name_en slug }
          external { url text type }
          genres { name_ua name_en slug type }
          stats { completed reading on_hold dropped planned
            score_1 score_2 score_3 score_4 score_5 score_6 score_7 score_8 score_9 score_10 }
          synopsis_en synopsis_ua synonyms comments_count has_franchise nsfw
        }
      }`,
  },
];
