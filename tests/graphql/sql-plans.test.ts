import { requestContext } from '../setup/request-context';
import { execute, type GraphQLCompositeType, OperationTypeNode, parse } from 'graphql';
import { getMetadataStorage } from 'type-graphql';
import { User } from '../../src/accounts/user.entity';
import { AppError } from '../../src/common/errors/app-error';
import { asAppError } from '../../src/common/errors/render';
import { loadConfig } from '../../src/config';
import { createOrm } from '../../src/orm';
import { queryRows, sql } from '../../src/db/sql';
import { graphqlLimitsOf } from '../../src/graphql/limits';
import { OperationRunner } from '../../src/graphql/runner';
import { sqlFormsOf } from '../../src/graphql/sql-plan/fields';
import type { RestRoute } from '../../src/rest/route';
import { restRoutes } from '../../src/routes';
import { buildAppSchema } from '../../src/schema';
import {
  buildAnime,
  buildAppearance,
  buildCharacter,
  buildManga,
  buildNovel,
  buildReadEntry,
  buildThirdPartyToken,
  buildToken,
  buildUser,
  MISSING_REFERENCE,
} from '../factories';
import { startHttpApp } from '../http/http-app';
import { gql, rest } from '../setup/clients';
import { fixDate } from '../setup/fixed-date';
import { workerDatabaseUrl } from '../setup/db';
import { useTestApp } from '../setup/harness';
import {
  joinFranchise,
  seedCollections,
  seedComments,
  seedEveryCompiledRoot,
  seedPersonManga,
  seedReadables,
  seedSchedule,
  seedSystemNotification,
  seedWatchList,
  THREAD_MIDDLE,
  THREAD_TOP,
} from './compiled-reads-seeds';
import {
  call,
  CompilableSelections,
  plain,
  randomDocument,
  roots,
  seeded,
  type Selected,
} from './random-documents';

/**
 * Operations compiled to one SQL statement (src/graphql/sql-plan) answer exactly as
 * their resolvers do: REST and `/graphql` run the compiled statement, the same document
 * executed by graphql-js runs the resolvers, and all three must give the same JSON, keys
 * in the same order, on data chosen to reach every conversion and order rule the
 * statements re-state in SQL. A mapping that drifts from its resolver fails here.
 */
const t = useTestApp();

// Tests that fix `Date` (the schedule's "now") end with the real one.
afterEach(() => jest.useRealTimers());

/** A route by its contract number, or a supporting one by method and path (`GET /watch/{slug}`). */
type RouteKey = number | `${RestRoute['method']} /${string}`;
const routeOf = (key: RouteKey): RestRoute =>
  restRoutes.find((route) =>
    typeof key === 'number' ? route.contract === key : `${route.method} ${route.path}` === key,
  )!;

let runner: OperationRunner;
beforeAll(async () => {
  runner = new OperationRunner(await buildAppSchema(), graphqlLimitsOf(loadConfig()), t.orm.getMetadata());
});

/** The route's document run by its resolvers (its plan set aside): the root field's JSON text, or the AppError. */
async function viaResolvers(
  route: RestRoute,
  variables: Record<string, unknown>,
  token: string | undefined,
): Promise<{ json?: string; error?: AppError }> {
  const prepared = runner.prepare(route.document, route.rootField);
  const ctx = requestContext(t.orm.em, 'resolvers', { token });
  ctx.chooseReads(prepared.operation.operation);
  try {
    return { json: await runner.run({ ...prepared, compiled: undefined }, variables, ctx) };
  } catch (error) {
    return { error: asAppError(error) };
  }
}

/**
 * The REST answer and the `/graphql` answer (both compiled) and the resolvers' answer of
 * one request, compared as JSON text.
 */
async function expectSameBothWays(
  contract: RouteKey,
  path: string,
  variables: Record<string, unknown>,
  options: { token?: string; body?: unknown } = {},
): Promise<unknown> {
  const route = routeOf(contract);
  const restRes = await rest(t.app, route.method, path, options.body, { token: options.token });
  const gqlRes = await gql(t.app, route.document, variables, { token: options.token });
  const resolved = await viaResolvers(route, variables, options.token);
  if (restRes.status !== 200) {
    const refusal = { status: restRes.status, code: restRes.body.code };
    expect(refusal).toEqual({
      status: gqlRes.body.errors?.[0]?.extensions?.http?.status,
      code: gqlRes.body.errors?.[0]?.extensions?.code,
    });
    expect(refusal).toEqual({ status: resolved.error?.status, code: resolved.error?.code });
    return restRes.body;
  }
  expect(gqlRes.body.errors).toBeUndefined();
  expect(resolved.error).toBeUndefined();
  // Text, not deep equality: key order counts too.
  expect(JSON.stringify(restRes.body)).toBe(resolved.json);
  expect(JSON.stringify(gqlRes.body.data[route.rootField])).toBe(resolved.json);
  return restRes.body;
}

/** {@link expectSameBothWays} on pages of size 2 (the first, the second, one past the end) and one of size 100, for each caller. */
async function expectPagesBothWays(
  contract: RouteKey,
  path: string,
  variables: Record<string, unknown>,
  callers: (string | undefined)[],
): Promise<void> {
  for (const [page, size] of [
    [1, 2],
    [2, 2],
    [9, 2],
    [1, 100],
  ]) {
    for (const caller of callers) {
      await expectSameBothWays(
        contract,
        `${path}?page=${page}&size=${size}`,
        { ...variables, page, size },
        { token: caller },
      );
    }
  }
}

/** The document executed by its resolvers (graphql-js, no plan). */
async function executed(document: string, variables: Record<string, unknown>, token?: string) {
  const ctx = requestContext(t.orm.em, 'executed', { token });
  ctx.chooseReads(OperationTypeNode.QUERY);
  return execute({
    schema: runner.schema,
    document: parse(document),
    variableValues: variables,
    contextValue: ctx,
  });
}

/** `data` of the document executed by its resolvers, as JSON text. */
async function executedData(
  document: string,
  variables: Record<string, unknown>,
  token?: string,
): Promise<string> {
  const result = await executed(document, variables, token);
  expect(result.errors).toBeUndefined();
  return JSON.stringify(result.data);
}

