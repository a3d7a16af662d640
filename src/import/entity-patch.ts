/**
 * Compare-then-assign for upserts: a stored row is touched only when a value really
 * differs, so that re-importing a file reports "unchanged" and leaves `updated` alone.
 */

/** Value equality for column values: dates by time, lists and JSON objects by content. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, i) => sameValue(item, b[i]))
    );
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => Object.hasOwn(b, key) && sameValue(a[key], b[key]))
    );
  }
  return Object.is(a, b);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Sets every given (not undefined) field of `patch` that differs; true when something changed. */
export function assignChanged<E extends object>(entity: E, patch: Partial<E>): boolean {
  let changed = false;
  for (const key of Object.keys(patch) as (keyof E)[]) {
    const value = patch[key];
    if (value === undefined || sameValue(entity[key], value)) continue;
    entity[key] = value;
    changed = true;
  }
  return changed;
}
