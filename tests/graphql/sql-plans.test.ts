import { requestContext } from '../setup/request-context';
import {
  execute,
  getNamedType,
  type GraphQLCompositeType,
  type GraphQLObjectType,
  isLeafType,
  isObjectType,
  isUnionType,
  Kind,
  OperationTypeNode,
  parse,
} from 'graphql';
import { getMetadataStorage } from 'type-graphql';
import type { Anime } from '../../src/catalog/anime.entity';
import type { Manga } from '../../src/catalog/manga.entity';
import { Novel } from '../../src/catalog/novel.entity';
import { User } from '../../src/accounts/user.entity';
import { AppError } from '../../src/common/errors/app-error';
import { asAppError } from '../../src/common/errors/render';
import { loadConfig } from '../../src/config';
import { createOrm } from '../../src/orm';
import { queryRows, sql } from '../../src/db/sql';
import { graphqlLimitsOf } from '../../src/graphql/limits';
import { OperationRunner } from '../../src/graphql/runner';
import { compileSqlPlan } from '../../src/graphql/sql-plan/compile';
import { sqlFormsOf } from '../../src/graphql/sql-plan/fields';
import type { RestRoute } from '../../src/rest/route';
import { restRoutes } from '../../src/routes';
import { buildAppSchema } from '../../src/schema';
import {
  buildAiringEpisode,
  buildAnime,
  buildAppearance,
  buildCharacter,
  buildCredit,
  buildFranchise,
  buildGenre,
  buildMagazine,
  buildManga,
  buildNovel,
  buildPerson,
  buildReadEntry,
  buildThirdPartyToken,
  buildRole,
  buildToken,
  buildUser,
  buildWatchEntry,
  linkTitle,
  MISSING_REFERENCE,
} from '../factories';
import { startHttpApp } from '../http/http-app';
import { gql, rest } from '../setup/clients';
import { buildArticle } from '../articles/helpers';
import { buildCollection as buildCollectionOf, buildCollectionVote } from '../collections/helpers';
import { buildCollection, buildComment, recount } from '../comments/helpers';
import { fixDate } from '../setup/fixed-date';
import { workerDatabaseUrl } from '../setup/db';
import { useTestApp } from '../setup/harness';

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

/** Manga and novels with every kind of value the compiled statements convert or order. */
async function seedReadables(): Promise<{ manga: Manga; novels: Novel[]; reader: User; token: string }> {
  const reader = await buildUser(t.orm, { username: 'reader' });
  const others = await Promise.all([buildUser(t.orm), buildUser(t.orm), buildUser(t.orm)]);
  const token = await buildToken(t.orm, reader);
  const manga = await buildManga(t.orm, {
    slug: 'edge-manga',
    title_original: 'ベルセルク "quoted" \\ back\nline 😀',
    title_en: null,
    media_type: 'manga',
    status: 'ongoing',
    chapters: null,
    score: 0.1 + 0.2,
    scored_by: 2147483647,
    native_scored_by: 3,
    native_score_total: 25,
    image: '//double/slash.png',
    start_date: new Date('1950-06-01T12:00:00.250Z'),
    end_date: new Date('1969-12-31T23:59:59.500Z'),
    synonyms: ['one "two"', 'три', ''],
    synopsis_ua: 'Ґ\u2028separator',
    franchise: await buildFranchise(t.orm),
    external: [
      { url: 'https://r1.example', text: 'Reader', type: 'read' },
      { url: 'https://w.example', text: 'Watch', type: 'watch' },
      { url: 'https://g1.example', text: 'Home', type: 'general' },
      { url: 'https://r2.example', text: 'Dengeki', type: 'read' },
      { url: 'https://g2.example', text: 'Wiki', type: 'general' },
    ],
  });
  const heavy = await buildRole(t.orm, { slug: 'story', weight: 100 });
  const light = await buildRole(t.orm, { slug: 'art', weight: 50 });
  const unweighted = await buildRole(t.orm, { slug: 'assist', weight: null });
  const alsoUnweighted = await buildRole(t.orm, { slug: 'ASSIST-2', weight: null });
  // Code-point order of slugs, weight ties broken by the person, null weights last.
  const people = await Promise.all(
    ['b-author', 'a-author', 'Z-author', 'c-author'].map((slug, i) =>
      buildPerson(t.orm, { slug, image: i % 2 === 0 ? 'https://abs.example/p.png' : `/people/${slug}.jpg` }),
    ),
  );
  await buildCredit(t.orm, people[0], { manga }, [light, heavy]);
  await buildCredit(t.orm, people[1], { manga }, [heavy]);
  await buildCredit(t.orm, people[2], { manga }, [unweighted, alsoUnweighted]);
  await buildCredit(t.orm, people[3], { manga }, []);
  const genres = await Promise.all(
    ['b-genre', 'A-genre', 'a-genre'].map((slug) => buildGenre(t.orm, { slug })),
  );
  const magazines = await Promise.all(['mag-b', 'mag-a'].map((slug) => buildMagazine(t.orm, { slug })));
  await linkTitle(t.orm, manga, { genres, magazines });
  const statuses = ['completed', 'reading', 'on_hold'] as const;
  for (const [i, user] of [reader, ...others].entries()) {
    await buildReadEntry(t.orm, user, { manga }, { status: statuses[i % 3], score: [0, 10, 7, 7][i] });
  }

  const nsfw = await buildGenre(t.orm, { slug: 'hentai' });
  const novels: Novel[] = [];
  for (let i = 0; i < 7; i += 1) {
    novels.push(
      await buildNovel(t.orm, {
        slug: `novel-${i}`,
        // Equal scores: the reference breaks the tie.
        score: i < 3 ? 8 : 6.5,
        scored_by: 10,
        image: i % 2 === 0 ? null : `novel/${i}.png`,
        year: 2000 + i,
        start_date: i === 0 ? null : new Date(Date.UTC(1990 + i, 0, 1, 0, 0, 0, 999)),
      }),
    );
  }
  await linkTitle(t.orm, novels[4], { genres: [nsfw] });
  await buildReadEntry(t.orm, reader, { novel: novels[1] }, { status: 'planned', note: 'later', score: 4 });
  await buildReadEntry(t.orm, others[0], { novel: novels[2] }, { status: 'dropped' });
  return { manga, novels, reader, token };
}

