import type { User } from '../../src/accounts/user.entity';
import { Anime } from '../../src/catalog/anime.entity';
import { restRoutes } from '../../src/routes';
import { Follow } from '../../src/accounts/follow.entity';
import {
  buildAnime,
  buildCharacter,
  buildClient,
  buildManga,
  buildReadEntry,
  buildToken,
  buildUser,
  buildWatchEntry,
} from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { ANIME_SUMMARY_WITH_WATCH, PAGINATION, shapeProblems, type Shape } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import type { Json } from '../setup/json';
import { animeSlugs, buildCollection, buildCollectionVote, collectionBody } from './helpers';

/** #14 GET /collections/{reference} and #15 POST /collections. */
const t = useTestApp();

const USER_WITH_FOLLOW: Shape = {
  reference: 'string',
  created: 'integer',
  updated: 'integer',
  description: 'string',
  username: 'string',
  avatar: 'string',
  cover: 'string',
  active: 'boolean',
  role: 'string',
  is_followed: 'boolean',
};
const COLLECTION_ITEM: Shape = {
  comment: 'string',
  label: 'string',
  content_type: 'string',
  order: 'integer',
  content: { object: ANIME_SUMMARY_WITH_WATCH },
};
const COLLECTION: Shape = {
  reference: 'string',
  data_type: 'string',
  content_type: 'string',
  description: 'string',
  title: 'string',
  visibility: 'string',
  author: { object: USER_WITH_FOLLOW },
  labels_order: { arrayOf: 'string' },
  created: 'integer',
  updated: 'integer',
  comments_count: 'integer',
  vote_score: 'integer',
  my_score: 'integer',
  entries: 'integer',
  tags: { arrayOf: 'string' },
  spoiler: 'boolean',
  nsfw: 'boolean',
  collection: { arrayOf: COLLECTION_ITEM },
};
/** Fields a fixture may leave null or empty (user profile details, the viewer's arrays). */
const nullable = (body: Json): Json => JSON.parse(JSON.stringify(body, (_k, v) => (v === null ? 'null' : v)));

const route14 = restRoutes.find((r) => r.contract === 14)!;
const route15 = restRoutes.find((r) => r.contract === 15)!;

const getRest = (reference: string, options: CallOptions = {}) =>
  rest(t.app, 'GET', `/collections/${reference}`, undefined, options);
const getGql = (reference: string, options: CallOptions = {}) =>
  gql(t.app, route14.document, { reference }, options);

interface Paging {
  page?: number;
  size?: number;
}
function search(body: unknown, options: CallOptions & Paging = {}) {
  const query = new URLSearchParams();
  if (options.page !== undefined) query.set('page', String(options.page));
  if (options.size !== undefined) query.set('size', String(options.size));
  const qs = query.toString();
  return rest(t.app, 'POST', `/collections${qs ? `?${qs}` : ''}`, body, options);
}
const searchGql = (input: unknown, options: CallOptions & Paging = {}) =>
  gql(t.app, route15.document, { page: options.page ?? 1, size: options.size ?? 15, input }, options);

async function caller(o: Partial<User> = {}): Promise<{ user: User; as: CallOptions }> {
  const user = await buildUser(t.orm, o);
  return { user, as: { token: await buildToken(t.orm, user) } };
}

const follow = async (follower: User, followed: User) => {
  const em = t.orm.em.fork();
  em.create(Follow, { follower: follower.reference, followed: followed.reference } as never);
  await em.flush();
};

/** An author's collection of 8 fully filled anime items, a viewer with entries, votes and a follow. */
async function fixture() {
  const author = await buildUser(t.orm, {
    description: 'About me',
    cover: '/cover.jpg',
    lists_updated: new Date(),
  } as Partial<User>);
  const viewer = await caller();
  const slugs: string[] = [];
  for (let i = 1; i <= 8; i += 1) {
    const a = await buildAnime(t.orm, {
      slug: `full-${i}`,
      title_ua: 'Назва',
      title_ja: 'タイトル',
      status: 'finished',
      season: 'fall',
      source: 'manga',
      rating: 'pg_13',
      episodes_released: 12,
      episodes_total: 12,
      image: '/a.jpg',
      year: 2020,
      start_date: new Date('2020-01-01T00:00:00Z'),
      end_date: new Date('2020-03-01T00:00:00Z'),
    });
    slugs.push(a.slug);
    if (i <= 7) await buildWatchEntry(t.orm, viewer.user, a, { note: 'mine', status: 'completed', score: 8 });
  }
  const content = slugs.map((slug, i) => ({
    slug,
    order: 8 - i,
    label: i % 2 ? 'odd' : 'even',
    comment: `comment ${i}`,
  }));
  const collection = await buildCollection(
    t.orm,
    author,
    collectionBody([], { content, labels_order: ['even', 'odd'] }),
  );
  await buildCollectionVote(t.orm, viewer.user, collection, 1);
  await follow(viewer.user, author);
  await t.orm.em.getConnection().execute(`update anime set deleted = true where slug = 'full-8'`); // order 1
  return { author, viewer, collection, slugs };
}

