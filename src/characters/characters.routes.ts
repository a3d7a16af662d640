import type { RestRoute } from '../rest/route';
import { slugParam } from '../rest/schemas';
import { NAME_SEARCH_SPEC } from '../common/name-search.inputs';

export const characterRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/characters',
    summary: 'Search characters',
    description:
      'Characters appearing in at least one title, by a typo-tolerant `query` over their names and synonyms (best match first), or all of them, those in the most titles first.',
    auth: 'none',
    params: {},
    paged: true,
    body: NAME_SEARCH_SPEC,
    rootField: 'characters',
    document: `query Characters($page: Int, $size: Int, $input: NameSearchInput) {
        characters(page: $page, size: $size, input: $input) {
          pagination { total pages page }
          list { ...CharacterFields }
        }
      }`,
  },
  {
    method: 'GET',
    path: '/characters/{slug}',
    summary: "A character's full record",
    description:
      'A character appearing in at least one title, with the counts of anime, manga and novels it appears in (deleted titles not counted), voice actors (always 0) and comments.',
    auth: 'none',
    params: { slug: slugParam },
    rootField: 'character',
    document: `query Character($slug: String!) {
        character(slug: $slug) {
          ...CharacterFields description_ua anime_count manga_count novel_count voices_count comments_count
        }
      }`,
  },
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
  ...(['anime', 'manga'] as const).map((kind): RestRoute => ({
    method: 'GET',
    path: `/${kind}/{slug}/characters`,
    summary: `Characters of ${kind === 'anime' ? 'an anime' : 'a manga'}`,
    description: `The characters of ${kind === 'anime' ? 'an anime' : 'a manga'}, main characters first, then by name.`,
    auth: 'none',
    params: { slug: slugParam },
    paged: true,
    rootField: `${kind}Characters`,
    document: `query ${kind === 'anime' ? 'Anime' : 'Manga'}Characters($slug: String!, $page: Int, $size: Int) {
          ${kind}Characters(slug: $slug, page: $page, size: $size) {
            pagination { total pages page }
            list { main character { ...CharacterFields } }
          }
        }`,
  })),
];