async function seedWatchList(): Promise<{ owner: User; anime: Anime[] }> {
  const owner = await buildUser(t.orm, { username: 'watcher' });
  const anime: Anime[] = [];
  for (let i = 0; i < 6; i += 1) {
    const title = await buildAnime(t.orm, {
      slug: `anime-${i}`,
      media_type: i % 2 === 0 ? 'tv' : 'movie',
      episodes_released: i === 0 ? null : i * 3,
      episodes_total: i === 1 ? null : 24,
      season: i % 2 === 0 ? 'spring' : null,
      year: 2010 + i,
      image: i === 2 ? 'HTTPS://upper.example/x.png' : '/a.png',
      deleted: i === 5,
    });
    anime.push(title);
    await buildWatchEntry(t.orm, owner, title, {
      status: i % 2 === 0 ? 'completed' : 'watching',
      score: i,
      episodes: i,
      note: i === 3 ? 'note "quoted"' : null,
    });
  }
  return { owner, anime };
}

/** A person credited on manga: equal scores, a deleted manga, weighted, unweighted and no roles; and one with no credits. */
async function seedPersonManga(): Promise<{ manga: Manga[]; token: string }> {
  const { manga: edge, token } = await seedReadables();
  const writer = await buildPerson(t.orm, { slug: 'writer' });
  await buildPerson(t.orm, { slug: 'idle' });
  const story = await buildRole(t.orm, { slug: 'w-story', weight: 10 });
  const art = await buildRole(t.orm, { slug: 'w-art', weight: 10 });
  const helper = await buildRole(t.orm, { slug: 'w-help', weight: null });
  const manga = [edge];
  for (let i = 0; i < 4; i += 1)
    manga.push(
      await buildManga(t.orm, { slug: `writer-manga-${i}`, score: i < 2 ? 7 : 5, deleted: i === 3 }),
    );
  const roleSets = [[helper, art, story], [story], [], [art], [story]];
  for (const [i, title] of manga.entries()) await buildCredit(t.orm, writer, { manga: title }, roleSets[i]);
  return { manga, token };
}

/**
 * The watch list's anime (one deleted) and two of the novels (one with the reader's
 * entry) join the edge manga's franchise ({@link seedReadables} first).
 */
async function joinFranchise(): Promise<{ owner: User; anime: Anime[] }> {
  const { owner, anime } = await seedWatchList();
  const connection = t.orm.em.getConnection();
  const franchise = `(select franchise_reference from manga where slug = 'edge-manga')`;
  await connection.execute(`update anime set franchise_reference = ${franchise}`);
  await connection.execute(
    `update novel set franchise_reference = ${franchise} where slug in ('novel-1', 'novel-2')`,
  );
  return { owner, anime };
}

