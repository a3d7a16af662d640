import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import bodyParser from 'body-parser';
import etag from 'etag';
import fresh from 'fresh';
import parseUrl from 'parseurl';
import type { AppError, Language } from './common/errors/app-error';
import { errorBody } from './common/errors/render';
import type { RequestContext } from './context';
import { RETRY_AFTER_SECONDS } from './db/unavailable';

/**
 * The HTTP parts shared by the HTTP layer's steps and doors (src/http/layer.ts), which
 * answer on Node's own request and response, and by express beneath them, whose request
 * and response extend those. They read and write nothing express adds, so one handler
 * serves both.
 */
export type Next = (error?: unknown) => void;
export type Handler = (req: IncomingMessage, res: ServerResponse, next: Next) => unknown;

interface Target {
  pathname: string;
  query: string;
  /** False for a target no URL parser reads: it names nothing. */
  readable: boolean;
}

/**
 * The request target's path and query string, read as express reads them (parseurl), so
 * that the REST door and express agree on every path. An absolute-form target
 * (`GET http://host/x`) must first be a valid URL to the WHATWG parser: one it cannot read
 * (`http://[::1/x`, `http://host:99999/x`, which Node's HTTP parser lets through) is kept
 * whole as its path, so that it names no route, and marked unreadable.
 */
function targetOf(req: IncomingMessage): Target {
  const target = req.url ?? '/';
  try {
    if (target.startsWith('/') || URL.canParse(target)) {
      // parseurl keeps its parse on the request: the several readers of a request share it.
      const url = parseUrl(req);
      return {
        pathname: url?.pathname ?? '/',
        query: typeof url?.query === 'string' ? url.query : '',
        readable: true,
      };
    }
  } catch {
    // Unreadable as well.
  }
  return { pathname: target, query: '', readable: false };
}

/** The request's path, without the query string. */
export function pathOf(req: IncomingMessage): string {
  return targetOf(req).pathname;
}

/**
 * The query parameters, parsed as express's default ("simple") query parser does: into
 * an object without a prototype, so a parameter named `constructor` is only what was sent.
 */
export function queryOf(req: IncomingMessage): Record<string, unknown> {
  return parseQueryString(targetOf(req).query);
}

/** Whether the request target can be read as a URL at all. */
export function hasReadableTarget(req: IncomingMessage): boolean {
  return targetOf(req).readable;
}

/** A request header as one string (repeated headers are joined by Node). */
export function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

const contexts = new WeakMap<IncomingMessage, RequestContext>();

/** Attaches the request's context (src/app.ts does, first thing). */
export function setContext(req: IncomingMessage, context: RequestContext): void {
  contexts.set(req, context);
}

/** The request context that app.ts attached to the request. */
export function contextOf(req: IncomingMessage): RequestContext {
  return contexts.get(req)!;
}

/** The JSON body `readJsonBody` parsed; undefined when there is none or it could not be read. */
export function bodyOf(req: IncomingMessage): unknown {
  return (req as { body?: unknown }).body;
}

/**
 * The JSON body parser: bodies up to 1 MiB, any JSON value. An empty or whitespace-only
 * body is refused (body-parser would read it as `{}`, which means "apply the defaults",
 * semantics §7.3).
 */
const parseJsonBody = bodyParser.json({
  limit: '1mb',
  strict: false,
  verify: (_req, _res, body) => {
    if (body.toString('latin1').trim() === '') throw new Error('Empty body');
  },
});

/**
 * Parses a JSON body (when the Content-Type says JSON) for `/graphql` and the REST
 * routes. An oversized body goes to the app's error handler (413); any other refusal
 * (malformed or empty JSON, an unsupported charset, a broken or unknown content
 * encoding, an aborted upload) names no field and is handed to `refused`.
 */
export function readJsonBody(refused: Handler): Handler {
  return (req, res, next) => {
    parseJsonBody(req, res, (error?: unknown) => {
      if (!error) next();
      else if ((error as { type?: unknown }).type === 'entity.too.large') next(error);
      else refused(req, res, next);
    });
  };
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** A response's cache headers by its status, decided when it is written (src/http/caching.ts). */
const cacheRules = new WeakMap<ServerResponse, (status: number) => void>();

/** Sets the rule that writes `res`'s cache headers once its status is known. */
export function setCacheRule(res: ServerResponse, rule: (status: number) => void): void {
  cacheRules.set(res, rule);
}

/** Writes a body whose Content-Type is set, with its status and length (Node sends no body to a HEAD). */
function sendBody(res: ServerResponse, status: number, body: Buffer | string): void {
  cacheRules.get(res)?.(status);
  res.statusCode = status;
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

function sendJsonBody(res: ServerResponse, status: number, body: Buffer | string): void {
  res.setHeader('Content-Type', JSON_CONTENT_TYPE);
  sendBody(res, status, body);
}

/**
 * Answers `status` with a body already rendered, its Content-Type set. A successful
 * answer to a GET or HEAD carries its weak ETag, and one whose `If-None-Match` matches it
 * is answered 304 without a body (other methods have no conditional form to serve).
 */
export function sendRendered(req: IncomingMessage, res: ServerResponse, status: number, text: string): void {
  const body = Buffer.from(text);
  if ((req.method === 'GET' || req.method === 'HEAD') && status >= 200 && status < 300) {
    const tag = etag(body, { weak: true });
    res.setHeader('ETag', tag);
    if (fresh(req.headers, { etag: tag })) {
      cacheRules.get(res)?.(304);
      res.statusCode = 304;
      res.end();
      return;
    }
  }
  sendBody(res, status, body);
}

/** Answers 200 with JSON already rendered (an operation's result), as {@link sendRendered} does. */
export function sendJsonText(req: IncomingMessage, res: ServerResponse, json: string): void {
  res.setHeader('Content-Type', JSON_CONTENT_TYPE);
  sendRendered(req, res, 200, json);
}

/** Sends `body` as JSON with its status (the health checks, the error bodies). */
export function sendJson(res: ServerResponse, status: number, body: object): void {
  sendJsonBody(res, status, JSON.stringify(body));
}

/** Renders an AppError as the REST error body with its status. */
export function sendError(res: ServerResponse, error: AppError, language: Language): void {
  sendErrorBody(res, error.status, errorBody(error, language));
}

/**
 * Sends an error body with its status. A 503 (the database cannot be reached) says
 * when to try again.
 */
export function sendErrorBody(res: ServerResponse, status: number, body: object): void {
  if (status === 503) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  sendJson(res, status, body);
}

/**
 * Renders an error raised before a request reached its handler (body parsing, rate
 * limits): as a GraphQL response on `/graphql`, with the code and the REST status in
 * `extensions`, else as the REST error body.
 */
export function sendRequestError(req: IncomingMessage, res: ServerResponse, error: AppError): void {
  const language = contexts.get(req)?.language ?? 'en';
  if (pathOf(req) !== '/graphql') {
    sendError(res, error, language);
    return;
  }
  sendErrorBody(res, error.status, {
    errors: [
      {
        message: error.message_in(language),
        extensions: { code: error.code, http: { status: error.status } },
      },
    ],
  });
}
