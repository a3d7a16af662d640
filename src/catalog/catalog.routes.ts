import type { RestRoute } from '../rest/route';
import { slugParam } from '../rest/schemas';
import { READABLE_SUMMARY_FIELDS } from './catalog.fragments';

const GENRE_FIELDS = 'genres { ...GenreFields }';
const SCORE_COUNTS = 'score_1 score_2 score_3 score_4 score_5 score_6 score_7 score_8 score_9 score_10';

/** The Manga full record (#16), which a novel's record shares. */
const READABLE_FULL_RECORD = `${READABLE_SUMMARY_FIELDS}
  authors { roles { name_ua name_en slug weight } person { ...PersonFields } }
  magazines { name_en slug }
  external { url text type }
  ${GENRE_FIELDS}
  stats { completed reading on_hold dropped planned ${SCORE_COUNTS} }
  synopsis_en synopsis_ua synonyms comments_count has_franchise nsfw`;

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
    document: `query Manga($slug: String!) { manga(slug: $slug) { ${READABLE_FULL_RECORD} } }`,
  },
  {
    method: 'GET',
    path: '/anime/{slug}',
    summary: "An anime's full record",
    description:
      "Everything an anime's page shows: the summary fields, synopses, genres, studios and producers, watching and review statistics, and the airing schedule.",
    auth: 'none',
    params: { slug: slugParam },
    rootField: 'anime',
    document: `query Anime($slug: String!) {
        anime(slug: $slug) {
          ...AnimeSummary
          synopsis_en synopsis_ua duration synonyms nsfw has_franchise comments_count
          ${GENRE_FIELDS}
          companies { company { ...CompanyFields } type }
          external { url text type }
          videos { url title description video_type }
          ost { index title author spotify ost_type }
          stats { completed watching planned on_hold dropped ${SCORE_COUNTS} }
          review_stats { yes no maybe }
          schedule { episode airing_at }
        }
      }`,
  },
  {
    method: 'GET',
    path: '/novel/{slug}',
    summary: "A novel's full record",
    description:
      "Everything a novel's page shows: the manga record's fields for a novel (external links in stored order) and its review statistics.",
    auth: 'none',
    params: { slug: slugParam },
    rootField: 'novel',
    document: `query Novel($slug: String!) {
        novel(slug: $slug) { ${READABLE_FULL_RECORD} review_stats { yes no maybe } }
      }`,
  },
];
