import type { IncomingMessage } from 'node:http';
import FindMyWay from 'find-my-way';
import { pathOf } from '../http';
import { allowHeader } from '../http/methods';
import { expressPath, type RestRoute, routesByPath } from './route';

/** What a method and path name in the REST table. */
export type RouteMatch =
  | { route: RestRoute; params: Record<string, string> }
  /** A known path, but not with this method: 405 with this `Allow`. */
  | { route?: undefined; allow: string };

/** One path of the table: its routes by method (HEAD answered as GET) and its `Allow`. */
interface PathEntry {
  byMethod: Map<string, RestRoute>;
  allow: string;
}

/**
 * The REST paths in a radix tree (find-my-way), looked up once per request by every
 * part that needs to know a request's route (the methods step, rate limits, the REST
 * router),
 * instead of walking a list of express routes. The path decides first, then the
 * method, as with express routes mounted path by path: case-sensitive, strict about a
 * trailing slash, literal segments before parameters, parameters percent-decoded and
 * never empty.
 */
export class RouteTable {
  private readonly tree = FindMyWay({
    caseSensitive: true,
    ignoreTrailingSlash: false,
    // No length of its own: a too-long parameter is the path schema's to refuse.
    maxParamLength: Number.POSITIVE_INFINITY,
  });

  /** Each request's match (null: an unknown path), looked up once. */
  private readonly matches = new WeakMap<IncomingMessage, RouteMatch | null>();

  constructor(readonly routes: readonly RestRoute[]) {
    for (const [path, pathRoutes] of routesByPath(routes)) {
      const entry: PathEntry = {
        byMethod: new Map(pathRoutes.map((route) => [route.method, route])),
        allow: allowHeader(pathRoutes.map((route) => route.method)),
      };
      const get = entry.byMethod.get('GET');
      if (get) entry.byMethod.set('HEAD', get);
      // The tree is asked for paths only, all under one method.
      this.tree.on('GET', expressPath(path), () => undefined, entry);
    }
  }

  /**
   * The route of a request (its method and path), or undefined for an unknown path:
   * looked up once per request and kept, so that every part that asks (the methods step,
   * rate limits, the REST router) shares it.
   */
  matchRequest(req: IncomingMessage): RouteMatch | undefined {
    let match = this.matches.get(req);
    if (match === undefined) {
      match = this.match(req.method ?? 'GET', pathOf(req)) ?? null;
      this.matches.set(req, match);
    }
    return match ?? undefined;
  }

  /** The route of a method and a path (without the query string), or undefined for an unknown path. */
  match(method: string, path: string): RouteMatch | undefined {
    const found = this.tree.find('GET', path);
    // An empty segment names no parameter (`/manga/` is no manga), as in express.
    if (!found || Object.values(found.params).includes('')) return undefined;
    const { byMethod, allow } = found.store as PathEntry;
    const route = byMethod.get(method);
    return route ? { route, params: found.params as Record<string, string> } : { allow };
  }
}
