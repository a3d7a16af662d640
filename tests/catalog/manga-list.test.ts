import type { Genre } from '../../src/catalog/genre.entity';
import type { Manga } from '../../src/catalog/manga.entity';
import {
  buildGenre,
  buildMagazine,
  buildManga,
  buildNovel,
  buildReadEntry,
  buildThirdPartyToken,
  buildToken,
  buildUser,
  linkTitle,
} from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import {
  keysOf,
  PAGINATION,
  READ_ENTRY,
  READABLE_SUMMARY_WITH_READ,
  shapeProblems,
  type Shape,
} from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { type Json, seconds, sortedKeys } from '../setup/json';
import { pagedListRoute } from '../setup/list-route';
import { INVALID_PAGING_QUERIES } from '../setup/paging';

/**
 * POST /manga (GraphQL `mangaList`, pages.md "Catalogs and search"): #3's body, filters,
 * query, sorts and order with manga media types; optional auth and no scope; paged.
 * The GraphQL filters themselves are in catalog-list.test.ts: this file tests the REST route.
 */
const t = useTestApp();

const { route, resolverDocument, list, listGql, slugs } = pagedListRoute(t, '/manga');

const PAGE: Shape = { pagination: { object: PAGINATION }, list: { arrayOf: READABLE_SUMMARY_WITH_READ } };

const manga = (slug: string, o: Partial<Manga> = {}) => buildManga(t.orm, { slug, ...o });

const genre = (slug: string): Promise<Genre> => buildGenre(t.orm, { slug, name_en: slug });

/** A fully filled manga: every summary field has a value. */
const FILLED = {
  title_original: 'ベルセルク',
  title_ua: 'Берсерк',
  title_en: 'Berserk',
  media_type: 'manhwa' as const,
  status: 'ongoing' as const,
  chapters: 374,
  volumes: 41,
  translated_ua: true,
  score: 9.47,
  scored_by: 345678,
  // native_score is derived: (12/22)·9 + (10/22)·C, with C = 0 while no list scores exist.
  native_scored_by: 12,
  native_score_total: 108,
  image: '/content/x.jpg',
  year: 1989,
  start_date: new Date('1989-08-25T10:20:30.999Z'),
  end_date: new Date('2021-09-10T00:00:00.500Z'),
  created: new Date('2023-05-06T07:08:09.750Z'),
  updated: new Date('2024-02-03T04:05:06.001Z'),
};

const FILLED_JSON = {
  data_type: 'manga',
  slug: 'berserk',
  title_original: 'ベルセルク',
  title_ua: 'Берсерк',
  title_en: 'Berserk',
  media_type: 'manhwa',
  status: 'ongoing',
  chapters: 374,
  volumes: 41,
  translated_ua: true,
  score: 9.47,
  scored_by: 345678,
  native_score: 4.91,
  native_scored_by: 12,
  image: 'https://cdn.test/content/x.jpg',
  year: 1989,
  start_date: seconds('1989-08-25T10:20:30Z'),
  end_date: seconds('2021-09-10T00:00:00Z'),
  created: seconds('2023-05-06T07:08:09Z'),
  updated: seconds('2024-02-03T04:05:06Z'),
};

/** The filled manga, with one read entry of `viewer` (score 0: the native score's C stays 0). */
async function filledFixture() {
  const viewer = await buildUser(t.orm);
  const other = await buildUser(t.orm);
  const berserk = await manga('berserk', { ...FILLED, extcat_id: 2 });
  const entry = await buildReadEntry(
    t.orm,
    viewer,
    { manga: berserk },
    {
      status: 'completed',
      note: 'mine',
      chapters: 12,
      volumes: 3,
      rereads: 2,
      score: 0,
      created: new Date('2024-03-04T05:06:07.800Z'),
      updated: new Date('2024-04-05T06:07:08.900Z'),
    },
  );
  await buildReadEntry(t.orm, other, { manga: berserk }, { status: 'dropped', note: 'theirs' });
  return { viewer, berserk, entry };
}