/**
 * Airing episodes around `now`: fractions of a second either side (time_left truncates
 * toward zero), the 6-hour edge, an older one, equal times, NSFW and deleted anime,
 * and the anime of the watch list ({@link seedWatchList}).
 */
async function seedSchedule(now: number, anime: Anime[]): Promise<void> {
  const HOUR = 60 * 60 * 1000;
  const at = (ms: number) => new Date(now + ms);
  const others = await Promise.all([
    buildAnime(t.orm, { slug: 'sched-a', rating: 'pg_13', status: 'ongoing', season: 'spring' }),
    buildAnime(t.orm, { slug: 'sched-nsfw', nsfw: true }),
    buildAnime(t.orm, { slug: 'sched-b', rating: 'r', status: 'announced', start_date: at(0) }),
  ]);
  const episodes: [Anime, number][] = [
    [anime[0], 1500],
    [anime[1], -1500],
    [anime[2], -6 * HOUR],
    [anime[3], -6 * HOUR - 1000],
    [anime[4], 3 * HOUR + 999],
    [anime[5], HOUR],
    [others[0], 1500],
    [others[1], HOUR],
    [others[2], 24 * HOUR + 1],
  ];
  for (const [i, [title, offset]] of episodes.entries())
    await buildAiringEpisode(t.orm, title, i + 1, at(offset));
}

/** The user `reader` (made if no seeding made it yet) and a new token of theirs. */
async function readerWithToken(): Promise<{ reader: User; token: string }> {
  const reader =
    (await t.orm.em.fork().findOne(User, { username: 'reader' })) ??
    (await buildUser(t.orm, { username: 'reader' }));
  return { reader, token: await buildToken(t.orm, reader) };
}

/** Comments the drift generator's documents name by reference. */
const THREAD_TOP = '0c000000-0000-4000-8000-000000000001';
const THREAD_MIDDLE = '0c000000-0000-4000-8000-000000000002';

/**
 * Comments reaching every rule the compiled comment reads re-state: reply trees five
 * deep, with placeholders (hidden, with visible replies) and nodes left out (hidden
 * without visible replies, deleted); reviews; votes of `reader` (created if missing); a
 * comment with 500 earlier versions; authors and previews with images and without; a
 * private collection's comments; comments on an article, a person and a deleted title.
 */
