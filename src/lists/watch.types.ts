import { Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import { WATCH_STATUSES, type WatchStatus } from '../common/enums';
import { WatchStatusScalar } from '../common/scalars';
import { registerInputSpec } from '../common/validation/input-specs';
import type { JsonSchema, ObjectSpec } from '../common/validation/json-schema';
import { enumValue, nullableText } from '../common/validation/schemas';

/** An integer count within bounds; strict JSON types (no booleans, fractions or strings). */
export const countField = (maximum: number): JsonSchema => ({ type: 'integer', minimum: 0, maximum });

/** `note?`: at most 2048 characters, or null. */
export const noteField: JsonSchema = nullableText(0, 2048);

/** `score`: 0..10, 0 = unscored. */
export const scoreField: JsonSchema = countField(10);

/**
 * An input timestamp (semantics §1.6): null, or a positive number of seconds, fractions
 * allowed. The upper bound (9999-12-31T23:59:59Z) keeps the value a storable date.
 */
export const inputTimeField: JsonSchema = {
  type: ['number', 'null'],
  exclusiveMinimum: 0,
  maximum: 253402300799,
};

/** `start_date` later than `end_date` is a violation that names no field (§3.3). */
export const datesInOrder: JsonSchema = { type: 'object', 'x-ordered-fields': ['start_date', 'end_date'] };

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
export class WatchEntryInput {
  @Field(() => WatchStatusScalar)
  status!: WatchStatus;

  @Field(() => String, { nullable: true })
  note?: string | null;

  @Field(() => Int, { nullable: true, description: '0..10000, default 0.' })
  episodes?: number;

  @Field(() => Int, { nullable: true, description: '0..100, default 0.' })
  rewatches?: number;

  @Field(() => Int, { nullable: true, description: '0..10, default 0 (unscored).' })
  score?: number;

  @Field(() => Float, { nullable: true, description: 'Unix seconds; omitted keeps the stored date.' })
  start_date?: number | null;

  @Field(() => Float, { nullable: true, description: 'Unix seconds; omitted keeps the stored date.' })
  end_date?: number | null;
}
registerInputSpec(WatchEntryInput, WATCH_ENTRY_BODY);

/** The answer of a deletion: `{"success": true}` (semantics §3). */
@ObjectType()
export class DeleteResult {
  @Field(() => Boolean)
  success: boolean = true;
}
