import type { JsonSchema } from './json-schema';

/** JSON Schema builders for request bodies, shared by every route (and so by the GraphQL inputs). */
export const booleanField: JsonSchema = { type: 'boolean' };

export const enumValue = (values: readonly string[]): JsonSchema => ({ type: 'string', enum: [...values] });

/** An array of enumeration values (`[]` imposes nothing). */
export const enumArray = (values: readonly string[]): JsonSchema => ({
  type: 'array',
  items: enumValue(values),
});

export const stringArray = (maxItems?: number): JsonSchema => ({
  type: 'array',
  items: { type: 'string' },
  ...(maxItems === undefined ? {} : { maxItems }),
});

/** `[min, max]`, each an integer in range or null; min ≤ max when both are set (semantics §1.9). */
export const rangePair = (minimum: number, maximum?: number): JsonSchema => ({
  type: 'array',
  minItems: 2,
  maxItems: 2,
  items: { type: ['integer', 'null'], minimum, ...(maximum === undefined ? {} : { maximum }) },
  'x-ordered-pair': true,
});

/** A `sort` array of `field:asc|desc` entries over an allowlist, each field at most once (§1.10). */
export const sortField = (allowed: readonly string[]): JsonSchema => ({
  type: 'array',
  items: { type: 'string' },
  'x-sort-fields': [...allowed],
});

/** A string of bounded length, or null. */
export const nullableText = (minLength: number, maxLength: number): JsonSchema => ({
  type: ['string', 'null'],
  minLength,
  maxLength,
});
