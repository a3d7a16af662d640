import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { pathOf } from '../http';

const REQUEST_ID = /^[\w.:-]{1,128}$/;
/** Probes, polled all day long: never logged. */
const UNLOGGED = new Set(['/healthz', '/readyz']);

/**
 * The request's id (a well-formed `X-Request-Id` it brings, else a new UUID, echoed in
 * the response) and its logger, which binds the id and writes one line when the
 * response ends: method, URL, status and time, at info; a 5xx at error with the status
 * as `err` (its cause is logged where it is caught, once, with its stack if unexpected).
 * Nothing else is read or serialized per request, so a level above info costs nothing.
 */
export function startRequestLog(
  req: IncomingMessage,
  res: ServerResponse,
  log: Logger,
): { id: string; log: Logger } {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  const requestLog = log.child({ reqId: id });
  if (log.isLevelEnabled('info') && !UNLOGGED.has(pathOf(req))) {
    const started = Date.now();
    // As the client sent them (a router mounted at a path would rewrite `req.url`).
    const { method, url } = req;
    const ended = () => {
      res.removeListener('finish', ended);
      res.removeListener('close', ended);
      const { statusCode } = res;
      const line = { req: { method, url }, res: { statusCode }, responseTime: Date.now() - started };
      if (statusCode >= 500)
        requestLog.error({ ...line, err: `failed with status code ${statusCode}` }, 'request errored');
      else requestLog.info(line, 'request completed');
    };
    res.on('finish', ended);
    res.on('close', ended);
  }
  return { id, log: requestLog };
}
