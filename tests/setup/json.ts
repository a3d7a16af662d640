/** Small helpers for reading JSON response bodies in tests. */

export type Json = Record<string, unknown>;

/** A timestamp as the contract serves it: whole seconds since the epoch, truncated. */
export const seconds = (at: string | Date): number => Math.trunc(new Date(at).getTime() / 1000);

/** Asserts that `value` is an object and returns it as one. */
export const asObject = (value: unknown): Json => {
  expect(value).toEqual(expect.any(Object));
  return value as Json;
};

/** Asserts that `value` is an array and returns it as a list of objects. */
export const asList = (value: unknown): Json[] => {
  expect(Array.isArray(value)).toBe(true);
  return value as Json[];
};

/** The keys of a body, sorted: compare with `keysOf` of a contract shape. */
export const sortedKeys = (value: object): string[] => Object.keys(value).sort();
