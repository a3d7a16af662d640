import { isPlainObject } from '../common/validation/json-schema';
import type { IssueLog } from './import-errors';

/**
 * Building blocks for checking import records: a rule checks one JSON value and
 * returns it converted (timestamps become dates), or INVALID after logging why.
 */
export const INVALID: unique symbol = Symbol('invalid');
export type Checked<T> = T | typeof INVALID;
export type Rule<T> = (value: unknown, path: string, issues: IssueLog) => Checked<T>;

export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]*$/;
const INT32_MAX = 2_147_483_647;
/** 0001-01-01 .. 9999-12-31: the years PostgreSQL and JavaScript dates share comfortably. */
const MIN_UNIX_SECONDS = -62_135_596_800;
const MAX_UNIX_SECONDS = 253_402_300_799;

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return JSON.stringify(value);
}

function fail(issues: IssueLog, path: string, message: string): typeof INVALID {
  issues.add(path, message);
  return INVALID;
}

export const text: Rule<string> = (value, path, issues) =>
  typeof value === 'string' ? value : fail(issues, path, `expected a string, got ${describeValue(value)}`);

export const nonEmptyText: Rule<string> = (value, path, issues) => {
  const checked = text(value, path, issues);
  if (checked === INVALID) return INVALID;
  return checked.trim() === '' ? fail(issues, path, 'must not be empty') : checked;
};

export const slug: Rule<string> = (value, path, issues) => {
  const checked = text(value, path, issues);
  if (checked === INVALID) return INVALID;
  return SLUG_PATTERN.test(checked)
    ? checked
    : fail(issues, path, `invalid slug "${checked}" (expected ${SLUG_PATTERN.source})`);
};

export const bool: Rule<boolean> = (value, path, issues) =>
  typeof value === 'boolean'
    ? value
    : fail(issues, path, `expected true or false, got ${describeValue(value)}`);

function integerIn(min: number, max: number, what: string): Rule<number> {
  return (value, path, issues) => {
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      return fail(issues, path, `expected ${what}, got ${describeValue(value)}`);
    }
    return value >= min && value <= max
      ? value
      : fail(issues, path, `${value} is out of range (expected ${what})`);
  };
}

/** Integers that fit the database's `integer` columns. */
export const int32 = integerIn(-INT32_MAX - 1, INT32_MAX, 'an integer');
/** Counts (`scored_by`, episodes, chapters, …) are never negative. */
export const count = integerIn(0, INT32_MAX, 'an integer ≥ 0');

export const score: Rule<number> = (value, path, issues) => {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    return fail(issues, path, `expected a number from 0 to 10, got ${describeValue(value)}`);
  }
  return value >= 0 && value <= 10 ? value : fail(issues, path, `score ${value} is outside 0..10`);
};

/** Unix seconds (an integer) in the file, a Date in the entity. */
export const timestamp: Rule<Date> = (value, path, issues) => {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    return fail(issues, path, `expected an integer Unix time in seconds, got ${describeValue(value)}`);
  }
  if (value < MIN_UNIX_SECONDS || value > MAX_UNIX_SECONDS)
    return fail(issues, path, `timestamp ${value} is out of range`);
  return new Date(value * 1000);
};

export function oneOf<T extends string>(values: readonly T[], label: string): Rule<T> {
  const allowed = new Set<string>(values);
  return (value, path, issues) => {
    const checked = text(value, path, issues);
    if (checked === INVALID) return INVALID;
    if (allowed.has(checked)) return checked as T;
    return fail(issues, path, `unknown ${label} "${checked}" (expected one of ${values.join(', ')})`);
  };
}

/**
 * A JSON list of items. With `uniqueBy`, an item whose key repeats an earlier one is
 * an error (`label` names the item in the message), since stored lists are sets.
 */
