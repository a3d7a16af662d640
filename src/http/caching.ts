import type { IncomingMessage, ServerResponse } from 'node:http';
import vary from 'vary';
import { contextOf, setCacheRule } from '../http';
import type { RestRoute } from '../rest/route';

/**
 * Cache headers of one REST GET route, set as its answer is written. A successful
 * answer to an anonymous caller (no raw `auth` header or cookie; the token is never
 * resolved here, semantics §7.20)
 * on a route with authentication `none` or `optional` is `public, max-age=N`; with a
 * token present it is `private, no-store`; errors are `no-store` without an ETag.
 * A successful answer carries its weak ETag, and a matching `If-None-Match` is
 * answered 304 (`sendJsonText`).
 */
export function cacheHeaders(
  route: RestRoute,
  maxAgeSeconds: number,
): (req: IncomingMessage, res: ServerResponse) => void {
  const publicValue = `public, max-age=${maxAgeSeconds}`;
  return (req, res) => {
    const anonymous = !contextOf(req).auth.rawToken;
    vary(res, 'auth');
    vary(res, 'Cookie');
    // Every answer of the route is written by the JSON writers of src/http.ts, which apply the rule.
    setCacheRule(res, (status) => {
      const ok = (status >= 200 && status < 300) || status === 304;
      if (!ok) {
        res.removeHeader('ETag');
        res.setHeader('Cache-Control', 'no-store');
      } else if (anonymous && route.auth !== 'required') {
        res.setHeader('Cache-Control', publicValue);
      } else {
        res.setHeader('Cache-Control', 'private, no-store');
      }
    });
  };
}
