import type { RestRoute } from '../rest/route';
import { uuidParam } from '../rest/schemas';
import { COLLECTION_BODY, COLLECTION_SEARCH_BODY } from './collection.inputs';

const referenceParams = { reference: uuidParam };

/** Collections: #14, #15 and the writes of semantics §3.7. */
export const collectionRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/collections/create',
    summary: 'Create a collection',
    description:
      'Creates a collection of anime, manga, novels, characters or people: title, description, tags, visibility and its numbered (optionally labelled and commented) entries. Answers the full Collection.',
    auth: 'required',
    params: {},
    body: COLLECTION_BODY,
    rootField: 'createCollection',
    document: `mutation CreateCollection($input: CollectionInput!) {
        createCollection(input: $input) { ...CollectionFields }
      }`,
  },
  {
    contract: 14,
    method: 'GET',
    path: '/collections/{reference}',
    summary: 'One collection',
    description: 'A collection with all its items in their order; a private collection only for its author.',
    auth: 'optional',
    params: referenceParams,
    rootField: 'collection',
    document: `query Collection($reference: String!) {
        collection(reference: $reference) { ...CollectionFields }
      }`,
  },
  {
    method: 'PUT',
    path: '/collections/{reference}',
    summary: 'Update a collection',
    description:
      "Its author (or a moderator, who may not change the entries) replaces a collection's fields and entries; the content type cannot change. Answers the full Collection.",
    auth: 'required',
    params: referenceParams,
    body: COLLECTION_BODY,
    rootField: 'updateCollection',
    document: `mutation UpdateCollection($reference: String!, $input: CollectionInput!) {
        updateCollection(reference: $reference, input: $input) { ...CollectionFields }
      }`,
  },
  {
    method: 'DELETE',
    path: '/collections/{reference}',
    summary: 'Delete a collection',
    description: 'Its author, or a moderator, deletes a collection; its comments become private.',
    auth: 'required',
    params: referenceParams,
    rootField: 'deleteCollection',
    document: `mutation DeleteCollection($reference: String!) {
      deleteCollection(reference: $reference) { success }
    }`,
  },
  {
    contract: 15,
    method: 'POST',
    path: '/collections',
    summary: 'Search collections',
    description:
      'Collections filtered by author, content type, an item they contain and tags (public ones only, unless `only_public` is false), highest ranked first by default; each with a preview of at most 6 items.',
    auth: 'optional',
    params: {},
    paged: true,
    body: COLLECTION_SEARCH_BODY,
    rootField: 'collections',
    document: `query Collections($page: Int, $size: Int, $input: CollectionSearchInput) {
        collections(page: $page, size: $size, input: $input) {
          pagination { total pages page }
          list { ...CollectionFields }
        }
      }`,
  },
];
