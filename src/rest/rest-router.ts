import { type Request, type RequestHandler, type Response, Router } from 'express';
import { asAppError } from '../common/errors/render';
import type { OperationRunner, PreparedOperation } from '../graphql/runner';
import { contextOf, readJsonBody, sendError } from '../http';
import { cacheHeaders } from '../http/caching';
import { methodNotAllowed } from '../http/methods';
import { validateRouteInput } from './input-validation';
import { expressPath, type RestRoute, type RouteInput, routesByPath } from './route';

/** A body that cannot be read is left undefined, for the body schema to report (after authentication). */
const jsonBody = readJsonBody((req, _res, next) => {
  req.body = undefined;
  next();
});

function defaultVariables({ path, query, body }: RouteInput): Record<string, unknown> {
  return { ...path, ...query, ...(body === undefined ? {} : { input: body }) };
}

async function runRoute(
  route: RestRoute,
  operation: PreparedOperation,
  runner: OperationRunner,
  req: Request,
  res: Response,
): Promise<void> {
  const ctx = contextOf(res);
  try {
    // Step 1 of the check order: authentication comes before any input check.
    if (route.auth === 'required') await ctx.auth.required();
    if (route.auth === 'optional') await ctx.auth.optional();
    const input = validateRouteInput(
      route,
      req.params as Record<string, string>,
      req.query as Record<string, unknown>,
      route.body ? req.body : undefined,
    );
    const variables = (route.variables ?? defaultVariables)(input);
    const json = await runner.run(operation, variables, ctx);
    res.status(200).type('json').send(json);
  } catch (error) {
    sendError(res, asAppError(error), ctx.language);
  }
}

/**
 * Mounts every route of the table in mounting order (literal segments win); a known
 * path with another method answers 405 with `Allow`.
 */
export function restRouter(
  routes: readonly RestRoute[],
  runner: OperationRunner,
  cacheMaxAgeSeconds: number,
): Router {
  const router = Router({ strict: true, caseSensitive: true });
  for (const [path, pathRoutes] of routesByPath(routes)) {
    for (const route of pathRoutes) {
      const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
      const handlers: RequestHandler[] = [
        ...(route.method === 'GET' ? [cacheHeaders(route, cacheMaxAgeSeconds)] : []),
        ...(route.body ? [jsonBody] : []),
      ];
      const operation = runner.prepare(route.document, route.rootField);
      router[method](expressPath(path), ...handlers, (req, res) =>
        runRoute(route, operation, runner, req, res),
      );
    }
    router.all(expressPath(path), methodNotAllowed(pathRoutes.map((route) => route.method)));
  }
  return router;
}
