import { type RequestHandler, Router } from 'express';
import { AppError } from '../common/errors/app-error';
import { sendRequestError } from '../http';
import { expressPath, type RestRoute, routesByPath } from '../rest/route';

/** The methods of `/graphql`: GET (the playground and GET queries, so HEAD too) and POST. */
const GRAPHQL_METHODS = ['GET', 'HEAD', 'POST'];

/** The `Allow` header of a path served by `methods`: HEAD wherever GET is (semantics §7.8). */
export function allowHeader(methods: readonly string[]): string {
  return [...new Set(methods.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method])))].join(
    ', ',
  );
}

/** 405 `system:method_not_allowed` with `Allow`, for a known path and a method it does not serve. */
export function methodNotAllowed(methods: readonly string[]): RequestHandler {
  const allow = allowHeader(methods);
  return (req, res) => {
    res.setHeader('Allow', allow);
    sendRequestError(req, res, new AppError('system:method_not_allowed'));
  };
}

/** `/graphql` with any method but GET, HEAD and POST: 405 (Apollo itself would fail without a body). */
export const graphqlMethods: RequestHandler = (req, res, next) => {
  if (GRAPHQL_METHODS.includes(req.method)) next();
  else methodNotAllowed(GRAPHQL_METHODS)(req, res, next);
};

/**
 * OPTIONS on a known path that is not a CORS preflight the configuration allows (those
 * are answered before): 405 with the full `Allow`, instead of express's automatic
 * answer, which lists only the methods of the first router that matched.
 */
export function optionsRouter(routes: readonly RestRoute[]): RequestHandler {
  const router = Router({ strict: true, caseSensitive: true });
  router.options('/graphql', methodNotAllowed(GRAPHQL_METHODS));
  for (const [path, pathRoutes] of routesByPath(routes)) {
    router.options(expressPath(path), methodNotAllowed(pathRoutes.map((route) => route.method)));
  }
  // Anything else is an unknown path.
  router.options('/{*path}', (req, res) => sendRequestError(req, res, new AppError('system:not_found')));
  // Other methods skip the path matching altogether.
  return (req, res, next) => (req.method === 'OPTIONS' ? router(req, res, next) : next());
}

/**
 * Whether the path's %-encoding is broken (`%zz`, a lone `%`, `%FF`): such a path names
 * no resource. Express would fail to decode it as a route parameter (a 500).
 */
export function hasBrokenEncoding(path: string): boolean {
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

/** 404 `system:not_found` for a path with broken %-encoding, before any router decodes its parameters. */
export const rejectBrokenEncoding: RequestHandler = (req, res, next) => {
  if (hasBrokenEncoding(req.path)) sendRequestError(req, res, new AppError('system:not_found'));
  else next();
};
