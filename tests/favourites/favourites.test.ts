import { ActionRecord } from '../../src/accounts/action-record.entity';
import { Follow } from '../../src/accounts/follow.entity';
import type { User } from '../../src/accounts/user.entity';
import { Anime } from '../../src/catalog/anime.entity';
import { Manga } from '../../src/catalog/manga.entity';
import { Novel } from '../../src/catalog/novel.entity';
import { Character } from '../../src/characters/character.entity';
import { Collection } from '../../src/collections/collection.entity';
import type { RestRoute } from '../../src/rest/route';
import { restRoutes } from '../../src/routes';
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
  buildWatchEntry,
  MISSING_REFERENCE,
  orderedReference,
} from '../factories';
import { buildCollection, buildCollectionVote, collectionBody } from '../collections/helpers';
import { gql, rest, type CallOptions } from '../setup/clients';
import {
  ANIME_SUMMARY_WITH_WATCH,
  CHARACTER,
  keysOf,
  PAGINATION,
  READABLE_SUMMARY_WITH_READ,
  shapeProblems,
  USER_WITH_FOLLOWED,
  type Shape,
} from '../setup/contract-shapes';
import { withFailingActionRecords } from '../setup/db';
import { useTestApp } from '../setup/harness';
import { type Json, seconds, sortedKeys } from '../setup/json';
import { executedTwin, type Paging } from '../setup/list-route';
import { INVALID_PAGING_QUERIES } from '../setup/paging';

/**
 * Favourites (pages.md "Anime page" and "User profile"): GET, PUT and DELETE
 * /favourite/{content_type}/{slug} (`favourite`, `addFavourite`, `removeFavourite`) and
 * POST /favourite/{content_type}/{username}/list (`favourites`), for the five kinds.
 */
const t = useTestApp();

type Kind = 'anime' | 'manga' | 'novel' | 'character' | 'collection';
const KINDS: readonly Kind[] = ['anime', 'manga', 'novel', 'character', 'collection'];
type Method = 'GET' | 'PUT' | 'DELETE';
const METHODS: readonly Method[] = ['GET', 'PUT', 'DELETE'];

const ITEM_PATH = '/favourite/{content_type}/{slug}';
const LIST_PATH = '/favourite/{content_type}/{username}/list';
const routeOf = (method: Method | 'POST', path = ITEM_PATH): RestRoute =>
  restRoutes.find((r) => r.path === path && r.method === method)!;
const getRoute = routeOf('GET');
const listRoute = routeOf('POST', LIST_PATH);
const getResolverDocument = executedTwin(getRoute.document);
const listResolverDocument = executedTwin(listRoute.document);

const ERRORS = {
  contentNotFound: { status: 404, code: 'favourite:content_not_found', message: 'Content not found' },
  notFound: { status: 404, code: 'favourite:not_found', message: 'Favourite not found' },
  exists: { status: 409, code: 'favourite:exists', message: 'Already in favourites' },
  denied: { status: 403, code: 'permission:denied', message: "You don't have permission for this action" },
  userNotFound: { status: 404, code: 'user:not_found', message: 'User not found' },
  userDeleted: { status: 400, code: 'user:deleted', message: 'Deleted' },
  badKind: {
    status: 400,
    code: 'system:validation_error',
    message: 'Invalid field content_type in request path',
  },
} as const;
type Expected = { status: number; code: string; message?: string };

// ---------------------------------------------------------------------------
// Callers.

async function member(o: Partial<User> = {}): Promise<{ user: User; as: CallOptions }> {
  const user = await buildUser(t.orm, o);
  return { user, as: { token: await buildToken(t.orm, user) } };
}

const thirdParty = async (user: User, scope: string[]): Promise<CallOptions> => ({
  token: await buildThirdPartyToken(t.orm, user, scope),
});

// ---------------------------------------------------------------------------
// Items of each kind (factory helpers of this file).

interface Item {
  kind: Kind;
  /** What the path names: the slug, or a collection's reference. */
  slug: string;
  reference: string;
}

const FULL_ANIME: Partial<Anime> = {
  title_ua: 'Назва',
  title_en: 'Title',
  title_ja: 'タイトル',
  media_type: 'tv',
  status: 'finished',
  season: 'fall',
  source: 'manga',
  rating: 'pg_13',
  episodes_released: 12,
  episodes_total: 12,
  image: '/a.jpg',
  year: 2015,
  translated_ua: true,
  start_date: new Date('2015-10-01T00:00:00Z'),
  end_date: new Date('2015-12-20T00:00:00Z'),
} as Partial<Anime>;

const fullReadable = (kind: 'manga' | 'novel') => ({
  title_original: 'ベルセルク',
  title_ua: 'Берсерк',
  title_en: 'Berserk',
  media_type: kind === 'manga' ? 'manhwa' : 'novel',
  status: 'ongoing',
  chapters: 374,
  volumes: 41,
  translated_ua: true,
  image: '/m.jpg',
  year: 1989,
  start_date: new Date('1989-08-25T00:00:00Z'),
  end_date: new Date('2021-09-10T00:00:00Z'),
});

const FULL_CHARACTER = {
  name_ua: 'Ґатс',
  name_en: 'Guts',
  name_ja: 'ガッツ',
  image: '/c.jpg',
  synonyms: ['Black Swordsman'],
};

/** Live anime that collections list (made once per test on first use). */
let collectionAnime: string[] = [];
async function animeForCollections(): Promise<string[]> {
  if (collectionAnime.length === 0) {
    for (let i = 1; i <= 8; i += 1) {
      const anime = await buildAnime(t.orm, { ...FULL_ANIME, slug: `coll-anime-${i}` });
      collectionAnime.push(anime.slug);
    }
  }
  return collectionAnime;
}
beforeEach(() => {
  collectionAnime = [];
});

let collectionAuthor: User | undefined;
beforeEach(() => {
  collectionAuthor = undefined;
});
async function defaultAuthor(): Promise<User> {
  collectionAuthor ??= await buildUser(t.orm, {
    description: 'About me',
    cover: '/cover.jpg',
    avatar_path: 'avatars/a.png',
    lists_updated: new Date('2024-02-02T00:00:00Z'),
  } as Partial<User>);
  return collectionAuthor;
}

interface ItemOptions {
  slug?: string;
  /** Anime, manga, novel and collection: soft-deleted. */
  deleted?: boolean;
  /** Character: no appearance at all (`none`) or only on a deleted title (`deleted-title`). */
  orphan?: 'none' | 'deleted-title';
  /** Collection: its visibility and author. */
  visibility?: 'public' | 'unlisted' | 'private';
  author?: User;
  reference?: string;
}

