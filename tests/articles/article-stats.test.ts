import { Follow } from '../../src/accounts/follow.entity';
import type { User } from '../../src/accounts/user.entity';
import { Article, Tag } from '../../src/articles/article.entity';
import { restRoutes } from '../../src/routes';
import { buildThirdPartyToken, buildToken, buildUser, orderedReference } from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { keysOf, shapeProblems, USER_WITH_FOLLOWED, type Shape } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { type Json, seconds, sortedKeys } from '../setup/json';
import { executedTwin } from '../setup/list-route';
import { articleBody, buildArticle } from './helpers';

/**
 * GET /articles/stats (`articleStats`, pages.md "Articles"): the top authors of the last
 * 30 days and the most used tags.
 */
const t = useTestApp();

const PATH = '/articles/stats';
const route = restRoutes.find((r) => r.method === 'GET' && r.path === PATH)!;
const resolverDocument = executedTwin(route.document);
const DOCUMENTS = [
  ['/graphql route document', route.document],
  ['/graphql executed twin', resolverDocument],
] as const;

const ERRORS = {
  denied: { status: 403, code: 'permission:denied', message: "You don't have permission for this action" },
  deniedUk: { status: 403, code: 'permission:denied', message: 'У вас немає дозволу на цю дію' },
  userDeleted: { status: 400, code: 'user:deleted', message: 'Deleted' },
  userDeletedUk: { status: 400, code: 'user:deleted', message: 'Видалено...' },
} as const;
type Expected = { status: number; code: string; message: string };

const AUTHOR_STATS: Shape = {
  user: { object: USER_WITH_FOLLOWED },
  total_articles: 'integer',
  total_comments: 'integer',
  total_likes: 'integer',
  author_score: 'number',
};
const TAG: Shape = { name: 'string', content_count: 'integer' };

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const ago = (ms: number): Date => new Date(Date.now() - ms);

// ---------------------------------------------------------------------------
// Fixtures.

async function member(o: Partial<User> = {}): Promise<{ user: User; as: CallOptions }> {
  const user = await buildUser(t.orm, o);
  return { user, as: { token: await buildToken(t.orm, user) } };
}

const thirdParty = async (user: User, scope: string[]): Promise<CallOptions> => ({
  token: await buildThirdPartyToken(t.orm, user, scope),
});

/** An author with every nullable User field filled (so the shape check sees no null). */
const author = (o: Partial<User> = {}): Promise<User> =>
  buildUser(t.orm, {
    description: 'About me',
    cover: '/cover.jpg',
    avatar_path: 'avatars/a.png',
    lists_updated: new Date('2024-02-02T00:00:00Z'),
    ...o,
  } as Partial<User>);

/**
 * A published `original` article of `user` created `age` ago (default: a day), with
 * `likes` (vote_score) and `comments` (comments_count); `o` overrides anything.
 */
async function article(
  user: User,
  {
    likes = 0,
    comments = 0,
    age = DAY,
    ...o
  }: Partial<Article> & { likes?: number; comments?: number; age?: number } = {},
): Promise<Article> {
  const built = await buildArticle(t.orm, user, { vote_score: likes, comments_count: comments, ...o });
  // `created` is written directly: the entity sets it on create.
  await sql(`update article set created = ? where reference = ?`, [ago(age), built.reference]);
  return built;
}

async function follow(follower: User, followed: User): Promise<void> {
  const em = t.orm.em.fork();
  em.create(Follow, { follower: follower.reference, followed: followed.reference } as never);
  await em.flush();
}

async function tags(counts: Record<string, number>): Promise<void> {
  const em = t.orm.em.fork();
  for (const [name, content_count] of Object.entries(counts)) em.create(Tag, { name, content_count });
  await em.flush();
}

const sql = <T = Json>(text: string, params: unknown[] = []): Promise<T[]> =>
  t.orm.em.getConnection().execute<T[]>(text, params);

// ---------------------------------------------------------------------------
// Calls.

const call = (options: CallOptions = {}) => rest(t.app, 'GET', PATH, undefined, options);
const callGql = (options: CallOptions = {}, document: string = route.document) =>
  gql(t.app, document, {}, options);

/** REST, the compiled document and its executed twin: one 200 answer; returns it. */
async function expectStats(options: CallOptions = {}): Promise<Json> {
  const viaRest = await call(options);
  expect(viaRest.status).toBe(200);
  for (const [name, document] of DOCUMENTS) {
    const viaGql = await callGql(options, document);
    expect({ document: name, errors: viaGql.body.errors }).toEqual({ document: name, errors: undefined });
    expect({ document: name, body: viaGql.body.data.articleStats }).toEqual({
      document: name,
      body: viaRest.body,
    });
  }
  return viaRest.body as Json;
}