export function listOf<T>(
  item: Rule<T>,
  uniqueBy?: { key: (item: T) => string | number; label: string },
): Rule<T[]> {
  return (value, path, issues) => {
    if (!Array.isArray(value)) return fail(issues, path, `expected a list, got ${describeValue(value)}`);
    const items: T[] = [];
    const seen = new Set<string | number>();
    let valid = true;
    value.forEach((element: unknown, index) => {
      const itemPath = `${path}[${index}]`;
      const checked = item(element, itemPath, issues);
      if (checked === INVALID) {
        valid = false;
        return;
      }
      if (uniqueBy) {
        const key = uniqueBy.key(checked);
        if (seen.has(key)) {
          valid = false;
          issues.add(itemPath, `duplicate ${uniqueBy.label} ${JSON.stringify(key)}`);
          return;
        }
        seen.add(key);
      }
      items.push(checked);
    });
    return valid ? items : INVALID;
  };
}

/** A list of slugs referring to records of one kind; a slug may appear once. */
export function slugList(label: string): Rule<string[]> {
  return listOf(text, { key: (value) => value, label });
}

/** How one field of a record is read. */
export interface FieldSpec<T, Required extends boolean> {
  readonly rule: Rule<T>;
  readonly required: Required;
  /** What an explicit `null` means; without it, `null` is an error. */
  readonly cleared?: { readonly value: T };
}

/** The field must be present and not null. */
export function required<T>(rule: Rule<T>): FieldSpec<T, true> {
  return { rule, required: true };
}

/** The field may be absent; `null` is an error. */
export function optional<T>(rule: Rule<T>): FieldSpec<T, false> {
  return { rule, required: false };
}

/**
 * The field may be absent, and an explicit `null` clears it to `cleared`: the
 * value a new record gets when the field is omitted (`[]`, `false`, `0`, a default).
 */
export function clearable<T>(rule: Rule<T>, cleared: T): FieldSpec<T, false> {
  return { rule, required: false, cleared: { value: cleared } };
}

/** The field may be absent, and an explicit `null` stores null. */
export function nullable<T>(rule: Rule<T>): FieldSpec<T | null, false> {
  return { rule, required: false, cleared: { value: null } };
}

export type RecordSpec = Readonly<Record<string, FieldSpec<unknown, boolean>>>;
type ValueOf<F> = F extends FieldSpec<infer T, boolean> ? T : never;
type RequiredKeys<S extends RecordSpec> = {
  [K in keyof S]: S[K] extends FieldSpec<unknown, true> ? K : never;
}[keyof S];

/** The checked form of a record: required fields always set, others absent (undefined) when not given. */
export type Parsed<S extends RecordSpec> = { -readonly [K in RequiredKeys<S>]: ValueOf<S[K]> } & {
  -readonly [K in Exclude<keyof S, RequiredKeys<S>>]?: ValueOf<S[K]>;
};

/** Checks an object against `spec`: unknown keys are errors so that typos do not pass silently. */
export function parseObject<S extends RecordSpec>(
  spec: S,
  value: unknown,
  path: string,
  issues: IssueLog,
): Checked<Parsed<S>> {
  if (!isPlainObject(value)) return fail(issues, path, `expected an object, got ${describeValue(value)}`);
  let valid = true;
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(spec, key)) {
      issues.add(`${path}.${key}`, `unknown field "${key}"`);
      valid = false;
    }
  }
  const parsed: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(spec)) {
    const fieldPath = `${path}.${key}`;
    const raw = Object.hasOwn(value, key) ? value[key] : undefined;
    if (raw === undefined) {
      if (!field.required) continue;
      issues.add(fieldPath, 'required field is missing');
      valid = false;
    } else if (raw === null) {
      if (field.cleared) {
        parsed[key] = field.cleared.value;
        continue;
      }
      issues.add(fieldPath, 'must not be null');
      valid = false;
    } else {
      const checked = field.rule(raw, fieldPath, issues);
      if (checked === INVALID) valid = false;
      else parsed[key] = checked;
    }
  }
  // Every key of `spec` was checked against its rule above, which is what Parsed<S> describes.
  return valid ? (parsed as Parsed<S>) : INVALID;
}

/** A rule for nested objects (list items such as `{slug, main}`). */
export function objectOf<S extends RecordSpec>(spec: S): Rule<Parsed<S>> {
  return (value, path, issues) => parseObject(spec, value, path, issues);
}
