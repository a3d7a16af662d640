import { Field, InputType } from 'type-graphql';
import { WATCH_STATUSES, type WatchStatus } from '../common/enums';
import { IntegerInput, WatchStatusEnum } from '../common/scalars';
import { registerInputSpec } from '../common/validation/input-specs';
import type { ObjectSpec } from '../common/validation/json-schema';
import { enumValue } from '../common/validation/schemas';
import {
  countField,
  datesInOrder,
  inputTimeField,
  ListEntryInputFields,
  noteField,
  scoreField,
} from './list-entry.types';

/** PUT /watch/{slug} body, fields in the spec's order (§3.3). */
export const WATCH_ENTRY_BODY: ObjectSpec = {
  properties: {
    status: enumValue(WATCH_STATUSES),
    note: noteField,
    episodes: countField(10000),
    rewatches: countField(100),
    score: scoreField,
    start_date: inputTimeField,
    end_date: inputTimeField,
  },
  required: ['status'],
  whole: datesInOrder,
};

/**
 * The body of a watch entry write. GraphQL types accept everything the JSON body
 * may hold (dates are `Float`, fractions allowed) and the registered JSON Schema
 * carries the rules, so both doors refuse the same inputs.
 */
@InputType({
  description:
    'A watch entry as saved: omitted fields take their defaults, omitted dates keep the stored ones (§3.3).',
})
export class WatchEntryInput extends ListEntryInputFields {
  @Field(() => WatchStatusEnum)
  status!: WatchStatus;

  @Field(() => IntegerInput, { nullable: true, description: '0..10000, default 0.' })
  episodes?: number;

  @Field(() => IntegerInput, { nullable: true, description: '0..100, default 0.' })
  rewatches?: number;
}
registerInputSpec(WatchEntryInput, WATCH_ENTRY_BODY);
