import pino from 'pino';
import request from 'supertest';
import { restRoutes } from '../../src/routes';
import { buildAnime, buildManga, buildToken, buildUser } from '../factories';
import { withFailingActionRecords } from '../setup/db';
import { useTestApp } from '../setup/harness';

/**
 * An unexpected failure (a database error injected into the last write of
 * PUT /watch/{slug}, or into a compiled read's statement) is masked as
 * `system:internal_error` and logged once, at error, with the request's id and the
 * cause's stack: over REST, which passes its context along, and over `/graphql`, whose
 * error formatter finds it in the request scope.
 */
const lines: Record<string, unknown>[] = [];
const log = pino({ level: 'error' }, { write: (line: string) => lines.push(JSON.parse(line)) });
const t = useTestApp(undefined, log);

const saveWatchEntry = restRoutes.find((route) => route.method === 'PUT' && route.path === '/watch/{slug}')!;

describe('an unexpected failure', () => {
  beforeEach(() => {
    lines.length = 0;
  });

  async function caller() {
    const user = await buildUser(t.orm);
    const token = await buildToken(t.orm, user);
    await buildAnime(t.orm, { slug: 'frieren' });
    return token;
  }

  /** Every `unexpected error` line: one is expected, for this request. */
  const unexpected = () => lines.filter((line) => line.msg === 'unexpected error');

  it('over REST: answered 500 system:internal_error, logged once with the request id and the stack', async () => {
    const token = await caller();
    const res = await withFailingActionRecords(t.orm, () =>
      request(t.app)
        .put('/watch/frieren')
        .set('auth', token)
        .set('X-Request-Id', 'rest-failure-1')
        .send({ status: 'watching' }),
    );
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ message: expect.any(String), code: 'system:internal_error' });
    expect(JSON.stringify(res.body)).not.toContain('injected failure');
    const logged = unexpected();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 50, reqId: 'rest-failure-1', requestId: 'rest-failure-1' });
    expect(JSON.stringify(logged[0].err)).toContain('injected failure');
  });

  it('in a compiled read (GET /manga/{slug}, one statement): 500, logged once with the request id', async () => {
    await buildManga(t.orm, { slug: 'berserk' });
    const connection = t.orm.em.getConnection();
    const [{ definition }] = await connection.execute<{ definition: string }[]>(
      `select pg_get_functiondef('native_score_from(integer, integer, numeric)'::regprocedure) as definition`,
    );
    // The statement computes every score with this function: it now fails instead.
    await connection.execute(`create or replace function native_score_from(v integer, total integer, mean numeric)
      returns double precision language plpgsql as $$ begin raise exception 'injected failure'; end $$`);
    let res: request.Response;
    try {
      res = await request(t.app).get('/manga/berserk').set('X-Request-Id', 'read-failure-1');
    } finally {
      await connection.execute(definition);
    }
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ message: expect.any(String), code: 'system:internal_error' });
    const logged = unexpected();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 50, reqId: 'read-failure-1', requestId: 'read-failure-1' });
    expect(JSON.stringify(logged[0].err)).toContain('injected failure');
  });

  it('over /graphql: the same code in extensions, logged once with the request id and the stack', async () => {
    const token = await caller();
    const res = await withFailingActionRecords(t.orm, () =>
      request(t.app)
        .post('/graphql')
        .set('auth', token)
        .set('X-Request-Id', 'graphql-failure-1')
        .send({
          query: saveWatchEntry.document,
          variables: { slug: 'frieren', input: { status: 'watching' } },
        }),
    );
    expect(res.body.errors).toEqual([
      expect.objectContaining({
        extensions: { code: 'system:internal_error', http: { status: 500 } },
      }),
    ]);
    expect(JSON.stringify(res.body)).not.toContain('injected failure');
    const logged = unexpected();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      level: 50,
      reqId: 'graphql-failure-1',
      requestId: 'graphql-failure-1',
    });
    expect(JSON.stringify(logged[0].err)).toContain('injected failure');
  });
});