describe('operations compiled to one SQL statement', () => {
  it('compiles every contract read (all but #22, a write), and of the other routes the reads meant to compile', async () => {
    const config = loadConfig();
    const runner = new OperationRunner(await buildAppSchema(), graphqlLimitsOf(config), t.orm.getMetadata());
    // The variables of the routes whose plan depends on one (the content type of #6 and #18).
    const variables = { content_type: 'manga', todo_type: 'title_ua', username: 'reader', status: 'reading' };
    const compiled = restRoutes
      .filter((route) => route.contract !== undefined)
      .filter((route) => {
        const prepared = runner.prepare(route.document, route.rootField);
        return prepared.compiled?.planFor(variables) !== undefined;
      })
      .map((route) => route.contract);
    expect(compiled.sort((a, b) => a! - b!)).toEqual([
      2, 3, 6, 7, 8, 9, 10, 13, 14, 15, 16, 17, 18, 19, 20, 21,
    ]);
    // And the other reads: the caller's own (their @Authorized() applied by the statement's
    // binding) and the pages' info routes (pages.md).
    const supporting = restRoutes
      .filter((route) => route.contract === undefined && route.document.trimStart().startsWith('query'))
      .filter((route) => runner.prepare(route.document, route.rootField).compiled?.planFor(variables))
      .map((route) => `${route.method} ${route.path}`);
    expect(supporting.sort()).toEqual([
      'GET /anime/{slug}',
      'GET /anime/{slug}/characters',
      'GET /anime/{slug}/staff',
      'GET /articles/stats',
      'GET /characters/{slug}',
      'GET /characters/{slug}/anime',
      'GET /characters/{slug}/manga',
      'GET /favourite/{content_type}/{slug}',
      'GET /follow/{username}/followers',
      'GET /follow/{username}/following',
      'GET /follow/{username}/stats',
      'GET /genres',
      'GET /manga/{slug}/characters',
      'GET /notifications',
      'GET /notifications/count',
      'GET /novel/{slug}',
      'GET /people/{slug}',
      'GET /people/{slug}/anime',
      'GET /people/{slug}/novel',
      'GET /read/{content_type}/{slug}',
      'GET /read/{content_type}/{slug}/following',
      'GET /read/{content_type}/{username}/stats',
      'GET /sitemap/sitemap_{content_type}.json',
      'GET /user/me',
      'GET /user/{username}',
      'GET /user/{username}/activity',
      'GET /watch/random/{username}/{status}',
      'GET /watch/{slug}',
      'GET /watch/{slug}/following',
      'GET /watch/{username}/stats',
      'POST /anime',
      'POST /characters',
      'POST /companies',
      'POST /favourite/{content_type}/{username}/list',
      'POST /manga',
      'POST /people',
      'POST /read/{content_type}/{username}/list',
    ]);
  });

  it('#16 answers as its resolvers do: conversions, orders, statistics, look-up rules', async () => {
    await seedReadables(t.orm);
    await buildManga(t.orm, { slug: 'gone', deleted: true });
    const body = (await expectSameBothWays(16, '/manga/edge-manga', { slug: 'edge-manga' })) as Record<
      string,
      unknown
    >;
    // The data reached the rules under test.
    expect((body.authors as unknown[]).length).toBe(4);
    expect((body.external as { text: string }[]).map((link) => link.text)).toEqual([
      'Home',
      'Wiki',
      'Dengeki',
      'Reader',
    ]);
    expect(body.stats).toMatchObject({ completed: 2, reading: 1, on_hold: 1, score_7: 2, score_10: 1 });
    await expectSameBothWays(16, '/manga/EDGE-MANGA', { slug: 'EDGE-MANGA' });
    // Lower-cased as JavaScript does, beyond ASCII too (PostgreSQL's lower() depends on the locale).
    await buildManga(t.orm, { slug: 'ärger' });
    await expectSameBothWays(16, `/manga/${encodeURIComponent('ÄRGER')}`, { slug: 'ÄRGER' });
    await expectSameBothWays(16, '/manga/gone', { slug: 'gone' });
    await expectSameBothWays(16, '/manga/missing', { slug: 'missing' });
  });

  it('#3 answers as its resolvers do, with and without a caller, on every page', async () => {
    const { token } = await seedReadables(t.orm);
    for (const [page, size] of [
      [1, 3],
      [3, 3],
      [9, 3],
      [1, 100],
    ]) {
      const path = `/novel?page=${page}&size=${size}`;
      const variables = { page, size, input: {} };
      await expectSameBothWays(3, path, variables, { body: {} });
      const mine = (await expectSameBothWays(3, path, variables, { body: {}, token })) as {
        list: { slug: string; read: unknown[] }[];
      };
      if (page === 1 && size === 100) {
        // The caller's own entry, hidden NSFW novel.
        expect(mine.list.find((novel) => novel.slug === 'novel-1')?.read).toHaveLength(1);
        expect(mine.list.map((novel) => novel.slug)).not.toContain('novel-4');
      }
    }
    for (const input of [
      { genres: ['hentai'] },
      { query: 'novel' },
      { years: [2002, 2005], sort: ['start_date:asc'] },
      { score: [7, null], sort: ['native_score:desc'] },
      { genres: ['missing'] },
    ]) {
      await expectSameBothWays(3, '/novel', { input }, { body: input, token });
    }
  });

  it('#19 answers as its resolvers do', async () => {
    const novel = await buildNovel(t.orm, { slug: 'cast' });
    const names = ['Zed', null, 'alpha', 'Alpha', null, 'beta'];
    for (const [i, name] of names.entries()) {
      const character = await buildCharacter(t.orm, {
        name_en: name,
        image: i % 2 ? null : '/c.png',
        synonyms: i === 0 ? ['x'] : [],
      });
      await buildAppearance(t.orm, character, { novel }, i % 3 === 0);
    }
    await expectPagesBothWays(19, '/novel/cast/characters', { slug: 'cast' }, [undefined]);
    await expectSameBothWays(19, '/novel/CAST/characters', { slug: 'CAST' });
    await expectSameBothWays(19, '/novel/missing/characters', { slug: 'missing' });
    await buildNovel(t.orm, { slug: 'gone', deleted: true });
    await expectSameBothWays(19, '/novel/gone/characters', { slug: 'gone' });
  });

  it('#7 answers as its resolvers do: order, roles, deleted manga, callers, scope', async () => {
    const { token } = await seedPersonManga(t.orm);
    const scopeless = await buildThirdPartyToken(t.orm, await buildUser(t.orm), ['read:watchlist']);
    await expectPagesBothWays(7, '/people/writer/manga', { slug: 'writer' }, [undefined, token]);
    await expectSameBothWays(7, '/people/WRITER/manga', { slug: 'WRITER' });
    await expectSameBothWays(7, '/people/idle/manga', { slug: 'idle' });
    await expectSameBothWays(7, '/people/missing/manga', { slug: 'missing' });
    // Existence before scope (semantics §1.1.2): a found person, then the token's scopes.
    const refused = await expectSameBothWays(
      7,
      '/people/writer/manga',
      { slug: 'writer' },
      { token: scopeless },
    );
    expect(refused).toMatchObject({ code: 'permission:denied' });
    await expectSameBothWays(7, '/people/missing/manga', { slug: 'missing' }, { token: scopeless });
  });

  it('#8 answers as its resolvers do: order, deleted novels, orphans, callers, scope', async () => {
    const { token, novels: seeded } = await seedReadables(t.orm);
    const hero = await buildCharacter(t.orm, { slug: 'hero' });
    const orphan = await buildCharacter(t.orm, { slug: 'orphan' });
    const novels = await Promise.all(
      [8, 8, 6.5, 9].map((score, i) =>
        buildNovel(t.orm, { slug: `hero-novel-${i}`, score, deleted: i === 3 }),
      ),
    );
    // seeded[1] carries the caller's read entry.
    for (const [i, novel] of [...novels, seeded[1]].entries())
      await buildAppearance(t.orm, hero, { novel }, i % 2 === 0);
    await buildAppearance(t.orm, orphan, { novel: novels[3] });
    const scopeless = await buildThirdPartyToken(t.orm, await buildUser(t.orm), ['read:watchlist']);
    await expectPagesBothWays(8, '/characters/hero/novel', { slug: 'hero' }, [undefined, token]);
    await expectSameBothWays(8, '/characters/HERO/novel', { slug: 'HERO' });
    await expectSameBothWays(8, '/characters/orphan/novel', { slug: 'orphan' });
    await expectSameBothWays(8, '/characters/missing/novel', { slug: 'missing' });
    const refused = await expectSameBothWays(
      8,
      '/characters/hero/novel',
      { slug: 'hero' },
      { token: scopeless },
    );
    expect(refused).toMatchObject({ code: 'permission:denied' });
    await expectSameBothWays(8, '/characters/orphan/novel', { slug: 'orphan' }, { token: scopeless });
  });

  it('#13 answers as its resolvers do: every kind, order, deleted titles, callers, refusals', async () => {
    const { token } = await seedReadables(t.orm);
    const { owner } = await joinFranchise(t.orm);
    const watcherToken = await buildToken(t.orm, owner);
    for (const [kind, slug] of [
      ['manga', 'edge-manga'],
      ['anime', 'anime-2'],
      ['novel', 'novel-1'],
    ]) {
      for (const caller of [undefined, watcherToken, token]) {
        await expectSameBothWays(
          13,
          `/related/${kind}/${slug}/franchise`,
          { content_type: kind, slug },
          { token: caller },
        );
      }
    }
    const lonely = await expectSameBothWays(13, '/related/novel/novel-0/franchise', {
      content_type: 'novel',
      slug: 'novel-0',
    });
    expect(lonely).toMatchObject({ code: 'related:no_franchise' });
    // The exact slug: no lower-casing; a deleted title is not found.
    for (const slug of ['EDGE-MANGA', 'missing']) {
      await expectSameBothWays(13, `/related/manga/${slug}/franchise`, { content_type: 'manga', slug });
    }
    await expectSameBothWays(13, '/related/anime/anime-5/franchise', {
      content_type: 'anime',
      slug: 'anime-5',
    });
    const deleted = await buildUser(t.orm, { role: 'deleted' });
    const refused = await expectSameBothWays(
      13,
      '/related/manga/missing/franchise',
      { content_type: 'manga', slug: 'missing' },
      { token: await buildToken(t.orm, deleted) },
    );
    expect(refused).toMatchObject({ code: 'user:deleted' });
  });

  it('#2 answers as its resolvers do: window, time_left, filters, only_watch, callers', async () => {
    // One "now" for every request: time_left is then exact both ways.
    const now = Date.now();
    fixDate(now);
    const { owner, anime } = await seedWatchList(t.orm);
    await seedSchedule(t.orm, now, anime);
    const watcherToken = await buildToken(t.orm, owner);
    const scopeless = await buildThirdPartyToken(t.orm, await buildUser(t.orm), ['read:readlist']);
    const year = new Date(now).getUTCFullYear();
    for (const input of [
      {},
      { rating: ['pg_13'], status: ['ongoing'] },
      { airing_season: ['spring', year] },
      { airing_season: ['winter', 300000] },
      { only_watch: true },
    ]) {
      for (const [page, size] of [
        [1, 2],
        [2, 2],
        [1, 100],
      ]) {
        for (const caller of [undefined, watcherToken]) {
          await expectSameBothWays(
            2,
            `/schedule/anime?page=${page}&size=${size}`,
            { page, size, input },
            { token: caller, body: input },
          );
        }
      }
    }
    const refused = await expectSameBothWays(
      2,
      '/schedule/anime',
      { input: {} },
      { token: scopeless, body: {} },
    );
    expect(refused).toMatchObject({ code: 'permission:denied' });
  });

  it('#6 answers as its resolvers do: each content type, music videos, deleted titles, callers', async () => {
    const { token, reader } = await seedReadables(t.orm);
    const { owner } = await seedWatchList(t.orm);
    const watcherToken = await buildToken(t.orm, owner);
    await buildAnime(t.orm, { slug: 'todo-music', media_type: 'music' });
    await buildAnime(t.orm, { slug: 'todo-untyped', media_type: null, synopsis_ua: '' });
    await buildManga(t.orm, { slug: 'todo-manga', title_ua: 'Манґа', synopsis_ua: null });
    const scopeless = await buildThirdPartyToken(t.orm, reader, ['read:readlist']);
    for (const kind of ['anime', 'manga', 'novel']) {
      for (const todo of ['title_ua', 'synopsis_ua']) {
        for (const [page, size] of [
          [1, 3],
          [2, 3],
          [1, 100],
        ]) {
          for (const caller of [undefined, token, watcherToken]) {
            await expectSameBothWays(
              6,
              `/edit/todo/${kind}/${todo}?page=${page}&size=${size}`,
              { content_type: kind, todo_type: todo, page, size },
              { token: caller },
            );
          }
        }
      }
    }
    const refused = await expectSameBothWays(
      6,
      '/edit/todo/anime/title_ua',
      { content_type: 'anime', todo_type: 'title_ua' },
      { token: scopeless },
    );
    expect(refused).toMatchObject({ code: 'permission:denied' });
  });

  it('keeps one plan per content type of #6, chosen by the variable', async () => {
    await seedReadables(t.orm);
    await seedWatchList(t.orm);
    const document = routeOf(6).document;
    const kinds = await Promise.all(
      ['anime', 'manga', 'novel', 'manga'].map(async (kind) => {
        const res = await gql(t.app, document, { content_type: kind, todo_type: 'title_ua', size: 100 });
        expect(res.body.errors).toBeUndefined();
        return [
          kind,
          new Set(res.body.data.editTodo.list.map((item: { data_type: string }) => item.data_type)),
        ];
      }),
    );
    for (const [kind, types] of kinds)
      expect({ kind, types: [...(types as Set<string>)] }).toEqual({ kind, types: [kind] });
  });

  it('#18 answers as its resolvers do: one candidate, deleted titles, empty picks, refused users', async () => {
    await seedReadables(t.orm);
    const gone = await buildNovel(t.orm, { slug: 'gone-novel', deleted: true });
    const reader = await t.orm.em.fork().findOneOrFail(User, { username: 'reader' });
    await buildReadEntry(t.orm, reader, { novel: gone }, { status: 'planned' });
    await buildUser(t.orm, { username: 'left', role: 'deleted' });
    for (const [kind, username, status] of [
      ['manga', 'reader', 'completed'],
      ['novel', 'reader', 'planned'],
      ['novel', 'READER', 'planned'],
      ['novel', 'reader', 'dropped'],
      ['manga', 'nobody', 'reading'],
      ['manga', 'left', 'reading'],
    ]) {
      await expectSameBothWays(18, `/read/${kind}/random/${username}/${status}`, {
        content_type: kind,
        username,
        status,
      });
    }
  });

  it('#21 answers as its resolvers do', async () => {
    await seedWatchList(t.orm);
    for (const input of [
      {},
      { watch_status: 'completed' },
      { media_type: ['movie'], sort: ['watch_score:asc'] },
      { years: [2011, 2013], sort: ['episodes_released:desc'] },
    ]) {
      for (const size of [2, 100]) {
        await expectSameBothWays(
          21,
          `/watch/watcher/list?size=${size}`,
          { username: 'watcher', size, input },
          {
            body: input,
          },
        );
      }
    }
    await expectSameBothWays(21, '/watch/WATCHER/list', { username: 'WATCHER', input: {} }, { body: {} });
    await expectSameBothWays(21, '/watch/nobody/list', { username: 'nobody', input: {} }, { body: {} });
    await buildUser(t.orm, { username: 'left', role: 'deleted' });
    await expectSameBothWays(21, '/watch/left/list', { username: 'left', input: {} }, { body: {} });
  });

  it('#9 answers as its resolvers do: reply trees, placeholders, reviews, votes, content kinds, callers, scope', async () => {
    const seeded = await seedComments(t.orm);
    const talked = { content_type: 'anime', slug: 'talked' };
    await expectPagesBothWays(9, '/comments/anime/talked/list', talked, [undefined, seeded.token]);
    const first = (await expectSameBothWays(
      9,
      '/comments/anime/talked/list?size=100',
      { ...talked, size: 100 },
      {
        token: seeded.token,
      },
    )) as { list: { reference: string; hidden: boolean; replies: unknown[] }[] };
    // The data reached the rules under test: a placeholder listed, a hidden comment without replies not.
    const listed = first.list.map((comment) => comment.reference);
    expect(listed).toContain(seeded.placeholder);
    expect(listed).not.toContain(seeded.lonelyHidden);
    expect(first.list.find((comment) => comment.reference === THREAD_TOP)?.replies).toHaveLength(2);
    for (const [query, filter] of [
      ['comment_type=review', { comment_type: 'review' }],
      ['comment_type=comment', { comment_type: 'comment' }],
      ['recommended=no', { recommended: 'no' }],
      ['comment_type=comment&recommended=yes', { comment_type: 'comment', recommended: 'yes' }],
    ] as const) {
      await expectSameBothWays(
        9,
        `/comments/anime/talked/list?${query}`,
        { ...talked, ...filter },
        {
          token: seeded.token,
        },
      );
    }
    const collectionPath = `/comments/collection/${seeded.collection}/list`;
    const onCollection = { content_type: 'collection', slug: seeded.collection };
    for (const token of [undefined, seeded.token, seeded.collectionToken])
      await expectSameBothWays(9, collectionPath, onCollection, { token });
    const upper = seeded.collection.toUpperCase();
    await expectSameBothWays(
      9,
      `/comments/collection/${upper}/list`,
      { content_type: 'collection', slug: upper },
      { token: seeded.collectionToken },
    );
    for (const [type, slug] of [
      ['article', 'news'],
      ['person', 'voice'],
      ['anime', 'gone-anime'],
      ['anime', 'TALKED'],
      ['collection', 'not-a-uuid'],
      ['edit', '7'],
      ['edit', '007'],
      ['character', 'nobody'],
    ]) {
      await expectSameBothWays(9, `/comments/${type}/${slug}/list`, { content_type: type, slug });
    }
    await expectSameBothWays(9, '/comments/anime/talked/list', talked, { token: seeded.scopeless });
    await expectSameBothWays(
      9,
      '/comments/anime/missing/list',
      { content_type: 'anime', slug: 'missing' },
      {
        token: seeded.scopeless,
      },
    );
  });

  it('#10 and #20 answer as their resolvers do: public top-level comments only, flat, votes, callers, scope', async () => {
    const seeded = await seedComments(t.orm);
    await expectPagesBothWays(10, '/comments/list', {}, [undefined, seeded.token, seeded.collectionToken]);
    const all = (await expectSameBothWays(
      10,
      '/comments/list?size=100',
      { size: 100 },
      { token: seeded.token },
    )) as {
      list: { reference: string; replies: unknown[]; my_score: number }[];
    };
    const listed = all.list.map((comment) => comment.reference);
    expect(listed).toContain(THREAD_TOP);
    expect(listed).not.toContain(seeded.placeholder);
    expect(listed).not.toContain(seeded.privateComment);
    expect(listed).not.toContain(seeded.onGone);
    expect(all.list.find((comment) => comment.reference === THREAD_TOP)).toMatchObject({
      replies: [],
      my_score: 1,
    });
    await expectSameBothWays(10, '/comments/list', {}, { token: seeded.scopeless });
    for (const token of [undefined, seeded.token]) {
      const latest = (await expectSameBothWays(20, '/comments/latest', {}, { token })) as {
        my_score: number;
      }[];
      expect(latest).toHaveLength(3);
    }
  });

  it('#17 answers as its resolvers do: any depth, placeholders, refusals, private comments, scope', async () => {
    const seeded = await seedComments(t.orm);
    const thread = (reference: string, token?: string) =>
      expectSameBothWays(17, `/comments/thread/${reference}`, { comment_reference: reference }, { token });
    for (const token of [undefined, seeded.token]) {
      const served = (await thread(THREAD_TOP, token)) as { replies: { replies: unknown[] }[] };
      expect(served.replies[0].replies).toHaveLength(1);
      await thread(THREAD_MIDDLE, token);
      await thread(seeded.deep, token);
      await thread(seeded.hiddenWithReply, token);
      await thread(seeded.placeholder, token);
    }
    await thread(THREAD_TOP.toUpperCase());
    // Refusals: hidden without visible replies, deleted content, unknown, not a UUID, the scope.
    await thread(seeded.lonelyHidden);
    await thread(seeded.onGone);
    await thread(MISSING_REFERENCE);
    await thread('not-a-uuid');
    await thread(THREAD_TOP, seeded.scopeless);
    await thread(MISSING_REFERENCE, seeded.scopeless);
    for (const token of [undefined, seeded.token, seeded.collectionToken])
      await thread(seeded.privateComment, token);
  });

  it('#14 answers as its resolvers do: every content kind, labels, deleted items, visibility, votes, follows, scope', async () => {
    const seeded = await seedCollections(t.orm);
    const get = (reference: string, token?: string) =>
      expectSameBothWays(14, `/collections/${reference}`, { reference }, { token });
    for (const token of [undefined, seeded.token, seeded.authorToken]) {
      const served = (await get(seeded.labelled, token)) as { collection: unknown[]; entries: number };
      // The deleted title is left out; every other item is served.
      expect(served.collection).toHaveLength(7);
      await get(seeded.unlisted, token);
      await get(seeded.own, token);
      await get(seeded.privateOwn, token);
    }
    await get(seeded.labelled.toUpperCase(), seeded.token);
    await get(MISSING_REFERENCE);
    await get('not-a-uuid');
    await get(seeded.labelled, seeded.scopeless);
    await get(MISSING_REFERENCE, seeded.scopeless);
  });

  it('#15 answers as its resolvers do: previews, filters, orders, visibility, refusals', async () => {
    const seeded = await seedCollections(t.orm);
    const search = (body: Record<string, unknown>, token?: string, page = 1, size = 15) =>
      expectSameBothWays(
        15,
        `/collections?page=${page}&size=${size}`,
        { page, size, input: body },
        { body, token },
      );
    for (const token of [undefined, seeded.token]) {
      const first = (await search({}, token)) as { list: { collection: unknown[] }[] };
      // A preview holds at most 6 items.
      expect(first.list.map((each) => each.collection.length)).toContain(6);
      await search({}, token, 2, 2);
      await search({}, token, 9, 2);
      await search({ only_public: false }, token);
      await search({ only_public: false, author: 'reader' }, token);
      await search({ tags: ['best', 'long'], sort: ['created:asc'] }, token);
      await search({ content_type: 'anime', content: ['listed-1'] }, token);
      await search({ content_type: 'manga', sort: ['system_ranking:asc'] }, token);
    }
    await search({ author: 'nobody' });
    await search({ content: ['listed-1'] });
    await search({ content_type: 'anime', content: ['missing'] });
    await search({}, seeded.scopeless);
  });

  it("the caller's list entries and unseen count answer as their resolvers do: look-ups, authentication, scope", async () => {
    const seeded = await seedCollections(t.orm);
    const reader = await t.orm.em.fork().findOneOrFail(User, { username: 'reader' });
    const missingToken = 'not-a-token';
    for (const [slug, token] of [
      ['listed-1', seeded.token],
      ['LISTED-1', seeded.token],
      ['listed-0', seeded.token],
      ['listed-2', seeded.token],
      ['missing', seeded.token],
      ['listed-1', undefined],
      ['listed-1', missingToken],
      ['listed-1', seeded.scopeless],
      ['listed-0', seeded.scopeless],
    ] as const)
      await expectSameBothWays('GET /watch/{slug}', `/watch/${slug}`, { slug }, { token });
    const watched = await buildThirdPartyToken(t.orm, reader, [
      'read:watchlist',
      'read:readlist',
      'read:notification',
    ]);
    // A token without the scope: an entry that is not there is not found all the same (404 before 403).
    const readOnly = await buildThirdPartyToken(t.orm, reader, ['read:readlist']);
    await expectSameBothWays(
      'GET /watch/{slug}',
      '/watch/listed-0',
      { slug: 'listed-0' },
      { token: readOnly },
    );
    await expectSameBothWays(
      'GET /watch/{slug}',
      '/watch/listed-1',
      { slug: 'listed-1' },
      { token: readOnly },
    );
    await expectSameBothWays(
      'GET /read/{content_type}/{slug}',
      '/read/novel/listed-novel',
      { content_type: 'novel', slug: 'listed-novel' },
      { token: seeded.scopeless },
    );
    await expectSameBothWays(
      'GET /watch/{slug}',
      '/watch/listed-1',
      { slug: 'listed-1' },
      { token: watched },
    );
    for (const [type, slug, token] of [
      ['manga', 'listed-manga', seeded.token],
      ['manga', 'LISTED-MANGA', seeded.token],
      ['novel', 'listed-novel', seeded.token],
      ['novel', 'listed-manga', seeded.token],
      ['manga', 'listed-manga', undefined],
      ['manga', 'listed-manga', seeded.scopeless],
      ['manga', 'listed-manga', watched],
    ] as const)
      await expectSameBothWays(
        'GET /read/{content_type}/{slug}',
        `/read/${type}/${slug}`,
        { content_type: type, slug },
        { token },
      );
    // Two unseen notifications of follows, one seen.
    for (const follower of [await buildUser(t.orm), await buildUser(t.orm), await buildUser(t.orm)])
      expect(
        (await rest(t.app, 'PUT', '/follow/reader', undefined, { token: await buildToken(t.orm, follower) }))
          .status,
      ).toBe(200);
    await t.orm.em
      .getConnection()
      .execute(
        `update notification set seen = true where reference = (select reference from notification where user_reference = ? limit 1)`,
        [reader.reference],
      );
    const counted = (await expectSameBothWays(
      'GET /notifications/count',
      '/notifications/count',
      {},
      { token: seeded.token },
    )) as {
      unseen: number;
    };
    expect(counted.unseen).toBe(2);
    await seedSystemNotification(t.orm, reader);
    await expectPagesBothWays('GET /notifications', '/notifications', {}, [seeded.token]);
    for (const token of [undefined, missingToken, seeded.scopeless, watched])
      await expectSameBothWays('GET /notifications', '/notifications', {}, { token });
    for (const token of [undefined, missingToken, seeded.scopeless, watched])
      await expectSameBothWays('GET /notifications/count', '/notifications/count', {}, { token });
  });

  it('sends one SQL statement per request (two with genre or magazine filters), whatever the page size', async () => {
    const { token } = await seedPersonManga(t.orm);
    await seedWatchList(t.orm);
    await seedComments(t.orm);
    const collections = await seedCollections(t.orm);
    const novel = await buildNovel(t.orm, { slug: 'cast' });
    for (let i = 0; i < 5; i += 1) await buildAppearance(t.orm, await buildCharacter(t.orm), { novel });
    await buildAppearance(t.orm, await buildCharacter(t.orm, { slug: 'hero' }), { novel });
    // [method, path, body, statements]: one compiled statement (the novel or user looked
    // up within it), after the look-up of the genres and magazines given, if any.
    const requests: [RestRoute['method'], string, unknown, number][] = [
      ['GET', '/manga/edge-manga', undefined, 1],
      ['POST', '/novel?size=1', {}, 1],
      ['POST', '/novel?size=100', {}, 1],
      ['POST', '/novel?size=100', { genres: ['hentai'], magazines: ['mag-a'] }, 2],
      ['GET', '/novel/cast/characters?size=1', undefined, 1],
      ['GET', '/novel/cast/characters?size=100', undefined, 1],
      ['POST', '/watch/watcher/list?size=1', {}, 1],
      ['POST', '/watch/watcher/list?size=100', {}, 1],
      ['GET', '/people/writer/manga?size=1', undefined, 1],
      ['GET', '/people/writer/manga?size=100', undefined, 1],
      ['GET', '/characters/hero/novel?size=1', undefined, 1],
      ['GET', '/characters/hero/novel?size=100', undefined, 1],
      ['GET', '/related/manga/edge-manga/franchise', undefined, 1],
      ['POST', '/schedule/anime?size=1', {}, 1],
      ['POST', '/schedule/anime?size=100', {}, 1],
      ['GET', '/edit/todo/novel/title_ua?size=1', undefined, 1],
      ['GET', '/edit/todo/anime/synopsis_ua?size=100', undefined, 1],
      ['GET', '/read/manga/random/reader/completed', undefined, 1],
      ['GET', '/comments/anime/talked/list?size=1', undefined, 1],
      ['GET', '/comments/anime/talked/list?size=100', undefined, 1],
      ['GET', '/comments/list?size=1', undefined, 1],
      ['GET', '/comments/list?size=100', undefined, 1],
      ['GET', `/comments/thread/${THREAD_TOP}`, undefined, 1],
      ['GET', '/comments/latest', undefined, 1],
      ['GET', `/collections/${collections.labelled}`, undefined, 1],
      ['POST', '/collections?size=1', {}, 1],
      ['POST', '/collections?size=100', {}, 1],
      // The author and content looked up first.
      [
        'POST',
        '/collections?size=100',
        { author: 'reader', content_type: 'character', content: ['listed-character'] },
        3,
      ],
    ];
    for (const [method, path, body, statements] of requests) {
      const counted = await t.queries.count(async () => {
        const res = await rest(t.app, method, path, body);
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
      });
      expect({ path, statements: counted }).toEqual({ path, statements });
    }
    // A caller's own list entries and unseen count: the token's look-up, then one statement
    // (once the caller's activity time is fresh: its first request writes it).
    await rest(t.app, 'GET', '/notifications/count', undefined, { token: collections.token });
    for (const path of [
      '/watch/listed-1',
      '/read/manga/listed-manga',
      '/notifications/count',
      '/notifications',
    ]) {
      const counted = await t.queries.count(async () => {
        const res = await rest(t.app, 'GET', path, undefined, { token: collections.token });
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
      });
      expect({ path, statements: counted }).toEqual({ path, statements: 2 });
    }
    // A caller's token is one more look-up, once per request.
    const withCaller = await t.queries.count(async () => {
      expect((await rest(t.app, 'POST', '/novel?size=100', {}, { token })).status).toBe(200);
    });
    expect(withCaller).toBeLessThanOrEqual(3);
  });

  it("reads on the application's entity manager: a compiled read forks none (REST or /graphql), a resolver-run one does", async () => {
    await seedReadables(t.orm);
    const fork = jest.spyOn(t.orm.em, 'fork');
    try {
      expect((await rest(t.app, 'GET', '/manga/edge-manga')).status).toBe(200);
      expect((await rest(t.app, 'POST', '/novel?size=3', {})).status).toBe(200);
      expect((await gql(t.app, routeOf(16).document, { slug: 'edge-manga' })).body.errors).toBeUndefined();
      expect(fork).not.toHaveBeenCalled();
      // A root `__typename` is a part the compiler leaves to execution.
      const executed = await gql(t.app, '{ __typename manga(slug: "edge-manga") { slug } }');
      expect(executed.body.data).toEqual({ __typename: 'Query', manga: { slug: 'edge-manga' } });
      expect(fork).toHaveBeenCalled();
    } finally {
      fork.mockRestore();
    }
  });

  // PostgreSQL re-plans a prepared statement for each request unless a generic plan is
  // as cheap, which it cannot tell while the page's limit and offset are parameters.
  it('keeps one plan per connection for a first page, and plans later pages for their offset', async () => {
    await seedReadables(t.orm);
    const orm = await createOrm(await workerDatabaseUrl(), { poolMax: 1 });
    const { app, stop } = await startHttpApp(orm, {});
    try {
      for (let i = 0; i < 8; i += 1) {
        expect((await rest(app, 'POST', '/novel?size=3', {})).status).toBe(200);
        expect((await rest(app, 'POST', '/novel?page=2&size=3', {})).status).toBe(200);
      }
      // The statement pool's one connection: the session that prepared the statements.
      const plans = await queryRows<{ statement: string; generic: number }>(
        orm.em,
        sql(`select statement, generic_plans as generic from pg_prepared_statements
          where name like 'prepared\\_%' and statement like '%from novel%'`),
      );
      const first = plans.filter((plan) => plan.statement.includes('limit 3 offset 0'));
      const later = plans.filter((plan) => /limit 3 offset \$\d/.test(plan.statement));
      expect(first).toHaveLength(1);
      expect(Number(first[0].generic)).toBeGreaterThanOrEqual(3);
      expect(later).toHaveLength(1);
    } finally {
      await stop();
      await orm.close();
    }
  });
});

