import { TITLE_CONTENT_TYPES } from '../common/enums';
import type { RestRoute } from '../rest/route';
import { oneOf } from '../rest/schemas';
import { ANIME_LIST_SPEC, MANGA_LIST_SPEC } from './catalog-list.inputs';
import { COMPANY_SEARCH_SPEC } from './companies.resolver';
import { NOVEL_SEARCH_SPEC } from './novel-search.inputs';

export const searchRoutes: RestRoute[] = [
  {
    contract: 3,
    method: 'POST',
    path: '/novel',
    summary: 'Search novels',
    description:
      "The novel catalog filtered by years, media type, release status, magazines, genres and score ranges, with an optional typo-tolerant title `query`, sorted by `field:asc|desc` entries. Each novel carries the caller's `read` entries.",
    auth: 'optional',
    params: {},
    paged: true,
    body: NOVEL_SEARCH_SPEC,
    rootField: 'novelSearch',
    document: `query NovelSearch($page: Int, $size: Int, $input: NovelSearchInput) {
        novelSearch(page: $page, size: $size, input: $input) {
          pagination { total pages page }
          list { ...NovelWithRead }
        }
      }`,
  },
  {
    method: 'POST',
    path: '/anime',
    summary: 'Browse the anime catalog',
    description:
      "The anime catalog filtered as a watch list is (years or seasons, media type, rating, status, source, season, producers, studios, genres, score ranges), with an optional typo-tolerant title `query`, sorted by `field:asc|desc` entries. Anime rated `rx` are left out unless a rating, an explicit genre or a `query` is given. Each anime carries the caller's `watch` entries.",
    auth: 'optional',
    params: {},
    paged: true,
    body: ANIME_LIST_SPEC,
    rootField: 'animeList',
    document: `query AnimeList($page: Int, $size: Int, $input: AnimeListInput) {
        animeList(page: $page, size: $size, input: $input) {
          pagination { total pages page }
          list { ...AnimeWithWatch }
        }
      }`,
  },
  {
    method: 'POST',
    path: '/manga',
    summary: 'Browse the manga catalog',
    description:
      "The manga catalog with the filters, typo-tolerant `query` and sorts of the novel search. Each manga carries the caller's `read` entries.",
    auth: 'optional',
    params: {},
    paged: true,
    body: MANGA_LIST_SPEC,
    rootField: 'mangaList',
    document: `query MangaList($page: Int, $size: Int, $input: MangaListInput) {
        mangaList(page: $page, size: $size, input: $input) {
          pagination { total pages page }
          list { ...MangaWithRead }
        }
      }`,
  },
  {
    method: 'GET',
    path: '/sitemap/sitemap_{content_type}.json',
    summary: 'A sitemap of a title kind',
    description:
      'Every anime, manga or novel that is not deleted, best scored first, as `{slug, updated_at}` (Unix seconds, or null): what a site generator or a search engine needs.',
    auth: 'none',
    params: { content_type: oneOf(TITLE_CONTENT_TYPES) },
    rootField: 'sitemap',
    document: `query Sitemap($content_type: TitleContentType!) { sitemap(content_type: $content_type) { slug updated_at } }`,
  },
  {
    method: 'GET',
    path: '/genres',
    summary: 'Every genre',
    description:
      'Every genre, theme, demographic and explicit genre, by Ukrainian name (those without one last), then slug: the catalogs’ genre filter.',
    auth: 'none',
    params: {},
    rootField: 'genres',
    document: `query Genres { genres { list { ...GenreFields } } }`,
  },
  {
    method: 'POST',
    path: '/companies',
    summary: 'Search studios and producers',
    description:
      'Companies by a typo-tolerant `query` on their name (best match first), or all of them by how many anime they are linked to; `type` keeps those that are a `producer` or `studio` of at least one anime.',
    auth: 'none',
    params: {},
    paged: true,
    body: COMPANY_SEARCH_SPEC,
    rootField: 'companies',
    document: `query Companies($page: Int, $size: Int, $input: CompanySearchInput) {
        companies(page: $page, size: $size, input: $input) {
          pagination { total pages page }
          list { ...CompanyFields }
        }
      }`,
  },
];
