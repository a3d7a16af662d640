import type { IncomingMessage, ServerResponse } from 'node:http';
import { asAppError } from '../common/errors/render';
import type { OperationRunner, PreparedOperation } from '../graphql/runner';
import {
  bodyOf,
  contextOf,
  type Handler,
  type Next,
  queryOf,
  readJsonBody,
  sendError,
  sendJsonText,
} from '../http';
import type { Admission } from '../http/admission';
import { cacheHeaders } from '../http/caching';
import { validateRouteInput } from './input-validation';
import type { RestRoute, RouteInput } from './route';
import type { RouteTable } from './route-table';

/** A body that cannot be read is left undefined, for the body schema to report (after authentication). */
const jsonBody = readJsonBody((_req, _res, next) => next());

function defaultVariables({ path, query, body }: RouteInput): Record<string, unknown> {
  return { ...path, ...query, ...(body === undefined ? {} : { input: body }) };
}

async function runRoute(
  route: RestRoute,
  operation: PreparedOperation,
  runner: OperationRunner,
  req: IncomingMessage,
  res: ServerResponse,
  params: Record<string, string>,
): Promise<void> {
  const ctx = contextOf(req);
  ctx.chooseReads(operation.operation.operation, route.auth === 'none');
  try {
    // Step 1 of the check order: authentication comes before any input check.
    if (route.auth === 'required') await ctx.auth.required();
    if (route.auth === 'optional') await ctx.auth.optional();
    const input = validateRouteInput(route, params, queryOf(req), route.body ? bodyOf(req) : undefined);
    const variables = (route.variables ?? defaultVariables)(input);
    const json = await runner.run(operation, variables, ctx);
    // A request answered 408 meanwhile keeps that answer (its mutation rolled back).
    if (!res.headersSent) sendJsonText(req, res, json);
  } catch (error) {
    const appError = asAppError(error, ctx);
    if (!res.headersSent) sendError(res, appError, ctx.language);
  }
}

type RouteHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next: Next,
  params: Record<string, string>,
) => void;

/**
 * One route's handling: cache headers for a GET, the JSON body where it takes one, then
 * its operation, once admitted.
 */
function routeHandler(
  route: RestRoute,
  runner: OperationRunner,
  admission: Admission,
  cacheMaxAgeSeconds: number,
): RouteHandler {
  const operation = runner.prepare(route.document, route.rootField);
  const setCacheHeaders = route.method === 'GET' ? cacheHeaders(route, cacheMaxAgeSeconds) : undefined;
  return (req, res, next, params) => {
    const run = () =>
      admission.run(res, () => runRoute(route, operation, runner, req, res, params)).catch(next);
    setCacheHeaders?.(req, res);
    if (!route.body) return void run();
    // An oversized body is passed on, to the app's error handler (413).
    jsonBody(req, res, (error?: unknown) => (error ? next(error) : void run()));
  };
}

/**
 * The REST router: every route of the table, found by one look-up (literal segments win
 * over parameters); other methods of its paths were answered before (src/http/methods.ts).
 */
export function restRouter(
  table: RouteTable,
  runner: OperationRunner,
  admission: Admission,
  cacheMaxAgeSeconds: number,
): Handler {
  const handlers = new Map(
    table.routes.map((route) => [route, routeHandler(route, runner, admission, cacheMaxAgeSeconds)]),
  );
  return (req, res, next) => {
    const match = table.matchRequest(req);
    if (match?.route) handlers.get(match.route)!(req, res, next, match.params);
    else next();
  };
}
