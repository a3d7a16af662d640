import type { User } from '../../src/accounts/user.entity';
import { Anime } from '../../src/catalog/anime.entity';
import { Genre } from '../../src/catalog/genre.entity';
import type { WatchEntry } from '../../src/lists/watch-entry.entity';
import type { RestRoute } from '../../src/rest/route';
import { restRoutes } from '../../src/routes';
import { buildAnime, buildGenre, buildToken, buildUser, buildWatchEntry, linkCompany } from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { ANIME_SUMMARY, PAGINATION, shapeProblems, WATCH_ENTRY, type Shape } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { type Json } from '../setup/json';

/** #21 POST /watch/{username}/list: a user's watch entries with their anime; auth none. */
const t = useTestApp();

const route: RestRoute = restRoutes.find((r) => r.contract === 21)!;

interface Paging {
  page?: number;
  size?: number;
}

function list(username: string, body: unknown, options: CallOptions & Paging = {}) {
  const query = new URLSearchParams();
  if (options.page !== undefined) query.set('page', String(options.page));
  if (options.size !== undefined) query.set('size', String(options.size));
  const qs = query.toString();
  return rest(t.app, 'POST', `/watch/${username}/list${qs ? `?${qs}` : ''}`, body, options);
}

const listGql = (username: string, input: unknown, options: CallOptions & Paging = {}) =>
  gql(t.app, route.document, { username, page: options.page ?? 1, size: options.size ?? 15, input }, options);

const PAGE: Shape = {
  pagination: { object: PAGINATION },
  list: { arrayOf: { ...WATCH_ENTRY, anime: { object: ANIME_SUMMARY } } },
};

let owner: User;
let username: string;

beforeEach(async () => {
  owner = await buildUser(t.orm, { username: `Watcher_${Date.now() % 100000}` });
  username = owner.username;
});

/** An anime on the owner's list. */
async function entry(slug: string, anime: Partial<Anime> = {}, watch: Partial<WatchEntry> = {}) {
  const title = await buildAnime(t.orm, { slug, ...anime });
  await buildWatchEntry(t.orm, owner, title, watch);
  return title;
}

/** Slugs of the anime listed by a successful REST call. */
async function slugs(body: unknown, options: CallOptions & Paging = {}): Promise<string[]> {
  const res = await list(username, body, options);
  expect(res.status).toBe(200);
  return (res.body.list as { anime: Json }[]).map((item) => item.anime.slug as string);
}
const sorted = async (body: unknown) => (await slugs(body)).sort();

async function linkGenres(anime: Anime, slugs: string[]): Promise<void> {
  const em = t.orm.em.fork();
  const loaded = await em.findOneOrFail(Anime, { reference: anime.reference }, { populate: ['genres'] });
  for (const slug of slugs) {
    const genre = (await em.findOne(Genre, { slug })) ?? (await buildGenre(t.orm, { slug }));
    loaded.genres.add(em.getReference(Genre, genre.reference));
  }
  await em.flush();
}

