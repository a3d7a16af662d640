import { validateSync } from 'class-validator';
import { ArgumentError } from '../errors/app-error';
import { PageArgs } from '../pagination/pagination';
import { inputSpecOf } from './input-specs';
import { checkObject, isSafeJson } from './json-schema';

/**
 * Checks GraphQL arguments: type-graphql's `validateFn`, and what a compiled read checks
 * before it runs (src/graphql/sql-plan). An input object with a registered request
 * schema is checked and read by that schema (the REST body's own: both doors report the
 * same first violation, HTTP 400) and the instance takes the values as read (decimal
 * strings of integer fields become numbers, nulls of `?` fields are left out). Page
 * arguments belong to the REST query, every other input object to the body (semantics
 * §1.1.1). Scalar arguments only need to be storable text (no U+0000).
 */
export function validateArguments(
  value: unknown,
  type: unknown,
  { args }: { args: Record<string, unknown> },
): void {
  if (typeof value !== 'object' || value === null) {
    if (!isSafeJson(value)) throw new ArgumentError('path', argumentName(args, value));
    return;
  }
  const spec = inputSpecOf(type);
  if (spec) {
    const checked = checkObject(spec, { ...value });
    if ('violation' in checked) throw new ArgumentError('body', checked.violation.name);
    const instance = value as Record<string, unknown>;
    for (const key of Object.keys(instance)) if (!Object.hasOwn(checked.value, key)) delete instance[key];
    Object.assign(instance, checked.value);
    return;
  }
  if (!isSafeJson(value)) throw new ArgumentError('body', argumentName(args, value));
  // Synchronous, so that arguments are checked in declaration order: page and size
  // (the REST query) before the input (the body), as REST does.
  const [first] = validateSync(value, { forbidUnknownValues: false });
  if (first) throw new ArgumentError(type === PageArgs ? 'query' : 'body', first.property);
}

/** The name of the argument holding `value` (type-graphql hands the validator values, not names). */
function argumentName(args: Record<string, unknown>, value: unknown): string | undefined {
  return Object.keys(args).find((name) => args[name] === value);
}
