import { Anime } from '../../src/catalog/anime.entity';
import { Genre } from '../../src/catalog/genre.entity';
import {
  buildAnime,
  buildGenre,
  buildThirdPartyToken,
  buildToken,
  buildUser,
  buildWatchEntry,
  linkCompany,
} from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import {
  ANIME_SUMMARY_WITH_WATCH,
  keysOf,
  PAGINATION,
  shapeProblems,
  WATCH_ENTRY,
  type Shape,
} from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { type Json, seconds, sortedKeys } from '../setup/json';
import { pagedListRoute, type Paging } from '../setup/list-route';
import { INVALID_PAGING_QUERIES } from '../setup/paging';

/** POST /anime (GraphQL `animeList`): the anime catalog; optional auth, no scope; paged. */
const t = useTestApp();

const { route, resolverDocument, list, listGql, slugs } = pagedListRoute(t, '/anime');

const PAGE: Shape = { pagination: { object: PAGINATION }, list: { arrayOf: ANIME_SUMMARY_WITH_WATCH } };

const anime = (slug: string, o: Partial<Anime> = {}) => buildAnime(t.orm, { slug, ...o });

async function linkGenres(title: Anime, genreSlugs: string[]): Promise<void> {
  const em = t.orm.em.fork();
  const loaded = await em.findOneOrFail(Anime, { reference: title.reference }, { populate: ['genres'] });
  for (const slug of genreSlugs) {
    const genre = (await em.findOne(Genre, { slug })) ?? (await buildGenre(t.orm, { slug }));
    loaded.genres.add(em.getReference(Genre, genre.reference));
  }
  await em.flush();
}

/** A third-party token of a fresh user holding `scope`, and that user. */
async function thirdParty(scope: string[]) {
  const user = await buildUser(t.orm);
  return { user, token: await buildThirdPartyToken(t.orm, user, scope) };
}

const byReferenceDesc = (titles: Anime[]) =>
  [...titles].sort((x, y) => (x.reference < y.reference ? 1 : -1)).map((a) => a.slug);

/** Every summary field filled. */
const FULL: Partial<Anime> = {
  extcat_id: 52991,
  media_type: 'tv',
  status: 'finished',
  season: 'fall',
  source: 'manga',
  rating: 'pg_13',
  title_ua: 'Фрірен',
  title_en: 'Frieren',
  title_ja: '葬送のフリーレン',
  episodes_released: 28,
  episodes_total: 28,
  image: '/content/frieren.jpg',
  score: 9.31,
  scored_by: 654321,
  // native_score is derived: (12/22)·9 + (10/22)·C, with C = 0 while the baseline is empty.
  native_scored_by: 12,
  native_score_total: 108,
  year: 2023,
  start_date: new Date('2023-09-29T10:20:30.999Z'),
  end_date: new Date('2024-03-22T00:00:00.500Z'),
  created: new Date('2023-05-06T07:08:09.750Z'),
  updated: new Date('2024-02-03T04:05:06.001Z'),
  translated_ua: true,
};

/** The summary of an anime built with FULL. */
const fullSummary = (slug: string, extcatId: number, scoredBy: number, watch: Json[]) => ({
  data_type: 'anime',
  media_type: 'tv',
  status: 'finished',
  season: 'fall',
  source: 'manga',
  rating: 'pg_13',
  title_ua: 'Фрірен',
  title_en: 'Frieren',
  title_ja: '葬送のフリーレン',
  episodes_released: '28',
  episodes_total: '28',
  image: 'https://cdn.test/content/frieren.jpg',
  native_scored_by: 12,
  scored_by: scoredBy,
  native_score: 4.91,
  score: 9.31,
  slug,
  start_date: seconds('2023-09-29T10:20:30Z'),
  end_date: seconds('2024-03-22T00:00:00Z'),
  created: seconds('2023-05-06T07:08:09Z'),
  updated: seconds('2024-02-03T04:05:06Z'),
  translated_ua: true,
  year: 2023,
  extcat_id: extcatId,
  watch,
});