describe('POST /watch/{username}/list (#21)', () => {
  describe('REST ≡ GraphQL', () => {
    async function fixture() {
      const full = {
        title_ua: 'Назва',
        title_en: 'Title',
        title_ja: 'タイトル',
        media_type: 'tv' as const,
        status: 'finished' as const,
        season: 'fall' as const,
        source: 'manga' as const,
        rating: 'pg_13' as const,
        episodes_released: 12,
        episodes_total: 12,
        image: '/a.jpg',
        year: 2015,
        start_date: new Date('2015-10-01T00:00:00Z'),
        end_date: new Date('2015-12-20T00:00:00Z'),
      };
      await entry('first', { ...full }, { score: 9, note: 'great', episodes: 12, duration: 288 });
      await entry('second', { ...full }, { score: 7, note: 'fine', episodes: 3, duration: 72 });
      // Another user's entry never shows up.
      await buildWatchEntry(t.orm, await buildUser(t.orm), await buildAnime(t.orm, { slug: 'theirs' }));
    }

    async function expectParity(user: string, body: Json, options: CallOptions & Paging = {}) {
      const restRes = await list(user, body, options);
      const gqlRes = await listGql(user, body, options);
      expect(restRes.status).toBe(200);
      expect(gqlRes.body.errors).toBeUndefined();
      expect(restRes.body).toEqual(gqlRes.body.data.watchList);
      return restRes.body as Json;
    }

    it('answers data.watchList: WatchEntry fields plus the Anime summary without watch', async () => {
      await fixture();
      const body = await expectParity(username, {});
      expect(shapeProblems(body, PAGE, 'page')).toEqual([]);
      expect((body.list as { note: string; anime: Json }[]).map((e) => [e.note, e.anime.slug])).toEqual([
        ['great', 'first'],
        ['fine', 'second'],
      ]);
      expect(body.pagination).toEqual({ total: 2, pages: 1, page: 1 });
    });

    it('ignores tokens entirely (auth none): the owner, a stranger, a bad or a deleted token', async () => {
      await fixture();
      const anonymous = await expectParity(username, { sort: ['watch_score:asc'] }, { size: 1, page: 2 });
      const tokens = [
        await buildToken(t.orm, owner),
        await buildToken(t.orm, await buildUser(t.orm)),
        'not-a-token',
        await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' })),
      ];
      for (const token of tokens) {
        expect(
          await expectParity(username, { sort: ['watch_score:asc'] }, { size: 1, page: 2, token }),
        ).toEqual(anonymous);
      }
      expect(anonymous.list).toHaveLength(1);
    });

    it('finds the user ignoring case; unknown is 404 user:not_found, deleted is 400 user:deleted', async () => {
      await fixture();
      expect((await list(username.toUpperCase(), {})).body.pagination.total).toBe(2);
      expect((await list(username.toLowerCase(), {})).body.pagination.total).toBe(2);
      const gone = await buildUser(t.orm, { role: 'deleted' });
      for (const [user, status, code] of [
        ['nobody_here', 404, 'user:not_found'],
        [gone.username, 400, 'user:deleted'],
      ] as const) {
        const restRes = await list(user, {}, { language: 'uk' });
        expect(restRes.status).toBe(status);
        expect(restRes.body.code).toBe(code);
        const [error] = (await listGql(user, {}, { language: 'uk' })).body.errors;
        expect({
          message: error.message,
          code: error.extensions.code,
          status: error.extensions.http.status,
        }).toEqual({ message: restRes.body.message, code, status });
      }
      // Validation comes before the user look-up.
      const invalid = await list('nobody_here', { sort: ['bad:asc'] });
      expect(invalid.status).toBe(400);
      expect(invalid.body.message).toBe('Invalid field sort in request body');
    });
  });

  describe('selection', () => {
    it("lists only the user's entries whose anime is not deleted", async () => {
      await entry('kept');
      await entry('gone', { deleted: true });
      await buildWatchEntry(t.orm, await buildUser(t.orm), await buildAnime(t.orm, { slug: 'other-user' }));
      const res = await list(username, {});
      expect(res.body.list.map((e: { anime: Json }) => e.anime.slug)).toEqual(['kept']);
      expect(res.body.pagination.total).toBe(1);
    });

    it('watch_status filters the entry status', async () => {
      await entry('w', {}, { status: 'watching' });
      await entry('c', {}, { status: 'completed' });
      expect(await slugs({ watch_status: 'completed' })).toEqual(['c']);
      expect(await sorted({ watch_status: null })).toEqual(['c', 'w']);
    });

    it('only_translated, media_type, rating, status, source: the anime value', async () => {
      await entry('a', {
        translated_ua: true,
        media_type: 'tv',
        rating: 'pg',
        status: 'ongoing',
        source: 'manga',
      });
      await entry('b', {
        translated_ua: false,
        media_type: 'movie',
        rating: 'r',
        status: 'finished',
        source: '4_koma_manga',
      });
      await entry('n', { media_type: null, rating: null, status: null, source: null });
      expect(await slugs({ only_translated: true })).toEqual(['a']);
      expect(await slugs({ media_type: ['movie'] })).toEqual(['b']);
      expect(await sorted({ media_type: ['movie', 'tv'] })).toEqual(['a', 'b']);
      expect(await slugs({ rating: ['pg'] })).toEqual(['a']);
      expect(await slugs({ status: ['finished'] })).toEqual(['b']);
      expect(await slugs({ source: ['4_koma_manga'] })).toEqual(['b']);
      expect(await sorted({ media_type: [], rating: [], status: [], source: [] })).toEqual(['a', 'b', 'n']);
    });

    it('score and native_score: literal, inclusive bounds', async () => {
      await entry('s8', { score: 8, native_scored_by: 10, native_score_total: 60 }); // native 3
      await entry('s907', { score: 9.07, native_scored_by: 30, native_score_total: 240 }); // native 6
      await entry('s9', { score: 9 });
      expect(await sorted({ score: [8, 9] })).toEqual(['s8', 's9']);
      expect(await sorted({ score: [9, null] })).toEqual(['s9', 's907']);
      expect(await slugs({ score: [9, 9] })).toEqual(['s9']);
      expect(await slugs({ native_score: [3, 3] })).toEqual(['s8']);
      expect(await slugs({ native_score: [4, null] })).toEqual(['s907']);
      expect(await slugs({ native_score: [0, 0] })).toEqual(['s9']);
    });

    it('producers and studios: any listed company in that role; unknown slugs match nothing', async () => {
      const a = await entry('a');
      const b = await entry('b');
      await entry('none');
      await linkCompany(t.orm, a, 'madhouse', 'studio');
      await linkCompany(t.orm, b, 'madhouse', 'producer');
      await linkCompany(t.orm, b, 'bones', 'studio');
      expect(await slugs({ studios: ['madhouse'] })).toEqual(['a']);
      expect(await slugs({ producers: ['madhouse'] })).toEqual(['b']);
      expect(await sorted({ studios: ['madhouse', 'bones'] })).toEqual(['a', 'b']);
      expect(await slugs({ studios: ['unknown-studio'] })).toEqual([]);
      expect(await slugs({ studios: ['madhouse'], producers: ['madhouse'] })).toEqual([]);
    });

    it('genres: include all, exclude with `-`; unknown slugs are no error; NSFW never hidden', async () => {
      await linkGenres(await entry('ad'), ['action', 'drama']);
      await linkGenres(await entry('a'), ['action']);
      await linkGenres(await entry('ecchi'), ['ecchi']);
      await entry('none');
      expect(await sorted({})).toEqual(['a', 'ad', 'ecchi', 'none']);
      expect(await sorted({ genres: ['action'] })).toEqual(['a', 'ad']);
      expect(await slugs({ genres: ['action', 'drama'] })).toEqual(['ad']);
      expect(await sorted({ genres: ['-drama', '-ecchi'] })).toEqual(['a', 'none']);
      expect(await slugs({ genres: ['unknown'] })).toEqual([]);
      expect(await sorted({ genres: ['-unknown'] })).toEqual(['a', 'ad', 'ecchi', 'none']);
    });

    describe('years, seasons and airing seasons (§1.9, §6.5)', () => {
      beforeEach(async () => {
        // spring_2020 only.
        await entry('spring20', {
          year: 2020,
          season: 'spring',
          start_date: new Date('2020-04-03T00:00:00Z'),
          end_date: new Date('2020-06-20T00:00:00Z'),
        });
        // fall_2019 and winter_2020.
        await entry('fall19', {
          year: 2019,
          season: 'fall',
          start_date: new Date('2019-10-05T00:00:00Z'),
          end_date: new Date('2020-03-20T00:00:00Z'),
        });
        // Ongoing since summer 2018: every season up to now.
        await entry('ongoing18', {
          year: 2018,
          season: 'summer',
          start_date: new Date('2018-07-01T00:00:00Z'),
        });
        // winter_2021.
        await entry('winter21', {
          year: 2021,
          season: 'winter',
          start_date: new Date('2021-01-08T00:00:00Z'),
          end_date: new Date('2021-03-25T00:00:00Z'),
        });
        // Starts 4 days before January: counted from January, so winter_2020 only.
        await entry('late19', {
          year: 2020,
          season: 'winter',
          start_date: new Date('2019-12-28T00:00:00Z'),
          end_date: new Date('2020-01-30T00:00:00Z'),
        });
        // No dates: never "aired in" anything.
        await entry('undated', { year: 2020, season: 'winter', start_date: null });
      });

      it('integer years: year bounds, either open', async () => {
        expect(await sorted({ years: [2020, 2020] })).toEqual(['late19', 'spring20', 'undated']);
        expect(await sorted({ years: [2021, null] })).toEqual(['winter21']);
        expect(await sorted({ years: [null, 2018] })).toEqual(['ongoing18']);
        expect(await slugs({ years: [] })).toHaveLength(6);
        expect(await slugs({ years: [null, null] })).toHaveLength(6);
        expect(
          await slugs({ years: [3000000000, 3000000001], season: ['winter'], include_multiseason: true }),
        ).toEqual([]);
      });

      it('season list alone, and with years (AND) when include_multiseason is false', async () => {
        expect(await sorted({ season: ['winter'] })).toEqual(['late19', 'undated', 'winter21']);
        expect(await sorted({ years: [2020, 2020], season: ['winter'] })).toEqual(['late19', 'undated']);
      });

      it('include_multiseason: (year and season) OR aired in a listed season of those years', async () => {
        expect(await sorted({ years: [2020, 2020], season: ['winter'], include_multiseason: true })).toEqual([
          'fall19',
          'late19',
          'ongoing18',
          'undated',
        ]);
        // Without seasons, or with an open year, there are no airing conditions.
        expect(await sorted({ years: [2020, 2020], include_multiseason: true })).toEqual([
          'late19',
          'spring20',
          'undated',
        ]);
        expect(await sorted({ years: [2020, null], season: ['winter'], include_multiseason: true })).toEqual([
          'late19',
          'undated',
          'winter21',
        ]);
      });

      it('season pairs: aired in any season from the first pair through the second (crossing years)', async () => {
        expect(
          await sorted({
            years: [
              ['fall', 2019],
              ['winter', 2020],
            ],
          }),
        ).toEqual(['fall19', 'late19', 'ongoing18']);
        // The 7-day rule: late19 starts counting in January 2020.
        expect(
          await sorted({
            years: [
              ['fall', 2019],
              ['fall', 2019],
            ],
          }),
        ).toEqual(['fall19', 'ongoing18']);
        expect(
          await sorted({
            years: [
              ['spring', 2020],
              ['winter', 2021],
            ],
          }),
        ).toEqual(['ongoing18', 'spring20', 'winter21']);
        // include_multiseason changes nothing with pairs.
        expect(
          await sorted({
            years: [
              ['fall', 2019],
              ['fall', 2019],
            ],
            include_multiseason: true,
          }),
        ).toEqual(['fall19', 'ongoing18']);
      });

      it('season pairs with a season list: (season listed) OR aired in the span', async () => {
        expect(
          await sorted({
            years: [
              ['fall', 2019],
              ['fall', 2019],
            ],
            season: ['spring'],
          }),
        ).toEqual(['fall19', 'ongoing18', 'spring20']);
      });
    });
  });

  describe('sort', () => {
    it('defaults to watch_score desc, watch_created desc, then anime reference desc', async () => {
      await entry('low', {}, { score: 3 });
      await entry('old-high', {}, { score: 9, created: new Date('2020-01-01T00:00:00Z') });
      await entry('new-high', {}, { score: 9, created: new Date('2021-01-01T00:00:00Z') });
      const same = { score: 5, created: new Date('2020-06-01T00:00:00Z') };
      const tied = [await entry('tie-1', {}, same), await entry('tie-2', {}, same)];
      const ties = tied.sort((x, y) => (x.reference < y.reference ? 1 : -1)).map((a) => a.slug);
      expect(await slugs({})).toEqual(['new-high', 'old-high', ...ties, 'low']);
    });

    it.each([
      ['watch_score', {}, { score: 1 }, {}, { score: 2 }],
      ['watch_episodes', {}, { episodes: 1 }, {}, { episodes: 2 }],
      ['watch_created', {}, { created: new Date('2020-01-01') }, {}, { created: new Date('2021-01-01') }],
      ['score', { score: 1 }, {}, { score: 2 }, {}],
      ['scored_by', { scored_by: 1 }, {}, { scored_by: 2 }, {}],
      ['native_scored_by', { native_scored_by: 1 }, {}, { native_scored_by: 2 }, {}],
      [
        'native_score',
        { native_scored_by: 10, native_score_total: 20 },
        {},
        { native_scored_by: 10, native_score_total: 90 },
        {},
      ],
      ['media_type', { media_type: 'movie' as const }, {}, { media_type: 'tv' as const }, {}],
      ['start_date', { start_date: new Date('2001-01-01') }, {}, { start_date: new Date('2002-01-01') }, {}],
    ])(
      '%s asc and desc',
      async (
        field,
        smallAnime: Partial<Anime>,
        smallWatch: Partial<WatchEntry>,
        bigAnime: Partial<Anime>,
        bigWatch: Partial<WatchEntry>,
      ) => {
        await entry('small', smallAnime, smallWatch);
        await entry('big', bigAnime, bigWatch);
        expect(await slugs({ sort: [`${field}:asc`] })).toEqual(['small', 'big']);
        expect(await slugs({ sort: [`${field}:desc`] })).toEqual(['big', 'small']);
      },
    );

    it('watch_updated refers to the entry', async () => {
      await entry('small', {}, {});
      await entry('big', {}, {});
      await t.orm.em.getConnection().execute(
        `update watch_entry w set updated = case a.slug when 'small' then '2020-01-01'::timestamptz else '2021-01-01'::timestamptz end
           from anime a where a.reference = w.anime_reference`,
      );
      expect(await slugs({ sort: ['watch_updated:asc'] })).toEqual(['small', 'big']);
      expect(await slugs({ sort: ['watch_updated:desc'] })).toEqual(['big', 'small']);
    });

    it('start_date desc puts nulls last; entries apply in order', async () => {
      await entry('undated', { start_date: null }, { score: 1 });
      await entry('dated', { start_date: new Date('2001-01-01') }, { score: 9 });
      await entry('dated-low', { start_date: new Date('2001-01-01') }, { score: 2 });
      expect(await slugs({ sort: ['start_date:desc', 'watch_score:asc'] })).toEqual([
        'dated-low',
        'dated',
        'undated',
      ]);
    });
  });

  describe('paging', () => {
    it('total, pages and a page past the end', async () => {
      for (let i = 0; i < 5; i += 1) await entry(`a${i}`, {}, { score: i });
      const res = await list(username, {}, { page: 2, size: 2 });
      expect(res.body.pagination).toEqual({ total: 5, pages: 3, page: 2 });
      expect(res.body.list.map((e: { anime: Json }) => e.anime.slug)).toEqual(['a2', 'a1']);
      const past = await list(username, {}, { page: 4, size: 2 });
      expect(past.body).toEqual({ pagination: { total: 5, pages: 3, page: 4 }, list: [] });
    });
  });

  describe('validation (400 system:validation_error naming the field)', () => {
    it.each([
      [{ query: 'berserk' }, 'query'],
      [{ years: null }, 'years'],
      [{ years: [2020] }, 'years'],
      [{ years: [2021, 2020] }, 'years'],
      [{ years: [0, 2020] }, 'years'],
      [{ years: [2020, ['winter', 2021]] }, 'years'],
      [{ years: [['winter', 2021], 2022] }, 'years'],
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
      [
        {
          years: [
            ['winter', '2021.0'],
            ['fall', 2021],
          ],
        },
        'years',
      ],
      [
        {
          years: [
            ['winter', 2021, 1],
            ['fall', 2021],
          ],
        },
        'years',
      ],
      [{ years: [['winter', 2021]] }, 'years'],
      [
        {
          years: [
            ['winter', 2021],
            ['fall', 2021],
            ['fall', 2022],
          ],
        },
        'years',
      ],
      [{ include_multiseason: 'yes' }, 'include_multiseason'],
      [{ only_translated: 1 }, 'only_translated'],
      [{ score: [11, null] }, 'score'],
      [{ native_score: [null] }, 'native_score'],
      [{ media_type: ['light_novel'] }, 'media_type'],
      [{ rating: ['nc17'] }, 'rating'],
      [{ status: ['airing'] }, 'status'],
      [{ source: ['comic'] }, 'source'],
      [{ season: ['autumn'] }, 'season'],
      [{ producers: [1] }, 'producers'],
      [{ studios: [null] }, 'studios'],
      [{ genres: [{}] }, 'genres'],
      [{ sort: ['title:asc'] }, 'sort'],
      [{ sort: ['watch_score:asc', 'watch_score:desc'] }, 'sort'],
      [{ sort: ['created:desc'] }, 'sort'],
      [{ watch_status: 'reading' }, 'watch_status'],
      [{ watch_status: ['completed'] }, 'watch_status'],
      [{ sort: ['bad:asc'], years: [2] }, 'years'],
    ])('%j → %s, through REST and GraphQL', async (body, name) => {
      const res = await list(username, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'system:validation_error',
        message: `Invalid field ${name} in request body`,
      });
      const graph = await listGql(username, body);
      const [error] = graph.body.errors;
      expect(error.extensions.code).toBe('system:validation_error');
      expect(error.extensions.http.status).toBe(400);
      // A key GraphQL does not know or a value it cannot coerce fails in graphql-js with its own message.
      if (error.message !== res.body.message) expect(error.message).toMatch(/\$input/);
    });

    it('page and size are checked first, in the query', async () => {
      for (const [qs, name] of [
        ['page=0', 'page'],
        ['size=101', 'size'],
      ]) {
        const res = await rest(t.app, 'POST', `/watch/${username}/list?${qs}`, { query: 'x' });
        expect(res.body.message).toBe(`Invalid field ${name} in request query`);
      }
    });
  });

  describe('SQL queries per request', () => {
    it('do not grow with the page size (size 1 vs 100, 40 entries)', async () => {
      const studio = 'studio-x';
      for (let i = 0; i < 40; i += 1) {
        const anime = await entry(
          `a${i}`,
          { year: 2020, start_date: new Date('2020-01-10T00:00:00Z') },
          { score: i % 10 },
        );
        if (i < 35) await linkCompany(t.orm, anime, studio, 'studio');
      }
      const count = async (body: Json, size: number) => {
        let length = 0;
        const queries = await t.queries.count(async () => {
          const res = await list(username, body, { size });
          expect(res.status).toBe(200);
          length = res.body.list.length;
        });
        return { queries, length };
      };
      for (const body of [
        {},
        {
          studios: [studio],
          years: [
            ['winter', 2020],
            ['spring', 2020],
          ],
        },
      ]) {
        const small = await count(body, 1);
        const large = await count(body, 100);
        expect(small.length).toBe(1);
        expect(large.length).toBeGreaterThanOrEqual(35);
        expect(large.queries).toBe(small.queries);
        // One compiled statement: the user, the page of entries with their anime.
        expect(large.queries).toBe(1);
      }
    });
  });
});
