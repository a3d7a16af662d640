import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { SEASONS } from '../enums';

/** A JSON Schema (the subset ajv compiles), kept loose on purpose. */
export type JsonSchema = Record<string, unknown>;

/** The fields of a request object, in the contract's order, and which of them are required. */
export interface ObjectSpec {
  properties: Record<string, JsonSchema>;
  required?: readonly string[];
  /**
   * Rules over several fields (for example `x-ordered-fields`), checked on the whole
   * object after every field and unknown key; a violation names no field (§1.1.1).
   */
  whole?: JsonSchema;
}

const SEASON_ORDER = new Map<string, number>(SEASONS.map((season, index) => [season, index]));

/** `[season, year]` pairs compare by year, then season (winter < spring < summer < fall). */
function seasonKey(pair: unknown): number {
  const [season, year] = pair as [string, number];
  return year * 4 + (SEASON_ORDER.get(season) ?? 0);
}

const ajv = new Ajv({ strict: true, allErrors: false, coerceTypes: false, useDefaults: false });
addFormats(ajv);

// Rules JSON Schema cannot say, as keywords so that every route states them in its schema.
ajv.addKeyword({
  keyword: 'x-sort-fields',
  type: 'array',
  schemaType: 'array',
  // `field:direction` entries over an allowlist; a field may appear once.
  validate: (allowed: string[], entries: unknown[]) => {
    const seen = new Set<string>();
    return entries.every((entry) => {
      if (typeof entry !== 'string') return false;
      const parts = entry.split(':');
      if (parts.length !== 2 || !allowed.includes(parts[0]) || !['asc', 'desc'].includes(parts[1]))
        return false;
      if (seen.has(parts[0])) return false;
      seen.add(parts[0]);
      return true;
    });
  },
});
ajv.addKeyword({
  keyword: 'x-ordered-pair',
  type: 'array',
  schemaType: 'boolean',
  // `[min, max]`: when both are set, min ≤ max.
  validate: (_: boolean, pair: unknown[]) =>
    pair.length !== 2 || pair[0] === null || pair[1] === null || (pair[0] as number) <= (pair[1] as number),
});
ajv.addKeyword({
  keyword: 'x-ordered-seasons',
  type: 'array',
  schemaType: 'boolean',
  // `[[season, year], [season, year]]`: the first may not be later than the second.
  validate: (_: boolean, pair: unknown[]) =>
    pair.length !== 2 || !Array.isArray(pair[0]) || seasonKey(pair[0]) <= seasonKey(pair[1]),
});

ajv.addKeyword({
  keyword: 'x-ordered-fields',
  type: 'object',
  schemaType: 'array',
  // `[earlier, later]` field names: when both hold numbers, the first may not exceed the second.
  validate: ([earlier, later]: string[], object: Record<string, unknown>) => {
    const [first, second] = [object[earlier], object[later]];
    return typeof first !== 'number' || typeof second !== 'number' || first <= second;
  },
});

/** Named checks JSON Schema cannot express (e.g. the article document tree), for `x-check`. */
const namedChecks = new Map<string, (value: unknown) => boolean>();

/** Registers a named check; a schema uses it as `{'x-check': name}`. */
export function registerCheck(name: string, check: (value: unknown) => boolean): void {
  namedChecks.set(name, check);
}

ajv.addKeyword({
  keyword: 'x-check',
  schemaType: 'string',
  // A registered check by name; an unknown name fails closed.
  validate: (name: string, value: unknown) => namedChecks.get(name)?.(value) ?? false,
});

const compiled = new WeakMap<JsonSchema, ValidateFunction>();

/** Whether `value` satisfies `schema` (compiled once per schema object). */
export function matchesSchema(schema: JsonSchema, value: unknown): boolean {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate(value) as boolean;
}

/** Whether `value` is a JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first violation of a request object: the offending top-level field, if one can be named. */
export interface Violation {
  name?: string;
}

/**
 * Checks a request object field by field in declared order, then unknown keys
 * (semantics §1.1.1); returns the first violation, or null. Absent optional fields pass.
 */
export function firstViolation(spec: ObjectSpec, value: unknown): Violation | null {
  if (!isPlainObject(value)) return {};
  const { properties, required = [] } = spec;
  for (const [name, schema] of Object.entries(properties)) {
    if (value[name] === undefined) {
      if (required.includes(name)) return { name };
      continue;
    }
    if (!matchesSchema(schema, value[name])) return { name };
  }
  const unknown = Object.keys(value).find((key) => !(key in properties));
  if (unknown !== undefined) return { name: unknown };
  return spec.whole && !matchesSchema(spec.whole, value) ? {} : null;
}
