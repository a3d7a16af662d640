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

/**
 * An integer field: a JSON integer within bounds, or a string of decimal digits with an
 * optional leading `-` read as that integer and then bound-checked (semantics §1.1.1).
 * Booleans, fractions, empty and other strings are invalid.
 */
export const integerField = (bounds: { minimum?: number; maximum?: number } = {}): JsonSchema => ({
  anyOf: [
    { type: 'integer', ...bounds },
    { type: 'string', pattern: '^-?[0-9]+$' },
  ],
  'x-integer': bounds,
});

/** A field marked `?` (semantics §7.4): `null` is accepted and means the same as leaving it out. */
export const optionalField = (schema: JsonSchema): JsonSchema => ({
  anyOf: [{ type: 'null' }, schema],
  'x-absent-if-null': true,
});

/** `[min, max]`, each an integer in range or null; min ≤ max when both are set (semantics §1.9). */
export const rangePair = (minimum: number, maximum?: number): JsonSchema => ({
  type: 'array',
  minItems: 2,
  maxItems: 2,
  items: {
    anyOf: [{ type: 'null' }, integerField({ minimum, ...(maximum === undefined ? {} : { maximum }) })],
  },
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

/**
 * `null`, `[]` (both impose nothing) or `[season, year]` with a year of at least
 * `minimumYear` (#2 `airing_season`); any other length, order or type is invalid.
 */
export const nullableSeasonYear = (seasons: readonly string[], minimumYear: number): JsonSchema => ({
  anyOf: [
    { type: 'null' },
    { type: 'array', maxItems: 0 },
    {
      type: 'array',
      minItems: 2,
      items: [enumValue(seasons), integerField({ minimum: minimumYear })],
      additionalItems: false,
    },
  ],
});

/** An enumeration value or null. */
export const nullableEnumValue = (values: readonly string[]): JsonSchema => ({
  type: ['string', 'null'],
  enum: [...values, null],
});

/** `[min, max]` as `rangePair`, where null and `[]` also mean "no bounds" (#3 `years`). */
export const optionalRangePair = (minimum: number): JsonSchema => ({
  anyOf: [{ type: 'null' }, { type: 'array', maxItems: 0 }, rangePair(minimum)],
});

/**
 * Anime `years` (#21): `[]`, `[y0, y1]` (integers > 0 or nulls, y0 ≤ y1) or two
 * `[season, year]` pairs, the first not later than the second; the forms do not mix.
 */
export const yearsOrSeasonPairs = (seasons: readonly string[]): JsonSchema => ({
  anyOf: [
    { type: 'array', maxItems: 0 },
    rangePair(1),
    {
      type: 'array',
      minItems: 2,
      maxItems: 2,
      items: {
        type: 'array',
        minItems: 2,
        maxItems: 2,
        items: [enumValue(seasons), integerField({ minimum: 1 })],
        additionalItems: false,
      },
      'x-ordered-seasons': true,
    },
  ],
});
