import { requestContext } from '../setup/request-context';
import { EntityManager } from '@mikro-orm/core';
import type DataLoader from 'dataloader';
import type { RequestListener } from 'node:http';
import { getOperationAST, GraphQLError, parse } from 'graphql';
import pino from 'pino';
import { Follow } from '../../src/accounts/follow.entity';
import { User } from '../../src/accounts/user.entity';
import { Article } from '../../src/articles/article.entity';
import { hashSecret, newTokenSecret } from '../../src/common/auth/secrets';
import { AppError } from '../../src/common/errors/app-error';
import { RequestContext, RequestTransaction } from '../../src/context';
import { executeMutation } from '../../src/graphql/database-plugin';
import { WatchEntry } from '../../src/lists/watch-entry.entity';
import { actionsOf, signupBody, storedUser, useAccountsApp } from '../accounts/helpers';
import { articleBody } from '../articles/helpers';
import { createOrm } from '../../src/orm';
import { buildAnime, buildAppearance, buildCharacter, buildToken, buildUser } from '../factories';
import { restRoutes } from '../../src/routes';
import { startHttpApp } from '../http/http-app';
import { gql, rest } from '../setup/clients';
import { resetDatabase, workerDatabaseUrl } from '../setup/db';
import { useTestApp } from '../setup/harness';

const HOUR = 60 * 60 * 1000;

/** What pg reports when the server went away between two statements. */
const connectionRefused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

/** Makes the request's `viewer:follows` loader (the `is_followed` field) fail as if the database went down. */
function failViewerFollows(): jest.SpyInstance {
  const loader = RequestContext.prototype.loader;
  return jest.spyOn(RequestContext.prototype, 'loader').mockImplementation(function (
    this: RequestContext,
    key: string,
    create: () => DataLoader<unknown, unknown>,
  ) {
    if (key === 'viewer:follows') throw connectionRefused();
    return loader.call(this, key, create);
  } as typeof loader);
}

afterEach(() => jest.restoreAllMocks());

