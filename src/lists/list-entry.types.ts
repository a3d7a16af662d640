import { Field, Float, InputType } from 'type-graphql';
import { IntegerInput } from '../common/scalars';
import type { JsonSchema } from '../common/validation/json-schema';
import { integerField, nullableText, optionalField } from '../common/validation/schemas';

/** An integer count within bounds (a decimal string counts as its integer, §1.1.1). */
export const countField = (maximum: number): JsonSchema => integerField({ minimum: 0, maximum });

/** `note?`: at most 2048 characters; null means no note, as if left out. */
export const noteField: JsonSchema = optionalField(nullableText(0, 2048));

/** `score`: 0..10, 0 = unscored. */
export const scoreField: JsonSchema = countField(10);

/**
 * `start_date?` / `end_date?` (semantics §1.6, §7.4): a positive number of seconds,
 * fractions allowed; null means the same as leaving the date out. The upper bound
 * (9999-12-31T23:59:59Z) keeps the value a storable date.
 */
export const inputTimeField: JsonSchema = optionalField({
  type: 'number',
  exclusiveMinimum: 0,
  maximum: 253402300799,
});

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

  @Field(() => IntegerInput, { nullable: true, description: '0..10, default 0 (unscored).' })
  score?: number;

  @Field(() => Float, { nullable: true, description: 'Unix seconds; omitted or null keeps the stored date.' })
  start_date?: number;

  @Field(() => Float, { nullable: true, description: 'Unix seconds; omitted or null keeps the stored date.' })
  end_date?: number;
}
