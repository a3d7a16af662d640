import { COLLECTION_CONTENT_TYPES, COLLECTION_VISIBILITIES } from '../common/enums';
import { valueListType } from '../common/scalars/value-list';

export const CollectionContentTypeEnum = valueListType('CollectionContentType', COLLECTION_CONTENT_TYPES);
export const CollectionVisibilityEnum = valueListType('CollectionVisibility', COLLECTION_VISIBILITIES);