describe('documents a frontend writes itself, sent to /graphql', () => {
  /** Sends `document` to /graphql: its answer must be the executed one, from `statements` SQL statements. */
  async function expectCompiled(
    document: string,
    variables: Record<string, unknown>,
    statements: number,
    token?: string,
  ): Promise<Record<string, unknown>> {
    let res: Awaited<ReturnType<typeof gql>> | undefined;
    const counted = await t.queries.count(async () => {
      res = await gql(t.app, document, variables, { token });
    });
    const sent = [...t.queries.last];
    const body = res!.body as { data: Record<string, unknown>; errors?: unknown; extensions: unknown };
    expect(body.errors).toBeUndefined();
    const expected = await executedData(document, variables, token);
    // The same JSON, key order included (PostgreSQL spaces its JSON text differently), then `extensions`.
    expect(res!.text.endsWith('}\n')).toBe(true);
    expect(JSON.stringify(JSON.parse(res!.text))).toBe(
      `{"data":${expected},"extensions":${JSON.stringify(body.extensions)}}`,
    );
    expect({ counted, sent: counted === statements ? [] : sent.map((q) => q.slice(0, 150)) }).toEqual({
      counted: statements,
      sent: [],
    });
    return body.data;
  }

  const mangaPage = `
    query Page($slug: String!, $withStats: Boolean!, $noGenres: Boolean = false) {
      first: manga(slug: $slug) {
        ...Head
        title: title_en
        authors { person { ...Person } roles { slug weight } }
        genres @skip(if: $noGenres) { slug name_en }
        stats @include(if: $withStats) { completed reading score_10 }
        ... on Manga { synonyms kind: __typename }
        ... @include(if: true) { external { text url } }
      }
      again: manga(slug: "EDGE-MANGA") { slug __typename nsfw }
    }
    fragment Head on Manga { slug media_type start_date score }
    fragment Person on Person { slug name_en data_type }`;

  it('answers aliases, named and inline fragments, @skip/@include and two root fields from compiled SQL', async () => {
    await seedReadables(t.orm);
    const full = await expectCompiled(mangaPage, { slug: 'edge-manga', withStats: true }, 2);
    expect(Object.keys(full.first as object)).toContain('stats');
    const lean = await expectCompiled(mangaPage, { slug: 'edge-manga', withStats: false, noGenres: true }, 2);
    expect(Object.keys(lean.first as object)).not.toContain('stats');
    expect(Object.keys(lean.first as object)).not.toContain('genres');
  });

  it('answers lists with literal arguments, another page size and a caller', async () => {
    const { token } = await seedReadables(t.orm);
    const document = `{
      novelSearch(page: 2, size: 2, input: { sort: ["start_date:asc"] }) {
        pagination { page pages total }
        list { slug title_original read { status score } }
      }
      manga(slug: "edge-manga") { slug }
    }`;
    await expectCompiled(document, {}, 2);
    // The caller's token is one more look-up, once per request (after the first, which also slides the session).
    await gql(t.app, document, {}, { token });
    await expectCompiled(document, {}, 3, token);
  });

  it('leaves refusals to execution: the same errors as before, and as REST', async () => {
    await seedReadables(t.orm);
    const missing = await gql(t.app, '{ manga(slug: "no-such-manga") { slug } }');
    const restMissing = await rest(t.app, 'GET', '/manga/no-such-manga');
    expect(missing.body.errors[0].extensions).toMatchObject({
      code: restMissing.body.code,
      http: { status: 404 },
    });
    const tooLarge = await gql(t.app, '{ novelSearch(size: 101) { list { slug } } }');
    const restTooLarge = await rest(t.app, 'POST', '/novel?size=101', {});
    expect(tooLarge.body.errors[0].extensions).toMatchObject({
      code: restTooLarge.body.code,
      http: { status: 400 },
    });
    expect(tooLarge.body.errors[0].message).toBe(restTooLarge.body.message);
    const badInput = await gql(t.app, '{ novelSearch(input: { years: [2005, 2002] }) { list { slug } } }');
    const restBadInput = await rest(t.app, 'POST', '/novel', { years: [2005, 2002] });
    expect(restBadInput.status).toBe(400);
    expect(badInput.body.errors[0].message).toBe(restBadInput.body.message);
  });

  it('refuses a null for a variable used where a value is required: root and nested fields, compiled or not, HTTP 400 system:validation_error', async () => {
    await seedReadables(t.orm);
    const selections = new CompilableSelections(runner.schema, t.orm.getMetadata());
    // Each variable is declared nullable, and GraphQL admits it where a value is required for
    // a default's sake, its own or the position's (an argument, an input field); none is
    // named page or size, nor is an input object, so REST would carry it in the path.
    const cases: { compiled: string; variable: string; value: unknown }[] = [
      {
        compiled: 'query ($on: Boolean = true) { manga(slug: "edge-manga") @include(if: $on) { slug } }',
        variable: 'on',
        value: true,
      },
      {
        compiled:
          'query ($on: Boolean = true) { manga(slug: "edge-manga") { slug title_en @include(if: $on) } }',
        variable: 'on',
        value: true,
      },
      {
        compiled: 'query ($s: String = "edge-manga") { manga(slug: $s) { slug } }',
        variable: 's',
        value: 'edge-manga',
      },
      {
        compiled: 'query ($n: Int = 3) { novelSearch(size: $n) { list { slug } } }',
        variable: 'n',
        value: 2,
      },
      {
        compiled: 'query ($p: Int) { novelSearch(page: $p) { list { slug } } }',
        variable: 'p',
        value: 1,
      },
      {
        compiled: 'query ($w: Boolean) { animeSchedule(input: { only_watch: $w }) { pagination { total } } }',
        variable: 'w',
        value: false,
      },
    ];
    for (const { compiled, variable, value } of cases) {
      // A root `__typename` keeps the same document from compiling.
      const executedOnly = compiled.replace(') {', ') { __typename');
      expect(
        [compiled, executedOnly].map((document) => selections.compiles(document, { [variable]: value })),
      ).toEqual([true, false]);
      for (const document of [compiled, executedOnly]) {
        let res: Awaited<ReturnType<typeof gql>> | undefined;
        const statements = await t.queries.count(async () => {
          res = await gql(t.app, document, { [variable]: null });
        });
        expect({ document, status: res!.status, error: res!.body.errors?.[0], statements }).toEqual({
          document,
          status: 400,
          error: expect.objectContaining({
            message: `Invalid field ${variable} in request path`,
            extensions: expect.objectContaining({ code: 'system:validation_error' }),
          }),
          statements: 0,
        });
        // Left out (the default applies) or given a value, the same document runs.
        for (const variables of [{}, { [variable]: value }]) {
          const answered = await gql(t.app, document, variables);
          expect({ document, variables, status: answered.status, errors: answered.body.errors }).toEqual({
            document,
            variables,
            status: 200,
            errors: undefined,
          });
        }
      }
    }
  });
});