async function seedComments() {
  const { reader, token } = await readerWithToken();
  const author = await buildUser(t.orm, {
    avatar_path: '/me.png',
    cover: 'https://cdn.example/cover.png',
    description: 'writes "a lot"',
  });
  const other = await buildUser(t.orm);
  const anime = await buildAnime(t.orm, { slug: 'talked' });
  const on = { type: 'anime' as const, reference: anime.reference, slug: 'talked' };
  const withImage = { title: 'Talked', image: '/talked.png', slug: 'talked' };
  const top = await buildComment(t.orm, author, on, {
    reference: THREAD_TOP,
    review_recommendation: 'yes',
    review_score: 8,
    preview: withImage,
  });
  const middle = await buildComment(t.orm, other, on, { parent: top, reference: THREAD_MIDDLE });
  const hiddenWithReply = await buildComment(t.orm, author, on, {
    parent: middle,
    hidden: true,
    text: 'secret',
  });
  const deep = await buildComment(t.orm, reader, on, { parent: hiddenWithReply });
  await buildComment(t.orm, author, on, { parent: deep });
  await buildComment(t.orm, author, on, { parent: middle, hidden: true });
  await buildComment(t.orm, author, on, { parent: top, deleted: true });
  const sibling = await buildComment(t.orm, other, on, { parent: top });
  const critique = await buildComment(t.orm, other, on, { review_recommendation: 'no', review_score: null });
  const placeholder = await buildComment(t.orm, author, on, { hidden: true, text: 'gone' });
  await buildComment(t.orm, other, on, { parent: placeholder });
  const lonelyHidden = await buildComment(t.orm, author, on, { hidden: true });
  const edited = await buildComment(t.orm, reader, on, { preview: withImage });
  for (let i = 0; i < 3; i += 1) await buildComment(t.orm, other, on);
  const vote = (comment: { reference: string }, score: number) =>
    t.orm.em.getConnection().execute(
      `insert into vote (reference, user_reference, content_type, content_reference, score, created, updated)
         values (gen_random_uuid(), ?, 'comment', ?, ?, now(), now())`,
      [reader.reference, comment.reference, score],
    );
  for (const [comment, score] of [
    [top, 1],
    [middle, -1],
    [deep, 1],
    [critique, 1],
  ] as const)
    await vote(comment, score);
  await t.orm.em.getConnection().execute(
    `insert into comment_version (reference, comment_reference, text, created)
       select gen_random_uuid(), ?, 'before', now() from generate_series(1, 500)`,
    [edited.reference],
  );
  // A private collection's comments, seen by its author only.
  const collectionAuthor = await buildUser(t.orm);
  const collection = await buildCollection(t.orm, collectionAuthor, anime, { visibility: 'private' });
  const onCollection = {
    type: 'collection' as const,
    reference: collection.reference,
    slug: collection.reference,
  };
  const privateComment = await buildComment(t.orm, other, onCollection, { private: true });
  await buildComment(t.orm, collectionAuthor, onCollection, { parent: privateComment, private: true });
  const article = await buildArticle(t.orm, author, { slug: 'news' });
  await buildComment(t.orm, other, { type: 'article', reference: article.reference, slug: 'news' });
  const person = await buildPerson(t.orm, { slug: 'voice' });
  // The latest public comment, voted on: #20 answers my_score 0 all the same.
  const latest = await buildComment(t.orm, other, {
    type: 'person',
    reference: person.reference,
    slug: 'voice',
  });
  await vote(latest, 1);
  const gone = await buildAnime(t.orm, { slug: 'gone-anime', deleted: true });
  const onGone = await buildComment(t.orm, other, {
    type: 'anime',
    reference: gone.reference,
    slug: 'gone-anime',
  });
  await recount(t.orm);
  return {
    token,
    collectionToken: await buildToken(t.orm, collectionAuthor),
    scopeless: await buildThirdPartyToken(t.orm, reader, ['read:watchlist']),
    collection: collection.reference,
    privateComment: privateComment.reference,
    deep: deep.reference,
    hiddenWithReply: hiddenWithReply.reference,
    placeholder: placeholder.reference,
    lonelyHidden: lonelyHidden.reference,
    sibling: sibling.reference,
    onGone: onGone.reference,
  };
}

/** A collection the drift generator's documents name by reference. */
const LABELLED_COLLECTION = '0c000000-0000-4000-8000-0000000000c1';

/**
 * Collections reaching every rule #14 and #15 re-state: items of every content kind
 * (anime with `reader`'s watch entry, manga and novels with read entries, characters,
 * people), more than a preview's 6, labels and comments or none, a deleted title among
 * the items, every visibility, votes and follows of `reader` (created if missing).
 */
async function seedCollections() {
  const { reader, token } = await readerWithToken();
  const author = await buildUser(t.orm, { avatar_path: 'https://cdn.example/a.png' });
  const unfollowed = await buildUser(t.orm);
  await t.orm.em.getConnection().execute(
    `insert into follow (reference, follower_reference, followed_reference, created)
       values (gen_random_uuid(), ?, ?, now())`,
    [reader.reference, author.reference],
  );
  const anime = [];
  for (let i = 0; i < 8; i += 1) anime.push(await buildAnime(t.orm, { slug: `listed-${i}` }));
  await buildWatchEntry(t.orm, reader, anime[1], { score: 7 });
  const manga = await buildManga(t.orm, { slug: 'listed-manga' });
  await buildReadEntry(t.orm, reader, { manga });
  const novel = await buildNovel(t.orm, { slug: 'listed-novel' });
  const character = await buildCharacter(t.orm, { slug: 'listed-character' });
  await buildAppearance(t.orm, character, { novel });
  await buildPerson(t.orm, { slug: 'listed-person' });
  const body = (content_type: string, slugs: string[], o: Record<string, unknown> = {}) => ({
    title: `Best ${content_type}`,
    description: 'A list of favourites',
    tags: ['best'],
    visibility: 'public',
    content_type,
    labels_order: [],
    spoiler: false,
    nsfw: false,
    content: slugs.map((slug, i) => ({ slug, order: i + 1 })),
    ...o,
  });
  const labelled = await buildCollectionOf(
    t.orm,
    author,
    body(
      'anime',
      anime.map((each) => each.slug),
      {
        labels_order: ['good', 'great'],
        tags: ['best', 'long'],
        content: anime.map((each, i) => ({
          slug: each.slug,
          order: i + 1,
          label: i < 3 ? 'good' : 'great',
          ...(i % 2 === 0 ? { comment: `item ${i} "quoted"` } : {}),
        })),
      },
    ),
  );
  // The reference the drift generator's documents name (the items follow: on update cascade).
  await t.orm.em
    .getConnection()
    .execute(`update collection set reference = ? where reference = ?`, [
      LABELLED_COLLECTION,
      labelled.reference,
    ]);
  labelled.reference = LABELLED_COLLECTION;
  await t.orm.em.getConnection().execute(`update anime set deleted = true where slug = 'listed-2'`);
  const others = [
    await buildCollectionOf(t.orm, unfollowed, body('manga', ['listed-manga'], { tags: ['long'] })),
    await buildCollectionOf(t.orm, author, body('novel', ['listed-novel'], { visibility: 'unlisted' })),
    await buildCollectionOf(t.orm, reader, body('character', ['listed-character'], { spoiler: true })),
    await buildCollectionOf(t.orm, reader, body('person', ['listed-person'], { visibility: 'private' })),
  ];
  await buildCollectionVote(t.orm, reader, labelled, 1);
  await buildCollectionVote(t.orm, reader, others[0], -1);
  return {
    token,
    authorToken: await buildToken(t.orm, author),
    scopeless: await buildThirdPartyToken(t.orm, reader, ['read:watchlist']),
    labelled: labelled.reference,
    unlisted: others[1].reference,
    own: others[2].reference,
    privateOwn: others[3].reference,
  };
}