describe('a mutation runs in one transaction that commits after its response is resolved', () => {
  const t = useAccountsApp();

  /** A not activated account whose activation link expired an hour ago. */
  async function waiting() {
    const hash = hashSecret(newTokenSecret());
    const user = await buildUser(t.orm, {
      role: 'not_activated',
      email_confirmed: false,
      activation_token_hash: hash,
      activation_expires: new Date(Date.now() - HOUR),
    });
    return { user, hash, token: await buildToken(t.orm, user) };
  }

  it('rolls the write back when a response field fails after the root field succeeded', async () => {
    const { user, hash, token } = await waiting();
    failViewerFollows();
    const res = await gql(t.app, 'mutation { resendActivation { username is_followed } }', {}, { token });

    expect(res.body.data).toBeNull();
    expect(res.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual([
      'system:unavailable',
    ]);
    // Nothing the failed answer refers to happened: no new link, no action, no email.
    expect((await storedUser(t.orm, user.username)).activation_token_hash).toBe(hash);
    expect(await actionsOf(t.orm, user)).toEqual([]);
    await t.mailer.idle();
    expect(t.sent).toEqual([]);
  });

  it('commits and emails once the response is complete', async () => {
    const { user, hash, token } = await waiting();
    const res = await gql(t.app, 'mutation { resendActivation { username is_followed } }', {}, { token });

    expect(res.body.data).toEqual({ resendActivation: { username: user.username, is_followed: false } });
    expect((await storedUser(t.orm, user.username)).activation_token_hash).not.toBe(hash);
    expect(await actionsOf(t.orm, user)).toEqual(['activation_resend']);
    await t.mailer.idle();
    expect(t.sent.map((mail) => mail.to)).toEqual([user.email]);
  });

  it('answers a failed commit with its error, 503 when the database went away, and keeps nothing', async () => {
    jest.spyOn(EntityManager.prototype, 'commit').mockRejectedValueOnce(connectionRefused());
    const body = signupBody();
    const res = await gql(t.app, 'mutation($input: SignupInput!) { signup(input: $input) { secret } }', {
      input: body,
    });

    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toMatchObject({
      data: null,
      errors: [
        {
          message: 'Service temporarily unavailable, try again later',
          extensions: { code: 'system:unavailable', http: { status: 503 } },
        },
      ],
    });
    expect(await t.orm.em.fork().count(User, { username: body.username })).toBe(0);
    await t.mailer.idle();
    expect(t.sent).toEqual([]);
  });

  it('commits the root fields that succeeded next to one refused by a business rule', async () => {
    const [caller, followed] = [await buildUser(t.orm), await buildUser(t.orm)];
    const token = await buildToken(t.orm, caller);
    const res = await gql(
      t.app,
      `mutation($a: String!, $b: String!) {
         a: followUser(username: $a) { follow }
         b: followUser(username: $b) { follow }
       }`,
      { a: followed.username, b: 'nobody_here' },
      { token },
    );

    // Both fields are non-null, so the refusal of `b` nulls the data; `a` still happened.
    expect(res.body.data).toBeNull();
    expect(res.body.errors.map((e: { path: string[] }) => e.path)).toEqual([['b']]);
    expect(res.body.errors[0].extensions.code).toBe('user:not_found');
    expect(await t.orm.em.fork().count(Follow, { follower: caller.reference })).toBe(1);
  });
});

describe('the services inside the request transaction', () => {
  const t = useTestApp();

  /** The statements `document` sends, as the query log shows them. */
  async function statementsOf(document: string, variables: Record<string, unknown>, token: string) {
    await t.queries.count(async () => {
      const res = await gql(t.app, document, variables, { token });
      expect(res.body.errors).toBeUndefined();
    });
    return t.queries.last.map((line) => line.replace(/^\[query\] /, '').replace(/ \[took.*$/, ''));
  }

  it("run in the request's transaction, which commits last: as it is for one root field", async () => {
    const [caller, followed] = [await buildUser(t.orm), await buildUser(t.orm)];
    const token = await buildToken(t.orm, caller);
    const statements = await statementsOf(
      'mutation($u: String!) { followUser(username: $u) { follow } }',
      { u: followed.username },
      token,
    );
    // The caller's token is looked up ahead of the transaction, which then holds its connection for less.
    expect(statements[0]).toContain('from auth_token t');
    expect(statements[1]).toBe('begin');
    expect(statements.at(-1)).toBe('commit');
    expect(statements.filter((sql) => sql === 'begin' || sql === 'commit')).toHaveLength(2);
    expect(statements.filter((sql) => sql.includes('savepoint'))).toEqual([]);
    expect(await t.orm.em.fork().count(Follow, { follower: caller.reference })).toBe(1);
  });

  it('run as savepoints of the request transaction when the operation has several root fields', async () => {
    const [caller, a, b] = [await buildUser(t.orm), await buildUser(t.orm), await buildUser(t.orm)];
    const token = await buildToken(t.orm, caller);
    const statements = await statementsOf(
      `mutation($a: String!, $b: String!) {
         a: followUser(username: $a) { follow }
         b: followUser(username: $b) { follow }
       }`,
      { a: a.username, b: b.username },
      token,
    );
    // The caller's token is looked up ahead of the transaction, which then holds its connection for less.
    expect(statements[0]).toContain('from auth_token t');
    expect(statements[1]).toBe('begin');
    expect(statements.at(-1)).toBe('commit');
    expect(statements.filter((sql) => sql === 'begin' || sql === 'commit')).toHaveLength(2);
    expect(statements.filter((sql) => sql.includes('savepoint'))).toEqual([
      'savepoint "trx1"',
      'release savepoint "trx1"',
      'savepoint "trx1"',
      'release savepoint "trx1"',
    ]);
  });

  it('roll all of the request back when its one root field fails after writing part of its work', async () => {
    const user = await buildUser(t.orm, { description: 'before' });
    const ctx = requestContext(t.orm.em, 'joined');
    const operation = getOperationAST(parse('mutation { followUser(username: "x") { follow } }'))!;
    const refusal = new AppError('user:not_found');
    const result = await executeMutation(ctx, operation, async () => {
      try {
        await ctx.em.transactional(async (tx) => {
          await tx.nativeUpdate(User, { reference: user.reference }, { description: 'half done' });
          throw refusal;
        });
        return { data: {} };
      } catch {
        const failure = new GraphQLError(refusal.message, { path: ['followUser'], originalError: refusal });
        return { data: { followUser: null }, errors: [failure] };
      }
    });

    // Answered as the field failed, and nothing of it kept.
    expect(result.data).toEqual({ followUser: null });
    expect(result.errors?.map((error) => error.originalError)).toEqual([refusal]);
    const stored = await t.orm.em.fork().findOneOrFail(User, { reference: user.reference });
    expect(stored.description).toBe('before');
  });

  // A statement sent outside the request's transaction would wait for a row lock that
  // transaction holds (here the caller's `last_active`, updated as the token resolves).
  it('run every statement on the request transaction, so none waits for its own locks', async () => {
    const caller = await buildUser(t.orm, { last_active: new Date(Date.now() - HOUR) });
    const token = await buildToken(t.orm, caller);
    const res = await gql(
      t.app,
      'mutation($input: ArticleInput!) { createArticle(input: $input) { slug } }',
      { input: articleBody({ tags: ['anime', 'fresh'] }) },
      { token },
    );
    expect(res.body.errors).toBeUndefined();
    expect(await t.orm.em.fork().count(Article, { author: caller.reference })).toBe(1);
  }, 10_000);
});

describe('a mutation answered 408 timeout', () => {
  const t = useTestApp();
  const saveWatchEntry = restRoutes.find(
    (route) => route.method === 'PUT' && route.path === '/watch/{slug}',
  )!;
  const answers = {
    REST: (app: RequestListener, token: string) =>
      rest(app, 'PUT', '/watch/frieren', { status: 'planned' }, { token }),
    '/graphql': (app: RequestListener, token: string) =>
      gql(app, saveWatchEntry.document, { slug: 'frieren', input: { status: 'planned' } }, { token }),
  };

  it.each(Object.keys(answers) as (keyof typeof answers)[])(
    'never commits over %s, even when its work finishes after the answer, and logs nothing unexpected',
    async (transport) => {
      const lines: Record<string, unknown>[] = [];
      const log = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) });
      const { app, stop } = await startHttpApp(t.orm, { REQUEST_TIMEOUT_MS: '1000' }, log);
      try {
        const user = await buildUser(t.orm);
        const token = await buildToken(t.orm, user);
        await buildAnime(t.orm, { slug: 'frieren' });
        // Another session holds the caller's row, so the write waits past the request's time.
        const blocker = t.orm.em.fork();
        await blocker.begin();
        await blocker.execute('select 1 from "user" where reference = ? for update', [user.reference]);
        let settled: Promise<void> | undefined;
        const commit = RequestTransaction.prototype.commit;
        jest.spyOn(RequestTransaction.prototype, 'commit').mockImplementation(function (
          this: RequestTransaction,
        ) {
          settled = commit.call(this);
          return settled;
        });

        const res = await answers[transport](app, token);
        expect(res.status).toBe(408);
        if (transport === 'REST') expect(res.body).toEqual({ message: expect.any(String), code: 'timeout' });
        else
          expect(res.body).toEqual({
            errors: [{ message: expect.any(String), extensions: { code: 'timeout', http: { status: 408 } } }],
          });

        await blocker.commit();
        await waitFor(() => settled !== undefined);
        await settled;
        expect(await t.orm.em.fork().count(WatchEntry, {})).toBe(0);
        // The operation's own late answer (the door finds the 408 sent) is no error.
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(lines.filter((line) => line.msg === 'unexpected error')).toEqual([]);
      } finally {
        jest.restoreAllMocks();
        await stop();
      }
    },
    15_000,
  );
});

/** Polls `condition` every 20 ms, for at most 5 s. */
async function waitFor(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 5000) throw new Error('condition not met within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a mutation holds one pooled connection', () => {
  it('writes a comment on a character with a pool of one connection (every statement on the transaction)', async () => {
    const orm = await createOrm(await workerDatabaseUrl(), { poolMax: 1 });
    const { app, stop } = await startHttpApp(orm, { REQUEST_TIMEOUT_MS: '4000' });
    try {
      await resetDatabase(orm);
      const user = await buildUser(orm);
      const token = await buildToken(orm, user);
      const character = await buildCharacter(orm, { slug: 'frieren' });
      await buildAppearance(orm, character, { anime: await buildAnime(orm, { slug: 'sousou' }) });
      const res = await rest(app, 'PUT', '/comments/character/frieren', { text: 'A mage' }, { token });
      expect(res.status).toBe(200);
      expect(res.body.text).toBe('A mage');
    } finally {
      await stop();
      await orm.close();
    }
  }, 15_000);
});
