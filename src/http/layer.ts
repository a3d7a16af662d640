import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import compression from 'compression';
import vary from 'vary';
import { AppError } from '../common/errors/app-error';
import { asAppError } from '../common/errors/render';
import { contextOf, type Handler, sendRequestError } from '../http';
import { rejectUnreadableTarget } from './methods';
import { series } from './series';

export interface HttpLayerSteps {
  /** The request's context and log line, CORS, the time limit. */
  opening: Handler;
  /** Answered before the rate limit (the health checks). */
  unlimited: Handler;
  rateLimit: Handler;
  /** 405 with `Allow` and OPTIONS, for every path. */
  methods: Handler;
  /** Answers compressed when the client asks; undefined when compression is off. */
  compression?: Handler;
  /** The REST router, which passes on the paths it does not serve. */
  rest: Handler;
  /** `/graphql` over HTTP (Apollo Server); passes the playground's page requests on. */
  graphql: Handler;
  /** Everything else (the playground, the docs); passes on what it does not serve. */
  others: Handler;
}

/**
 * The one HTTP layer: every request, whatever its path, runs each cross-cutting step
 * once, in this order, then the door that serves its path; a path no door serves gets
 * the one 404 writer, and an error any step passes on gets the one error writer.
 */
export function httpLayer(steps: HttpLayerSteps): RequestListener {
  const pipeline = series(
    steps.opening,
    steps.unlimited,
    steps.rateLimit,
    steps.methods,
    ...(steps.compression ? [steps.compression] : []),
    steps.rest,
    steps.graphql,
    rejectUnreadableTarget,
    steps.others,
  );
  return (req, res) =>
    pipeline(req, res, (error) =>
      error === undefined
        ? sendRequestError(req, res, new AppError('system:not_found'))
        : answerError(error, req, res),
    );
}

/**
 * Answers compressed (`br` or `gzip`, by `Accept-Encoding`) from `minBytes` of body on.
 * A request that accepts neither skips the compression middleware, which costs the
 * fastest reads about a tenth of their throughput even when it compresses nothing.
 */
export function compressAnswers(minBytes: number): Handler {
  const compress = compression({ threshold: minBytes }) as Handler;
  return (req, res, next) => {
    // Every answer varies by it, compressed or not (set first: the same header order either way).
    vary(res, 'Accept-Encoding');
    const accepted = req.headers['accept-encoding'];
    if (accepted && (accepted.includes('br') || accepted.includes('gzip'))) return compress(req, res, next);
    next();
  };
}

/**
 * The error writer: an oversized body (413) and any other error a step passed on. An
 * answer already given stays: an error met after a complete answer (a 408, say) is not
 * reported again; one cut short mid-answer is logged and closed.
 */
function answerError(error: unknown, req: IncomingMessage, res: ServerResponse): void {
  if (res.headersSent) {
    if (res.writableEnded) return;
    contextOf(req).log.error({ err: error }, 'failed while answering; connection closed');
    res.destroy();
    return;
  }
  if ((error as { type?: unknown }).type === 'entity.too.large')
    sendRequestError(req, res, new AppError('system:payload_too_large'));
  else sendRequestError(req, res, asAppError(error, contextOf(req)));
}
