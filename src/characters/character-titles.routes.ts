import type { RestRoute } from '../rest/route';
import { slugParam } from '../rest/schemas';

const page = 'pagination { total pages page }';

export const characterTitleRoutes: RestRoute[] = [
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
        characterNovels(slug: $slug, page: $page, size: $size) { ${page} list { main novel { ...NovelWithRead } } }
      }`,
  },
  {
    method: 'GET',
    path: '/characters/{slug}/anime',
    summary: 'Anime of a character',
    description:
      'The anime a character appears in, best scored first, each saying whether the character is a main one there, with the caller’s `watch` entries (no scope needed).',
    auth: 'optional',
    params: { slug: slugParam },
    paged: true,
    rootField: 'characterAnime',
    document: `query CharacterAnime($slug: String!, $page: Int, $size: Int) {
        characterAnime(slug: $slug, page: $page, size: $size) { ${page} list { main anime { ...AnimeWithWatch } } }
      }`,
  },
  {
    method: 'GET',
    path: '/characters/{slug}/manga',
    summary: 'Manga of a character',
    description:
      'The manga a character appears in, best scored first, each saying whether the character is a main one there, with the caller’s `read` entries. Third-party tokens need `read:readlist`.',
    auth: 'optional',
    params: { slug: slugParam },
    paged: true,
    rootField: 'characterManga',
    document: `query CharacterManga($slug: String!, $page: Int, $size: Int) {
        characterManga(slug: $slug, page: $page, size: $size) { ${page} list { main manga { ...MangaWithRead } } }
      }`,
  },
];
