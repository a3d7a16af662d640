import type { RestRoute } from '../rest/route';
import { slugParam } from '../rest/schemas';
import { NAME_SEARCH_SPEC } from '../common/name-search.inputs';

export const peopleRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/people',
    summary: 'Search people',
    description:
      'People by a typo-tolerant `query` over their names and synonyms (best match first), or all of them, the most credited first.',
    auth: 'none',
    params: {},
    paged: true,
    body: NAME_SEARCH_SPEC,
    rootField: 'people',
    document: `query People($page: Int, $size: Int, $input: NameSearchInput) {
        people(page: $page, size: $size, input: $input) {
          pagination { total pages page }
          list { ...PersonFields }
        }
      }`,
  },
  {
    method: 'GET',
    path: '/people/{slug}',
    summary: "A person's full record",
    description:
      'A person with the counts of anime, manga and novels credited (deleted titles not counted), voice roles (always 0) and comments.',
    auth: 'none',
    params: { slug: slugParam },
    rootField: 'person',
    document: `query Person($slug: String!) {
        person(slug: $slug) { ...PersonFields anime_count manga_count novel_count characters_count comments_count }
      }`,
  },
  {
    contract: 7,
    method: 'GET',
    path: '/people/{slug}/manga',
    summary: 'Manga of a person',
    description:
      "The manga a person is credited on, best scored first, each with the person's roles on it and the caller's `read` entries.",
    auth: 'optional',
    params: { slug: slugParam },
    paged: true,
    rootField: 'personManga',
    document: `query PersonManga($slug: String!, $page: Int, $size: Int) {
        personManga(slug: $slug, page: $page, size: $size) {
          pagination { total pages page }
          list { roles { name_en name_ua } manga { ...MangaWithRead } }
        }
      }`,
  },
  {
    method: 'GET',
    path: '/people/{slug}/anime',
    summary: 'Anime of a person',
    description:
      "The anime a person is credited on, best scored first, each with the person's roles on it and the caller's `watch` entries. Third-party tokens need `read:watchlist`.",
    auth: 'optional',
    params: { slug: slugParam },
    paged: true,
    rootField: 'personAnime',
    document: `query PersonAnime($slug: String!, $page: Int, $size: Int) {
        personAnime(slug: $slug, page: $page, size: $size) {
          pagination { total pages page }
          list { roles { name_en name_ua } anime { ...AnimeWithWatch } }
        }
      }`,
  },
  {
    method: 'GET',
    path: '/people/{slug}/novel',
    summary: 'Novels of a person',
    description:
      "The novels a person is credited on, best scored first, each with the person's roles on it and the caller's `read` entries. Third-party tokens need `read:readlist`.",
    auth: 'optional',
    params: { slug: slugParam },
    paged: true,
    rootField: 'personNovel',
    document: `query PersonNovel($slug: String!, $page: Int, $size: Int) {
        personNovel(slug: $slug, page: $page, size: $size) {
          pagination { total pages page }
          list { roles { name_en name_ua } novel { ...NovelWithRead } }
        }
      }`,
  },
  {
    method: 'GET',
    path: '/anime/{slug}/staff',
    summary: 'Staff of an anime',
    description:
      'The people credited on an anime with their roles and the roles’ summed weight, heaviest first, then by name.',
    auth: 'none',
    params: { slug: slugParam },
    paged: true,
    rootField: 'animeStaff',
    document: `query AnimeStaff($slug: String!, $page: Int, $size: Int) {
        animeStaff(slug: $slug, page: $page, size: $size) {
          pagination { total pages page }
          list { person { ...PersonFields } roles { name_ua name_en slug weight } weight }
        }
      }`,
  },
];
