import express, { type Request, type RequestHandler, type Response } from 'express';
import type { AppError, Language } from './common/errors/app-error';
import { errorBody } from './common/errors/render';
import type { RequestContext } from './context';
import { RETRY_AFTER_SECONDS } from './db/unavailable';

/**
 * The JSON body parser: bodies up to 1 MiB, any JSON value. An empty or whitespace-only
 * body is refused (body-parser would read it as `{}`, which means "apply the defaults",
 * semantics §7.3).
 */
const parseJsonBody = express.json({
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
export function readJsonBody(refused: RequestHandler): RequestHandler {
  return (req, res, next) => {
    parseJsonBody(req, res, (error?: unknown) => {
      if (!error) next();
      else if ((error as { type?: unknown }).type === 'entity.too.large') next(error);
      else refused(req, res, next);
    });
  };
}

/** The request context that app.ts attaches to every response's locals. */
export function contextOf(res: Response): RequestContext {
  return res.locals.context as RequestContext;
}

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Answers 200 with JSON already rendered (an operation's result), as `res.json` would:
 * express still adds the ETag and answers a matching `If-None-Match` with 304. Given
 * bytes with their type set, it neither looks the type up nor re-parses it to add the
 * charset, as it does for a string (work saved on every REST answer, though too small
 * to show in the benchmarks on the development machine).
 */
export function sendJsonText(res: Response, json: string): void {
  res.statusCode = 200;
  res.setHeader('Content-Type', JSON_CONTENT_TYPE);
  res.send(Buffer.from(json));
}

/** Renders an AppError as the REST error body with its status. */
export function sendError(res: Response, error: AppError, language: Language): void {
  sendErrorBody(res, error.status, errorBody(error, language));
}

/**
 * Sends an error body with its status. A 503 (the database cannot be reached) says
 * when to try again.
 */
export function sendErrorBody(res: Response, status: number, body: object): void {
  if (status === 503) res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
  res.status(status).json(body);
}

/**
 * Renders an error raised before a request reached its handler (body parsing, rate
 * limits): as a GraphQL response on `/graphql`, with the code and the REST status in
 * `extensions`, else as the REST error body.
 */
export function sendRequestError(req: Request, res: Response, error: AppError): void {
  const language = contextOf(res)?.language ?? 'en';
  if (req.path !== '/graphql') {
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