async function expectSame14(reference: string, options: CallOptions = {}): Promise<Json> {
  const restRes = await getRest(reference, options);
  const gqlRes = await getGql(reference, options);
  expect(restRes.status).toBe(200);
  expect(gqlRes.body.errors).toBeUndefined();
  expect(restRes.body).toEqual(gqlRes.body.data.collection);
  return restRes.body as Json;
}

async function expectSame15(body: Json, options: CallOptions & Paging = {}): Promise<Json> {
  const restRes = await search(body, options);
  const gqlRes = await searchGql(body, options);
  expect(restRes.status).toBe(200);
  expect(gqlRes.body.errors).toBeUndefined();
  expect(restRes.body).toEqual(gqlRes.body.data.collections);
  return restRes.body as Json;
}

describe('GET /collections/{reference} (#14)', () => {
  it('REST ≡ GraphQL anonymously: every live item by order, empty watch, my_score 0, is_followed false', async () => {
    const { collection } = await fixture();
    const body = await expectSame14(collection.reference);
    expect(shapeProblems(nullable(body), COLLECTION, 'collection', ['watch'])).toEqual([]);
    const items = body.collection as Json[];
    expect(items.map((i) => i.order)).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(
      items.every(
        (i) => (i.content as Json).watch instanceof Array && ((i.content as Json).watch as []).length === 0,
      ),
    ).toBe(true);
    expect(body).toMatchObject({ my_score: 0, vote_score: 1, author: { is_followed: false } });
  });

  it('REST ≡ GraphQL with a viewer: own watch entries, my_score, is_followed', async () => {
    const { collection, viewer } = await fixture();
    const body = await expectSame14(collection.reference, viewer.as);
    expect(shapeProblems(nullable(body), COLLECTION, 'collection', ['watch'])).toEqual([]);
    expect(body).toMatchObject({ my_score: 1, author: { is_followed: true } });
    const items = body.collection as Json[];
    // Orders 2..8 are full-7..full-1, all watched by the viewer (full-8, order 1, is deleted).
    expect(items.map((i) => ((i.content as Json).watch as Json[]).map((w) => w.note))).toEqual(
      Array.from({ length: 7 }, () => ['mine']),
    );
  });

  it('visibility: private only for its author; unlisted for anyone with the reference; 404 otherwise', async () => {
    const author = await caller();
    const stranger = await caller({ role: 'admin' });
    const [slug] = await animeSlugs(t.orm, 1);
    const secret = await buildCollection(
      t.orm,
      author.user,
      collectionBody([slug], { visibility: 'private' }),
    );
    const unlisted = await buildCollection(
      t.orm,
      author.user,
      collectionBody([slug], { visibility: 'unlisted' }),
    );
    expect((await getRest(secret.reference, author.as)).status).toBe(200);
    for (const options of [{}, stranger.as]) {
      const res = await getRest(secret.reference, options);
      expect([res.status, res.body.code]).toEqual([404, 'collections:not_found']);
      const gqlRes = await getGql(secret.reference, options);
      expect(gqlRes.body.errors[0].extensions.code).toBe('collections:not_found');
      expect((await getRest(unlisted.reference, options)).status).toBe(200);
    }
    const bad = await getRest('not-a-uuid');
    expect([bad.status, bad.body.message]).toEqual([400, 'Invalid field reference in request path']);
  });

  it('checks the scopes read:watchlist and read:readlist after the look-up', async () => {
    const author = await caller();
    const [slug] = await animeSlugs(t.orm, 1);
    const collection = await buildCollection(t.orm, author.user, collectionBody([slug]));
    const client = await buildClient(t.orm, await buildUser(t.orm));
    const partial = { token: await buildToken(t.orm, author.user, { client, scope: ['read:watchlist'] }) };
    expect((await getRest(collection.reference, partial)).body.code).toBe('permission:denied');
    expect((await getRest('00000000-0000-0000-0000-000000000000', partial)).body.code).toBe(
      'collections:not_found',
    );
    const full = {
      token: await buildToken(t.orm, author.user, { client, scope: ['watchlist', 'readlist'] }),
    };
    expect((await getRest(collection.reference, full)).status).toBe(200);
  });

  it('serves manga with read and characters in their collections', async () => {
    const author = await caller();
    const manga = await buildManga(t.orm, { slug: 'berserk' });
    await buildReadEntry(t.orm, author.user, { manga }, { note: 'reading it' });
    await buildCharacter(t.orm, { slug: 'guts' });
    const m = await buildCollection(
      t.orm,
      author.user,
      collectionBody(['berserk'], { content_type: 'manga' }),
    );
    const c = await buildCollection(
      t.orm,
      author.user,
      collectionBody(['guts'], { content_type: 'character' }),
    );
    const mb = await expectSame14(m.reference, author.as);
    expect(((mb.collection as Json[])[0].content as Json).read).toMatchObject([{ note: 'reading it' }]);
    const cb = await expectSame14(c.reference, author.as);
    expect((cb.collection as Json[])[0].content).toMatchObject({ data_type: 'character', slug: 'guts' });
  });
});

