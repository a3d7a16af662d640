import { Field, Float, InputType, Int } from 'type-graphql';
import type { JsonSchema } from '../common/validation/json-schema';
import { nullableText } from '../common/validation/schemas';

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

/**
 * Body fields every list entry has. GraphQL types accept everything the JSON body may
 * hold (dates are `Float`, fractions allowed) and each subclass's registered JSON
 * Schema carries the rules, so both doors refuse the same inputs.
 */
@InputType()
export abstract class ListEntryInputFields {
  @Field(() => String, { nullable: true })
  note?: string | null;

  @Field(() => Int, { nullable: true, description: '0..10, default 0 (unscored).' })
  score?: number;

  @Field(() => Float, { nullable: true, description: 'Unix seconds; omitted keeps the stored date.' })
  start_date?: number | null;

  @Field(() => Float, { nullable: true, description: 'Unix seconds; omitted keeps the stored date.' })
  end_date?: number | null;
}
