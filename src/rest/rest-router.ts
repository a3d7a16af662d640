import type { ApolloServer } from '@apollo/server';
import { type Request, type RequestHandler, type Response, Router } from 'express';
import { asAppError } from '../common/errors/render';
import type { RequestContext } from '../context';
import { contextOf, readJsonBody, sendError, sendErrorBody } from '../http';
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
  apollo: ApolloServer<RequestContext>,
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
    const response = await apollo.executeOperation(
      { query: route.document, variables },
      { contextValue: ctx },
    );
    if (response.body.kind !== 'single') throw new Error('Incremental delivery is not used by REST routes');
    const { data, errors } = response.body.singleResult;
    const [first] = errors ?? [];
    if (first) {
      const http = first.extensions?.http as { status?: number } | undefined;
      sendErrorBody(res, http?.status ?? 500, { message: first.message, code: first.extensions?.code });
      return;
    }
    res.status(200).json(data?.[route.rootField] ?? null);
  } catch (error) {
    sendError(res, asAppError(error), ctx.language);
  }
}

/**
 * Mounts every route of the table in mounting order (literal segments win); a known
 * path with another method answers 405 with `Allow`.
 */
export function restRouter(routes: readonly RestRoute[], apollo: ApolloServer<RequestContext>): Router {
  const router = Router({ strict: true, caseSensitive: true });
  for (const [path, pathRoutes] of routesByPath(routes)) {
    for (const route of pathRoutes) {
      const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
      const handlers: RequestHandler[] = route.body ? [jsonBody] : [];
      router[method](expressPath(path), ...handlers, (req, res) => runRoute(route, apollo, req, res));
    }
    router.all(expressPath(path), methodNotAllowed(pathRoutes.map((route) => route.method)));
  }
  return router;
}
