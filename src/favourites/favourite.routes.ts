import { FAVOURITE_CONTENT_TYPES } from '../common/enums';
import type { RestRoute } from '../rest/route';
import { oneOf, slugParam } from '../rest/schemas';

const itemParams = { content_type: oneOf(FAVOURITE_CONTENT_TYPES), slug: slugParam };
const ITEM_DESCRIPTION =
  'The item is an anime, manga, novel or character by slug, or a collection by reference (a private one for its author only).';

/** Favourites (pages.md "Anime page", "User profile"). */
export const favouriteRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/favourite/{content_type}/{slug}',
    summary: 'Whether you keep an item as a favourite',
    description: `The caller's favourite of an item, with the time it was added; 404 \`favourite:not_found\` when it is none. ${ITEM_DESCRIPTION}`,
    auth: 'required',
    params: itemParams,
    rootField: 'favourite',
    document: `query Favourite($content_type: FavouriteContentType!, $slug: String!) {
        favourite(content_type: $content_type, slug: $slug) { ...FavouriteFields }
      }`,
  },
  {
    method: 'PUT',
    path: '/favourite/{content_type}/{slug}',
    summary: 'Add an item to your favourites',
    description: `Adds an item to the caller's favourites; 409 \`favourite:exists\` when it is one already. ${ITEM_DESCRIPTION}`,
    auth: 'required',
    errors: [409],
    params: itemParams,
    rootField: 'addFavourite',
    document: `mutation AddFavourite($content_type: FavouriteContentType!, $slug: String!) {
        addFavourite(content_type: $content_type, slug: $slug) { ...FavouriteFields }
      }`,
  },
  {
    method: 'DELETE',
    path: '/favourite/{content_type}/{slug}',
    summary: 'Remove an item from your favourites',
    description: `Removes an item from the caller's favourites. ${ITEM_DESCRIPTION}`,
    auth: 'required',
    params: itemParams,
    rootField: 'removeFavourite',
    document: `mutation RemoveFavourite($content_type: FavouriteContentType!, $slug: String!) {
        removeFavourite(content_type: $content_type, slug: $slug) { success }
      }`,
  },
  {
    method: 'POST',
    path: '/favourite/{content_type}/{username}/list',
    summary: "A user's favourites",
    description:
      "A user's favourites of one kind, newest first, each with `favourite_created`: anime with the caller's `watch`, manga and novels with the caller's `read`, characters, and collections with a preview of 6 items (private ones only for their author). A body, if sent, is ignored.",
    auth: 'optional',
    params: { content_type: oneOf(FAVOURITE_CONTENT_TYPES), username: slugParam },
    paged: true,
    rootField: 'favourites',
    document: `query Favourites($content_type: FavouriteContentType!, $username: String!, $page: Int, $size: Int) {
        favourites(content_type: $content_type, username: $username, page: $page, size: $size) {
          pagination { total pages page }
          list {
            ... on FavouriteAnime { ...FavouriteAnimeFields }
            ... on FavouriteManga { ...FavouriteMangaFields }
            ... on FavouriteNovel { ...FavouriteNovelFields }
            ... on FavouriteCharacter { ...FavouriteCharacterFields }
            ... on FavouriteCollection { ...FavouriteCollectionFields }
          }
        }
      }`,
  },
];
