import type { IncomingMessage, ServerResponse } from 'node:http';
import vary from 'vary';
import { contextOf } from '../http';
import type { RestRoute } from '../rest/route';

type WriteHead = ServerResponse['writeHead'];

/** Runs `decide` once, just before the status line and headers are written. */
function beforeHeaders(res: ServerResponse, decide: (status: number) => void): void {
  const original = res.writeHead as (...args: unknown[]) => ServerResponse;
  let done = false;
  res.writeHead = function writeHead(this: ServerResponse, ...args: unknown[]) {
    if (!done) {
      done = true;
      decide(typeof args[0] === 'number' ? args[0] : this.statusCode);
    }
    return original.apply(this, args);
  } as WriteHead;
}

/**
 * Cache headers of one REST GET route, set before it runs. A successful answer to an anonymous caller
 * (no raw `auth` header or cookie; the token is never resolved here, semantics §7.20)
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
    beforeHeaders(res, (status) => {
      vary(res, 'auth');
      vary(res, 'Cookie');
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
