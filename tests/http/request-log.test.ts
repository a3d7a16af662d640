import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { startRequestLog } from '../../src/http/request-log';

/** Request lines (src/http/request-log.ts): the id, one line per answered request, none for probes. */
function appLogging(level: string) {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const app = express();
  app.use((req, res, next) => {
    res.locals.log = startRequestLog(req, res, log).log;
    next();
  });
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/fails', (_req, res) => {
    res.status(503).json({});
  });
  app.get('/works', (_req, res) => {
    (res.locals.log as pino.Logger).warn('inside');
    res.json({});
  });
  return { app, lines };
}

describe('request lines', () => {
  it('echoes a well-formed X-Request-Id and binds it to every line of the request', async () => {
    const { app, lines } = appLogging('info');
    const res = await request(app).get('/works?x=1').set('X-Request-Id', 'abc-123');
    expect(res.get('X-Request-Id')).toBe('abc-123');
    expect(lines).toEqual([
      expect.objectContaining({ reqId: 'abc-123', msg: 'inside' }),
      expect.objectContaining({
        reqId: 'abc-123',
        msg: 'request completed',
        req: { method: 'GET', url: '/works?x=1' },
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      }),
    ]);
  });

  it('replaces a malformed id with a new UUID', async () => {
    const { app } = appLogging('info');
    const res = await request(app).get('/works').set('X-Request-Id', 'bad id!');
    expect(res.get('X-Request-Id')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('logs a 5xx at error with the status, never the probes, and nothing above info', async () => {
    const { app, lines } = appLogging('info');
    await request(app).get('/fails');
    await request(app).get('/healthz');
    expect(lines).toEqual([
      expect.objectContaining({ level: 50, err: 'failed with status code 503', res: { statusCode: 503 } }),
    ]);
    const quiet = appLogging('warn');
    await request(quiet.app).get('/fails');
    expect(quiet.lines).toEqual([]);
  });
});
