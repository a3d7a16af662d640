import type { RequestHandler } from 'express';

/**
 * The handlers as one middleware, run in order as `app.use` would run them: each
 * `next()` goes on to the following one, an error (passed or thrown or rejected)
 * goes to the app's error handling, and after the last the app's next layer runs.
 * Express's router pays a layer's matching and bookkeeping for every `app.use`, on
 * every request; every request passes these, so they are one layer.
 */
export function series(...handlers: readonly RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error) return next(error);
      const handler = handlers[index];
      index += 1;
      if (!handler) return next();
      try {
        const result: unknown = handler(req, res, step);
        if (result instanceof Promise) result.catch(next);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}
