import type { AuthLevel } from '../common/auth/levels';

import type { JsonSchema, ObjectSpec } from '../common/validation/json-schema';

export type { JsonSchema };

export interface RouteInput {
  path: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown> | undefined;
}

/**
 * One REST path: how its input is checked and which GraphQL operation answers it.
 * The response body is `data[rootField]` of that operation, so REST and GraphQL
 * return identical shapes by construction.
 */
export interface RestRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** With `{name}` parameters, as in the contract. */
  path: string;
  /** What the route does, in a few words (the OpenAPI summary, shown beside the path). */
  summary: string;
  /** What it selects or changes and answers, in a sentence or two (the OpenAPI description). */
  description: string;
  /** The contract's endpoint number, for the 22 contract paths. */
  contract?: number;
  auth: AuthLevel;
  /**
   * Error statuses of the route's own rules that its auth level, path and body do not
   * already imply (e.g. 409 for a taken name); the OpenAPI document lists them.
   */
  errors?: readonly (401 | 403 | 404 | 409)[];
  /** Path parameters, in path order. */
  params: Record<string, JsonSchema>;
  /** Whether the route takes `page` and `size`. */
  paged?: boolean;
  /** Query parameters besides `page` and `size`, in checking order. */
  query?: Record<string, JsonSchema>;
  /** Body fields in the contract's order; present when the route takes a JSON body. */
  body?: ObjectSpec;
  /** A persisted GraphQL document with one operation. */
  document: string;
  rootField: string;
  /** Input → variables; by default path values by name, `page`, `size`, and the body as `input`. */
  variables?: (input: RouteInput) => Record<string, unknown>;
}

/** `{name}` parameters in express's `:name` syntax. */
export const expressPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/** The routes grouped by path, in the table's order. */
export function routesByPath(routes: readonly RestRoute[]): Map<string, RestRoute[]> {
  const byPath = new Map<string, RestRoute[]>();
  for (const route of routes) {
    byPath.set(route.path, [...(byPath.get(route.path) ?? []), route]);
  }
  return byPath;
}
