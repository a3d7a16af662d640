import type { Response } from 'express';
import { contextOf } from '../http';
import type { RestRoute } from '../rest/route';

type WriteHead = Response['writeHead'];

/** Runs `decide` once, just before the status line and headers are written. */
function beforeHeaders(res: Response, decide: (status: number) => void): void {
  const original = res.writeHead as (...args: unknown[]) => Response;
  let done = false;
  res.writeHead = function writeHead(this: Response, ...args: unknown[]) {
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
 * Express adds the weak ETag of `res.json` bodies and answers a matching
 * `If-None-Match` with 304 (only for GET/HEAD with a 2xx status).
 */
export function cacheHeaders(route: RestRoute, maxAgeSeconds: number): (res: Response) => void {
  const publicValue = `public, max-age=${maxAgeSeconds}`;
  return (res) => {
    const anonymous = !contextOf(res).auth.rawToken;
    beforeHeaders(res, (status) => {
      res.vary('auth');
      res.vary('Cookie');
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