/** The GraphQL error as `{status, code, message}`. */
function graphError(body: Json): Expected {
  const errors = body.errors as { message: string; extensions: { code: string; http: { status: number } } }[];
  expect(errors).toHaveLength(1);
  const [error] = errors;
  return { status: error.extensions.http.status, code: error.extensions.code, message: error.message };
}

/** Fails alike on REST and both GraphQL documents. */
async function expectFailure(options: CallOptions, expected: Expected): Promise<void> {
  const viaRest = await call(options);
  expect({ status: viaRest.status, body: viaRest.body }).toEqual({
    status: expected.status,
    body: { code: expected.code, message: expected.message },
  });
  for (const [name, document] of DOCUMENTS) {
    const viaGql = await callGql(options, document);
    expect(viaGql.status).toBe(200);
    expect({ document: name, ...graphError(viaGql.body) }).toEqual({ document: name, ...expected });
    expect(viaGql.body.data?.articleStats ?? null).toBeNull();
  }
}

type Figures = { total_articles: number; total_comments: number; total_likes: number; author_score: number };
/** Each author's username with their figures, in answer order. */
const figuresOf = (body: Json): [string, Figures][] =>
  (body.authors as Json[]).map((entry) => {
    const { user, ...figures } = entry;
    return [(user as Json).username as string, figures as Figures];
  });
const usernamesOf = (body: Json): string[] => figuresOf(body).map(([username]) => username);
const figures = (articles: number, comments: number, likes: number): Figures => ({
  total_articles: articles,
  total_comments: comments,
  total_likes: likes,
  author_score: 2 * likes + comments + 1.5 * articles,
});

// ---------------------------------------------------------------------------

