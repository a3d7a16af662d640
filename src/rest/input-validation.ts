import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { validationError } from '../common/errors/app-error';
import { PAGE_MAX, SIZE_DEFAULT, SIZE_MAX } from '../common/pagination/pagination';
import type { JsonSchema, RestRoute, RouteInput } from './route';

const ajv = new Ajv({ strict: true, allErrors: false, coerceTypes: false, useDefaults: false });
addFormats(ajv);

const compiled = new WeakMap<JsonSchema, ValidateFunction>();

function validatorOf(schema: JsonSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/** `page`/`size` accept only `^[1-9][0-9]*$`, given once, within bounds (semantics §7.6). */
function pageParameter(raw: unknown, name: 'page' | 'size', fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^[1-9][0-9]*$/.test(raw) || Number(raw) > max) {
    throw validationError('query', name);
  }
  return Number(raw);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks a request against its route: path, then query, then body, each in
 * declared order, reporting only the first violation (semantics §1.1.1).
 * `body` is undefined when it was missing, malformed or not JSON.
 */
export function validateRouteInput(
  route: RestRoute,
  params: Record<string, string>,
  query: Record<string, unknown>,
  body: unknown,
): RouteInput {
  const path: Record<string, string> = {};
  for (const [name, schema] of Object.entries(route.params)) {
    if (!validatorOf(schema)(params[name])) throw validationError('path', name);
    path[name] = params[name];
  }

  const checkedQuery: Record<string, unknown> = {};
  if (route.paged) {
    checkedQuery.page = pageParameter(query.page, 'page', 1, PAGE_MAX);
    checkedQuery.size = pageParameter(query.size, 'size', SIZE_DEFAULT, SIZE_MAX);
  }
  for (const [name, schema] of Object.entries(route.query ?? {})) {
    if (query[name] === undefined) continue;
    if (!validatorOf(schema)(query[name])) throw validationError('query', name);
    checkedQuery[name] = query[name];
  }

  if (!route.body) return { path, query: checkedQuery, body: undefined };
  if (!isPlainObject(body)) throw validationError('body');
  const { properties, required = [] } = route.body;
  for (const [name, schema] of Object.entries(properties)) {
    if (!(name in body)) {
      if (required.includes(name)) throw validationError('body', name);
      continue;
    }
    if (!validatorOf(schema)(body[name])) throw validationError('body', name);
  }
  const unknown = Object.keys(body).find((key) => !(key in properties));
  if (unknown !== undefined) throw validationError('body', unknown);
  return { path, query: checkedQuery, body };
}
