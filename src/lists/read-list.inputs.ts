import { Field, InputType } from 'type-graphql';
import { ReadableFilterFields, readableFilterProperties } from '../catalog/catalog-list.inputs';
import { MANGA_MEDIA_TYPES, NOVEL_MEDIA_TYPES, READ_STATUSES, type ReadStatus } from '../common/enums';
import { ReadMediaTypeEnum, ReadStatusEnum } from '../common/scalars';
import { registerInputSpec } from '../common/validation/input-specs';
import { nullableEnumValue, sortField } from '../common/validation/schemas';

/** Sort fields of a read list (pages.md "User profile"): `read_*` refer to the entry, the rest to the title. */
export const READ_LIST_SORT_FIELDS = [
  'native_score',
  'native_scored_by',
  'read_chapters',
  'read_volumes',
  'read_updated',
  'read_created',
  'read_score',
  'media_type',
  'start_date',
  'scored_by',
  'score',
] as const;
export type ReadListSortField = (typeof READ_LIST_SORT_FIELDS)[number];

export const DEFAULT_READ_LIST_SORT = ['read_score:desc', 'read_created:desc'] as const;

/**
 * The body of POST /read/{content_type}/{username}/list: #3's title filters without a
 * query, the entry's status and the read-list sorts. `media_type` takes the media types of
 * the list's content type; the schema admits both kinds', the service checks the kind.
 */
@InputType('ReadListInput', { description: "Filters and sort of a user's manga or novel list." })
export class ReadListInput extends ReadableFilterFields {
  @Field(() => [ReadMediaTypeEnum], { nullable: true, description: 'Media types of the content type.' })
  media_type?: string[];

  @Field(() => [String], {
    nullable: true,
    description: `\`field:asc|desc\` entries over ${READ_LIST_SORT_FIELDS.join(', ')}.`,
  })
  sort?: string[];

  @Field(() => ReadStatusEnum, { nullable: true, description: "The entry's status." })
  read_status?: ReadStatus | null;
}

export const READ_LIST_SPEC = registerInputSpec(ReadListInput, {
  properties: {
    ...readableFilterProperties([...MANGA_MEDIA_TYPES, ...NOVEL_MEDIA_TYPES]),
    sort: sortField(READ_LIST_SORT_FIELDS),
    read_status: nullableEnumValue(READ_STATUSES),
  },
});
