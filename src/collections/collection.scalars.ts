import { COLLECTION_CONTENT_TYPES, COLLECTION_VISIBILITIES } from '../common/enums';
import { enumScalar } from '../common/scalars/enum.scalar';

export const CollectionContentTypeScalar = enumScalar('CollectionContentType', COLLECTION_CONTENT_TYPES);
export const CollectionVisibilityScalar = enumScalar('CollectionVisibility', COLLECTION_VISIBILITIES);