describe('POST /manga (mangaList)', () => {
  describe('items: Manga summary with read', () => {
    it("serves the exact summary with the caller's own read entry", async () => {
      const { viewer, entry } = await filledFixture();
      const res = await list({}, { token: await buildToken(t.orm, viewer) });
      expect(res.status).toBe(200);
      expect(shapeProblems(res.body, PAGE, 'page')).toEqual([]);
      expect(res.body).toEqual({
        pagination: { total: 1, pages: 1, page: 1 },
        list: [
          {
            ...FILLED_JSON,
            extcat_id: 2,
            read: [
              {
                reference: entry.reference,
                note: 'mine',
                status: 'completed',
                chapters: 12,
                volumes: 3,
                rereads: 2,
                score: 0,
                created: seconds('2024-03-04T05:06:07Z'),
                updated: seconds('2024-04-05T06:07:08Z'),
              },
            ],
          },
        ],
      });
      const [item] = res.body.list as Json[];
      expect(sortedKeys(item)).toEqual(keysOf(READABLE_SUMMARY_WITH_READ));
      expect(sortedKeys((item.read as Json[])[0])).toEqual(keysOf(READ_ENTRY));
    });

    it('serves anonymous callers empty read arrays, and absent values as null', async () => {
      await filledFixture();
      await manga('bare', {
        title_original: null,
        title_ua: null,
        title_en: null,
        media_type: null,
        status: null,
        chapters: null,
        volumes: null,
        image: null,
        year: null,
        start_date: null,
        end_date: null,
        score: 1,
      });
      const res = await list({});
      expect(res.status).toBe(200);
      expect(shapeProblems(res.body.list[0], READABLE_SUMMARY_WITH_READ, 'item', ['read'])).toEqual([]);
      expect(res.body.list[0]).toEqual({ ...FILLED_JSON, extcat_id: 2, read: [] });
      const bare = res.body.list[1] as Json;
      expect(sortedKeys(bare)).toEqual(keysOf(READABLE_SUMMARY_WITH_READ));
      expect(bare).toMatchObject({
        slug: 'bare',
        data_type: 'manga',
        title_original: null,
        title_ua: null,
        title_en: null,
        media_type: null,
        status: null,
        chapters: null,
        volumes: null,
        image: null,
        year: null,
        start_date: null,
        end_date: null,
        native_score: 0,
        native_scored_by: 0,
        read: [],
      });
    });

    it('lists manga only: never novels, never deleted manga', async () => {
      await manga('kept');
      await manga('gone', { deleted: true, score: 10 });
      await buildNovel(t.orm, { slug: 'a-novel', score: 10 });
      const res = await list({});
      expect(res.body.list.map((m: Json) => m.slug)).toEqual(['kept']);
      expect(res.body.pagination).toEqual({ total: 1, pages: 1, page: 1 });
    });
  });

  describe('REST ≡ GraphQL', () => {
    it('REST equals data.mangaList, compiled and through the resolvers, anonymous and with a token', async () => {
      const { viewer } = await filledFixture();
      const drama = await genre('drama');
      const jump = await buildMagazine(t.orm, { slug: 'jump' });
      await linkTitle(t.orm, await manga('other', { title_en: 'Berserk Gaiden', score: 3 }), {
        genres: [drama],
        magazines: [jump],
      });
      const token = await buildToken(t.orm, viewer);
      const bodies: Json[] = [
        {},
        { sort: ['score:asc'] },
        { query: 'berserk' },
        { genres: ['drama'], magazines: ['jump'] },
        { media_type: ['manhwa', 'manga'], years: [1980, null] },
      ];
      for (const options of [{}, { token }, { token, page: 2, size: 1 }]) {
        for (const body of bodies) {
          const viaRest = await list(body, options);
          const compiled = await listGql(body, options);
          const resolved = await listGql(body, options, resolverDocument);
          expect(viaRest.status).toBe(200);
          expect(compiled.body.errors).toBeUndefined();
          expect(compiled.body.data.mangaList).toEqual(viaRest.body);
          expect(resolved.body.errors).toBeUndefined();
          expect(resolved.body.data.__typename).toBe('Query');
          expect(resolved.body.data.mangaList).toEqual(viaRest.body);
        }
      }
      // The viewer's entry is really there through every door.
      const res = await listGql({}, { token }, resolverDocument);
      expect(res.body.data.mangaList.list[0].read.map((r: Json) => r.note)).toEqual(['mine']);
    });

    it('reports the same errors through both doors, in both languages', async () => {
      await buildMagazine(t.orm, { slug: 'jump' });
      const cases: [Json, string, string, string][] = [
        [
          { sort: ['title:asc'] },
          'system:validation_error',
          'Invalid field sort in request body',
          'Некоректне поле sort у запиті body',
        ],
        [{ magazines: ['nope'] }, 'manga:unknown_magazine', 'Unknown magazine', 'Невідомий журнал'],
        [{ magazines: ['jump', 'jump'] }, 'manga:unknown_magazine', 'Unknown magazine', 'Невідомий журнал'],
        [{ genres: ['-nope'] }, 'manga:unknown_genre', 'Unknown genre', 'Невідомий жанр'],
      ];
      for (const [body, code, en, uk] of cases) {
        for (const language of ['en', 'uk']) {
          const viaRest = await list(body, { language });
          expect(viaRest.status).toBe(400);
          expect(viaRest.body.code).toBe(code);
          expect(viaRest.body.message).toBe(language === 'uk' ? uk : en);
          for (const document of [route.document, resolverDocument]) {
            const graph = await listGql(body, { language }, document);
            expect(graph.body.errors).toHaveLength(1);
            const [error] = graph.body.errors;
            expect({
              message: error.message,
              code: error.extensions.code,
              status: error.extensions.http.status,
            }).toEqual({ message: viaRest.body.message, code, status: 400 });
          }
        }
      }
    });
  });

  describe('auth: optional, no scope', () => {
    it('a third-party token without any read scope is served, with its own user entries', async () => {
      const m = await manga('mine');
      for (const scope of [[], ['read:watchlist'], ['read:user-details'], ['read:readlist']]) {
        const user = await buildUser(t.orm);
        const token = await buildThirdPartyToken(t.orm, user, scope);
        await buildReadEntry(t.orm, user, { manga: m }, { note: `scope ${scope.join(',')}` });
        const res = await list({}, { token });
        expect(res.status).toBe(200);
        expect(res.body.list[0].read.map((r: Json) => r.note)).toEqual([`scope ${scope.join(',')}`]);
        const graph = await listGql({}, { token });
        expect(graph.body.errors).toBeUndefined();
        expect(graph.body.data.mangaList).toEqual(res.body);
      }
    });

    it('a malformed, unknown or expired token means anonymous', async () => {
      const m = await manga('m');
      const user = await buildUser(t.orm);
      await buildReadEntry(t.orm, user, { manga: m }, { note: 'hidden' });
      const expired = await buildToken(t.orm, user, { expiration: new Date(Date.now() - 1000) });
      for (const token of ['not-a-token', 'x'.repeat(64), expired]) {
        const res = await list({}, { token });
        expect(res.status).toBe(200);
        expect(res.body.list).toEqual([expect.objectContaining({ slug: 'm', read: [] })]);
      }
    });

    it('a deleted account is 400 user:deleted, before body validation (semantics §1.1.2 step 1)', async () => {
      await manga('m');
      const token = await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' }));
      const res = await list({}, { token });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'user:deleted', message: 'Deleted' });
      const graph = await listGql({}, { token });
      expect(graph.body.errors[0].extensions).toEqual({ code: 'user:deleted', http: { status: 400 } });
      const invalid = await list({ sort: ['bad:asc'] }, { token });
      expect(invalid.status).toBe(400);
      expect(invalid.body.code).toBe('user:deleted');
    });
  });

  describe('defaults and paging', () => {
    it('orders by score desc, scored_by desc, then reference desc', async () => {
      await manga('low', { score: 5 });
      await manga('high', { score: 9, scored_by: 10 });
      await manga('high-more-votes', { score: 9, scored_by: 20 });
      const tied = [await manga('tie-1', { score: 7 }), await manga('tie-2', { score: 7 })];
      const ties = [...tied].sort((x, y) => (x.reference < y.reference ? 1 : -1)).map((m) => m.slug);
      expect(await slugs({})).toEqual(['high-more-votes', 'high', ...ties, 'low']);
    });

    it('pages exactly: total, pages, a page past the end, no match', async () => {
      for (let i = 0; i < 7; i += 1) await manga(`m${i}`, { score: i });
      const page2 = await list({}, { page: 2, size: 3 });
      expect(page2.status).toBe(200);
      expect(page2.body.pagination).toEqual({ total: 7, pages: 3, page: 2 });
      expect(page2.body.list.map((m: Json) => m.slug)).toEqual(['m3', 'm2', 'm1']);
      const last = await list({}, { page: 3, size: 3 });
      expect(last.body.list.map((m: Json) => m.slug)).toEqual(['m0']);
      const past = await list({}, { page: 9, size: 3 });
      expect(past.status).toBe(200);
      expect(past.body).toEqual({ pagination: { total: 7, pages: 3, page: 9 }, list: [] });
      const none = await list({ status: ['paused'] });
      expect(none.body).toEqual({ pagination: { total: 0, pages: 0, page: 1 }, list: [] });
    });

    it('answers the default page size of 15, and at most 100', async () => {
      for (let i = 0; i < 16; i += 1) await manga(`m${i}`);
      const res = await list({});
      expect(res.body.list).toHaveLength(15);
      expect(res.body.pagination).toEqual({ total: 16, pages: 2, page: 1 });
      const all = await list({}, { size: 100 });
      expect(all.body.list).toHaveLength(16);
      expect(all.body.pagination).toEqual({ total: 16, pages: 1, page: 1 });
    });

    it.each(INVALID_PAGING_QUERIES)('query %s → Invalid field %s in request query', async (qs, name) => {
      // An invalid body too: the query string is checked first.
      const res = await rest(t.app, 'POST', `/manga?${qs}`, { sort: ['bad:asc'] });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'system:validation_error',
        message: `Invalid field ${name} in request query`,
      });
    });

    it('GraphQL page 0 and size 101 are refused with HTTP 400', async () => {
      for (const [args, name] of [
        [{ page: 0 }, 'page'],
        [{ size: 101 }, 'size'],
      ] as const) {
        const res = await gql(t.app, route.document, { ...args, input: {} });
        expect(res.status).toBe(400);
        expect(res.body.errors[0].message).toBe(`Invalid field ${name} in request query`);
      }
    });
  });

  describe('filters through REST (manga media types, NSFW auto-hide)', () => {
    it('media_type takes each manga type and keeps only the listed ones', async () => {
      const types = ['manga', 'manhwa', 'manhua', 'one_shot', 'doujin'] as const;
      for (const [i, type] of types.entries()) await manga(`t-${type}`, { media_type: type, score: 9 - i });
      await manga('untyped', { media_type: null, score: 1 });
      for (const type of types) expect(await slugs({ media_type: [type] })).toEqual([`t-${type}`]);
      expect(await slugs({ media_type: ['doujin', 'manga'] })).toEqual(['t-manga', 't-doujin']);
      expect(await slugs({ media_type: [] })).toHaveLength(6);
    });

    it('hides titles with ecchi, erotica or hentai unless genres or a query are given', async () => {
      const [ecchi, erotica, hentai, drama] = [
        await genre('ecchi'),
        await genre('erotica'),
        await genre('hentai'),
        await genre('drama'),
      ];
      await linkTitle(t.orm, await manga('nsfw-ecchi', { title_en: 'Secret garden', score: 9 }), {
        genres: [ecchi, drama],
      });
      await linkTitle(t.orm, await manga('nsfw-erotica', { title_en: 'Secret room', score: 8 }), {
        genres: [erotica],
      });
      await linkTitle(t.orm, await manga('nsfw-hentai', { score: 7 }), { genres: [hentai] });
      await linkTitle(t.orm, await manga('safe', { title_en: 'Secret path', score: 6 }), { genres: [drama] });
      expect(await slugs({})).toEqual(['safe']);
      expect(await slugs({ genres: [], query: null })).toEqual(['safe']);
      expect((await list({})).body.pagination.total).toBe(1);
      expect(await slugs({ genres: ['drama'] })).toEqual(['nsfw-ecchi', 'safe']);
      expect(await slugs({ genres: ['-erotica'] })).toEqual(['nsfw-ecchi', 'nsfw-hentai', 'safe']);
      expect(await slugs({ query: 'secret' })).toEqual(
        expect.arrayContaining(['nsfw-ecchi', 'nsfw-erotica', 'safe']),
      );
      expect(await slugs({ query: 'secret' })).toHaveLength(3);
    });

    it('integer bounds accept strings of decimal digits, read as those integers (semantics §1.1.1)', async () => {
      await manga('y1999', { year: 1999, score: 6 });
      await manga('y2005', { year: 2005, score: 8 });
      await manga('y2010', { year: 2010, score: 9 });
      expect(await slugs({ years: ['2005', '2005'] })).toEqual(['y2005']);
      expect(await slugs({ years: ['2000', null] })).toEqual(['y2010', 'y2005']);
      expect(await slugs({ score: ['7', '8'] })).toEqual(['y2005']);
      const graph = await listGql({ years: ['2005', '2005'] });
      expect(graph.body.errors).toBeUndefined();
      expect(graph.body.data.mangaList.list.map((m: Json) => m.slug)).toEqual(['y2005']);
    });

    it('sorts with the #3 allowlist; a query without sort orders by rank, with sort by the entries', async () => {
      await manga('exact', { title_en: 'Berserk', score: 1, start_date: new Date('2002-01-01') });
      await manga('typo', { title_en: 'Berserc', score: 9, start_date: new Date('2001-01-01') });
      expect(await slugs({})).toEqual(['typo', 'exact']);
      expect(await slugs({ sort: ['start_date:desc'] })).toEqual(['exact', 'typo']);
      expect(await slugs({ query: 'Berserk' })).toEqual(['exact', 'typo']);
      expect(await slugs({ query: 'Berserk', sort: ['score:desc'] })).toEqual(['typo', 'exact']);
    });
  });

  describe('validation (400 system:validation_error naming the field)', () => {
    it.each([
      [{ years: [2000] }, 'years'],
      [{ years: [2000, 2001, 2002] }, 'years'],
      [{ years: [2010, 2000] }, 'years'],
      [{ years: [0, null] }, 'years'],
      [{ years: [1.5, null] }, 'years'],
      [{ years: ['2000.0', null] }, 'years'],
      [{ years: ['', null] }, 'years'],
      [{ years: ['0', null] }, 'years'],
      [{ score: ['11', null] }, 'score'],
      [{ years: [true, null] }, 'years'],
      [{ years: 2000 }, 'years'],
      [{ years: {} }, 'years'],
      [{ media_type: ['light_novel'] }, 'media_type'],
      [{ media_type: ['novel'] }, 'media_type'],
      [{ media_type: ['tv'] }, 'media_type'],
      [{ media_type: ['Manga'] }, 'media_type'],
      [{ media_type: null }, 'media_type'],
      [{ media_type: [null] }, 'media_type'],
      [{ status: ['airing'] }, 'status'],
      [{ status: null }, 'status'],
      [{ only_translated: 'yes' }, 'only_translated'],
      [{ only_translated: 1 }, 'only_translated'],
      [{ only_translated: null }, 'only_translated'],
      [{ magazines: [1] }, 'magazines'],
      [{ magazines: null }, 'magazines'],
      [{ genres: [true] }, 'genres'],
      [{ genres: [null] }, 'genres'],
      [{ score: [1] }, 'score'],
      [{ score: [1, 2, 3] }, 'score'],
      [{ score: [9, 8] }, 'score'],
      [{ score: [-1, null] }, 'score'],
      [{ score: [null, 11] }, 'score'],
      [{ score: [7.5, null] }, 'score'],
      [{ score: null }, 'score'],
      [{ score: [] }, 'score'],
      [{ native_score: [5, 4] }, 'native_score'],
      [{ native_score: [null, 11] }, 'native_score'],
      [{ native_score: [] }, 'native_score'],
      [{ query: 'a' }, 'query'],
      [{ query: '' }, 'query'],
      [{ query: 'x'.repeat(256) }, 'query'],
      [{ query: 12 }, 'query'],
      [{ sort: ['title:asc'] }, 'sort'],
      [{ sort: ['watch_score:desc'] }, 'sort'],
      [{ sort: ['score:desc', 'score:asc'] }, 'sort'],
      [{ sort: ['score:up'] }, 'sort'],
      [{ sort: ['score'] }, 'sort'],
      [{ sort: null }, 'sort'],
      [{ surprise: 1 }, 'surprise'],
      [{ rating: ['rx'] }, 'rating'],
      // The first violation in field order wins.
      [{ sort: ['bad:asc'], years: [3, 2] }, 'years'],
      [{ query: 'a', media_type: ['tv'] }, 'media_type'],
      [{ native_score: [2, 1], score: [2, 1] }, 'score'],
      [{ genres: [1], magazines: [1] }, 'magazines'],
      [{ surprise: 1, sort: ['bad:asc'] }, 'sort'],
    ])('%j → %s, through REST and GraphQL', async (body, name) => {
      const res = await list(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'system:validation_error',
        message: `Invalid field ${name} in request body`,
      });
      const graph = await listGql(body);
      expect(graph.status).toBe(400);
      const [error] = graph.body.errors;
      expect(error.extensions.code).toBe('system:validation_error');
      // Unknown keys and values GraphQL cannot coerce fail in graphql-js (its own message);
      // everything else is named exactly as in REST.
      if (error.message !== res.body.message) expect(error.message).toMatch(/\$input|input/);
    });

    it('accepts the boundary values of every field', async () => {
      await buildMagazine(t.orm, { slug: 'jump' });
      await genre('drama');
      await manga('m', { year: 2000, score: 10, translated_ua: true, status: 'ongoing' });
      const body = {
        years: [1, null],
        media_type: ['manga'],
        status: ['ongoing'],
        only_translated: true,
        magazines: [],
        genres: [],
        score: [0, 10],
        native_score: [null, null],
        query: null,
        sort: ['native_scored_by:asc', 'native_score:desc', 'media_type:asc', 'start_date:desc'],
      };
      expect(await slugs(body)).toEqual(['m']);
      for (const extra of [
        { sort: ['scored_by:desc', 'created:asc', 'updated:desc', 'score:asc'] },
        { query: 'xx' },
        { query: 'x'.repeat(255) },
        { years: [null, null] },
        { years: ['1', '2024'], score: ['0', '10'], native_score: [null, '-0'] },
        { years: null },
        { years: [] },
        { score: [10, 10] },
        { native_score: [0, 0] },
        { magazines: ['jump'], genres: ['drama', '-drama'] },
        { sort: [] },
      ]) {
        const res = await list(extra);
        expect(res.status).toBe(200);
      }
    });

    it.each([
      [{ media_type: 'manga' }, 'media_type'],
      [{ magazines: 'jump' }, 'magazines'],
      [{ genres: 'drama' }, 'genres'],
      [{ sort: 'score:desc' }, 'sort'],
    ])('%j (a single value for an array) → %s in REST; GraphQL coerces it to a list', async (body, name) => {
      await buildMagazine(t.orm, { slug: 'jump' });
      await genre('drama');
      const res = await list(body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(`Invalid field ${name} in request body`);
      const graph = await listGql(body);
      expect(graph.body.errors).toBeUndefined();
    });

    it('a missing, empty or non-object body is `Invalid field in request body`', async () => {
      const expected = { code: 'system:validation_error', message: 'Invalid field in request body' };
      const missing = await rest(t.app, 'POST', '/manga');
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual(expected);
      for (const body of [[], [{}]]) {
        const res = await list(body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(expected);
      }
      const text = await rest(t.app, 'POST', '/manga').set('Content-Type', 'application/json').send('null');
      expect(text.status).toBe(400);
      expect(text.body.code).toBe('system:validation_error');
    });
  });

  describe('check order: validation → magazines → genres', () => {
    it('magazines: unknown or repeated slugs are 400 manga:unknown_magazine, before genre checks', async () => {
      await buildMagazine(t.orm, { slug: 'm1' });
      await genre('drama');
      for (const magazines of [['nope'], ['m1', 'nope'], ['m1', 'm1']]) {
        const res = await list({ magazines, genres: ['nope'] });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'manga:unknown_magazine', message: 'Unknown magazine' });
      }
      // Validation comes first.
      const invalid = await list({ magazines: ['nope'], sort: ['bad:asc'] });
      expect(invalid.body.code).toBe('system:validation_error');
      expect((await list({ magazines: ['m1'], genres: ['drama'] })).status).toBe(200);
    });

    it('genres: checked after removing prefixes and duplicates; unknown is 400 manga:unknown_genre', async () => {
      await genre('drama');
      for (const genres of [['nope'], ['-nope'], ['drama', '-nope'], ['--drama']]) {
        const res = await list({ genres }, { language: 'uk' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'manga:unknown_genre', message: 'Невідомий жанр' });
      }
      for (const genres of [['drama', 'drama'], ['-drama'], ['drama', '-drama']]) {
        expect((await list({ genres })).status).toBe(200);
      }
    });

    it('a deleted account is refused before the magazine and genre look-ups', async () => {
      const token = await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' }));
      const res = await list({ magazines: ['nope'], genres: ['nope'] }, { token });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('user:deleted');
    });
  });

  describe('SQL statements per request', () => {
    it('do not grow with the page size (size 1 vs 100, 40 matching manga, with a viewer)', async () => {
      const viewer = await buildUser(t.orm);
      const token = await buildToken(t.orm, viewer);
      const drama = await genre('drama');
      const magazine = await buildMagazine(t.orm, { slug: 'mag' });
      for (let i = 0; i < 40; i += 1) {
        const m = await manga(`m${i}`, { title_en: `Berserk ${i}` });
        await linkTitle(t.orm, m, { genres: [drama], magazines: [magazine] });
        if (i % 2 === 0) await buildReadEntry(t.orm, viewer, { manga: m }, { note: `n${i}` });
      }
      const count = async (body: Json, size: number, options: CallOptions = { token }) => {
        let status = 0;
        let length = 0;
        const queries = await t.queries.count(async () => {
          const res = await list(body, { ...options, size });
          status = res.status;
          length = res.body.list.length;
        });
        expect(status).toBe(200);
        expect(length).toBe(Math.min(size, 40));
        return queries;
      };
      await count({}, 1); // the token's first use writes once
      await count({ query: 'berserk' }, 1); // a query's first use computes its matches
      for (const body of [{}, { query: 'berserk', genres: ['drama'], magazines: ['mag'] }]) {
        const small = await count(body, 1);
        expect(await count(body, 100)).toBe(small);
        const anonymousSmall = await count(body, 1, {});
        expect(await count(body, 100, {})).toBe(anonymousSmall);
      }
      // One compiled statement; a viewer's token +1; the magazine and genre look-ups +1 together.
      expect(await count({}, 100, {})).toBe(1);
      expect(await count({}, 100)).toBe(2);
      expect(await count({ genres: ['drama'], magazines: ['mag'] }, 100)).toBe(3);
      const res = await list({}, { token, size: 100 });
      const withEntries = (res.body.list as Json[]).filter((m) => (m.read as Json[]).length > 0);
      expect(withEntries).toHaveLength(20);
    });
  });
});