describe('GET /articles/stats', () => {
  describe('route', () => {
    it('is a GET with optional auth, no parameters, answering articleStats', () => {
      expect(route).toMatchObject({ auth: 'optional', params: {}, rootField: 'articleStats' });
      expect(route.paged).toBeFalsy();
      expect(route.body).toBeUndefined();
    });

    it('the literal path wins over /articles/{slug}: an article slugged "stats" is not served there', async () => {
      const writer = await author();
      const stats = await article(writer, { slug: 'stats', likes: 2, comments: 1 });
      const body = await expectStats();
      expect(sortedKeys(body)).toEqual(['authors', 'tags']);
      expect(figuresOf(body)).toEqual([[writer.username, figures(1, 1, 2)]]);
      // No view was counted: the article route never ran.
      expect((await t.orm.em.fork().findOneOrFail(Article, { reference: stats.reference })).views).toBe(0);
      // Another slug still reaches the article route.
      const other = await article(writer, { slug: 'stats-2' });
      const res = await rest(t.app, 'GET', `/articles/${other.slug}`);
      expect([res.status, res.body.slug, res.body.views]).toEqual([200, 'stats-2', 1]);
    });

    it('the literal path supports GET and HEAD only (semantics §7.8): DELETE is 405, the article stays', async () => {
      const writer = await member();
      const stats = await article(writer.user, { slug: 'stats' });
      const res = await rest(t.app, 'DELETE', PATH, undefined, writer.as);
      expect([res.status, res.body.code]).toEqual([405, 'system:method_not_allowed']);
      expect(res.headers.allow).toBe('GET, HEAD');
      expect((await t.orm.em.fork().findOneOrFail(Article, { reference: stats.reference })).deleted).toBe(
        false,
      );
      expect((await rest(t.app, 'HEAD', PATH)).status).toBe(200);
    });

    it('ignores unknown query parameters and any body', async () => {
      const writer = await author();
      await article(writer, { likes: 1 });
      const plain = await expectStats();
      expect((await rest(t.app, 'GET', `${PATH}?page=0&size=x&foo=1`)).body).toEqual(plain);
      expect((await rest(t.app, 'GET', PATH, { foo: 1 })).body).toEqual(plain);
    });
  });

  describe('authors', () => {
    it('serves each author as {user: User with is_followed, figures}, with the exact User fields', async () => {
      const writer = await author();
      const viewer = await member();
      await follow(viewer.user, writer);
      await article(writer, { likes: 4, comments: 3, category: 'news' });
      await article(writer, { likes: 1, comments: 2, category: 'reviews' });
      await article(writer, { likes: -2, comments: 0, category: 'original' });
      await call(viewer.as); // the token's first use slides it and sets last_active
      const body = await expectStats(viewer.as);
      const authors = body.authors as Json[];
      expect(authors).toHaveLength(1);
      expect(shapeProblems(authors[0], AUTHOR_STATS, 'authors[0]')).toEqual([]);
      expect(sortedKeys(authors[0])).toEqual(keysOf(AUTHOR_STATS));
      expect(authors[0]).toEqual({
        user: {
          reference: writer.reference,
          created: seconds(writer.created),
          updated: seconds('2024-02-02T00:00:00Z'),
          description: 'About me',
          username: writer.username,
          avatar: expect.stringMatching(/^https?:\/\/[^/]+\/avatars\/a\.png$/),
          cover: expect.stringMatching(/^https?:\/\/[^/]+\/cover\.jpg$/),
          active: expect.any(Boolean),
          role: 'user',
          is_followed: true,
        },
        // 3 articles, 5 comments, 3 likes: 2 × 3 + 5 + 1.5 × 3 = 15.5
        total_articles: 3,
        total_comments: 5,
        total_likes: 3,
        author_score: 15.5,
      });
    });

    it('counts only published, non-deleted, non-system articles of the last 30 days', async () => {
      const mixed = await author({ username: 'mixed' });
      await article(mixed, { likes: 1, comments: 1 });
      await article(mixed, { likes: 10, comments: 10, draft: true });
      await article(mixed, { likes: 20, comments: 20, deleted: true });
      await article(mixed, { likes: 40, comments: 40, category: 'system' });
      await article(mixed, { likes: 80, comments: 80, age: 31 * DAY });
      // Authors whose articles all fall out are absent.
      for (const [username, o] of [
        ['drafter', { draft: true }],
        ['deleter', { deleted: true }],
        ['system', { category: 'system' as const }],
        ['old', { age: 40 * DAY }],
      ] as const) {
        await article(await author({ username }), { likes: 5, comments: 5, ...o });
      }
      await author({ username: 'silent' });
      const body = await expectStats();
      expect(figuresOf(body)).toEqual([['mixed', figures(1, 1, 1)]]);
    });

    it('the window is the 30 days before the request: 29 days 23 hours in, 30 days 1 hour out', async () => {
      const writer = await author({ username: 'writer' });
      await article(writer, { likes: 1, age: 30 * DAY - HOUR });
      await article(writer, { likes: 100, age: 30 * DAY + HOUR });
      await article(writer, { likes: 2, age: 60 * 1000 });
      expect(figuresOf(await expectStats())).toEqual([['writer', figures(2, 0, 3)]]);
    });

    it('author_score = 2 × likes + comments + 1.5 × articles, a number that may be fractional or negative', async () => {
      const one = await author({ username: 'one_plain' });
      await article(one); // 1.5
      const liked = await author({ username: 'liked' });
      await article(liked, { likes: 3 }); // 7.5
      const commented = await author({ username: 'commented' });
      await article(commented, { comments: 4 }); // 5.5
      const two = await author({ username: 'two' });
      await article(two);
      await article(two); // 3
      const disliked = await author({ username: 'disliked' });
      await article(disliked, { likes: -5, comments: 1 }); // -7.5
      const body = await expectStats();
      expect(figuresOf(body)).toEqual([
        ['liked', { total_articles: 1, total_comments: 0, total_likes: 3, author_score: 7.5 }],
        ['commented', { total_articles: 1, total_comments: 4, total_likes: 0, author_score: 5.5 }],
        ['two', { total_articles: 2, total_comments: 0, total_likes: 0, author_score: 3 }],
        ['one_plain', { total_articles: 1, total_comments: 0, total_likes: 0, author_score: 1.5 }],
        ['disliked', { total_articles: 1, total_comments: 1, total_likes: -5, author_score: -7.5 }],
      ]);
      for (const entry of body.authors as Json[]) expect(typeof entry.author_score).toBe('number');
    });

    it('orders equal scores by user reference, not by username or article age', async () => {
      // Usernames and article ages run against the reference order.
      const users: User[] = [];
      for (const n of [3, 1, 2]) {
        const user = await author({ reference: orderedReference(n), username: `tie_${4 - n}` });
        await article(user, { likes: 1, comments: 1, age: n * HOUR }); // 4.5 each
        users.push(user);
      }
      const better = await author({ reference: orderedReference(9), username: 'better' });
      await article(better, { likes: 2 });
      const body = await expectStats();
      expect(usernamesOf(body)).toEqual(['better', 'tie_3', 'tie_2', 'tie_1']);
      expect((body.authors as Json[]).map((entry) => (entry.user as Json).reference)).toEqual([
        orderedReference(9),
        orderedReference(1),
        orderedReference(2),
        orderedReference(3),
      ]);
    });

    it('serves at most 10 authors: the 10 best of 13', async () => {
      for (let n = 1; n <= 13; n += 1) {
        const user = await author({ username: `author_${String(n).padStart(2, '0')}` });
        await article(user, { likes: n });
      }
      const body = await expectStats();
      expect(usernamesOf(body)).toEqual(
        Array.from({ length: 10 }, (_, i) => `author_${String(13 - i).padStart(2, '0')}`),
      );
      expect(figuresOf(body)[9]).toEqual(['author_04', figures(1, 0, 4)]);
    });

    it('an author stays in one entry whatever the number of articles', async () => {
      const prolific = await author({ username: 'prolific' });
      for (let i = 0; i < 12; i += 1) await article(prolific, { likes: 1, comments: 2 });
      expect(figuresOf(await expectStats())).toEqual([['prolific', figures(12, 24, 12)]]);
    });

    it('no qualifying article and no used tag: {authors: [], tags: []}', async () => {
      await article(await author(), { draft: true });
      await tags({ unused: 0 });
      expect(await expectStats()).toEqual({ authors: [], tags: [] });
    });
  });

  describe('is_followed', () => {
    it("is whether the caller follows the author: false for the caller's own entry and for anonymous callers", async () => {
      const followed = await author({ username: 'followed' });
      const stranger = await author({ username: 'stranger' });
      const viewer = await member({ username: 'viewer' } as Partial<User>);
      await article(followed, { likes: 3 });
      await article(stranger, { likes: 2 });
      await article(viewer.user, { likes: 1 });
      await follow(viewer.user, followed);
      // Someone else's follow does not count for the viewer.
      await follow(followed, stranger);
      await call(viewer.as);
      const followedOf = (body: Json) =>
        (body.authors as Json[]).map((entry) => [
          (entry.user as Json).username,
          (entry.user as Json).is_followed,
        ]);
      expect(followedOf(await expectStats(viewer.as))).toEqual([
        ['followed', true],
        ['stranger', false],
        ['viewer', false],
      ]);
      expect(followedOf(await expectStats())).toEqual([
        ['followed', false],
        ['stranger', false],
        ['viewer', false],
      ]);
    });
  });

  describe('tags', () => {
    it('serves the 10 tags with content_count > 0, by content_count desc then name in code-point order', async () => {
      await tags({
        zero: 0,
        lonely: 1,
        beta: 5,
        Beta: 5,
        alpha: 5,
        ärger: 5,
        _under: 5,
        '10': 5,
        top: 9,
        mid: 3,
        mid2: 3,
        low: 2,
        negative: -1,
      });
      const body = await expectStats();
      const list = body.tags as Json[];
      list.forEach((tag, i) => expect(shapeProblems(tag, TAG, `tags[${i}]`)).toEqual([]));
      expect(list.map((tag) => [tag.name, tag.content_count])).toEqual([
        ['top', 9],
        ['10', 5],
        ['Beta', 5],
        ['_under', 5],
        ['alpha', 5],
        ['beta', 5],
        ['ärger', 5],
        ['mid', 3],
        ['mid2', 3],
        ['low', 2],
      ]);
    });

    it('serves fewer than 10 when fewer are used', async () => {
      await tags({ one: 1, two: 2, none: 0 });
      expect((await expectStats()).tags).toEqual([
        { name: 'two', content_count: 2 },
        { name: 'one', content_count: 1 },
      ]);
    });

    it('follows the tags that articles written through the service carry, old and draft ones included', async () => {
      const writer = await member();
      for (const [tagList, draft] of [
        [['anime', 'news'], false],
        [['anime'], true],
      ] as const) {
        const res = await rest(
          t.app,
          'POST',
          '/articles/create',
          articleBody({ tags: tagList, draft }),
          writer.as,
        );
        expect(res.status).toBe(200);
      }
      // Tags count articles regardless of age: the 30-day window is the authors'.
      await sql(`update article set created = ?`, [ago(90 * DAY)]);
      const body = await expectStats(writer.as);
      expect(body).toEqual({
        authors: [],
        tags: [
          { name: 'anime', content_count: 2 },
          { name: 'news', content_count: 1 },
        ],
      });
    });
  });

  describe('optional authentication and scope read:articles_top', () => {
    async function fixture() {
      const writer = await author({ username: 'writer' });
      await article(writer, { likes: 1 });
      const viewer = await member();
      await follow(viewer.user, writer);
      return { writer, viewer };
    }
    const isFollowed = (body: Json) => ((body.authors as Json[])[0].user as Json).is_followed;

    it('anonymous, bad, expired and banned tokens are served as anonymous', async () => {
      const { writer, viewer } = await fixture();
      const anonymous = await expectStats();
      expect(isFollowed(anonymous)).toBe(false);
      const expired = await buildToken(t.orm, viewer.user, { expiration: new Date(Date.now() - 1000) });
      const banned = await member({ banned: true });
      await follow(banned.user, writer);
      for (const token of ['not-a-token', 'x'.repeat(64), expired, banned.as.token!]) {
        expect(await expectStats({ token })).toEqual(anonymous);
      }
    });

    it('a token in the auth cookie counts as in the header', async () => {
      const { viewer } = await fixture();
      await call(viewer.as);
      expect(isFollowed(await expectStats({ cookie: viewer.as.token }))).toBe(true);
    });

    it("a deleted user's token is 400 user:deleted on every door, in both languages", async () => {
      await fixture();
      const gone = await member({ role: 'deleted' });
      await expectFailure(gone.as, ERRORS.userDeleted);
      await expectFailure({ ...gone.as, language: 'uk' }, ERRORS.userDeletedUk);
    });

    it('a third-party token without read:articles_top is 403 permission:denied on every door, in both languages', async () => {
      const { viewer } = await fixture();
      const without = await thirdParty(viewer.user, [
        'read:articles',
        'create:article',
        'read:follow',
        'watchlist',
      ]);
      await expectFailure(without, ERRORS.denied);
      await expectFailure({ ...without, language: 'uk' }, ERRORS.deniedUk);
      await expectFailure(await thirdParty(viewer.user, []), ERRORS.denied);
    });

    it.each([[['read:articles_top']], [['article']], [['all']]])(
      'a third-party token holding %j is served with is_followed',
      async (scope) => {
        const { viewer } = await fixture();
        const token = await thirdParty(viewer.user, scope);
        await call(token);
        expect(isFollowed(await expectStats(token))).toBe(true);
      },
    );
  });

  describe('bounded SQL', () => {
    /** The statements of REST, compiled and executed GraphQL, anonymous then as `as`. */
    async function counts(as: CallOptions, authors: number, tagCount: number): Promise<number[]> {
      const result: number[] = [];
      for (const options of [{}, as]) {
        result.push(
          await t.queries.count(async () => {
            const res = await call(options);
            expect(res.status).toBe(200);
            expect([(res.body.authors as Json[]).length, (res.body.tags as Json[]).length]).toEqual([
              authors,
              tagCount,
            ]);
          }),
        );
        for (const [, document] of DOCUMENTS) {
          result.push(
            await t.queries.count(async () => {
              const res = await callGql(options, document);
              expect(res.body.errors).toBeUndefined();
              expect(res.body.data.articleStats.authors).toHaveLength(authors);
            }),
          );
        }
      }
      return result;
    }

    it('as many statements for 10 authors and 10 tags as for 1 and 1; REST and the compiled document are 1', async () => {
      const viewer = await member();
      const addAuthor = async (n: number) => {
        const user = await author();
        for (let i = 0; i < 3; i += 1) await article(user, { likes: n, comments: i });
        await follow(viewer.user, user);
      };
      await addAuthor(1);
      await tags({ tag_0: 1 });
      await call(viewer.as); // the token's first use slides it
      const one = await counts(viewer.as, 1, 1);
      for (let n = 2; n <= 12; n += 1) await addAuthor(n);
      await tags(Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`tag_${i + 1}`, i + 2])));
      const many = await counts(viewer.as, 10, 10);
      expect(many).toEqual(one);
      // Anonymous: [REST, compiled, executed, ...]; REST and the route document are one statement.
      expect(one.slice(0, 2)).toEqual([1, 1]);
      // With a token, the token look-up comes on top.
      expect(one.slice(3, 5)).toEqual([2, 2]);
      expect(one[2]).toBeGreaterThanOrEqual(1);
    });
  });
});
