import { Field, InputType } from 'type-graphql';
import { NOVEL_MEDIA_TYPES, type NovelMediaType } from '../common/enums';
import { NovelMediaTypeEnum } from '../common/scalars';
import { registerInputSpec } from '../common/validation/input-specs';
import { ReadableListFields, readableListSpec } from './catalog-list.inputs';

/** The body of #3 POST /novel (semantics §2 #3); every field is optional. */
@InputType('NovelSearchInput', { description: 'Filters, search and sort of novels (contract #3).' })
export class NovelSearchInput extends ReadableListFields {
  @Field(() => [NovelMediaTypeEnum], { nullable: true })
  media_type?: NovelMediaType[];
}

/** The #3 body schema, shared by the REST route and the GraphQL input. */
export const NOVEL_SEARCH_SPEC = registerInputSpec(NovelSearchInput, readableListSpec(NOVEL_MEDIA_TYPES));
