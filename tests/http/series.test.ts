import type { RequestListener } from 'node:http';
import request from 'supertest';
import { type Handler, sendJson } from '../../src/http';
import { series } from '../../src/http/series';

/** What the handlers of the running test did, in order. */
const ran: string[] = [];
beforeEach(() => {
  ran.length = 0;
});

/** A plain Node listener running `handlers` as one series, then reporting how it ended. */
function listenerWith(...handlers: Handler[]): RequestListener {
  const run = series(...handlers);
  return (req, res) =>
    run(req, res, (error?: unknown) => {
      if (error) sendJson(res, 500, { ran, error: (error as Error).message });
      else sendJson(res, 200, { ran, reached: 'next' });
    });
}

const step =
  (name: string): Handler =>
  (_req, _res, next) => {
    ran.push(name);
    next();
  };

describe('series', () => {
  it('runs the handlers in order, then next', async () => {
    const res = await request(listenerWith(step('a'), step('b'), step('c'))).get('/');
    expect(res.body).toEqual({ ran: ['a', 'b', 'c'], reached: 'next' });
  });

  it('stops where a handler answers', async () => {
    const answer: Handler = (_req, res) => {
      res.statusCode = 204;
      res.end();
    };
    const res = await request(listenerWith(step('a'), answer, step('never'))).get('/');
    expect(res.status).toBe(204);
    expect(ran).toEqual(['a']);
  });

  it.each<[string, Handler]>([
    ['passed to next', (_req, _res, next) => next(new Error('passed'))],
    [
      'thrown',
      () => {
        throw new Error('thrown');
      },
    ],
    ['rejected', async () => Promise.reject(new Error('rejected'))],
  ])('sends an error %s to next, skipping the rest', async (_how, failing) => {
    const res = await request(listenerWith(step('a'), failing, step('never'))).get('/');
    expect(res.status).toBe(500);
    expect(res.body.ran).toEqual(['a']);
    expect(res.body.error).toMatch(/passed|thrown|rejected/);
  });

  it('goes on after an asynchronous next', async () => {
    const later: Handler = async (_req, _res, next) => {
      await new Promise((done) => setImmediate(done));
      ran.push('later');
      next();
    };
    const res = await request(listenerWith(later, step('b'))).get('/');
    expect(res.body).toEqual({ ran: ['later', 'b'], reached: 'next' });
  });

  it('with no handlers, goes straight to next', async () => {
    const res = await request(listenerWith()).get('/');
    expect(res.body).toEqual({ ran: [], reached: 'next' });
  });
});
