import { type Fragment, fragment } from '../rest/fragments';

/** Contract Collection fields, for selections on types that extend Collection (a favourite collection). */
export const COLLECTION_FIELDS = `reference data_type content_type description title visibility
  author { ...UserFields is_followed }
  labels_order created updated comments_count vote_score my_score entries tags spoiler nsfw
  collection { ...CollectionItemFields }`;

/** The collections' contract resources (src/rest/fragments.ts). */
export const collectionFragments: readonly Fragment[] = [
  /** Contract CollectionItem: `content` with the caller's `watch`/`read` (semantics §1.7). */
  fragment(
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
  ),
  /** Contract Collection, its author with `is_followed`. */
  fragment('CollectionFields', 'Collection', `{ ${COLLECTION_FIELDS} }`),
];
