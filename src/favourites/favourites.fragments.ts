import { ANIME_SUMMARY_FIELDS, READABLE_SUMMARY_FIELDS } from '../catalog/catalog.fragments';
import { CHARACTER_FIELDS } from '../characters/characters.fragments';
import { COLLECTION_FIELDS } from '../collections/collections.fragments';
import { type Fragment, fragment } from '../rest/fragments';

/**
 * The favourites' resources (src/rest/fragments.ts). A favourite item is a type of its
 * own that extends the item's (a fragment on Anime cannot be spread on it), so its
 * fragment names the item's fields from the item's domain.
 */
export const favouriteFragments: readonly Fragment[] = [
  /** Favourite `{reference, created}`. */
  fragment('FavouriteFields', 'Favourite', '{ reference created }'),
  fragment(
    'FavouriteAnimeFields',
    'FavouriteAnime',
    `{ ${ANIME_SUMMARY_FIELDS} watch { ...WatchEntryFields } favourite_created }`,
  ),
  fragment(
    'FavouriteMangaFields',
    'FavouriteManga',
    `{ ${READABLE_SUMMARY_FIELDS} read { ...ReadEntryFields } favourite_created }`,
  ),
  fragment(
    'FavouriteNovelFields',
    'FavouriteNovel',
    `{ ${READABLE_SUMMARY_FIELDS} read { ...ReadEntryFields } favourite_created }`,
  ),
  fragment('FavouriteCharacterFields', 'FavouriteCharacter', `{ ${CHARACTER_FIELDS} favourite_created }`),
  fragment('FavouriteCollectionFields', 'FavouriteCollection', `{ ${COLLECTION_FIELDS} favourite_created }`),
];