/** A fully filled item of `kind`. */
async function buildItem(kind: Kind, o: ItemOptions = {}): Promise<Item> {
  const extra = { ...(o.slug ? { slug: o.slug } : {}), ...(o.reference ? { reference: o.reference } : {}) };
  if (kind === 'anime') {
    const anime = await buildAnime(t.orm, { ...FULL_ANIME, deleted: o.deleted ?? false, ...extra });
    return { kind, slug: anime.slug, reference: anime.reference };
  }
  if (kind === 'manga' || kind === 'novel') {
    const data = { ...fullReadable(kind), deleted: o.deleted ?? false, ...extra };
    const title =
      kind === 'manga'
        ? await buildManga(t.orm, data as Partial<Manga>)
        : await buildNovel(t.orm, data as Partial<Novel>);
    return { kind, slug: title.slug, reference: title.reference };
  }
  if (kind === 'character') {
    const character = await buildCharacter(t.orm, { ...FULL_CHARACTER, ...extra });
    if (o.orphan !== 'none') {
      const anime = await buildAnime(t.orm, { deleted: o.orphan === 'deleted-title' });
      await buildAppearance(t.orm, character, { anime }, true);
    }
    return { kind, slug: character.slug, reference: character.reference };
  }
  const slugs = await animeForCollections();
  const collection = await buildCollection(
    t.orm,
    o.author ?? (await defaultAuthor()),
    collectionBody([], {
      visibility: o.visibility ?? 'public',
      labels_order: ['top', 'rest'],
      content: slugs.map((slug, i) => ({
        slug,
        order: i + 1,
        label: i < 3 ? 'top' : 'rest',
        comment: `comment ${i + 1}`,
      })),
    }),
  );
  if (o.deleted)
    await sql(`update "collection" set deleted = true where reference = ?`, [collection.reference]);
  return { kind, slug: collection.reference, reference: collection.reference };
}

const sql = <T = Json>(text: string, params: unknown[] = []): Promise<T[]> =>
  t.orm.em.getConnection().execute<T[]>(text, params);

/** A favourite row written directly (the service's writes are tested through the routes). */
async function seedFavourite(
  user: User,
  item: Item,
  created: Date | string,
  reference?: string,
): Promise<string> {
  const [row] = await sql<{ reference: string }>(
    `insert into favourite (reference, user_reference, content_type, content_reference, created)
     values (coalesce(?::uuid, gen_random_uuid()), ?, ?, ?, ?) returning reference`,
    [reference ?? null, user.reference, item.kind, item.reference, new Date(created)],
  );
  return row.reference;
}

interface FavouriteRow {
  reference: string;
  user_reference: string;
  content_type: string;
  content_reference: string;
  created: Date;
}
const favouriteRows = () =>
  sql<FavouriteRow>(
    `select reference, user_reference, content_type, content_reference, created from favourite order by created, reference`,
  );

const actionsOf = async (user: User) =>
  (await t.orm.em.fork().find(ActionRecord, { user: user.reference }, { orderBy: { id: 'asc' } })).map(
    (a) => [a.type, a.target],
  );

// ---------------------------------------------------------------------------
// Calls.

const call = (method: Method, kind: string, slug: string, options: CallOptions = {}) =>
  rest(t.app, method, `/favourite/${kind}/${slug}`, undefined, options);

const callGql = (method: Method, kind: string, slug: string, options: CallOptions = {}, document?: string) =>
  gql(t.app, document ?? routeOf(method).document, { content_type: kind, slug }, options);

/** The GraphQL error as `{status, code, message}`. */
function graphError(body: Json): Expected {
  const errors = body.errors as { message: string; extensions: { code: string; http: { status: number } } }[];
  expect(errors).toHaveLength(1);
  const [error] = errors;
  return { status: error.extensions.http.status, code: error.extensions.code, message: error.message };
}

/**
 * `method` fails with `expected` over REST and over GraphQL (GET: both the compiled
 * document and its executed twin). Returns nothing; asserts everything.
 */
async function expectFailure(
  method: Method,
  kind: string,
  slug: string,
  options: CallOptions,
  expected: Expected,
): Promise<void> {
  const viaRest = await call(method, kind, slug, options);
  expect({ status: viaRest.status, code: viaRest.body.code }).toEqual({
    status: expected.status,
    code: expected.code,
  });
  if (expected.message) expect(viaRest.body.message).toBe(expected.message);
  expect(sortedKeys(viaRest.body)).toEqual(['code', 'message']);
  const documents = method === 'GET' ? [getRoute.document, getResolverDocument] : [routeOf(method).document];
  for (const document of documents) {
    const viaGql = await callGql(method, kind, slug, options, document);
    const name = document === getResolverDocument ? '/graphql executed twin' : '/graphql route document';
    expect({ document: name, ...graphError(viaGql.body) }).toEqual({
      document: name,
      status: viaRest.status,
      code: viaRest.body.code,
      message: viaRest.body.message,
    });
  }
}

/** GET over REST, compiled /graphql and executed /graphql: one 200 answer; returns it. */
async function expectGet(kind: Kind, slug: string, options: CallOptions): Promise<Json> {
  const viaRest = await call('GET', kind, slug, options);
  const compiled = await callGql('GET', kind, slug, options, getRoute.document);
  const executed = await callGql('GET', kind, slug, options, getResolverDocument);
  expect(viaRest.status).toBe(200);
  expect(compiled.body.errors).toBeUndefined();
  expect(executed.body.errors).toBeUndefined();
  expect(executed.body.data.__typename).toBe('Query');
  expect(compiled.body.data.favourite).toEqual(viaRest.body);
  expect(executed.body.data.favourite).toEqual(viaRest.body);
  return viaRest.body as Json;
}

function list(kind: string, username: string, options: CallOptions & Paging & { body?: unknown } = {}) {
  const query = new URLSearchParams();
  if (options.page !== undefined) query.set('page', String(options.page));
  if (options.size !== undefined) query.set('size', String(options.size));
  const qs = query.toString();
  return rest(
    t.app,
    'POST',
    `/favourite/${kind}/${username}/list${qs ? `?${qs}` : ''}`,
    options.body,
    options,
  );
}

const listGql = (
  kind: string,
  username: string,
  options: CallOptions & Paging = {},
  document = listRoute.document,
) =>
  gql(
    t.app,
    document,
    { content_type: kind, username, page: options.page ?? 1, size: options.size ?? 15 },
    options,
  );

/** The list over REST, compiled /graphql and executed /graphql: one 200 answer; returns it. */
async function expectList(kind: string, username: string, options: CallOptions & Paging = {}): Promise<Json> {
  const viaRest = await list(kind, username, options);
  const compiled = await listGql(kind, username, options);
  const executed = await listGql(kind, username, options, listResolverDocument);
  expect(viaRest.status).toBe(200);
  expect(compiled.body.errors).toBeUndefined();
  expect(executed.body.errors).toBeUndefined();
  expect(executed.body.data.__typename).toBe('Query');
  expect(compiled.body.data.favourites).toEqual(viaRest.body);
  expect(executed.body.data.favourites).toEqual(viaRest.body);
  return viaRest.body as Json;
}

/** The list fails alike over REST and both GraphQL documents. */
async function expectListFailure(
  kind: string,
  username: string,
  options: CallOptions,
  expected: Expected,
): Promise<void> {
  const viaRest = await list(kind, username, options);
  expect({ status: viaRest.status, code: viaRest.body.code }).toEqual({
    status: expected.status,
    code: expected.code,
  });
  if (expected.message) expect(viaRest.body.message).toBe(expected.message);
  for (const [name, document] of [
    ['/graphql route document', listRoute.document],
    ['/graphql executed twin', listResolverDocument],
  ] as const) {
    const viaGql = await listGql(kind, username, options, document);
    expect({ document: name, ...graphError(viaGql.body) }).toEqual({
      document: name,
      status: viaRest.status,
      code: viaRest.body.code,
      message: viaRest.body.message,
    });
  }
}

const slugsOf = (body: Json): string[] =>
  (body.list as Json[]).map(
    (item) => (item.data_type === 'collection' ? item.reference : item.slug) as string,
  );

// ---------------------------------------------------------------------------
// Shapes.

