import { Field, InputType } from 'type-graphql';
import { IntegerInput } from '../common/scalars';
import { CollectionContentTypeEnum, CollectionVisibilityEnum } from './collection.enums';
import {
  COLLECTION_CONTENT_TYPES,
  COLLECTION_VISIBILITIES,
  type CollectionContentType,
  type CollectionVisibility,
} from '../common/enums';
import { registerInputSpec } from '../common/validation/input-specs';
import type { JsonSchema, ObjectSpec } from '../common/validation/json-schema';
import {
  booleanField,
  enumValue,
  integerField,
  nullableEnumValue,
  optionalField,
  sortField,
  stringArray,
} from '../common/validation/schemas';

/*
 * Collection request bodies (semantics §3.7, §2 #15). Each GraphQL input is registered
 * with the JSON Schema of its REST body, and its GraphQL field types are at least as
 * permissive, so both doors report the same first violation.
 */

/**
 * A tag (the article tag rule, §2 #4): 3..16 of a–z and the lower-case Ukrainian
 * letters except `є` (so no capitals, apostrophe, `ё ъ ы э`).
 */
export const TAG_PATTERN = '^[a-zабвгґдежзиіїйклмнопрстуфхцчшщьюя]{3,16}$';

/**
 * Text that is empty as markdown: only whitespace (with U+2800 and U+FFF4), emphasis
 * and strike markers, spoiler markers (`||`, `>!`, `!<`) and links whose label is
 * itself empty. The description must not match it.
 */
const MARKDOWN_EMPTY = '^(?:[\\s\\u2800\\uFFF4*_~|`]|>!|!<|\\[[\\s\\u2800\\uFFF4*_~|`]*\\]\\([^)]*\\))*$';

const entrySchema: JsonSchema = {
  type: 'object',
  properties: {
    slug: { type: 'string' },
    order: integerField(),
    comment: optionalField({ type: 'string', minLength: 3 }),
    label: optionalField({ type: 'string', minLength: 1 }),
  },
  required: ['slug', 'order'],
  additionalProperties: false,
};

/** POST /collections/create and PUT /collections/{reference}: every field required, in §3.7's order. */
export const COLLECTION_BODY: ObjectSpec = {
  properties: {
    title: { type: 'string', minLength: 3, maxLength: 255 },
    description: { type: 'string', minLength: 3, maxLength: 65536, not: { pattern: MARKDOWN_EMPTY } },
    tags: { type: 'array', maxItems: 3, items: { type: 'string', pattern: TAG_PATTERN } },
    visibility: enumValue(COLLECTION_VISIBILITIES),
    content_type: enumValue(COLLECTION_CONTENT_TYPES),
    labels_order: { type: 'array', items: { type: 'string' }, uniqueItems: true },
    spoiler: booleanField,
    nsfw: booleanField,
    content: { type: 'array', items: entrySchema },
  },
  required: [
    'title',
    'description',
    'tags',
    'visibility',
    'content_type',
    'labels_order',
    'spoiler',
    'nsfw',
    'content',
  ],
};

@InputType({ description: 'One entry of a collection body.' })
export class CollectionEntryInput {
  @Field(() => String, { nullable: true })
  slug!: string;

  @Field(() => IntegerInput, { nullable: true })
  order!: number;

  @Field(() => String, { nullable: true, description: 'At least 3 characters.' })
  comment?: string;

  @Field(() => String, { nullable: true, description: 'At least 1 character.' })
  label?: string;
}

/** The body of a collection create or update (every field required; the schema says so). */
@InputType({ description: 'A collection as saved (semantics §3.7); every field is required.' })
export class CollectionInput {
  @Field(() => String, { nullable: true })
  title!: string;

  @Field(() => String, { nullable: true })
  description!: string;

  @Field(() => [String], { nullable: true })
  tags!: string[];

  @Field(() => CollectionVisibilityEnum, { nullable: true })
  visibility!: CollectionVisibility;

  @Field(() => CollectionContentTypeEnum, { nullable: true })
  content_type!: CollectionContentType;

  @Field(() => [String], { nullable: true })
  labels_order!: string[];

  @Field(() => Boolean, { nullable: true })
  spoiler!: boolean;

  @Field(() => Boolean, { nullable: true })
  nsfw!: boolean;

  @Field(() => [CollectionEntryInput], { nullable: true })
  content!: CollectionEntryInput[];
}
registerInputSpec(CollectionInput, COLLECTION_BODY);

export const COLLECTION_SORT_FIELDS = ['system_ranking', 'created'] as const;
export type CollectionSortField = (typeof COLLECTION_SORT_FIELDS)[number];

/** #15 POST /collections body, fields in the contract's order. */
export const COLLECTION_SEARCH_BODY: ObjectSpec = {
  properties: {
    sort: sortField(COLLECTION_SORT_FIELDS),
    content: stringArray(1),
    content_type: nullableEnumValue(COLLECTION_CONTENT_TYPES),
    author: { type: ['string', 'null'] },
    only_public: booleanField,
    tags: stringArray(3),
  },
};

@InputType({ description: 'Filters and sort of the collection search (contract #15).' })
export class CollectionSearchInput {
  @Field(() => [String], { nullable: true, description: 'Default ["system_ranking:desc", "created:desc"].' })
  sort?: string[];

  @Field(() => [String], { nullable: true, description: 'At most 1 content slug.' })
  content?: string[];

  @Field(() => CollectionContentTypeEnum, { nullable: true })
  content_type?: CollectionContentType | null;

  @Field(() => String, { nullable: true, description: 'A username (case-insensitive).' })
  author?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Default true.' })
  only_public?: boolean;

  @Field(() => [String], { nullable: true, description: 'At most 3; the collection has every tag.' })
  tags?: string[];
}
registerInputSpec(CollectionSearchInput, COLLECTION_SEARCH_BODY);
