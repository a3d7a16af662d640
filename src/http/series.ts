import type { Handler } from '../http';

/**
 * The handlers as one, run in order as `app.use` would run them: each `next()` goes
 * on to the following one, an error (passed or thrown or rejected) goes to `next`'s
 * error handling, and after the last `next()` runs. Express's router pays a layer's
 * matching and bookkeeping for every `app.use`, on every request; the REST door has
 * no router at all.
 */
export function series(...handlers: readonly Handler[]): Handler {
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
