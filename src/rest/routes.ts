import {
  AnimeWithWatch,
  READABLE_SUMMARY_FIELDS,
  MangaWithRead,
  NovelWithRead,
} from '../catalog/catalog.fragments';
import { CharacterFields } from '../characters/characters.fragments';
import { TITLE_CONTENT_TYPES } from '../common/enums';
import { PersonFields } from '../people/people.fragments';
import { documentOf } from './fragments';
import type { RestRoute } from './route';
import { oneOf, slugParam } from './schemas';

/**
 * Every REST path: the contract's (numbered) and the supporting ones. Each runs the
 * GraphQL operation a frontend would send; its response is `data[rootField]`.
 */
export const restRoutes: readonly RestRoute[] = [
  {
    contract: 13,
    method: 'GET',
    path: '/related/{content_type}/{slug}/franchise',
    auth: 'optional',
    params: { content_type: oneOf(TITLE_CONTENT_TYPES), slug: slugParam },
    rootField: 'franchise',
    document: documentOf(
      `query Franchise($content_type: TitleContentType!, $slug: String!) {
        franchise(content_type: $content_type, slug: $slug) {
          anime { ...AnimeWithWatch }
          manga { ...MangaWithRead }
          novel { ...NovelWithRead }
        }
      }`,
      AnimeWithWatch,
      MangaWithRead,
      NovelWithRead,
    ),
  },
  {
    contract: 16,
    method: 'GET',
    path: '/manga/{slug}',
    auth: 'none',
    params: { slug: slugParam },
    rootField: 'manga',
    document: documentOf(
      `query Manga($slug: String!) {
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
      PersonFields,
    ),
  },
  {
    contract: 19,
    method: 'GET',
    path: '/novel/{slug}/characters',
    auth: 'none',
    params: { slug: slugParam },
    paged: true,
    rootField: 'novelCharacters',
    document: documentOf(
      `query NovelCharacters($slug: String!, $page: Int, $size: Int) {
        novelCharacters(slug: $slug, page: $page, size: $size) {
          pagination { total pages page }
          list { main character { ...CharacterFields } }
        }
      }`,
      CharacterFields,
    ),
  },
];
