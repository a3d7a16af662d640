import { ArgumentError } from '../errors/app-error';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is an 8-4-4-4-12 hex UUID, in any case (semantics §7.7). */
export const isUuid = (value: string): boolean => UUID.test(value);

/**
 * A UUID path parameter given to a GraphQL field: REST checks it with the route's
 * schema before the operation runs; GraphQL callers get the same 400 naming the
 * parameter. References are stored lower case.
 */
export function pathReference(value: string, name: string): string {
  if (!isUuid(value)) throw new ArgumentError('path', name);
  return value.toLowerCase();
}
