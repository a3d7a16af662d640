import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../common/errors/app-error';
import { type Handler, hasReadableTarget, pathOf, sendRequestError } from '../http';

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

/**
 * The methods of every path, answered once for all of them: a REST path (from the route
 * table) or `/graphql` with a method it does not serve answers 405 with `Allow`, OPTIONS
 * included when CORS did not answer it as a preflight; OPTIONS elsewhere is 404.
 */
export function methodsHandler(table: {
  matchRequest(req: IncomingMessage): { params: unknown } | { allow: string } | undefined;
}): Handler {
  return (req, res, next) => {
    const match = table.matchRequest(req);
    if (match) return 'allow' in match ? refuseMethod(req, res, match.allow) : next();
    if (pathOf(req) === '/graphql')
      return GRAPHQL_METHODS.includes(req.method ?? '') ? next() : refuseMethod(req, res, GRAPHQL_ALLOW);
    if (req.method === 'OPTIONS') sendRequestError(req, res, new AppError('system:not_found'));
    else next();
  };
}

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

/**
 * 404 `system:not_found` for a target that names nothing: no readable URL (an
 * absolute-form target such as `GET http://[::1/x`, which Node's HTTP parser lets
 * through and express would answer with its own HTML page), or a path with broken
 * %-encoding, before express's router would decode its parameters (the REST router matches
 * such a path to no route).
 */
export const rejectUnreadableTarget: Handler = (req, res, next) => {
  if (!hasReadableTarget(req) || hasBrokenEncoding(pathOf(req)))
    sendRequestError(req, res, new AppError('system:not_found'));
  else next();
};
