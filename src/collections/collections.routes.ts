import { documentOf } from '../rest/fragments';
import type { RestRoute } from '../rest/route';
import { uuidParam } from '../rest/schemas';
import { COLLECTION_BODY, COLLECTION_SEARCH_BODY } from './collection.inputs';
import { CollectionFields } from './collections.fragments';

const referenceParams = { reference: uuidParam };

/** Collections: #14, #15 and the writes of semantics §3.7. */
export const collectionRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/collections/create',
    auth: 'required',
    params: {},
    body: COLLECTION_BODY,
    rootField: 'createCollection',
    document: documentOf(
      `mutation CreateCollection($input: CollectionInput!) {
        createCollection(input: $input) { ...CollectionFields }
      }`,
      CollectionFields,
    ),
  },
  {
    contract: 14,
    method: 'GET',
    path: '/collections/{reference}',
    auth: 'optional',
    params: referenceParams,
    rootField: 'collection',
    document: documentOf(
      `query Collection($reference: String!) {
        collection(reference: $reference) { ...CollectionFields }
      }`,
      CollectionFields,
    ),
  },
  {
    method: 'PUT',
    path: '/collections/{reference}',
    auth: 'required',
    params: referenceParams,
    body: COLLECTION_BODY,
    rootField: 'updateCollection',
    document: documentOf(
      `mutation UpdateCollection($reference: String!, $input: CollectionInput!) {
        updateCollection(reference: $reference, input: $input) { ...CollectionFields }
      }`,
      CollectionFields,
    ),
  },
  {
    method: 'DELETE',
    path: '/collections/{reference}',
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
    auth: 'optional',
    params: {},
    paged: true,
    body: COLLECTION_SEARCH_BODY,
    rootField: 'collections',
    document: documentOf(
      `query Collections($page: Int, $size: Int, $input: CollectionSearchInput) {
        collections(page: $page, size: $size, input: $input) {
          pagination { total pages page }
          list { ...CollectionFields }
        }
      }`,
      CollectionFields,
    ),
  },
];
