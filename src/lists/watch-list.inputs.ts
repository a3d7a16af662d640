import { Field, InputType } from 'type-graphql';
import { AnimeFilterFields, animeFilterProperties } from '../catalog/catalog-list.inputs';
import { WATCH_STATUSES, type WatchStatus } from '../common/enums';
import { WatchStatusEnum } from '../common/scalars';
import { registerInputSpec } from '../common/validation/input-specs';
import { nullableEnumValue, sortField } from '../common/validation/schemas';

/** Sort fields of #21 (semantics §1.10): `watch_*` refer to the entry, the rest to the anime. */
export const WATCH_LIST_SORT_FIELDS = [
  'native_score',
  'native_scored_by',
  'watch_episodes',
  'watch_updated',
  'watch_created',
  'watch_score',
  'media_type',
  'start_date',
  'scored_by',
  'score',
] as const;
export type WatchListSortField = (typeof WATCH_LIST_SORT_FIELDS)[number];

export const DEFAULT_WATCH_LIST_SORT = ['watch_score:desc', 'watch_created:desc'] as const;

/** The body of #21 POST /watch/{username}/list (semantics §2 #21); there is no `query`. */
@InputType('WatchListInput', { description: 'Filters and sort of a watch list (contract #21).' })
export class WatchListInput extends AnimeFilterFields {
  @Field(() => [String], {
    nullable: true,
    description: `\`field:asc|desc\` entries over ${WATCH_LIST_SORT_FIELDS.join(', ')}.`,
  })
  sort?: string[];

  @Field(() => WatchStatusEnum, { nullable: true, description: "The entry's status." })
  watch_status?: WatchStatus | null;
}

/** The #21 body schema, shared by the REST route and the GraphQL input. */
export const WATCH_LIST_SPEC = registerInputSpec(WatchListInput, {
  properties: {
    ...animeFilterProperties(),
    sort: sortField(WATCH_LIST_SORT_FIELDS),
    watch_status: nullableEnumValue(WATCH_STATUSES),
  },
});