describe('POST /anime (animeList)', () => {
  describe('items: Anime summary with watch, REST ≡ GraphQL', () => {
    async function fixture() {
      const viewer = await buildUser(t.orm);
      const other = await buildUser(t.orm);
      const first = await anime('first', { ...FULL, scored_by: 654322 });
      const second = await anime('second', { ...FULL, extcat_id: 52992 });
      const mine = await buildWatchEntry(t.orm, viewer, first, {
        status: 'completed',
        note: 'mine',
        score: 9,
        episodes: 28,
        rewatches: 1,
        duration: 672,
        created: new Date('2024-01-02T03:04:05.900Z'),
        updated: new Date('2024-02-03T04:05:06.100Z'),
      });
      await buildWatchEntry(t.orm, other, first, { status: 'dropped', note: 'theirs' });
      await buildWatchEntry(t.orm, other, second, { status: 'planned', note: 'theirs' });
      const mineJson = {
        reference: mine.reference,
        note: 'mine',
        updated: seconds('2024-02-03T04:05:06Z'),
        created: seconds('2024-01-02T03:04:05Z'),
        status: 'completed',
        rewatches: 1,
        duration: 672,
        episodes: 28,
        score: 9,
      };
      return { viewer, mineJson };
    }

    /** REST, the compiled document and the resolvers give the same JSON; returns it. */
    async function expectParity(body: Json, options: CallOptions & Paging = {}) {
      const viaRest = await list(body, options);
      const compiled = await listGql(body, options);
      const resolved = await listGql(body, options, resolverDocument);
      expect(viaRest.status).toBe(200);
      expect(compiled.status).toBe(200);
      expect(compiled.body.errors).toBeUndefined();
      expect(resolved.body.errors).toBeUndefined();
      expect(resolved.body.data.__typename).toBe('Query');
      expect(compiled.body.data.animeList).toEqual(viaRest.body);
      expect(resolved.body.data.animeList).toEqual(viaRest.body);
      return viaRest.body as Json;
    }

    it('answers anonymously the exact summaries, with the contract keys and empty watch arrays', async () => {
      await fixture();
      const body = await expectParity({});
      expect(body).toEqual({
        pagination: { total: 2, pages: 1, page: 1 },
        list: [fullSummary('first', 52991, 654322, []), fullSummary('second', 52992, 654321, [])],
      });
      for (const item of body.list as Json[]) {
        expect(sortedKeys(item)).toEqual(keysOf(ANIME_SUMMARY_WITH_WATCH));
      }
      expect(shapeProblems(body, PAGE, 'page', ['watch'])).toEqual([]);
    });

    it("carries only the viewer's own watch entry, with the entry's exact fields", async () => {
      const { viewer, mineJson } = await fixture();
      const token = await buildToken(t.orm, viewer);
      const body = await expectParity({}, { token });
      expect(body).toEqual({
        pagination: { total: 2, pages: 1, page: 1 },
        list: [fullSummary('first', 52991, 654322, [mineJson]), fullSummary('second', 52992, 654321, [])],
      });
      expect(sortedKeys(mineJson)).toEqual(keysOf(WATCH_ENTRY));
      expect(shapeProblems((body.list as Json[])[0], ANIME_SUMMARY_WITH_WATCH, 'item')).toEqual([]);
    });

    it('serves absent values as null (episodes as strings or null) through both doors', async () => {
      await anime('bare', {
        media_type: null,
        status: null,
        season: null,
        source: null,
        rating: null,
        title_en: null,
        title_ja: null,
        episodes_released: null,
        episodes_total: null,
        image: null,
        year: null,
        start_date: null,
        end_date: null,
      });
      const body = await expectParity({});
      const [item] = body.list as Json[];
      expect(sortedKeys(item)).toEqual(keysOf(ANIME_SUMMARY_WITH_WATCH));
      expect(item).toMatchObject({
        slug: 'bare',
        data_type: 'anime',
        media_type: null,
        status: null,
        season: null,
        source: null,
        rating: null,
        title_en: null,
        title_ja: null,
        episodes_released: null,
        episodes_total: null,
        image: null,
        year: null,
        start_date: null,
        end_date: null,
        translated_ua: false,
        watch: [],
      });
    });

    it('gives the same pages for filters, a query, sorts and paging', async () => {
      const { viewer } = await fixture();
      const token = await buildToken(t.orm, viewer);
      const third = await anime('third', { title_en: 'Frieren Specials', score: 1, rating: 'rx' });
      await linkCompany(t.orm, third, 'madhouse', 'studio');
      await linkGenres(third, ['fantasy']);
      const cases: [Json, CallOptions & Paging, string[]][] = [
        [{ query: 'Frieren' }, { token }, ['first', 'second', 'third']],
        [{ sort: ['score:asc', 'scored_by:asc'] }, { token, page: 2, size: 1 }, ['first']],
        [{ studios: ['madhouse'], rating: ['rx'] }, {}, ['third']],
        [{ genres: ['-fantasy'], years: [2023, 2023] }, { token }, ['first', 'second']],
        [{}, { page: 9, size: 2 }, []],
      ];
      for (const [body, options, expected] of cases) {
        const page = await expectParity(body, options);
        expect((page.list as Json[]).map((a) => a.slug).sort()).toEqual(expected);
      }
    });

    it('reports the same errors through both doors, compiled and not, in both languages', async () => {
      const known = await anime('known');
      await linkCompany(t.orm, known, 'madhouse', 'studio');
      await linkGenres(known, ['action']);
      const deleted = await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' }));
      const cases: [Json, CallOptions, string, number, string, string][] = [
        [
          { sort: ['title:asc'] },
          {},
          'system:validation_error',
          400,
          'Invalid field sort in request body',
          'Некоректне поле sort у запиті body',
        ],
        [
          { producers: ['nope'] },
          {},
          'anime:unknown_producer',
          400,
          'Unknown producer',
          'Невідомий виробник',
        ],
        [{ studios: ['nope'] }, {}, 'anime:unknown_studio', 400, 'Unknown studio', 'Невідома студія'],
        [{ genres: ['-nope'] }, {}, 'anime:unknown_genre', 400, 'Unknown genre', 'Невідомий жанр'],
        [{}, { token: deleted }, 'user:deleted', 400, 'Deleted', 'Видалено...'],
      ];
      for (const [body, options, code, status, english, ukrainian] of cases) {
        for (const language of ['en', 'uk']) {
          const viaRest = await list(body, { ...options, language });
          expect(viaRest.status).toBe(status);
          expect(viaRest.body).toEqual({ code, message: language === 'en' ? english : ukrainian });
          for (const document of [route.document, resolverDocument]) {
            const graph = await listGql(body, { ...options, language }, document);
            const [error] = graph.body.errors;
            expect({
              message: error.message,
              code: error.extensions.code,
              status: error.extensions.http.status,
            }).toEqual({ message: viaRest.body.message, code, status });
          }
        }
      }
    });
  });

  describe('order and paging', () => {
    it('defaults to score desc, scored_by desc, then reference desc; deleted anime never listed', async () => {
      await anime('low', { score: 5 });
      await anime('high', { score: 9, scored_by: 10 });
      await anime('high-more-votes', { score: 9, scored_by: 20 });
      const ties = [await anime('tie-1', { score: 7 }), await anime('tie-2', { score: 7 })];
      await anime('gone', { score: 10, deleted: true });
      expect(await slugs({})).toEqual(['high-more-votes', 'high', ...byReferenceDesc(ties), 'low']);
    });

    it('pages exactly: total, pages, a page past the end, an empty result', async () => {
      for (let i = 0; i < 7; i += 1) await anime(`a${i}`, { score: i });
      const page2 = await list({}, { page: 2, size: 3 });
      expect(page2.status).toBe(200);
      expect(page2.body.pagination).toEqual({ total: 7, pages: 3, page: 2 });
      expect(page2.body.list.map((a: Json) => a.slug)).toEqual(['a3', 'a2', 'a1']);
      const last = await list({}, { page: 3, size: 3 });
      expect(last.body.list.map((a: Json) => a.slug)).toEqual(['a0']);
      const past = await list({}, { page: 9, size: 3 });
      expect(past.status).toBe(200);
      expect(past.body).toEqual({ pagination: { total: 7, pages: 3, page: 9 }, list: [] });
      const none = await list({ status: ['paused'] });
      expect(none.body).toEqual({ pagination: { total: 0, pages: 0, page: 1 }, list: [] });
    });

    it('answers the default page size of 15, and size 100', async () => {
      for (let i = 0; i < 16; i += 1) await anime(`a${i}`);
      const res = await list({});
      expect(res.body.list).toHaveLength(15);
      expect(res.body.pagination).toEqual({ total: 16, pages: 2, page: 1 });
      const all = await list({}, { size: 100 });
      expect(all.body.list).toHaveLength(16);
      expect(all.body.pagination).toEqual({ total: 16, pages: 1, page: 1 });
    });

    it.each([
      ['score', { score: 1 }, { score: 2 }],
      ['scored_by', { scored_by: 1 }, { scored_by: 2 }],
      ['native_scored_by', { native_scored_by: 1 }, { native_scored_by: 2 }],
      [
        'native_score',
        { native_scored_by: 10, native_score_total: 50 },
        { native_scored_by: 10, native_score_total: 90 },
      ],
      ['media_type', { media_type: 'movie' as const }, { media_type: 'tv' as const }],
      ['start_date', { start_date: new Date('2001-01-01') }, { start_date: new Date('2002-01-01') }],
      ['created', { created: new Date('2001-01-01') }, { created: new Date('2002-01-01') }],
      ['updated', { updated: new Date('2001-01-01') }, { updated: new Date('2002-01-01') }],
    ])('sort %s asc and desc', async (field, smaller: Partial<Anime>, larger: Partial<Anime>) => {
      // Against the default order (score desc), so that an ignored sort fails.
      const scores = field === 'score' ? [{}, {}] : [{ score: 9 }, { score: 1 }];
      await anime('small', { ...scores[0], ...smaller });
      await anime('big', { ...scores[1], ...larger });
      expect(await slugs({ sort: [`${field}:asc`] })).toEqual(['small', 'big']);
      expect(await slugs({ sort: [`${field}:desc`] })).toEqual(['big', 'small']);
    });

    it('applies sort entries in order, then reference desc; an empty sort leaves only the tie-break', async () => {
      const a = await anime('a', { score: 5, scored_by: 1 });
      const b = await anime('b', { score: 5, scored_by: 1 });
      const c = await anime('c', { score: 5, scored_by: 9 });
      const d = await anime('d', { score: 6, scored_by: 0 });
      expect(await slugs({ sort: ['scored_by:asc', 'score:desc'] })).toEqual([
        'd',
        ...byReferenceDesc([a, b]),
        'c',
      ]);
      expect(await slugs({ sort: [] })).toEqual(byReferenceDesc([a, b, c, d]));
    });

    it('start_date desc puts nulls last', async () => {
      await anime('dated', { start_date: new Date('2001-01-01'), score: 1 });
      await anime('undated', { start_date: null, score: 9 });
      expect(await slugs({ sort: ['start_date:desc'] })).toEqual(['dated', 'undated']);
    });

    it('with a query and no sort key: by match rank; a sort key (even []) orders by the sort instead', async () => {
      const exact = await anime('exact', { title_en: 'Berserk', score: 1 });
      const fuzzy = await anime('fuzzy', { title_en: 'Berserc Chronicle', score: 9 });
      await anime('unrelated', { title_en: 'Claymore', score: 5 });
      // A substring match ranks 1, above the typo's similarity, whatever the scores.
      expect(await slugs({ query: 'Berserk' })).toEqual(['exact', 'fuzzy']);
      expect(await slugs({ query: 'Berserk', sort: ['score:desc'] })).toEqual(['fuzzy', 'exact']);
      expect(await slugs({ query: 'Berserk', sort: [] })).toEqual(byReferenceDesc([exact, fuzzy]));
      expect(await slugs({ query: null })).toEqual(['fuzzy', 'unrelated', 'exact']);
    });
  });

  describe('filters through REST', () => {
    it("forwards #21's filters: companies, genres, years (integers, digit strings, season pairs), enums", async () => {
      const a = await anime('a', {
        year: 2023,
        season: 'fall',
        rating: 'pg_13',
        source: 'manga',
        media_type: 'tv',
        status: 'ongoing',
        translated_ua: true,
        score: 9,
        start_date: new Date('2023-10-05T00:00:00Z'),
        end_date: new Date('2024-03-20T00:00:00Z'),
      });
      const b = await anime('b', {
        year: 2020,
        season: 'spring',
        rating: 'r',
        score: 5,
        media_type: 'movie',
      });
      await linkCompany(t.orm, a, 'madhouse', 'studio');
      await linkCompany(t.orm, b, 'madhouse', 'producer');
      await linkGenres(a, ['action']);
      await linkGenres(b, ['drama']);
      expect(await slugs({ studios: ['madhouse'] })).toEqual(['a']);
      expect(await slugs({ producers: ['madhouse'] })).toEqual(['b']);
      expect(await slugs({ genres: ['-action'] })).toEqual(['b']);
      expect(await slugs({ years: [2021, null] })).toEqual(['a']);
      // The home page sends years as digit strings.
      expect(await slugs({ season: ['fall'], years: ['2023', '2023'], sort: ['score:desc'] })).toEqual(['a']);
      expect(
        await slugs({
          years: [
            ['winter', 2024],
            ['winter', 2024],
          ],
        }),
      ).toEqual(['a']);
      expect(await slugs({ years: [2024, 2024], season: ['winter'], include_multiseason: true })).toEqual([
        'a',
      ]);
      expect(await slugs({ rating: ['r'] })).toEqual(['b']);
      expect(await slugs({ source: ['manga'], status: ['ongoing'], only_translated: true })).toEqual(['a']);
      expect(await slugs({ media_type: ['movie'], score: [null, 5] })).toEqual(['b']);
      expect(await slugs({ native_score: [1, null] })).toEqual([]);
      expect(await slugs({ years: [], score: [null, null], genres: [] })).toEqual(['a', 'b']);
    });
  });

  describe('decision 1: rx hidden unless a rating, an explicit NSFW genre or a query', () => {
    async function catalog() {
      const rx = await anime('rx', { rating: 'rx', title_en: 'Hidden Garden', score: 9 });
      const unrated = await anime('unrated', { rating: null, score: 8 });
      const teen = await anime('teen', { rating: 'pg_13', score: 7 });
      await linkGenres(rx, ['hentai', 'ecchi', 'erotica']);
      await linkGenres(unrated, ['ecchi']);
      await linkGenres(teen, ['erotica', 'action']);
      await buildGenre(t.orm, { slug: 'drama' });
    }

    it('hides rx, keeps null ratings, and has no genre auto-hide', async () => {
      await catalog();
      expect(await slugs({})).toEqual(['unrated', 'teen']);
      expect(await slugs({ rating: [] })).toEqual(['unrated', 'teen']);
      expect((await list({})).body.pagination.total).toBe(2);
    });

    it('a non-empty rating shows rx when asked for', async () => {
      await catalog();
      expect(await slugs({ rating: ['rx', 'pg_13'] })).toEqual(['rx', 'teen']);
      expect(await slugs({ rating: ['pg_13'] })).toEqual(['teen']);
    });

    it.each(['ecchi', 'erotica', 'hentai'])('naming %s without a prefix shows rx', async (genre) => {
      await catalog();
      const expected = { ecchi: ['rx', 'unrated'], erotica: ['rx', 'teen'], hentai: ['rx'] }[genre];
      expect(await slugs({ genres: [genre] })).toEqual(expected);
    });

    it('an excluded NSFW genre or any other genre keeps rx hidden', async () => {
      await catalog();
      expect(await slugs({ genres: ['-ecchi'] })).toEqual(['teen']);
      expect(await slugs({ genres: ['-drama'] })).toEqual(['unrated', 'teen']);
      expect(await slugs({ genres: ['-action', '-drama'] })).toEqual(['unrated']);
      // An exclusion beside a plain NSFW genre: the plain entry shows rx.
      expect(await slugs({ genres: ['-drama', 'hentai'] })).toEqual(['rx']);
    });

    it('a query shows rx; a null query does not', async () => {
      await catalog();
      expect(await slugs({ query: 'Hidden Garden' })).toEqual(['rx']);
      expect(await slugs({ query: null })).toEqual(['unrated', 'teen']);
    });

    it('GraphQL applies the same rule', async () => {
      await catalog();
      for (const body of [{}, { rating: ['rx'] }, { genres: ['hentai'] }, { query: 'Hidden Garden' }]) {
        const viaRest = await list(body);
        const graph = await listGql(body);
        expect(graph.body.data.animeList).toEqual(viaRest.body);
      }
    });
  });

  describe('validation (400 system:validation_error naming the field, first in field order)', () => {
    it.each([
      [{ years: null }, 'years'],
      [{ years: [2020] }, 'years'],
      [{ years: [2021, 2020] }, 'years'],
      [{ years: [0, 2020] }, 'years'],
      [{ years: [1.5, null] }, 'years'],
      [{ years: ['2020.0', null] }, 'years'],
      [{ years: [true, null] }, 'years'],
      [{ years: 2020 }, 'years'],
      [{ years: [2020, ['winter', 2021]] }, 'years'],
      [
        {
          years: [
            ['winter', 2021],
            ['fall', 2020],
          ],
        },
        'years',
      ],
      [
        {
          years: [
            ['spring', 2021],
            ['winter', 2021],
          ],
        },
        'years',
      ],
      [
        {
          years: [
            ['autumn', 2021],
            ['fall', 2021],
          ],
        },
        'years',
      ],
      [{ years: [['winter', 2021]] }, 'years'],
      [{ include_multiseason: 'yes' }, 'include_multiseason'],
      [{ include_multiseason: null }, 'include_multiseason'],
      [{ only_translated: 1 }, 'only_translated'],
      [{ score: [11, null] }, 'score'],
      [{ score: [1] }, 'score'],
      [{ score: [9, 8] }, 'score'],
      [{ score: [-1, null] }, 'score'],
      [{ score: [7.5, null] }, 'score'],
      [{ score: null }, 'score'],
      [{ native_score: [null] }, 'native_score'],
      [{ native_score: [] }, 'native_score'],
      [{ media_type: ['manga'] }, 'media_type'],
      [{ media_type: null }, 'media_type'],
      [{ rating: ['nc17'] }, 'rating'],
      [{ status: ['airing'] }, 'status'],
      [{ source: ['comic'] }, 'source'],
      [{ season: ['autumn'] }, 'season'],
      [{ producers: [1] }, 'producers'],
      [{ studios: [null] }, 'studios'],
      [{ genres: [{}] }, 'genres'],
      [{ query: 'a' }, 'query'],
      [{ query: 'x'.repeat(256) }, 'query'],
      [{ query: 12 }, 'query'],
      [{ sort: ['title:asc'] }, 'sort'],
      [{ sort: ['watch_score:desc'] }, 'sort'],
      [{ sort: ['score:desc', 'score:asc'] }, 'sort'],
      [{ sort: ['score:up'] }, 'sort'],
      [{ sort: ['score'] }, 'sort'],
      [{ sort: ['score:desc:x'] }, 'sort'],
      [{ sort: null }, 'sort'],
      [{ watch_status: 'watching' }, 'watch_status'],
      [{ magazines: [] }, 'magazines'],
      [{ surprise: 1 }, 'surprise'],
      [{ sort: ['bad:asc'], years: [3, 2] }, 'years'],
      [{ genres: [1], producers: [1] }, 'producers'],
      [{ query: 'a', season: ['autumn'] }, 'season'],
      [{ studios: [1], rating: ['x'], score: [1] }, 'score'],
      [{ surprise: 1, sort: ['bad:asc'] }, 'sort'],
    ])('%j → %s, through REST and GraphQL', async (body, name) => {
      const res = await list(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'system:validation_error',
        message: `Invalid field ${name} in request body`,
      });
      const graph = await listGql(body);
      const [error] = graph.body.errors;
      expect(error.extensions.code).toBe('system:validation_error');
      expect(error.extensions.http.status).toBe(400);
      // Unknown keys and values GraphQL cannot coerce fail in graphql-js (its own message);
      // everything else is named exactly as in REST.
      if (error.message !== res.body.message) expect(error.message).toMatch(/\$input/);
    });

    it('accepts the boundaries: query of 2 and 255 characters or null, score [0, 10], every sort field', async () => {
      await anime('a', { score: 10 });
      for (const body of [
        { query: 'ab' },
        { query: 'x'.repeat(255) },
        { query: null },
        { score: [0, 10], native_score: [0, 10] },
        { years: [1, null] },
        { years: ['1', '2'] },
        {
          sort: [
            'native_scored_by:asc',
            'native_score:desc',
            'media_type:asc',
            'start_date:desc',
            'scored_by:asc',
            'created:desc',
            'updated:asc',
            'score:desc',
          ],
        },
      ]) {
        const res = await list(body);
        expect(res.status).toBe(200);
        expect(res.body.pagination.page).toBe(1);
      }
    });

    it('a missing body, a JSON array or a JSON string is `Invalid field in request body`', async () => {
      const expected = { code: 'system:validation_error', message: 'Invalid field in request body' };
      const empty = await rest(t.app, 'POST', '/anime');
      expect(empty.status).toBe(400);
      expect(empty.body).toEqual(expected);
      const array = await list([]);
      expect(array.status).toBe(400);
      expect(array.body).toEqual(expected);
      const text = await rest(t.app, 'POST', '/anime').set('Content-Type', 'application/json').send('"x"');
      expect(text.status).toBe(400);
      expect(text.body).toEqual(expected);
    });

    it.each(INVALID_PAGING_QUERIES)(
      'query %s → Invalid field %s in request query (before the body)',
      async (qs, name) => {
        const res = await rest(t.app, 'POST', `/anime?${qs}`, { sort: ['bad:asc'] });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          code: 'system:validation_error',
          message: `Invalid field ${name} in request query`,
        });
      },
    );

    it('unknown query parameters are ignored', async () => {
      await anime('a');
      const res = await rest(t.app, 'POST', '/anime?surprise=1&size=1', {});
      expect(res.status).toBe(200);
      expect(res.body.list.map((a: Json) => a.slug)).toEqual(['a']);
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

  describe('check order: validation → producers → studios → genres', () => {
    beforeEach(async () => {
      const known = await anime('known');
      await linkCompany(t.orm, known, 'madhouse', 'studio');
      await linkCompany(t.orm, known, 'aniplex', 'producer');
      await linkGenres(known, ['action']);
    });

    it('validation comes before every look-up', async () => {
      const res = await list({ producers: ['nope'], studios: ['nope'], genres: ['nope'], sort: ['bad:asc'] });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Invalid field sort in request body');
    });

    it('unknown producer first, then studio, then genre', async () => {
      const code = async (body: Json) => (await list(body)).body;
      expect(await code({ producers: ['nope'], studios: ['nope'], genres: ['nope'] })).toEqual({
        code: 'anime:unknown_producer',
        message: 'Unknown producer',
      });
      expect(await code({ producers: ['aniplex'], studios: ['nope'], genres: ['nope'] })).toEqual({
        code: 'anime:unknown_studio',
        message: 'Unknown studio',
      });
      expect(
        await code({ producers: ['aniplex'], studios: ['madhouse'], genres: ['action', 'nope'] }),
      ).toEqual({
        code: 'anime:unknown_genre',
        message: 'Unknown genre',
      });
    });

    it('any company may be named in either role; repeats are allowed', async () => {
      for (const body of [
        { producers: ['madhouse'], studios: ['aniplex'] },
        { producers: ['aniplex', 'aniplex'], studios: ['madhouse', 'madhouse'] },
      ]) {
        const res = await list(body);
        expect(res.status).toBe(200);
      }
      expect(await slugs({ producers: ['aniplex'], studios: ['madhouse'] })).toEqual(['known']);
      expect(await slugs({ producers: ['madhouse'] })).toEqual([]);
    });

    it('genres are checked after removing `-` prefixes and duplicates', async () => {
      for (const genres of [['nope'], ['-nope'], ['action', '-nope'], ['--action']]) {
        const res = await list({ genres }, { language: 'uk' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'anime:unknown_genre', message: 'Невідомий жанр' });
      }
      for (const genres of [['action', 'action'], ['-action'], ['action', '-action']]) {
        expect((await list({ genres })).status).toBe(200);
      }
    });
  });

  describe('auth: optional, no scope', () => {
    it('a bad or expired token means anonymous', async () => {
      const user = await buildUser(t.orm);
      const a = await anime('a');
      await buildWatchEntry(t.orm, user, a, { note: 'mine' });
      const expired = await buildToken(t.orm, user, { expiration: new Date(Date.now() - 1000) });
      for (const token of ['not-a-token', expired]) {
        const res = await list({}, { token });
        expect(res.status).toBe(200);
        expect(res.body.list).toHaveLength(1);
        expect(res.body.list[0].watch).toEqual([]);
      }
    });

    it("a third-party token without any read scope is served, with its user's entries", async () => {
      const a = await anime('a');
      for (const scope of [[], ['read:readlist'], ['read:watchlist'], ['watchlist']]) {
        const { user, token } = await thirdParty(scope);
        await buildWatchEntry(t.orm, user, a, { note: `note ${scope.join(',')}` });
        const viaRest = await list({}, { token });
        expect(viaRest.status).toBe(200);
        expect(viaRest.body.list[0].watch.map((w: Json) => w.note)).toEqual([`note ${scope.join(',')}`]);
        const graph = await listGql({}, { token });
        expect(graph.body.errors).toBeUndefined();
        expect(graph.body.data.animeList).toEqual(viaRest.body);
      }
    });

    it('the auth cookie works as the header does', async () => {
      const user = await buildUser(t.orm);
      await buildWatchEntry(t.orm, user, await anime('a'), { note: 'cookie' });
      const res = await list({}, { cookie: await buildToken(t.orm, user) });
      expect(res.status).toBe(200);
      expect(res.body.list[0].watch.map((w: Json) => w.note)).toEqual(['cookie']);
    });

    it("a deleted account's token is 400 user:deleted, before validation and look-ups", async () => {
      await anime('a');
      const token = await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' }));
      for (const [body, qs] of [
        [{}, ''],
        [{ producers: ['nope'] }, ''],
        [{ sort: ['bad:asc'] }, ''],
        [{}, '?page=0'],
      ] as const) {
        const res = await rest(t.app, 'POST', `/anime${qs}`, body, { token });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'user:deleted', message: 'Deleted' });
      }
    });
  });

  describe('SQL queries per request', () => {
    it('do not grow with the page size (size 1 vs 100, 40 matching anime, with a viewer)', async () => {
      const viewer = await buildUser(t.orm);
      const token = await buildToken(t.orm, viewer);
      for (let i = 0; i < 40; i += 1) {
        const a = await anime(`a${i}`, { title_en: `Berserk ${i}`, score: i % 10 });
        await linkCompany(t.orm, a, 'madhouse', 'studio');
        await linkCompany(t.orm, a, 'aniplex', 'producer');
        await linkGenres(a, ['drama']);
        if (i % 2 === 0) await buildWatchEntry(t.orm, viewer, a, { note: `n${i}` });
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
      // A query's first use computes its matches; later ones read their version.
      await count({ query: 'berserk' }, 1);
      const filtered = { query: 'berserk', genres: ['drama'], studios: ['madhouse'], producers: ['aniplex'] };
      for (const body of [{}, filtered]) {
        expect(await count(body, 100)).toBe(await count(body, 1));
        expect(await count(body, 100, {})).toBe(await count(body, 1, {}));
      }
      // One compiled statement (the page with its anime and the caller's entries); a
      // viewer's token +1; the company and genre look-ups +1 together.
      expect(await count({}, 100, {})).toBe(1);
      expect(await count({}, 100)).toBe(2);
      expect(await count({ genres: ['drama'], studios: ['madhouse'], producers: ['aniplex'] }, 100)).toBe(3);
    });
  });
});