/** A system notification of `user`: no initiator, a payload with nested values and keys out of order. */
async function seedSystemNotification(user: User): Promise<void> {
  await t.orm.em.getConnection().execute(
    `insert into notification (reference, user_reference, notification_type, data, seen, created, updated)
       values (gen_random_uuid(), ?, 'system_update', ?::jsonb, false, now(), now())`,
    [
      user.reference,
      JSON.stringify({ title: 'Ünïcode "quoted"', link: null, nested: { b: 1, a: [1, 2.5] } }),
    ],
  );
}

describe('operations compiled to one SQL statement', () => {
  it('compiles every contract read (all but #22, a write) and no other route', async () => {
    const config = loadConfig();
    const runner = new OperationRunner(await buildAppSchema(), graphqlLimitsOf(config), t.orm.getMetadata());
    // The variables of the routes whose plan depends on one (the content type of #6 and #18).
    const variables = { content_type: 'manga', todo_type: 'title_ua', username: 'reader', status: 'reading' };
    const compiled = restRoutes
      .filter((route) => {
        const prepared = runner.prepare(route.document, route.rootField);
        return prepared.compiled?.planFor(variables) !== undefined;
      })
      .map((route) => route.contract);
    expect(compiled.sort((a, b) => a! - b!)).toEqual([
      2, 3, 6, 7, 8, 9, 10, 13, 14, 15, 16, 17, 18, 19, 20, 21,
    ]);
    // And the supporting reads that need a caller (their own @Authorized(), applied by the statement's binding).
    const supporting = restRoutes
      .filter((route) => route.contract === undefined && route.method === 'GET')
      .filter((route) => runner.prepare(route.document, route.rootField).compiled?.planFor(variables))
      .map((route) => `${route.method} ${route.path}`);
    expect(supporting.sort()).toEqual([
      'GET /notifications',
      'GET /notifications/count',
      'GET /read/{content_type}/{slug}',
      'GET /watch/{slug}',
    ]);
  });

  it('#16 answers as its resolvers do: conversions, orders, statistics, look-up rules', async () => {
    await seedReadables();
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
    const { token } = await seedReadables();
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
    const { token } = await seedPersonManga();
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
    const { token, novels: seeded } = await seedReadables();
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
    const { token } = await seedReadables();
    const { owner } = await joinFranchise();
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
    const { owner, anime } = await seedWatchList();
    await seedSchedule(now, anime);
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
    const { token, reader } = await seedReadables();
    const { owner } = await seedWatchList();
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
    await seedReadables();
    await seedWatchList();
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
    await seedReadables();
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
    await seedWatchList();
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
    const seeded = await seedComments();
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
    const seeded = await seedComments();
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
    const seeded = await seedComments();
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
    const seeded = await seedCollections();
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
    const seeded = await seedCollections();
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
    const seeded = await seedCollections();
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
    await seedSystemNotification(reader);
    await expectPagesBothWays('GET /notifications', '/notifications', {}, [seeded.token]);
    for (const token of [undefined, missingToken, seeded.scopeless, watched])
      await expectSameBothWays('GET /notifications', '/notifications', {}, { token });
    for (const token of [undefined, missingToken, seeded.scopeless, watched])
      await expectSameBothWays('GET /notifications/count', '/notifications/count', {}, { token });
  });

  it('sends one SQL statement per request (two with genre or magazine filters), whatever the page size', async () => {
    const { token } = await seedPersonManga();
    await seedWatchList();
    await seedComments();
    const collections = await seedCollections();
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
    await seedReadables();
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
    await seedReadables();
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
    await seedReadables();
    const full = await expectCompiled(mangaPage, { slug: 'edge-manga', withStats: true }, 2);
    expect(Object.keys(full.first as object)).toContain('stats');
    const lean = await expectCompiled(mangaPage, { slug: 'edge-manga', withStats: false, noGenres: true }, 2);
    expect(Object.keys(lean.first as object)).not.toContain('stats');
    expect(Object.keys(lean.first as object)).not.toContain('genres');
  });

  it('answers lists with literal arguments, another page size and a caller', async () => {
    const { token } = await seedReadables();
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
    await seedReadables();
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

  it('leaves a null @include condition to execution: its error, not a 500', async () => {
    await seedReadables();
    const document = 'query ($on: Boolean = true) { manga(slug: "edge-manga") @include(if: $on) { slug } }';
    const res = await gql(t.app, document, { on: null });
    const expected = await executed(document, { on: null });
    expect(expected.errors).toHaveLength(1);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(expected.data);
    expect(res.body.errors.map((error: { message: string }) => error.message)).toEqual(
      expected.errors!.map((error) => error.message),
    );
    const root = await gql(t.app, 'query ($slug: String!) { manga(slug: $slug) { slug } }', { slug: null });
    expect(root.status).toBe(400);
    expect(root.body.errors[0].extensions.code).toBeDefined();
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
    await seedReadables();
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
 * The drift generator: for each SQL root, the largest selection the compiler expresses
 * (found field by field, so every field with a SQL form that a root reaches is in it),
 * then seeded random documents drawn from it (subsets, aliases, inline and named
 * fragments, `@skip`/`@include`), each sent to `/graphql` (compiled) and executed by
 * the resolvers, with and without a caller, on rows with null and empty values and
 * relations, a deleted title in a list and an NSFW one. A SQL form that disagrees with
 * its resolver on any field, row or caller fails here, and so does a declared SQL form
 * that no root reaches.
 */
describe('random documents over every field with a SQL form', () => {
  interface Selected {
    /** A field's name, or `... on <Type>` for an inline fragment on a union's member. */
    name: string;
    /** The field's (or fragment's) type, for selections with children. */
    type?: GraphQLCompositeType;
    fragment?: boolean;
    children?: Selected[];
  }

  /** The members of a collection item's content. */
  const CONTENT_KINDS = ['Anime', 'Manga', 'Novel', 'Character', 'Person'];
  /** Roots and their arguments; `members`: the union members the listed items are of. */
  const roots: { field: string; args: string; members?: string[]; callerOnly?: true }[] = [
    { field: 'manga', args: 'slug: "edge-manga"' },
    { field: 'novelSearch', args: 'page: 1, size: 20, input: {}' },
    { field: 'novelSearch', args: 'page: 2, size: 3, input: { sort: ["start_date:asc"] }' },
    // An NSFW title is listed only when its genre is asked for (semantics §1.9).
    { field: 'novelSearch', args: 'page: 1, size: 20, input: { genres: ["hentai"] }' },
    { field: 'novelCharacters', args: 'slug: "cast", size: 20' },
    { field: 'watchList', args: 'username: "watcher", size: 20, input: {}' },
    { field: 'personManga', args: 'slug: "writer", size: 20' },
    { field: 'characterNovels', args: 'slug: "cast-member", size: 20' },
    { field: 'franchise', args: 'content_type: manga, slug: "edge-manga"' },
    { field: 'animeSchedule', args: 'size: 20, input: {}' },
    { field: 'editTodo', args: 'content_type: novel, todo_type: title_ua, size: 20', members: ['Novel'] },
    {
      field: 'editTodo',
      args: 'content_type: anime, todo_type: synopsis_ua, size: 20',
      members: ['Anime'],
    },
    // One candidate: the pick is the same both ways.
    {
      field: 'randomReadEntry',
      args: 'content_type: manga, username: "reader", status: completed',
      members: ['Manga'],
    },
    { field: 'contentComments', args: 'content_type: anime, slug: "talked", size: 20' },
    { field: 'comments', args: 'size: 20' },
    { field: 'commentThread', args: `comment_reference: "${THREAD_TOP}"` },
    { field: 'commentThread', args: `comment_reference: "${THREAD_MIDDLE}"` },
    { field: 'latestComments', args: '' },
    { field: 'collection', args: `reference: "${LABELLED_COLLECTION}"`, members: CONTENT_KINDS },
    { field: 'collections', args: 'size: 20, input: { only_public: false }', members: CONTENT_KINDS },
    // The caller's own (required authentication).
    { field: 'watchEntry', args: 'slug: "listed-1"', callerOnly: true },
    {
      field: 'readEntry',
      args: 'content_type: manga, slug: "listed-manga"',
      members: ['Manga'],
      callerOnly: true,
    },
    { field: 'notificationCount', args: '', callerOnly: true },
    { field: 'notifications', args: 'size: 20', callerOnly: true },
  ];
  /** A root field with its arguments, if it has any. */
  const call = (field: string, args: string): string => (args ? `${field}(${args})` : field);
  /** Object types below the root field a selection descends into, at most. */
  const MAX_DEPTH = 4;

  const plain = (nodes: Selected[]): string =>
    nodes.map(({ name, children }) => (children ? `${name} { ${plain(children)} }` : name)).join(' ');

  /** The values the random documents' variables take (their defaults). */
  const conditions = { yes: true, no: false };

  const compiles = (document: string): boolean => {
    const parsed = parse(document);
    const operation = parsed.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION)!;
    return compileSqlPlan(runner.schema, parsed, operation, t.orm.getMetadata(), conditions) !== undefined;
  };

  /** Adds to `at` every field of `type` the compiler expresses within the whole document `render()`. */
  function expand(
    render: () => string,
    at: Selected[],
    type: GraphQLObjectType,
    depth: number,
    members: string[],
  ): void {
    for (const [name, field] of Object.entries(type.getFields())) {
      if (field.args.length > 0 || name === '__typename') continue;
      const named = getNamedType(field.type);
      if (isUnionType(named)) {
        // An inline fragment on each member the items are of.
        const child: Selected = { name, type: named, children: [{ name: '__typename' }] };
        at.push(child);
        for (const member of named.getTypes().filter((each) => members.includes(each.name))) {
          const fragment = memberFragment(member);
          child.children!.push(fragment);
          expand(render, fragment.children!, member, depth + 1, members);
        }
        if (!compiles(render())) at.pop();
      } else if (isObjectType(named)) {
        if (depth >= MAX_DEPTH) continue;
        const child: Selected = { name, type: named, children: [{ name: '__typename' }] };
        at.push(child);
        if (!compiles(render())) {
          at.pop();
          continue;
        }
        expand(render, child.children!, named, depth + 1, members);
      } else if (isLeafType(named)) {
        at.push({ name });
        if (!compiles(render())) at.pop();
      }
    }
  }

  /** An inline fragment on a union's member, to be expanded with the member's fields. */
  const memberFragment = (member: GraphQLObjectType): Selected => ({
    name: `... on ${member.name}`,
    type: member,
    fragment: true,
    children: [{ name: '__typename' }],
  });

  function largestSelection(field: string, args: string, members: string[]): Selected[] {
    const type = getNamedType(runner.schema.getQueryType()!.getFields()[field].type);
    const top: Selected[] = [{ name: '__typename' }];
    const render = () => `{ ${call(field, args)} { ${plain(top)} } }`;
    if (isObjectType(type)) expand(render, top, type, 0, members);
    // A root typed as a union: an inline fragment on each member it answers with.
    else if (isUnionType(type)) {
      for (const member of type.getTypes().filter((each) => members.includes(each.name))) {
        const fragment = memberFragment(member);
        top.push(fragment);
        expand(render, fragment.children!, member, 0, members);
      }
    }
    return top;
  }

  /** mulberry32: the same documents on every run. */
  function seeded(seed: number): () => number {
    let state = seed;
    return () => {
      state = (state + 0x6d2b79f5) | 0;
      let x = Math.imul(state ^ (state >>> 15), 1 | state);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
    };
  }

  /** A random document over `selection`: a subset of it, written in the ways a frontend might. */
  function randomDocument(
    random: () => number,
    field: string,
    args: string,
    selection: Selected[],
    type: GraphQLCompositeType,
  ): string {
    const fragments: string[] = [];
    let aliases = 0;
    const write = (nodes: Selected[], on: GraphQLCompositeType): string => {
      const kept = nodes.filter(() => random() < 0.7);
      if (kept.length === 0) kept.push(nodes[Math.floor(random() * nodes.length)]);
      const parts = kept.map(({ name, type: child, fragment, children }) => {
        const alias = !fragment && aliases < 20 && random() < 0.15 ? `a${(aliases += 1)}: ` : '';
        const roll = random();
        const directive =
          roll < 0.08
            ? ' @include(if: $yes)'
            : roll < 0.16
              ? ' @skip(if: $no)'
              : roll < 0.2
                ? ' @skip(if: $yes)'
                : '';
        return `${alias}${name}${directive}${children ? ` { ${write(children, child!)} }` : ''}`;
      });
      // Some of the fields move into a fragment on the same type, inline or named.
      const cut = Math.floor(random() * parts.length);
      const moved = parts.splice(cut, random() < 0.3 ? parts.length - cut : 0);
      if (moved.length === 0) return parts.join(' ');
      if (random() < 0.5) return [...parts, `... on ${on.name} { ${moved.join(' ')} }`].join(' ');
      const name = `F${fragments.length + 1}`;
      fragments.push(`fragment ${name} on ${on.name} { ${moved.join(' ')} }`);
      return [...parts, `...${name}`].join(' ');
    };
    // Both variables are used at least once, as GraphQL requires.
    const body = `${write(selection, type)} __typename @include(if: $yes) @skip(if: $no)`;
    return `query Random($yes: Boolean! = true, $no: Boolean! = false) { ${call(field, args)} { ${body} } } ${fragments.join(' ')}`;
  }

  /** About 15 s alone (ten roots, 13 documents each, both ways, two callers); more while other suites run. */
  const DRIFT_TIMEOUT_MS = 120_000;

  it(
    'answers every document as the resolvers do, with and without a caller',
    async () => {
      // One "now" for every request (the schedule's time_left).
      const now = Date.now();
      fixDate(now);
      const { token } = await seedPersonManga();
      const { anime } = await joinFranchise();
      await seedSchedule(now, anime);
      const novel = await buildNovel(t.orm, { slug: 'cast' });
      for (let i = 0; i < 4; i += 1)
        await buildAppearance(t.orm, await buildCharacter(t.orm, i === 0 ? { image: null } : {}), { novel });
      // A character in novels with and without the caller's read entries, and in a deleted one.
      const member = await buildCharacter(t.orm, { slug: 'cast-member' });
      const novels = await Promise.all(
        [0, 1, 2].map((i) => buildNovel(t.orm, { slug: `member-${i}`, deleted: i === 2 })),
      );
      const withRead = await t.orm.em.fork().findOneOrFail(Novel, { slug: 'novel-1' });
      for (const [i, each] of [novel, withRead, ...novels].entries())
        await buildAppearance(t.orm, member, { novel: each }, i === 0);
      await seedComments();
      await seedCollections();
      // The caller's notifications: a system one, and one of a follow (with its initiator).
      await seedSystemNotification(await t.orm.em.fork().findOneOrFail(User, { username: 'reader' }));
      const follower = await buildToken(t.orm, await buildUser(t.orm, { avatar_path: '/f.png' }));
      expect((await rest(t.app, 'PUT', '/follow/reader', undefined, { token: follower })).status).toBe(200);
      const random = seeded(22);
      const reached = new Set<string>();
      for (const { field, args, members = [], callerOnly } of roots) {
        const type = getNamedType(
          runner.schema.getQueryType()!.getFields()[field].type,
        ) as GraphQLCompositeType;
        const selection = largestSelection(field, args, members);
        const walk = (nodes: Selected[], on: GraphQLCompositeType) =>
          nodes.forEach(({ name, type: child, fragment, children }) => {
            if (!fragment) reached.add(`${on.name}.${name}`);
            if (children) walk(children, child!);
          });
        walk(selection, type);
        const documents = [`{ ${call(field, args)} { ${plain(selection)} } }`];
        for (let i = 0; i < 12; i += 1) documents.push(randomDocument(random, field, args, selection, type));
        for (const document of documents) {
          expect({ document, compiles: compiles(document) }).toEqual({ document, compiles: true });
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