const FAVOURITE: Shape = { reference: 'string', created: 'integer' };
const CREATED: Shape = { favourite_created: 'integer' };
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
  author: { object: USER_WITH_FOLLOWED },
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
const ITEM_SHAPES: Record<Kind, Shape> = {
  anime: { ...ANIME_SUMMARY_WITH_WATCH, ...CREATED },
  manga: { ...READABLE_SUMMARY_WITH_READ, ...CREATED },
  novel: { ...READABLE_SUMMARY_WITH_READ, ...CREATED },
  character: { ...CHARACTER, ...CREATED },
  collection: { ...COLLECTION, ...CREATED },
};
const pageShape = (kind: Kind): Shape => ({
  pagination: { object: PAGINATION },
  list: { arrayOf: ITEM_SHAPES[kind] },
});

// ===========================================================================

describe('routes', () => {
  it('registers GET/PUT/DELETE with required auth and the list as an optional-auth paged POST', () => {
    expect(METHODS.map((m) => [routeOf(m).auth, routeOf(m).rootField])).toEqual([
      ['required', 'favourite'],
      ['required', 'addFavourite'],
      ['required', 'removeFavourite'],
    ]);
    expect([listRoute.auth, listRoute.paged, listRoute.rootField]).toEqual(['optional', true, 'favourites']);
  });

  it('declares the FavouriteItem union of the five favourite types', async () => {
    const res = await gql(t.app, `{ __type(name: "FavouriteItem") { kind possibleTypes { name } } }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.__type.kind).toBe('UNION');
    expect(res.body.data.__type.possibleTypes.map((p: { name: string }) => p.name).sort()).toEqual([
      'FavouriteAnime',
      'FavouriteCharacter',
      'FavouriteCollection',
      'FavouriteManga',
      'FavouriteNovel',
    ]);
  });
});

describe('GET, PUT and DELETE /favourite/{content_type}/{slug}', () => {
  describe.each(KINDS)('%s', (kind) => {
    it('PUT answers {reference, created=now}, GET answers it, DELETE answers {success: true}, GET is 404 again', async () => {
      const { user, as } = await member();
      const item = await buildItem(kind);
      await expectFailure('GET', kind, item.slug, as, ERRORS.notFound);

      const before = Math.trunc(Date.now() / 1000);
      const put = await call('PUT', kind, item.slug, as);
      const after = Math.ceil(Date.now() / 1000);
      expect(put.status).toBe(200);
      expect(shapeProblems(put.body, FAVOURITE, 'favourite')).toEqual([]);
      expect(put.body.created).toBeGreaterThanOrEqual(before);
      expect(put.body.created).toBeLessThanOrEqual(after);

      const [row] = await favouriteRows();
      expect(row).toMatchObject({
        reference: put.body.reference,
        user_reference: user.reference,
        content_type: kind,
        content_reference: item.reference,
      });
      expect(seconds(row.created)).toBe(put.body.created);

      expect(await expectGet(kind, item.slug, as)).toEqual(put.body);

      const removed = await call('DELETE', kind, item.slug, as);
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({ success: true });
      expect(await favouriteRows()).toEqual([]);
      await expectFailure('GET', kind, item.slug, as, ERRORS.notFound);
      await expectFailure('DELETE', kind, item.slug, as, ERRORS.notFound);

      // Added again: a new favourite.
      const again = await call('PUT', kind, item.slug, as);
      expect(again.status).toBe(200);
      expect(again.body.reference).not.toBe(put.body.reference);
      expect(await actionsOf(user)).toEqual([
        ['favourite_add', item.reference],
        ['favourite_remove', item.reference],
        ['favourite_add', item.reference],
      ]);
    });

    it('409 favourite:exists on a second PUT: one row, one action', async () => {
      const { user, as } = await member();
      const item = await buildItem(kind);
      const first = await call('PUT', kind, item.slug, as);
      expect(first.status).toBe(200);
      await expectFailure('PUT', kind, item.slug, as, ERRORS.exists);
      expect(await favouriteRows()).toHaveLength(1);
      expect((await favouriteRows())[0].reference).toBe(first.body.reference);
      expect(await actionsOf(user)).toEqual([['favourite_add', item.reference]]);
    });

    it("another user's favourite does not count for GET, DELETE or PUT", async () => {
      const { as: mine } = await member();
      const { user: them, as: theirs } = await member();
      const item = await buildItem(kind, { visibility: 'public' });
      expect((await call('PUT', kind, item.slug, theirs)).status).toBe(200);
      await expectFailure('GET', kind, item.slug, mine, ERRORS.notFound);
      await expectFailure('DELETE', kind, item.slug, mine, ERRORS.notFound);
      expect(await favouriteRows()).toHaveLength(1);
      expect((await call('PUT', kind, item.slug, mine)).status).toBe(200);
      expect(await favouriteRows()).toHaveLength(2);
      expect((await call('DELETE', kind, item.slug, mine)).status).toBe(200);
      expect((await favouriteRows()).map((r) => r.user_reference)).toEqual([them.reference]);
    });

    it('404 favourite:content_not_found for an unknown item on every method, writing nothing', async () => {
      const { user, as } = await member();
      await buildItem(kind);
      const missing = kind === 'collection' ? MISSING_REFERENCE : 'no-such-slug';
      for (const method of METHODS) await expectFailure(method, kind, missing, as, ERRORS.contentNotFound);
      expect(await favouriteRows()).toEqual([]);
      expect(await actionsOf(user)).toEqual([]);
    });
  });

  describe('content look-up (404 favourite:content_not_found)', () => {
    it.each(['anime', 'manga', 'novel', 'character'] as const)(
      '%s: the slug matches exactly (case-sensitive, no trimming, no prefix)',
      async (kind) => {
        const { as } = await member();
        const item = await buildItem(kind, { slug: `exact-${kind}` });
        for (const slug of [
          `EXACT-${kind}`,
          `Exact-${kind}`,
          `exact-${kind}-`,
          'exact',
          `exact-${kind}%20`,
        ]) {
          for (const method of METHODS) await expectFailure(method, kind, slug, as, ERRORS.contentNotFound);
        }
        expect((await call('PUT', kind, item.slug, as)).status).toBe(200);
      },
    );

    it.each(['anime', 'manga', 'novel'] as const)('%s: a deleted title is not found', async (kind) => {
      const { user, as } = await member();
      const item = await buildItem(kind, { deleted: true });
      for (const method of METHODS) await expectFailure(method, kind, item.slug, as, ERRORS.contentNotFound);
      expect(await favouriteRows()).toEqual([]);
      expect(await actionsOf(user)).toEqual([]);
    });

    it('a title becomes unreachable once deleted, though its favourite row stays', async () => {
      const { as } = await member();
      const item = await buildItem('anime');
      expect((await call('PUT', 'anime', item.slug, as)).status).toBe(200);
      await sql(`update anime set deleted = true where reference = ?`, [item.reference]);
      for (const method of METHODS)
        await expectFailure(method, 'anime', item.slug, as, ERRORS.contentNotFound);
      expect(await favouriteRows()).toHaveLength(1);
    });

    it('a kind names its own table: an anime slug is no manga, novel or character', async () => {
      const { as } = await member();
      const anime = await buildItem('anime', { slug: 'shared-slug' });
      for (const kind of ['manga', 'novel', 'character']) {
        await expectFailure('PUT', kind, anime.slug, as, ERRORS.contentNotFound);
      }
      const manga = await buildItem('manga', { slug: 'shared-slug' });
      expect((await call('PUT', 'anime', 'shared-slug', as)).status).toBe(200);
      await expectFailure('GET', 'manga', 'shared-slug', as, ERRORS.notFound);
      expect((await call('PUT', 'manga', 'shared-slug', as)).status).toBe(200);
      expect((await favouriteRows()).map((r) => [r.content_type, r.content_reference]).sort()).toEqual(
        [
          ['anime', anime.reference],
          ['manga', manga.reference],
        ].sort(),
      );
    });

    it('character: an orphan (no appearance, or only in deleted titles) is not found', async () => {
      const { as } = await member();
      const none = await buildItem('character', { orphan: 'none' });
      const deadOnly = await buildItem('character', { orphan: 'deleted-title' });
      for (const item of [none, deadOnly]) {
        for (const method of METHODS) {
          await expectFailure(method, 'character', item.slug, as, ERRORS.contentNotFound);
        }
      }
      // One live appearance (a manga's) is enough.
      const manga = await buildManga(t.orm);
      const character = await t.orm.em.fork().findOneOrFail(Character, { reference: deadOnly.reference });
      await buildAppearance(t.orm, character, { manga });
      expect((await call('PUT', 'character', deadOnly.slug, as)).status).toBe(200);
      expect(await favouriteRows()).toHaveLength(1);
    });

    it('collection: the slug is its reference; a slug that is no UUID is 404 (not 400)', async () => {
      const { as } = await member();
      const item = await buildItem('collection');
      for (const slug of ['not-a-uuid', item.reference.slice(0, 35), `${item.reference}x`, '1']) {
        for (const method of METHODS) {
          await expectFailure(method, 'collection', slug, as, ERRORS.contentNotFound);
        }
      }
      expect((await call('PUT', 'collection', item.reference, as)).status).toBe(200);
      expect((await favouriteRows())[0].content_reference).toBe(item.reference);
    });

    it('collection: a private one is found only by its author; an unlisted one by anyone', async () => {
      const author = await member();
      const stranger = await member({ role: 'admin' });
      const secret = await buildItem('collection', { visibility: 'private', author: author.user });
      const unlisted = await buildItem('collection', { visibility: 'unlisted', author: author.user });
      for (const method of METHODS) {
        await expectFailure(method, 'collection', secret.slug, stranger.as, ERRORS.contentNotFound);
      }
      expect((await call('PUT', 'collection', secret.slug, author.as)).status).toBe(200);
      expect((await call('PUT', 'collection', unlisted.slug, stranger.as)).status).toBe(200);
      await expectGet('collection', secret.slug, author.as);
      await expectGet('collection', unlisted.slug, stranger.as);
      expect(await favouriteRows()).toHaveLength(2);
    });

    it('collection: a deleted one is not found, not even by its author', async () => {
      const author = await member();
      const item = await buildItem('collection', { author: author.user });
      expect((await call('PUT', 'collection', item.slug, author.as)).status).toBe(200);
      await sql(`update "collection" set deleted = true where reference = ?`, [item.reference]);
      for (const method of METHODS) {
        await expectFailure(method, 'collection', item.slug, author.as, ERRORS.contentNotFound);
      }
      expect(await favouriteRows()).toHaveLength(1);
    });
  });

  describe('validation and authentication', () => {
    it.each(['Anime', 'person', 'article', 'comment', 'animes', 'edit', 'characters'])(
      'content_type %s → 400 Invalid field content_type in request path; GraphQL refuses the enum',
      async (kind) => {
        const { as } = await member();
        await buildItem('anime', { slug: 'valid' });
        for (const method of METHODS) {
          const res = await call(method, kind, 'valid', as);
          expect(res.status).toBe(400);
          expect(res.body).toEqual({ code: ERRORS.badKind.code, message: ERRORS.badKind.message });
          const graph = await callGql(method, kind, 'valid', as);
          expect(graph.status).toBe(400);
          expect(graph.body.errors[0].extensions.code).toBe('system:validation_error');
        }
        expect(await favouriteRows()).toEqual([]);
      },
    );

    it('the content_type message in Ukrainian', async () => {
      const { as } = await member();
      const res = await call('GET', 'person', 'x', { ...as, language: 'uk' });
      expect(res.body.message).toBe('Некоректне поле content_type у запиті path');
    });

    it.each(METHODS)(
      '%s: 401 for a missing, bad or expired token, before validation and look-up',
      async (method) => {
        const { user } = await member();
        const item = await buildItem('anime');
        const expired = await buildToken(t.orm, user, { expiration: new Date(Date.now() - 1000) });
        for (const [kind, slug] of [
          ['anime', item.slug],
          ['anime', 'missing'],
          ['person', item.slug],
        ]) {
          for (const [options, code] of [
            [{}, 'auth:missing_token'],
            [{ token: 'not-a-token' }, 'auth:invalid_token'],
            [{ token: expired }, 'auth:token_expired'],
          ] as const) {
            const res = await call(method, kind, slug, options);
            expect([res.status, res.body.code]).toEqual([401, code]);
          }
        }
        for (const document of method === 'GET'
          ? [getRoute.document, getResolverDocument]
          : [routeOf(method).document]) {
          const res = await callGql(method, 'anime', item.slug, {}, document);
          expect(graphError(res.body)).toMatchObject({ status: 401, code: 'auth:missing_token' });
        }
        expect(await favouriteRows()).toEqual([]);
      },
    );

    it.each(METHODS)(
      "%s: a deleted user's token is 400 user:deleted; a banned user's is refused",
      async (method) => {
        const gone = await member({ role: 'deleted' });
        const banned = await member({ banned: true });
        const item = await buildItem('anime');
        await expectFailure(method, 'anime', item.slug, gone.as, ERRORS.userDeleted);
        const res = await call(method, 'anime', item.slug, banned.as);
        expect([res.status, res.body.code]).toEqual([403, 'auth:banned']);
        expect(await favouriteRows()).toEqual([]);
      },
    );

    it('the auth cookie works as the header does', async () => {
      const { as } = await member();
      const item = await buildItem('novel');
      const res = await call('PUT', 'novel', item.slug, { cookie: as.token });
      expect(res.status).toBe(200);
      expect((await call('GET', 'novel', item.slug, { cookie: as.token })).body).toEqual(res.body);
    });
  });

  describe('scopes of third-party tokens (after the look-up, before the favourite rules)', () => {
    const SCOPE: Record<Method, string> = {
      GET: 'read:favourite',
      PUT: 'create:favourite',
      DELETE: 'delete:favourite',
    };
    const others = (method: Method) => Object.values(SCOPE).filter((s) => s !== SCOPE[method]);

    it.each(METHODS)(
      '%s: 403 permission:denied without its scope, the caller keeping the item',
      async (method) => {
        const { user, as } = await member();
        const item = await buildItem('anime');
        const limited = await thirdParty(user, [...others(method), 'read:favourite:list', 'watchlist']);
        // A favourite: PUT would be 409, GET and DELETE would succeed.
        expect((await call('PUT', 'anime', item.slug, as)).status).toBe(200);
        await expectFailure(method, 'anime', item.slug, limited, ERRORS.denied);
        expect(await favouriteRows()).toHaveLength(1);
        expect(await actionsOf(user)).toEqual([['favourite_add', item.reference]]);
      },
    );

    it.each(METHODS)(
      '%s: 403 permission:denied without its scope, the caller not keeping the item',
      async (method) => {
        const { user } = await member();
        const item = await buildItem('anime');
        const limited = await thirdParty(user, [...others(method), 'read:favourite:list', 'watchlist']);
        // No favourite: GET and DELETE would be 404 favourite:not_found, PUT would create.
        await expectFailure(method, 'anime', item.slug, limited, ERRORS.denied);
        expect(await favouriteRows()).toEqual([]);
        expect(await actionsOf(user)).toEqual([]);
      },
    );

    it.each(METHODS)('%s: the look-up 404 comes before the scope 403', async (method) => {
      const { user } = await member();
      const limited = await thirdParty(user, ['read:watchlist']);
      await expectFailure(method, 'anime', 'missing', limited, ERRORS.contentNotFound);
      const deleted = await buildItem('manga', { deleted: true });
      await expectFailure(method, 'manga', deleted.slug, limited, ERRORS.contentNotFound);
      await expectFailure(method, 'collection', 'not-a-uuid', limited, ERRORS.contentNotFound);
    });

    it.each(METHODS)('%s: works with its own scope, and with the group `favourite`', async (method) => {
      const { user } = await member();
      const first = await buildItem('character');
      const second = await buildItem('character');
      for (const [item, scope] of [
        [first, [SCOPE[method]]],
        [second, ['favourite']],
      ] as const) {
        const token = await thirdParty(user, [...scope]);
        if (method !== 'PUT') {
          expect(
            (await call('PUT', 'character', item.slug, await thirdParty(user, ['create:favourite']))).status,
          ).toBe(200);
        }
        const res = await call(method, 'character', item.slug, token);
        expect(res.status).toBe(200);
        if (method === 'DELETE') expect(res.body).toEqual({ success: true });
        else expect(shapeProblems(res.body, FAVOURITE, 'favourite')).toEqual([]);
      }
    });
  });

  describe('writes', () => {
    it('PUT records action favourite_add, DELETE favourite_remove, each with the content reference', async () => {
      const { user, as } = await member();
      const anime = await buildItem('anime');
      const collection = await buildItem('collection');
      await call('PUT', 'anime', anime.slug, as);
      await call('PUT', 'collection', collection.slug, as);
      await call('DELETE', 'anime', anime.slug, as);
      expect(await actionsOf(user)).toEqual([
        ['favourite_add', anime.reference],
        ['favourite_add', collection.reference],
        ['favourite_remove', anime.reference],
      ]);
      const records = await sql<{ type: string; created: Date }>(
        `select type, created from action_record where user_reference = ? order by id`,
        [user.reference],
      );
      const [row] = await favouriteRows();
      // The add's action is recorded at the favourite's own time.
      expect(new Date(records[1].created).getTime()).toBe(new Date(row.created).getTime());
    });

    it('a failed action record leaves nothing half-written: no favourite added, none removed', async () => {
      const { user, as } = await member();
      const item = await buildItem('novel');
      const failedAdd = await withFailingActionRecords(t.orm, () => call('PUT', 'novel', item.slug, as));
      expect(failedAdd.status).toBe(500);
      expect(failedAdd.body.code).toBe('system:internal_error');
      expect(await favouriteRows()).toEqual([]);
      expect((await call('PUT', 'novel', item.slug, as)).status).toBe(200);
      const failedRemove = await withFailingActionRecords(t.orm, () =>
        call('DELETE', 'novel', item.slug, as),
      );
      expect(failedRemove.status).toBe(500);
      expect(await favouriteRows()).toHaveLength(1);
      expect(await actionsOf(user)).toEqual([['favourite_add', item.reference]]);
      // Over GraphQL too.
      const failedGql = await withFailingActionRecords(t.orm, () =>
        callGql('DELETE', 'novel', item.slug, as),
      );
      expect(graphError(failedGql.body)).toMatchObject({ status: 500, code: 'system:internal_error' });
      expect(await favouriteRows()).toHaveLength(1);
    });

    it('concurrent PUTs of one item: one favourite, the others 409', async () => {
      const { user, as } = await member();
      const item = await buildItem('manga');
      const answers = await Promise.all([1, 2, 3, 4].map(() => call('PUT', 'manga', item.slug, as)));
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
      expect(await favouriteRows()).toHaveLength(1);
      expect(await actionsOf(user)).toHaveLength(1);
    });

    it('concurrent DELETEs of one favourite: one success, the others 404', async () => {
      const { user, as } = await member();
      const item = await buildItem('anime');
      await call('PUT', 'anime', item.slug, as);
      const answers = await Promise.all([1, 2, 3].map(() => call('DELETE', 'anime', item.slug, as)));
      expect(answers.map((r) => r.status).sort()).toEqual([200, 404, 404]);
      expect(await favouriteRows()).toEqual([]);
      expect((await actionsOf(user)).map(([type]) => type)).toEqual(['favourite_add', 'favourite_remove']);
    });
  });

  describe('REST ≡ GraphQL', () => {
    it.each(KINDS)(
      '%s: the mutations answer what REST answers; GET is one answer on all three doors',
      async (kind) => {
        const { as } = await member();
        const viaRest = await buildItem(kind);
        const viaGraph = await buildItem(kind);
        const restAdd = await call('PUT', kind, viaRest.slug, as);
        const gqlAdd = await callGql('PUT', kind, viaGraph.slug, as);
        expect(gqlAdd.body.errors).toBeUndefined();
        expect(sortedKeys(gqlAdd.body.data.addFavourite)).toEqual(sortedKeys(restAdd.body));
        expect(shapeProblems(gqlAdd.body.data.addFavourite, FAVOURITE, 'favourite')).toEqual([]);
        // What the mutation answered is what every door reads back.
        expect(await expectGet(kind, viaGraph.slug, as)).toEqual(gqlAdd.body.data.addFavourite);
        expect(await expectGet(kind, viaRest.slug, as)).toEqual(restAdd.body);

        const gqlRemove = await callGql('DELETE', kind, viaGraph.slug, as);
        expect(gqlRemove.body.errors).toBeUndefined();
        expect(gqlRemove.body.data.removeFavourite).toEqual({ success: true });
        expect((await call('DELETE', kind, viaRest.slug, as)).body).toEqual({ success: true });
        expect(await favouriteRows()).toEqual([]);
      },
    );

    it('GET serves whole seconds, truncated, alike on every door', async () => {
      const { user, as } = await member();
      const item = await buildItem('anime');
      await seedFavourite(user, item, '2024-05-06T07:08:09.999Z', orderedReference(7));
      expect(await expectGet('anime', item.slug, as)).toEqual({
        reference: orderedReference(7),
        created: seconds('2024-05-06T07:08:09Z'),
      });
    });

    it('errors carry the same status, code and message, in both languages', async () => {
      const { user, as } = await member();
      const item = await buildItem('anime');
      await expectFailure(
        'GET',
        'anime',
        item.slug,
        { ...as, language: 'uk' },
        {
          ...ERRORS.notFound,
          message: 'Цього немає в улюбленому',
        },
      );
      await expectFailure(
        'GET',
        'anime',
        'missing',
        { ...as, language: 'uk' },
        {
          ...ERRORS.contentNotFound,
          message: 'Контент не знайдено',
        },
      );
      await call('PUT', 'anime', item.slug, as);
      await expectFailure(
        'PUT',
        'anime',
        item.slug,
        { ...as, language: 'uk' },
        {
          ...ERRORS.exists,
          message: 'Уже є в улюбленому',
        },
      );
      const limited = await thirdParty(user, ['read:favourite']);
      await expectFailure('DELETE', 'anime', item.slug, limited, ERRORS.denied);
    });
  });
});

// ===========================================================================

describe('POST /favourite/{content_type}/{username}/list', () => {
  /**
   * The owner's favourites of `kind`: a filled item A (added last, at a time with
   * milliseconds) and B; a deleted or orphan one, another user's favourite and one of
   * another kind left out. The owner and the viewer each have an entry on A (anime, manga,
   * novel); the viewer follows the collections' author and voted on A (collection).
   */
  async function fixture(kind: Kind) {
    const owner = await member({ username: `Fav_Owner_${kind}` });
    const viewer = await member();
    const a = await buildItem(kind);
    const b = await buildItem(kind);
    await seedFavourite(owner.user, a, '2024-05-06T07:08:09.999Z');
    await seedFavourite(owner.user, b, '2024-01-01T00:00:00Z');
    // Left out: a dead item, a favourite of another user, one of another kind.
    const dead =
      kind === 'character'
        ? await buildItem(kind, { orphan: 'deleted-title' })
        : await buildItem(kind, { deleted: true });
    await seedFavourite(owner.user, dead, '2025-01-01T00:00:00Z');
    await seedFavourite(viewer.user, await buildItem(kind), '2025-01-01T00:00:00Z');
    const otherKind: Kind = kind === 'anime' ? 'manga' : 'anime';
    await seedFavourite(owner.user, await buildItem(otherKind), '2025-01-01T00:00:00Z');

    if (kind === 'anime') {
      const anime = await t.orm.em.fork().findOneOrFail(Anime, { reference: a.reference });
      await buildWatchEntry(t.orm, owner.user, anime, { note: 'owner', score: 8 });
      await buildWatchEntry(t.orm, viewer.user, anime, { note: 'viewer', score: 6 });
    }
    if (kind === 'manga' || kind === 'novel') {
      const title = await t.orm.em.fork().findOneOrFail<Manga | Novel>(kind === 'manga' ? Manga : Novel, {
        reference: a.reference,
      });
      const link = kind === 'manga' ? { manga: title as Manga } : { novel: title as Novel };
      await buildReadEntry(t.orm, owner.user, link, { note: 'owner', score: 8 });
      await buildReadEntry(t.orm, viewer.user, link, { note: 'viewer', score: 6 });
    }
    if (kind === 'collection') {
      const author = await defaultAuthor();
      const em = t.orm.em.fork();
      em.create(Follow, { follower: viewer.user.reference, followed: author.reference } as never);
      await em.flush();
      const collection = await t.orm.em.fork().findOneOrFail(Collection, { reference: a.reference });
      await buildCollectionVote(t.orm, viewer.user, collection, 1);
      // The viewer watches the preview's first anime.
      const anime = await t.orm.em.fork().findOneOrFail(Anime, { slug: 'coll-anime-1' });
      await buildWatchEntry(t.orm, viewer.user, anime, { note: 'viewer', score: 6 });
    }
    return { owner, viewer, a, b };
  }

  /** The notes of the caller's entries on the first item (or on its collection's first preview). */
  const firstNotes = (kind: Kind, body: Json): string[] | undefined => {
    const [first] = body.list as Json[];
    if (kind === 'anime') return (first.watch as Json[]).map((w) => w.note as string);
    if (kind === 'manga' || kind === 'novel') return (first.read as Json[]).map((r) => r.note as string);
    if (kind === 'collection') {
      const [preview] = first.collection as { content: Json }[];
      return (preview.content.watch as Json[]).map((w) => w.note as string);
    }
    return undefined;
  };

  describe.each(KINDS)('%s', (kind) => {
    it('lists the live items with their own shape plus favourite_created, newest first; REST ≡ GraphQL', async () => {
      const { owner, a, b } = await fixture(kind);
      const body = await expectList(kind, owner.user.username);
      expect(shapeProblems(body, pageShape(kind), 'page', ['watch', 'read'])).toEqual([]);
      expect(body.pagination).toEqual({ total: 2, pages: 1, page: 1 });
      expect(slugsOf(body)).toEqual([a.slug, b.slug]);
      const [first, second] = body.list as Json[];
      expect(sortedKeys(first)).toEqual(keysOf(ITEM_SHAPES[kind]));
      expect(first.favourite_created).toBe(seconds('2024-05-06T07:08:09Z'));
      expect(second.favourite_created).toBe(seconds('2024-01-01T00:00:00Z'));
      expect(first.data_type).toBe(kind);
    });

    it("carries the caller's own entries (none when anonymous), whoever owns the list", async () => {
      const { owner, viewer } = await fixture(kind);
      const anonymous = await expectList(kind, owner.user.username);
      const asViewer = await expectList(kind, owner.user.username, viewer.as);
      const asOwner = await expectList(kind, owner.user.username, owner.as);
      if (kind === 'character') {
        // Characters carry nothing of the caller: one answer for all.
        expect(asViewer).toEqual(anonymous);
        expect(asOwner).toEqual(anonymous);
        return;
      }
      expect(firstNotes(kind, anonymous)).toEqual([]);
      expect(firstNotes(kind, asViewer)).toEqual(['viewer']);
      expect(firstNotes(kind, asOwner)).toEqual(kind === 'collection' ? [] : ['owner']);
      expect(shapeProblems(asViewer, pageShape(kind), 'page', ['watch', 'read'])).toEqual([]);
    });
  });

  it('anime: the item is the Anime summary exactly, with the image URL and episode strings', async () => {
    const { owner, viewer, a } = await fixture('anime');
    const body = await expectList('anime', owner.user.username, viewer.as);
    const [item] = body.list as Json[];
    expect(item).toMatchObject({
      data_type: 'anime',
      slug: a.slug,
      title_ua: 'Назва',
      title_en: 'Title',
      title_ja: 'タイトル',
      media_type: 'tv',
      status: 'finished',
      season: 'fall',
      source: 'manga',
      rating: 'pg_13',
      episodes_released: '12',
      episodes_total: '12',
      image: 'https://cdn.test/a.jpg',
      year: 2015,
      translated_ua: true,
      start_date: seconds('2015-10-01T00:00:00Z'),
      end_date: seconds('2015-12-20T00:00:00Z'),
      favourite_created: seconds('2024-05-06T07:08:09Z'),
    });
    expect(item.watch).toEqual([expect.objectContaining({ note: 'viewer', score: 6, status: 'watching' })]);
  });

  it.each(['manga', 'novel'] as const)(
    '%s: the summary exactly, with the caller’s read entry',
    async (kind) => {
      const { owner, viewer, a } = await fixture(kind);
      const [item] = (await expectList(kind, owner.user.username, viewer.as)).list as Json[];
      expect(item).toMatchObject({
        data_type: kind,
        slug: a.slug,
        title_original: 'ベルセルク',
        title_ua: 'Берсерк',
        title_en: 'Berserk',
        media_type: kind === 'manga' ? 'manhwa' : 'novel',
        status: 'ongoing',
        chapters: 374,
        volumes: 41,
        image: 'https://cdn.test/m.jpg',
        year: 1989,
        favourite_created: seconds('2024-05-06T07:08:09Z'),
      });
      expect(item.read).toEqual([expect.objectContaining({ note: 'viewer', score: 6, status: 'reading' })]);
    },
  );

  it('character: the Character fields exactly, plus favourite_created', async () => {
    const { owner, a } = await fixture('character');
    const [item] = (await expectList('character', owner.user.username)).list as Json[];
    expect(item).toEqual({
      data_type: 'character',
      slug: a.slug,
      name_ua: 'Ґатс',
      name_en: 'Guts',
      name_ja: 'ガッツ',
      image: 'https://cdn.test/c.jpg',
      synonyms: ['Black Swordsman'],
      favourite_created: seconds('2024-05-06T07:08:09Z'),
    });
  });

  it('collection: the #15 list shape: a preview of 6 items, entries 8, my_score and author.is_followed for the caller', async () => {
    const { owner, viewer, a } = await fixture('collection');
    const anonymous = await expectList('collection', owner.user.username);
    const asViewer = await expectList('collection', owner.user.username, viewer.as);
    for (const [body, mine, followed] of [
      [anonymous, 0, false],
      [asViewer, 1, true],
    ] as const) {
      const [item] = body.list as Json[];
      expect(item).toMatchObject({
        reference: a.reference,
        data_type: 'collection',
        content_type: 'anime',
        visibility: 'public',
        entries: 8,
        vote_score: 1,
        my_score: mine,
        labels_order: ['top', 'rest'],
        author: { is_followed: followed },
        favourite_created: seconds('2024-05-06T07:08:09Z'),
      });
      const previews = item.collection as Json[];
      expect(previews.map((p) => p.order)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(previews[0]).toMatchObject({ comment: 'comment 1', label: 'top', content_type: 'anime' });
      expect((previews[0].content as Json).slug).toBe('coll-anime-1');
    }
  });

  it('collection: private ones only when the caller is their author; unlisted ones for everyone; deleted never', async () => {
    const owner = await member();
    const author = await member();
    const stranger = await member();
    const pub = await buildItem('collection', { author: author.user });
    const unlisted = await buildItem('collection', { author: author.user, visibility: 'unlisted' });
    const theirPrivate = await buildItem('collection', { author: author.user, visibility: 'private' });
    const ownPrivate = await buildItem('collection', { author: owner.user, visibility: 'private' });
    const deleted = await buildItem('collection', { author: owner.user, deleted: true });
    const items = [pub, unlisted, theirPrivate, ownPrivate, deleted];
    for (const [i, item] of items.entries()) {
      await seedFavourite(owner.user, item, new Date(Date.UTC(2024, 0, 10 - i)));
    }
    const seen = async (options: CallOptions) => {
      const body = await expectList('collection', owner.user.username, options);
      expect((body.pagination as Json).total).toBe((body.list as Json[]).length);
      return slugsOf(body);
    };
    expect(await seen({})).toEqual([pub.slug, unlisted.slug]);
    expect(await seen(stranger.as)).toEqual([pub.slug, unlisted.slug]);
    // The list owner sees their own private collection, not the author's.
    expect(await seen(owner.as)).toEqual([pub.slug, unlisted.slug, ownPrivate.slug]);
    // The caller who wrote the private collection sees it on someone else's list.
    expect(await seen(author.as)).toEqual([pub.slug, unlisted.slug, theirPrivate.slug]);
  });

  it('excludes deleted titles and orphan characters from the list and its total', async () => {
    const { user, as } = await member();
    for (const kind of ['anime', 'manga', 'novel'] as const) {
      const live = await buildItem(kind);
      await seedFavourite(user, live, '2024-01-01T00:00:00Z');
      for (let i = 0; i < 3; i += 1) {
        await seedFavourite(user, await buildItem(kind, { deleted: true }), `2024-02-0${i + 1}T00:00:00Z`);
      }
      const body = await expectList(kind, user.username, as);
      expect(body.pagination).toEqual({ total: 1, pages: 1, page: 1 });
      expect(slugsOf(body)).toEqual([live.slug]);
    }
    const character = await buildItem('character');
    await seedFavourite(user, character, '2024-01-01T00:00:00Z');
    await seedFavourite(user, await buildItem('character', { orphan: 'none' }), '2024-02-01T00:00:00Z');
    await seedFavourite(
      user,
      await buildItem('character', { orphan: 'deleted-title' }),
      '2024-02-02T00:00:00Z',
    );
    const body = await expectList('character', user.username);
    expect(body.pagination).toEqual({ total: 1, pages: 1, page: 1 });
    expect(slugsOf(body)).toEqual([character.slug]);
  });

  it('an empty list: total 0, pages 0', async () => {
    const { user } = await member();
    for (const kind of KINDS) {
      expect(await expectList(kind, user.username)).toEqual({
        pagination: { total: 0, pages: 0, page: 1 },
        list: [],
      });
    }
  });

  describe('order and paging', () => {
    /** Five anime favourites: created desc, ties by the favourite's reference (not the item's). */
    async function ordered() {
      const { user } = await member({ username: 'Ordered_Owner' });
      // Items' references run opposite to their favourites' references.
      const items: Item[] = [];
      for (let n = 1; n <= 5; n += 1) {
        items.push(await buildItem('anime', { slug: `o${n}`, reference: orderedReference(100 - n) }));
      }
      const at = (day: number) => new Date(Date.UTC(2024, 0, day, 12, 0, 0, 500));
      await seedFavourite(user, items[0], at(2), orderedReference(3));
      await seedFavourite(user, items[1], at(2), orderedReference(1));
      await seedFavourite(user, items[2], at(1), orderedReference(5));
      await seedFavourite(user, items[3], at(3), orderedReference(4));
      await seedFavourite(user, items[4], at(2), orderedReference(2));
      return user;
    }
    const EXPECTED = ['o4', 'o2', 'o5', 'o1', 'o3'];

    it('orders by favourite created desc, then favourite reference asc', async () => {
      const user = await ordered();
      const body = await expectList('anime', user.username, { size: 20 });
      expect(slugsOf(body)).toEqual(EXPECTED);
    });

    it('pages exactly; a page past the end is empty with the true total', async () => {
      const user = await ordered();
      const pages: string[] = [];
      for (const page of [1, 2, 3]) {
        const body = await expectList('anime', user.username, { page, size: 2 });
        expect(body.pagination).toEqual({ total: 5, pages: 3, page });
        pages.push(...slugsOf(body));
      }
      expect(pages).toEqual(EXPECTED);
      expect(await expectList('anime', user.username, { page: 4, size: 2 })).toEqual({
        pagination: { total: 5, pages: 3, page: 4 },
        list: [],
      });
      const farthest = await list('anime', user.username, { page: 10000, size: 20 });
      expect(farthest.body).toEqual({ pagination: { total: 5, pages: 1, page: 10000 }, list: [] });
    });

    it('serves 15 items by default', async () => {
      const { user } = await member();
      for (let i = 0; i < 16; i += 1) {
        await seedFavourite(user, await buildItem('character'), new Date(Date.UTC(2024, 0, 1, 0, i)));
      }
      const first = await list('character', user.username);
      expect(first.status).toBe(200);
      expect(first.body.list).toHaveLength(15);
      expect(first.body.pagination).toEqual({ total: 16, pages: 2, page: 1 });
      const all = await expectList('character', user.username, { size: 20 });
      expect(all.list).toHaveLength(16);
      expect(all.pagination).toEqual({ total: 16, pages: 1, page: 1 });
    });

    it.each(INVALID_PAGING_QUERIES)('query %s → 400 Invalid field %s in request query', async (qs, field) => {
      const { user } = await member();
      const res = await rest(t.app, 'POST', `/favourite/anime/${user.username}/list?${qs}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'system:validation_error',
        message: `Invalid field ${field} in request query`,
      });
    });

    it('GraphQL page 0 is 400 Invalid field page on both documents', async () => {
      const { user } = await member();
      for (const document of [listRoute.document, listResolverDocument]) {
        const res = await listGql('anime', user.username, { page: 0 }, document);
        expect(res.status).toBe(400);
        expect(res.body.errors[0].message).toBe('Invalid field page in request query');
      }
    });

    it('GraphQL size 101 is 400 Invalid field size on both documents', async () => {
      const { user } = await member();
      for (const document of [listRoute.document, listResolverDocument]) {
        const res = await listGql('anime', user.username, { size: 101 }, document);
        expect(res.status).toBe(400);
        expect(res.body.errors[0].message).toBe('Invalid field size in request query');
      }
    });

    it.each(KINDS)('%s: size=100, the largest page, is served on every door', async (kind) => {
      const { user } = await member();
      await seedFavourite(user, await buildItem(kind), '2024-01-01T00:00:00Z');
      const body = await expectList(kind, user.username, { size: 100 });
      expect(body.pagination).toEqual({ total: 1, pages: 1, page: 1 });
    });
  });

  describe('request', () => {
    it('ignores any body: none, {}, {"x": 1}, [] or a JSON string', async () => {
      const { owner } = await fixture('anime');
      const expected = await expectList('anime', owner.user.username);
      for (const body of [undefined, {}, { x: 1 }, { page: 2, size: 1, sort: ['bad'] }, [], [1, 2]]) {
        const res = await list('anime', owner.user.username, { body });
        expect(res.status).toBe(200);
        expect(res.body).toEqual(expected);
      }
      const text = await rest(t.app, 'POST', `/favourite/anime/${owner.user.username}/list`)
        .set('Content-Type', 'application/json')
        .send('"garbage"');
      expect(text.status).toBe(200);
      expect(text.body).toEqual(expected);
    });

    it('finds the user ignoring case', async () => {
      const { owner } = await fixture('manga');
      const exact = await expectList('manga', owner.user.username);
      expect(exact.pagination).toEqual({ total: 2, pages: 1, page: 1 });
      expect(await expectList('manga', owner.user.username.toUpperCase())).toEqual(exact);
      expect(await expectList('manga', owner.user.username.toLowerCase())).toEqual(exact);
    });

    it('unknown user 404 user:not_found; deleted user 400 user:deleted; both languages, every door', async () => {
      const gone = await member({ role: 'deleted' });
      await seedFavourite(gone.user, await buildItem('anime'), '2024-01-01T00:00:00Z');
      for (const language of ['en', 'uk']) {
        await expectListFailure(
          'anime',
          'nobody_here',
          { language },
          {
            ...ERRORS.userNotFound,
            message: language === 'uk' ? 'Користувача не знайдено' : 'User not found',
          },
        );
        await expectListFailure(
          'anime',
          gone.user.username.toUpperCase(),
          { language },
          {
            ...ERRORS.userDeleted,
            message: language === 'uk' ? 'Видалено...' : 'Deleted',
          },
        );
      }
    });

    it.each(['Anime', 'person', 'characters', 'article', 'light_novel'])(
      'content_type %s → 400 Invalid field content_type in request path, before paging and user',
      async (kind) => {
        const res = await list(kind, 'nobody_here', { page: 0 });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: ERRORS.badKind.code, message: ERRORS.badKind.message });
        const graph = await listGql(kind, 'nobody_here');
        expect(graph.status).toBe(400);
        expect(graph.body.errors[0].extensions.code).toBe('system:validation_error');
        expect(graph.body.data).toBeUndefined();
      },
    );
  });

  describe('optional authentication and scope read:favourite:list', () => {
    it('anonymous, bad and expired tokens are served as anonymous', async () => {
      const { owner } = await fixture('anime');
      const anonymous = await expectList('anime', owner.user.username);
      const expired = await buildToken(t.orm, owner.user, { expiration: new Date(Date.now() - 1000) });
      for (const token of ['not-a-token', 'x'.repeat(64), expired]) {
        expect(await expectList('anime', owner.user.username, { token })).toEqual(anonymous);
      }
    });

    it("a deleted user's token is 400 user:deleted", async () => {
      const { owner } = await fixture('anime');
      const gone = await member({ role: 'deleted' });
      await expectListFailure('anime', owner.user.username, gone.as, ERRORS.userDeleted);
    });

    it('a third-party token needs read:favourite:list (or the group favourite)', async () => {
      const { owner, viewer } = await fixture('anime');
      const without = await thirdParty(viewer.user, ['read:favourite', 'create:favourite', 'watchlist']);
      await expectListFailure('anime', owner.user.username, without, ERRORS.denied);
      for (const scope of [['read:favourite:list'], ['favourite']]) {
        const body = await expectList('anime', owner.user.username, await thirdParty(viewer.user, scope));
        expect(firstNotes('anime', body)).toEqual(['viewer']);
      }
    });

    it('the user look-up comes before the scope: an unknown user with a scopeless token is 404', async () => {
      const { user } = await member();
      const without = await thirdParty(user, ['read:watchlist']);
      await expectListFailure('anime', 'nobody_here', without, ERRORS.userNotFound);
      const gone = await member({ role: 'deleted' });
      await expectListFailure('anime', gone.user.username, without, ERRORS.userDeleted);
    });
  });

  describe('bounded SQL', () => {
    it.each(KINDS)(
      '%s: as many statements for 20 items as for 1, on REST, compiled and executed GraphQL',
      async (kind) => {
        const { user: owner } = await member();
        const viewer = await member();
        const addItem = async (i: number) => {
          const item = await buildItem(kind);
          await seedFavourite(owner, item, new Date(Date.UTC(2024, 0, 1, 0, i)));
          if (kind === 'anime') {
            const anime = await t.orm.em.fork().findOneOrFail(Anime, { reference: item.reference });
            await buildWatchEntry(t.orm, viewer.user, anime, { note: `n${i}` });
          }
          if (kind === 'manga' || kind === 'novel') {
            const title = await t.orm.em
              .fork()
              .findOneOrFail<Manga | Novel>(kind === 'manga' ? Manga : Novel, {
                reference: item.reference,
              });
            await buildReadEntry(
              t.orm,
              viewer.user,
              kind === 'manga' ? { manga: title as Manga } : { novel: title as Novel },
              {
                note: `n${i}`,
              },
            );
          }
        };
        await addItem(0);
        await list(kind, owner.username, viewer.as); // the token's first use slides it

        const count = async (expected: number) => {
          const counts: number[] = [];
          for (const options of [{}, viewer.as]) {
            counts.push(
              await t.queries.count(async () => {
                const res = await list(kind, owner.username, { ...options, size: 20 });
                expect(res.status).toBe(200);
                expect(res.body.list).toHaveLength(expected);
              }),
            );
            for (const document of [listRoute.document, listResolverDocument]) {
              counts.push(
                await t.queries.count(async () => {
                  const res = await listGql(kind, owner.username, { ...options, size: 20 }, document);
                  expect(res.body.errors).toBeUndefined();
                  expect(res.body.data.favourites.list).toHaveLength(expected);
                }),
              );
            }
          }
          return counts;
        };
        const one = await count(1);
        for (let i = 1; i < 20; i += 1) await addItem(i);
        const twenty = await count(20);
        expect(twenty).toEqual(one);
        // REST and the route's document over /graphql are one compiled statement each
        // (anonymous: [rest, compiled, executed, ...] for {}, then the same with the token).
        expect(one.slice(0, 2)).toEqual([1, 1]);
        // Executing through the resolvers costs more statements, but a bounded number.
        expect(one[2]).toBeGreaterThan(1);
      },
    );
  });
});
