import { requestContext } from '../setup/request-context';
import type { Knex } from '@mikro-orm/postgresql';
import { getOperationAST, GraphQLError, parse } from 'graphql';
import pg from 'pg';
import { User } from '../../src/accounts/user.entity';
import { AppError } from '../../src/common/errors/app-error';
import { executeMutation } from '../../src/graphql/database-plugin';
import { animeSlugs, buildCollection, collectionBody } from '../collections/helpers';
import { buildManga, buildToken, buildUser } from '../factories';
import { workerDatabaseUrl } from '../setup/db';
import { gql, rest } from '../setup/clients';
import { useTestApp } from '../setup/harness';

// Bursts of concurrent requests: slow on a loaded machine, bounded all the same.
jest.setTimeout(120_000);

const t = useTestApp();

/** Ends every session of the worker's database but the caller's, as an administrator's command does (57P01). */
async function terminateSessions(admin: pg.Client): Promise<number> {
  const { rowCount } = await admin.query(
    `select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()`,
  );
  return rowCount ?? 0;
}

describe('database sessions the server terminates under load', () => {
  let admin: pg.Client;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: await workerDatabaseUrl() });
    await admin.connect();
  });
  afterAll(() => admin.end());

  it('answers 503 system:unavailable (never 500) while they end, and recovers', async () => {
    const slugs = await animeSlugs(t.orm, 3);
    const manga = await buildManga(t.orm);
    const user = await buildUser(t.orm);
    const token = await buildToken(t.orm, user);
    const collection = await buildCollection(t.orm, user, collectionBody(slugs));
    const requests = () => [
      rest(t.app, 'GET', `/manga/${manga.slug}`),
      rest(t.app, 'GET', `/collections/${collection.reference}`, undefined, { token }),
      rest(t.app, 'PUT', `/watch/${slugs[0]}`, { status: 'watching' }, { token }),
      rest(t.app, 'GET', '/notifications/count', undefined, { token }),
      gql(t.app, 'query($slug: String!) { manga(slug: $slug) { slug title_en } }', { slug: manga.slug }),
      gql(
        t.app,
        'mutation($slug: String!) { saveWatchEntry(slug: $slug, input: { status: completed }) { status } }',
        { slug: slugs[1] },
        { token },
      ),
    ];
    const answers: { status: number; code?: string }[] = [];
    let terminated = 0;
    for (let round = 0; round < 20; round += 1) {
      const sent = requests().map((call) =>
        call.then((response) => ({
          status: response.status,
          code: response.body?.code ?? response.body?.errors?.[0]?.extensions?.code,
        })),
      );
      await new Promise((resolve) => setTimeout(resolve, round % 4));
      terminated += await terminateSessions(admin);
      answers.push(...(await Promise.all(sent)));
    }
    expect(terminated).toBeGreaterThan(0);
    const failures = answers.filter(({ status }) => status >= 500);
    expect(failures.filter(({ status, code }) => status !== 503 || code !== 'system:unavailable')).toEqual(
      [],
    );

    // Recovered: every request answers as usual once the sessions stop ending.
    const after = await Promise.all(requests());
    expect(after.map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it('answers 503 when the session ends inside a mutation, though its next statement only meets a completed transaction', async () => {
    const user = await buildUser(t.orm);
    const ctx = requestContext(t.orm.em, 'lost');
    let statementFailure: unknown;
    // Two root fields: the service's transaction is a savepoint, sent on the dead connection.
    const operation = getOperationAST(parse('mutation { first second }'))!;
    const mutation = executeMutation(ctx, operation, async () => {
      const { em } = ctx;
      const [{ pid }] = await em
        .getConnection()
        .execute<{ pid: number }[]>(
          'select pg_backend_pid() as pid',
          [],
          'all',
          em.getTransactionContext<Knex.Transaction>(),
        );
      // Waits until the session has ended: the savepoint below is sent on a dead connection.
      await admin.query('select pg_terminate_backend($1, 5000)', [pid]);
      try {
        await em.transactional((inner) => inner.findOneOrFail(User, { reference: user.reference }));
        return { data: {} };
      } catch (error) {
        statementFailure = error;
        return { data: null, errors: [new GraphQLError('failed', { originalError: error as Error })] };
      }
    });
    const answer = await mutation.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(statementFailure).toBeDefined();
    expect(answer).toBeInstanceOf(AppError);
    expect((answer as AppError).code).toBe('system:unavailable');
  });
});