describe('POST /collections (#15)', () => {
  it('REST ≡ GraphQL with and without a viewer; previews of the 6 lowest live orders', async () => {
    const { viewer } = await fixture();
    for (const options of [{}, viewer.as]) {
      const body = await expectSame15({}, options);
      expect(shapeProblems(nullable(body.pagination as Json), PAGINATION, 'pagination')).toEqual([]);
      const [item] = body.list as Json[];
      expect(shapeProblems(nullable(item), COLLECTION, 'item', ['watch'])).toEqual([]);
      expect((item.collection as Json[]).map((i) => i.order)).toEqual([2, 3, 4, 5, 6, 7]);
      expect(item.entries).toBe(8);
      expect(item.my_score).toBe(options === viewer.as ? 1 : 0);
    }
  });

  it('sort: allowlist and default system_ranking desc, created desc, reference desc', async () => {
    const author = await caller();
    const [slug] = await animeSlugs(t.orm, 1);
    const make = (title: string, at: string) =>
      buildCollection(t.orm, author.user, collectionBody([slug], { title }), { at: new Date(at) });
    const old = await make('old', '2024-01-01T00:00:00Z');
    const top = await make('top', '2023-01-01T00:00:00Z');
    const recent = await make('recent', '2024-06-01T00:00:00Z');
    await buildCollectionVote(t.orm, author.user, top, 1);
    const titles = async (body: Json) => ((await search(body)).body.list as Json[]).map((c) => c.title);
    expect(await titles({})).toEqual(['top', 'recent', 'old']);
    expect(await titles({ sort: ['created:asc'] })).toEqual(['top', 'old', 'recent']);
    expect(await titles({ sort: ['system_ranking:asc', 'created:desc'] })).toEqual(['recent', 'old', 'top']);
    void old;
    void recent;
    for (const sort of [
      ['title:asc'],
      ['created'],
      ['created:up'],
      ['created:asc', 'created:desc'],
      ['vote_score:desc'],
    ]) {
      const res = await search({ sort });
      expect([res.status, res.body.message]).toEqual([400, 'Invalid field sort in request body']);
    }
  });

  it('filters: only_public, author (own private), content_type, tags, content anywhere', async () => {
    const me = await caller();
    const other = await caller();
    const slugs = await animeSlugs(t.orm, 8);
    await buildManga(t.orm, { slug: 'berserk' });
    const mk = (user: User, title: string, o: Json) =>
      buildCollection(t.orm, user, collectionBody(slugs.slice(0, 2), { title, tags: [], ...o }));
    await mk(me.user, 'my public', { tags: ['топ'] });
    await mk(me.user, 'my unlisted', {});
    await mk(me.user, 'my private', {});
    await t.orm.em
      .getConnection()
      .execute(`update collection set visibility = 'unlisted' where title = 'my unlisted'`);
    await t.orm.em
      .getConnection()
      .execute(`update collection set visibility = 'private' where title = 'my private'`);
    await mk(other.user, 'their deep', {
      content: slugs.map((slug, i) => ({ slug, order: i + 1 })),
      tags: ['топ', 'anime'],
    });
    await mk(other.user, 'their manga', { content_type: 'manga', content: [{ slug: 'berserk', order: 1 }] });
    await mk(other.user, 'their private', { visibility: 'private' });
    const titles = async (body: Json, options: CallOptions = {}) => {
      const res = await search(body, options);
      expect(res.status).toBe(200);
      return (res.body.list as Json[]).map((c) => c.title).sort();
    };
    expect(await titles({})).toEqual(['my public', 'their deep', 'their manga']);
    expect(await titles({ only_public: false })).toEqual([
      'my public',
      'my unlisted',
      'their deep',
      'their manga',
    ]);
    expect(await titles({ only_public: false, author: me.user.username.toUpperCase() }, me.as)).toEqual([
      'my private',
      'my public',
      'my unlisted',
    ]);
    expect(await titles({ only_public: false, author: me.user.username })).toEqual([
      'my public',
      'my unlisted',
    ]);
    expect(await titles({ only_public: false, author: other.user.username }, me.as)).toEqual([
      'their deep',
      'their manga',
    ]);
    expect(await titles({ content_type: 'manga' })).toEqual(['their manga']);
    expect(await titles({ tags: ['топ', 'anime'] })).toEqual(['their deep']);
    expect(await titles({ tags: ['топ'] })).toEqual(['my public', 'their deep']);
    expect(await titles({ content: [slugs[7]], content_type: 'anime' })).toEqual(['their deep']);
    expect(await titles({ content: ['berserk'], content_type: 'manga' })).toEqual(['their manga']);
  });

  it('errors in order: author_not_found, empty_content_type, bad_content; validation first', async () => {
    await animeSlugs(t.orm, 1);
    const cases: [Json, number, string][] = [
      [{ author: 'nobody', content: ['a-1'] }, 404, 'collections:author_not_found'],
      [{ content: ['a-1'] }, 400, 'collections:empty_content_type'],
      [{ content: ['nope'], content_type: 'anime' }, 400, 'collections:bad_content'],
      [{ content: ['a-1'], content_type: 'manga' }, 400, 'collections:bad_content'],
      [{ content: ['a-1', 'a-2'], author: 'nobody' }, 400, 'system:validation_error'],
      [{ tags: ['a', 'b', 'c', 'd'] }, 400, 'system:validation_error'],
      [{ content_type: 'article' }, 400, 'system:validation_error'],
      [{ only_public: null }, 400, 'system:validation_error'],
    ];
    for (const [body, status, code] of cases) {
      const restRes = await search(body);
      expect([restRes.status, restRes.body.code]).toEqual([status, code]);
      const [error] = (await searchGql(body)).body.errors;
      expect([error.extensions.code, error.extensions.http.status, error.message]).toEqual([
        code,
        status,
        restRes.body.message,
      ]);
    }
    const empty = await rest(t.app, 'POST', '/collections', undefined);
    expect([empty.status, empty.body.message]).toEqual([400, 'Invalid field in request body']);
  });

  it('needs scope read:collection for third-party tokens', async () => {
    const user = await buildUser(t.orm);
    const client = await buildClient(t.orm, await buildUser(t.orm));
    const without = { token: await buildToken(t.orm, user, { client, scope: ['read:watchlist'] }) };
    expect((await search({}, without)).body.code).toBe('permission:denied');
    const withScope = { token: await buildToken(t.orm, user, { client, scope: ['collection'] }) };
    expect((await search({}, withScope)).status).toBe(200);
  });

  it('pages exactly, and size=100 sends as many queries as size=1', async () => {
    const author = await caller();
    const viewer = await caller();
    const slugs = await animeSlugs(t.orm, 7);
    for (const slug of slugs)
      await buildWatchEntry(t.orm, viewer.user, await t.orm.em.fork().findOneOrFail(Anime, { slug }));
    for (let i = 0; i < 30; i += 1) {
      const other = await buildUser(t.orm);
      await buildCollection(t.orm, i % 2 ? author.user : other, collectionBody(slugs));
    }
    const page = await search({}, { page: 4, size: 8 });
    expect(page.body.pagination).toEqual({ total: 30, pages: 4, page: 4 });
    expect((page.body.list as Json[]).length).toBe(6);
    const past = await search({}, { page: 9, size: 8 });
    expect([past.body.list, past.body.pagination]).toEqual([[], { total: 30, pages: 4, page: 9 }]);

    const count = async (size: number) => {
      let length = 0;
      const queries = await t.queries.count(async () => {
        const res = await search({}, { ...viewer.as, size });
        length = (res.body.list as Json[]).length;
      });
      expect(length).toBe(Math.min(size, 30));
      return queries;
    };
    await count(1); // the token's first use writes
    expect(await count(100)).toBe(await count(1));
    expect(await count(1)).toBeLessThanOrEqual(10);
  });
});
