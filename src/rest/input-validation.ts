import { validationError } from '../common/errors/app-error';
import { PAGE_MAX, SIZE_DEFAULT, SIZE_MAX } from '../common/pagination/pagination';
import { checkObject, isSafeJson, matchesSchema } from '../common/validation/json-schema';
import type { RestRoute, RouteInput } from './route';

/** `page`/`size` accept only `^[1-9][0-9]*$`, given once, within bounds (semantics §7.6). */
function pageParameter(raw: unknown, name: 'page' | 'size', fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^[1-9][0-9]*$/.test(raw) || Number(raw) > max) {
    throw validationError('query', name);
  }
  return Number(raw);
}

/**
 * Checks a request against its route: path, then query, then body, each in
 * declared order, reporting only the first violation (semantics §1.1.1).
 * `body` is undefined when it was missing, empty, malformed or not JSON. The body is
 * returned as read (see `checkObject`).
 */
export function validateRouteInput(
  route: RestRoute,
  params: Record<string, string>,
  query: Record<string, unknown>,
  body: unknown,
): RouteInput {
  const path: Record<string, string> = {};
  for (const [name, schema] of Object.entries(route.params)) {
    if (!isSafeJson(params[name]) || !matchesSchema(schema, params[name]))
      throw validationError('path', name);
    path[name] = params[name];
  }

  const checkedQuery: Record<string, unknown> = {};
  if (route.paged) {
    checkedQuery.page = pageParameter(query.page, 'page', 1, PAGE_MAX);
    checkedQuery.size = pageParameter(query.size, 'size', SIZE_DEFAULT, SIZE_MAX);
  }
  for (const [name, schema] of Object.entries(route.query ?? {})) {
    if (query[name] === undefined) continue;
    if (!isSafeJson(query[name]) || !matchesSchema(schema, query[name])) throw validationError('query', name);
    checkedQuery[name] = query[name];
  }

  if (!route.body) return { path, query: checkedQuery, body: undefined };
  const checked = checkObject(route.body, body);
  if ('violation' in checked) throw validationError('body', checked.violation.name);
  return { path, query: checkedQuery, body: checked.value };
}
