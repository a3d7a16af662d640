import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../common/errors/app-error';
import { type Handler, pathOf, sendRequestError } from '../http';

/** The methods of `/graphql`: GET (the playground and GET queries, so HEAD too) and POST. */
const GRAPHQL_METHODS = ['GET', 'HEAD', 'POST'];

/** The `Allow` header of a path served by `methods`: HEAD wherever GET is (semantics §7.8). */
export function allowHeader(methods: readonly string[]): string {
  return [...new Set(methods.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method])))].join(
    ', ',
  );
}

/** 405 `system:method_not_allowed` with `Allow`, for a known path and a method it does not serve. */
export function refuseMethod(req: IncomingMessage, res: ServerResponse, allow: string): void {
  res.setHeader('Allow', allow);
  sendRequestError(req, res, new AppError('system:method_not_allowed'));
}

const GRAPHQL_ALLOW = allowHeader(GRAPHQL_METHODS);

/** `/graphql` with any method but GET, HEAD and POST: 405 (Apollo itself would fail without a body). */
export const graphqlMethods: Handler = (req, res, next) => {
  if (GRAPHQL_METHODS.includes(req.method ?? '')) next();
  else refuseMethod(req, res, GRAPHQL_ALLOW);
};

/**
 * OPTIONS outside the REST paths (the REST door answers those 405 with their `Allow`),
 * when it is not a CORS preflight the configuration allows (answered before): 405 on
 * `/graphql`, else 404.
 */
export const optionsHandler: Handler = (req, res, next) => {
  if (req.method !== 'OPTIONS') return next();
  if (pathOf(req) === '/graphql') refuseMethod(req, res, GRAPHQL_ALLOW);
  else sendRequestError(req, res, new AppError('system:not_found'));
};

/**
 * Whether the path's %-encoding is broken (`%zz`, a lone `%`, `%FF`): such a path names
 * no resource. Express would fail to decode it as a route parameter (a 500).
 */
function hasBrokenEncoding(path: string): boolean {
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

/** 404 `system:not_found` for a path with broken %-encoding, before any router decodes its parameters. */
export const rejectBrokenEncoding: Handler = (req, res, next) => {
  if (hasBrokenEncoding(pathOf(req))) sendRequestError(req, res, new AppError('system:not_found'));
  else next();
};