describe('stored values a scalar or enum refuses', () => {
  // serialize throws on them; the compiled statement stops (unserializable_value) and
  // the request executes, so REST and /graphql answer as the resolvers do.
  it.each([
    ['a value unknown to its enum', `media_type = 'bogus'`],
    ['an infinite time', `start_date = 'infinity'`],
    ['a float that is not a number', `score = 'NaN'`],
  ])('%s: answered as execution answers it', async (_case, change) => {
    await seedReadables(t.orm);
    await t.orm.em.getConnection().execute(`update manga set ${change} where slug = 'edge-manga'`);
    const refusal = await expectSameBothWays(16, '/manga/edge-manga', { slug: 'edge-manga' });
    expect(refusal).toMatchObject({ code: 'system:internal_error' });
    const document = '{ manga(slug: "edge-manga") { slug media_type start_date score } }';
    const res = await gql(t.app, document);
    const expected = await executed(document, {});
    expect(expected.errors).toHaveLength(1);
    expect(res.body.data).toEqual(expected.data);
    // The service reports it as an internal error at the field's path (the message stays in the log).
    expect(res.body.errors.map((error: { path: string[] }) => error.path)).toEqual(
      expected.errors!.map((error) => error.path),
    );
    expect(res.body.errors[0].extensions.code).toBe('system:internal_error');
  });
});

