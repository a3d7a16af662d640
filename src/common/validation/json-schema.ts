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

/**
 * A schema that passes the values `check` accepts: `{'x-check': name}`, the name being
 * what the OpenAPI document shows. The schema that uses the check names its function.
 */
export function namedCheck(name: string, check: (value: unknown) => boolean): JsonSchema {
  const known = namedChecks.get(name);
  if (known && known !== check) throw new Error(`two checks named ${name}`);
  namedChecks.set(name, check);
  return { 'x-check': name };
}

ajv.addKeyword({
  keyword: 'x-check',
  schemaType: 'string',
  // A registered check by name; an unknown name fails closed.
  validate: (name: string, value: unknown) => namedChecks.get(name)?.(value) ?? false,
});

/**
 * `{minimum?, maximum?}` on an integer field: a JSON integer, or a string of decimal
 * digits with an optional leading `-` that is read as that integer (semantics §1.1.1),
 * then bound-checked. The string is replaced by the number in its parent, so whoever
 * reads the checked request sees integers only.
 */
ajv.addKeyword({
  keyword: 'x-integer',
  schemaType: 'object',
  modifying: true,
  validate: (bounds: { minimum?: number; maximum?: number }, data: unknown, _schema, cxt) => {
    const text = typeof data === 'string' && /^-?[0-9]+$/.test(data);
    // `+ 0` turns the `-0` of "-0" into 0.
    const value = text ? Number(data) + 0 : data;
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) return false;
    if (bounds.minimum !== undefined && value < bounds.minimum) return false;
    if (bounds.maximum !== undefined && value > bounds.maximum) return false;
    if (text && cxt) (cxt.parentData as Record<string | number, unknown>)[cxt.parentDataProperty] = value;
    return true;
  },
});

/**
 * On a field marked `?` (semantics §7.4): `null` means the same as leaving the field
 * out, so a null value is removed from its parent object.
 */
ajv.addKeyword({
  keyword: 'x-absent-if-null',
  schemaType: 'boolean',
  modifying: true,
  validate: (_: boolean, data: unknown, _schema, cxt) => {
    if (data === null && cxt)
      delete (cxt.parentData as Record<string | number, unknown>)[cxt.parentDataProperty];
    return true;
  },
});

const compiled = new WeakMap<JsonSchema, ValidateFunction>();

function compile(schema: JsonSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** Whether `value` satisfies `schema` (compiled once per schema object). */
export function matchesSchema(schema: JsonSchema, value: unknown): boolean {
  return compile(schema)(value) as boolean;
}

/** Each field schema wrapped as the only property of an object, so that its keywords may rewrite the value. */
const fieldHolders = new WeakMap<JsonSchema, JsonSchema>();

function holderOf(schema: JsonSchema): JsonSchema {
  let holder = fieldHolders.get(schema);
  if (!holder) {
    holder = { type: 'object', properties: { value: schema } };
    fieldHolders.set(schema, holder);
  }
  return holder;
}

/**
 * Checks one field's value against its schema. Returns the value as read (decimal
 * strings of integer fields become numbers, nulls of `?` fields become undefined),
 * or `invalid`.
 */
function readField(schema: JsonSchema, value: unknown): { value: unknown } | 'invalid' {
  if (!isSafeJson(value)) return 'invalid';
  const holder: { value?: unknown } = { value };
  return matchesSchema(holderOf(schema), holder) ? { value: holder.value } : 'invalid';
}

/** How deep a request value may nest; the deepest valid one (an article document) stays far below. */
const MAX_VALUE_DEPTH = 64;

/**
 * Whether a JSON value can be checked and stored safely: nested at most
 * {@link MAX_VALUE_DEPTH} levels (deeper values would exhaust the stack of recursive
 * checks and serializers) and without U+0000 in any string or key (PostgreSQL text
 * cannot hold it). Walks without recursion, so any depth is measured safely.
 */
export function isSafeJson(value: unknown): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return false;
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= MAX_VALUE_DEPTH) return false;
    for (const [key, item] of Object.entries(current)) {
      if (key.includes('\u0000')) return false;
      stack.push({ value: item, depth: depth + 1 });
    }
  }
  return true;
}

/** Whether `value` is a JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The first violation of a request object: the offending top-level field, if one can be named. */
export interface Violation {
  name?: string;
}

/** A request object after its checks: either its first violation, or the object as read. */
export type CheckedObject = { violation: Violation } | { value: Record<string, unknown> };

/**
 * Checks a request object field by field in declared order, then unknown keys
 * (semantics §1.1.1), and reads it: absent optional fields pass, a `?` field's null
 * is left out, integer fields given as decimal strings become numbers. Only own keys
 * count, so `toString` or `__proto__` in a body are unknown keys like any other.
 */
export function checkObject(spec: ObjectSpec, value: unknown): CheckedObject {
  if (!isPlainObject(value)) return { violation: {} };
  const { properties, required = [] } = spec;
  const read: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(properties)) {
    const given = Object.hasOwn(value, name) ? value[name] : undefined;
    const field = given === undefined ? { value: undefined } : readField(schema, given);
    if (field === 'invalid') return { violation: { name } };
    if (field.value === undefined) {
      if (required.includes(name)) return { violation: { name } };
      continue;
    }
    read[name] = field.value;
  }
  const unknown = Object.keys(value).find((key) => !Object.hasOwn(properties, key));
  if (unknown !== undefined) return { violation: { name: unknown } };
  if (spec.whole && !matchesSchema(spec.whole, read)) return { violation: {} };
  return { value: read };
}
