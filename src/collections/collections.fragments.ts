import { UserFields } from '../accounts/accounts.fragments';
import { AnimeWithWatch, MangaWithRead, NovelWithRead } from '../catalog/catalog.fragments';
import { CharacterFields } from '../characters/characters.fragments';
import { PersonFields } from '../people/people.fragments';
import { fragment } from '../rest/fragments';

/** Contract CollectionItem: `content` with the caller's `watch`/`read` (semantics §1.7). */
export const CollectionItemFields = fragment(
  'CollectionItemFields',
  'CollectionItem',
  `{ comment label content_type order
    content {
      ... on Anime { ...AnimeWithWatch }
      ... on Manga { ...MangaWithRead }
      ... on Novel { ...NovelWithRead }
      ... on Character { ...CharacterFields }
      ... on Person { ...PersonFields }
    } }`,
  [AnimeWithWatch, MangaWithRead, NovelWithRead, CharacterFields, PersonFields],
);

/** Contract Collection, its author with `is_followed`. */
export const CollectionFields = fragment(
  'CollectionFields',
  'Collection',
  `{ reference data_type content_type description title visibility
    author { ...UserFields is_followed }
    labels_order created updated comments_count vote_score my_score entries tags spoiler nsfw
    collection { ...CollectionItemFields } }`,
  [UserFields, CollectionItemFields],
);
