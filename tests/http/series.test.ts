import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import request from 'supertest';
import { series } from '../../src/http/series';

/** An app with `handlers` as one series, then a last layer and an error handler that report what ran. */
function appWith(...handlers: RequestHandler[]) {
  const app = express();
  app.use((_req, res, next) => {
    res.locals.ran = [];
    next();
  });
  app.use(series(...handlers));
  app.use((_req, res) => {
    res.json({ ran: res.locals.ran, reached: 'next layer' });
  });
  const onError: ErrorRequestHandler = (error: Error, _req, res, _next) => {
    res.status(500).json({ ran: res.locals.ran, error: error.message });
  };
  app.use(onError);
  return app;
}

const step =
  (name: string): RequestHandler =>
  (_req, res, next) => {
    (res.locals.ran as string[]).push(name);
    next();
  };

describe('series', () => {
  it('runs the handlers in order, then the next layer', async () => {
    const res = await request(appWith(step('a'), step('b'), step('c'))).get('/');
    expect(res.body).toEqual({ ran: ['a', 'b', 'c'], reached: 'next layer' });
  });

  it('stops where a handler answers', async () => {
    const answer: RequestHandler = (_req, res) => {
      res.status(204).end();
    };
    const res = await request(appWith(step('a'), answer, step('never'))).get('/');
    expect(res.status).toBe(204);
  });

  it.each<[string, RequestHandler]>([
    ['passed to next', (_req, _res, next) => next(new Error('passed'))],
    [
      'thrown',
      () => {
        throw new Error('thrown');
      },
    ],
    ['rejected', async () => Promise.reject(new Error('rejected'))],
  ])('sends an error %s to the error handler, skipping the rest', async (_how, failing) => {
    const res = await request(appWith(step('a'), failing, step('never'))).get('/');
    expect(res.status).toBe(500);
    expect(res.body.ran).toEqual(['a']);
    expect(res.body.error).toMatch(/passed|thrown|rejected/);
  });

  it('goes on after an asynchronous next', async () => {
    const later: RequestHandler = async (_req, res, next) => {
      await new Promise((done) => setImmediate(done));
      (res.locals.ran as string[]).push('later');
      next();
    };
    const res = await request(appWith(later, step('b'))).get('/');
    expect(res.body).toEqual({ ran: ['later', 'b'], reached: 'next layer' });
  });

  it('with no handlers, goes straight to the next layer', async () => {
    const res = await request(appWith()).get('/');
    expect(res.body).toEqual({ ran: [], reached: 'next layer' });
  });
});