/**
 * The drift generator (random-documents.ts): for each SQL root, the largest selection the
 * compiler expresses (found field by field, so every field with a SQL form that a root
 * reaches is in it), then seeded random documents drawn from it (subsets, aliases, inline and named
 * fragments, `@skip`/`@include`), each sent to `/graphql` (compiled) and executed by
 * the resolvers, with and without a caller, on rows with null and empty values and
 * relations, a deleted title in a list and an NSFW one. A SQL form that disagrees with
 * its resolver on any field, row or caller fails here, and so does a declared SQL form
 * that no root reaches.
 */
describe('random documents over every field with a SQL form', () => {
  /** About 15 s alone (ten roots, 13 documents each, both ways, two callers); more while other suites run. */
  const DRIFT_TIMEOUT_MS = 120_000;

  it(
    'answers every document as the resolvers do, with and without a caller',
    async () => {
      // One "now" for every request (the schedule's time_left).
      const now = Date.now();
      fixDate(now);
      const { token } = await seedEveryCompiledRoot(t.orm, t.app, now);
      const selections = new CompilableSelections(runner.schema, t.orm.getMetadata());
      const random = seeded(22);
      const reached = new Set<string>();
      for (const root of roots) {
        const { field, args, callerOnly } = root;
        const type = selections.rootType(field);
        const selection = selections.largestSelection(root);
        const walk = (nodes: Selected[], on: GraphQLCompositeType) =>
          nodes.forEach(({ name, type: child, fragment, children }) => {
            if (!fragment) reached.add(`${on.name}.${name}`);
            if (children) walk(children, child!);
          });
        walk(selection, type);
        const documents = [`{ ${call(field, args)} { ${plain(selection)} } }`];
        for (let i = 0; i < 12; i += 1) documents.push(randomDocument(random, field, args, selection, type));
        for (const document of documents) {
          expect({ document, compiles: selections.compiles(document) }).toEqual({ document, compiles: true });
          for (const caller of callerOnly ? [token] : [undefined, token]) {
            const res = await gql(t.app, document, {}, { token: caller });
            expect({ document, errors: res.body.errors }).toEqual({ document, errors: undefined });
            // Each root reaches rows: the comparisons are not of empty pages.
            if (document === documents[0])
              expect(res.body.data[field]).not.toMatchObject({ pagination: { total: 0 } });
            const executed = await executedData(document, {}, caller);
            expect({ document, data: JSON.stringify(res.body.data) }).toEqual({ document, data: executed });
          }
        }
      }
      // Every declared SQL form is reached, on every GraphQL type it serves, and so are
      // renamed fields and what no contract route's document selects.
      const declared = sqlFormsOf(runner.schema)
        .declaredFields()
        .flatMap(({ type, field }) =>
          getMetadataStorage()
            .objectTypes.filter(
              ({ target }) => target === type || Object.prototype.isPrototypeOf.call(type, target),
            )
            .filter(({ name }) => runner.schema.getType(name) !== undefined)
            .map(({ name }) => `${name}.${field}`),
        );
      const unreached = [...new Set(declared)].filter((field) => !reached.has(field)).sort();
      expect(unreached).toEqual([]);
      for (const field of [
        'Anime.episodes_released',
        'Anime.episodes_total',
        'Manga.read',
        'Novel.read',
        'Anime.watch',
        // A union's items (one member per content type).
        'EditTodoPage.list',
      ])
        expect({ field, reached: reached.has(field) }).toEqual({ field, reached: true });
    },
    DRIFT_TIMEOUT_MS,
  );
});
