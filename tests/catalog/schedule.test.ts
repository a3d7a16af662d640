import type { Anime } from '../../src/catalog/anime.entity';
import { restRoutes } from '../../src/routes';
import {
  buildAiringEpisode,
  buildAnime,
  buildThirdPartyToken,
  buildToken,
  buildUser,
  buildWatchEntry,
  orderedReference,
} from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { ANIME_SUMMARY_WITH_WATCH, PAGINATION, shapeProblems, type Shape } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { type Json, seconds, sortedKeys } from '../setup/json';

/** #2 POST /schedule/anime: paged airing episodes, optional authentication, scope read:watchlist. */
const t = useTestApp();

const HOUR = 60 * 60 * 1000;
const LOOKBACK_SECONDS = 6 * 60 * 60;

interface ScheduleItem {
  anime: Json & { slug: string; watch: Json[] };
  time_left: number;
  airing_at: number;
  episode: number;
}
interface PageBody {
  pagination: { total: number; pages: number; page: number };
  list: ScheduleItem[];
}

const SCHEDULE_PAGE: Shape = {
  pagination: { object: PAGINATION },
  list: {
    arrayOf: {
      anime: { object: { ...ANIME_SUMMARY_WITH_WATCH, synopsis_en: 'string', synopsis_ua: 'string' } },
      time_left: 'integer',
      airing_at: 'integer',
      episode: 'integer',
    },
  },
};

const route = restRoutes.find((r) => r.contract === 2)!;

const postSchedule = (body: unknown, query = '', options: CallOptions = {}) =>
  rest(t.app, 'POST', `/schedule/anime${query}`, body, options);

const gqlSchedule = (input: unknown, page: Record<string, number> = {}, options: CallOptions = {}) =>
  gql(t.app, route.document, { ...page, input }, options);

/** Whole seconds from now, so that airing times serialize exactly. */
const fromNow = (ms: number) => new Date(Math.trunc((Date.now() + ms) / 1000) * 1000);

const buildEpisode = (anime: Anime, episode: number, airingAt: Date, reference?: string) =>
  buildAiringEpisode(t.orm, anime, episode, airingAt, reference);

/** An anime with one episode airing `hours` from now. */
async function airing(slug: string, hours = 1, overrides: Partial<Anime> = {}) {
  const anime = await buildAnime(t.orm, { slug, ...overrides });
  await buildEpisode(anime, 1, fromNow(hours * HOUR));
  return anime;
}

const slugsOf = (body: PageBody) => body.list.map((item) => item.anime.slug);

/** Two answers of one schedule: equal, except time_left, which counts down between the calls. */
function expectSameSchedule(first: PageBody, second: PageBody): void {
  const strip = (page: PageBody) => ({
    ...page,
    list: page.list.map(({ time_left: _, ...rest }) => rest),
  });
  expect(strip(first)).toEqual(strip(second));
  first.list.forEach((item, i) =>
    expect(Math.abs(item.time_left - second.list[i].time_left)).toBeLessThanOrEqual(2),
  );
}

const validation = (name?: string) => ({
  message: name === undefined ? 'Invalid field in request body' : `Invalid field ${name} in request body`,
  code: 'system:validation_error',
});

describe('POST /schedule/anime (#2)', () => {
  describe('items', () => {
    it('serves {anime, time_left, airing_at, episode} with the Anime summary, watch and synopses', async () => {
      const anime = await buildAnime(t.orm, {
        slug: 'frieren',
        title_ua: 'Фрірен',
        title_en: 'Frieren',
        title_ja: 'フリーレン',
        media_type: 'tv',
        status: 'ongoing',
        season: 'fall',
        source: 'manga',
        rating: 'pg_13',
        year: 2023,
        episodes_released: 3,
        episodes_total: 28,
        image: '/anime/frieren.jpg',
        score: 9.1,
        scored_by: 5000,
        native_scored_by: 2,
        native_score_total: 18,
        translated_ua: true,
        synopsis_en: 'An elf mage',
        synopsis_ua: 'Ельфійка',
        start_date: new Date('2023-09-29T00:00:00Z'),
        end_date: new Date('2024-03-22T00:00:00Z'),
      });
      const airingAt = fromNow(2 * HOUR);
      await buildEpisode(anime, 4, airingAt);
      const viewer = await buildUser(t.orm);
      await buildWatchEntry(t.orm, viewer, anime, {
        status: 'watching',
        episodes: 3,
        note: 'mine',
        score: 9,
      });
      const token = await buildToken(t.orm, viewer);

      const before = Math.trunc(Date.now() / 1000);
      const res = await postSchedule({}, '', { token });
      const after = Math.trunc(Date.now() / 1000);

      expect(res.status).toBe(200);
      expect(shapeProblems(res.body, SCHEDULE_PAGE, 'page')).toEqual([]);
      expect(res.body.pagination).toEqual({ total: 1, pages: 1, page: 1 });
      const [item] = (res.body as PageBody).list;
      expect(sortedKeys(item)).toEqual(['airing_at', 'anime', 'episode', 'time_left']);
      expect(item.episode).toBe(4);
      expect(item.airing_at).toBe(seconds(airingAt));
      expect(item.time_left).toBeGreaterThanOrEqual(seconds(airingAt) - after - 1);
      expect(item.time_left).toBeLessThanOrEqual(seconds(airingAt) - before);
      expect(item.anime).toMatchObject({
        data_type: 'anime',
        slug: 'frieren',
        title_ua: 'Фрірен',
        episodes_released: '3',
        episodes_total: '28',
        image: 'https://cdn.test/anime/frieren.jpg',
        synopsis_en: 'An elf mage',
        synopsis_ua: 'Ельфійка',
        start_date: seconds('2023-09-29T00:00:00Z'),
      });
      expect(item.anime.watch.map((entry) => entry.note)).toEqual(['mine']);
    });

    it("holds only the caller's own watch entry, and [] anonymously", async () => {
      const anime = await airing('shared');
      const viewer = await buildUser(t.orm);
      const other = await buildUser(t.orm);
      await buildWatchEntry(t.orm, other, anime, { note: 'theirs' });
      const token = await buildToken(t.orm, viewer);

      const mine = await postSchedule({}, '', { token });
      expect(mine.body.list[0].anime.watch).toEqual([]);

      await buildWatchEntry(t.orm, viewer, anime, { note: 'mine' });
      const withEntry = await postSchedule({}, '', { token });
      expect(withEntry.body.list[0].anime.watch.map((e: Json) => e.note)).toEqual(['mine']);

      const anonymous = await postSchedule({});
      expect(anonymous.body.list[0].anime.watch).toEqual([]);
    });

    it('serves time_left = airing_at − now, negative for episodes aired in the last 6 hours', async () => {
      const anime = await buildAnime(t.orm, { slug: 'aired' });
      await buildEpisode(anime, 1, fromNow(-2 * HOUR));
      await buildEpisode(anime, 2, fromNow(5 * HOUR));

      const before = Math.trunc(Date.now() / 1000);
      const res = await postSchedule({});
      const after = Math.trunc(Date.now() / 1000);

      const [aired, upcoming] = (res.body as PageBody).list;
      for (const item of [aired, upcoming]) {
        expect(Number.isInteger(item.time_left)).toBe(true);
        expect(item.time_left).toBeGreaterThanOrEqual(item.airing_at - after - 1);
        expect(item.time_left).toBeLessThanOrEqual(item.airing_at - before);
      }
      expect(aired.time_left).toBeLessThan(-2 * 3600 + 10);
      expect(upcoming.time_left).toBeGreaterThan(5 * 3600 - 10);
    });

    it('lists episodes aired up to 6 hours ago (time_left down to −21600), not earlier ones', async () => {
      const anime = await buildAnime(t.orm, { slug: 'window' });
      await buildEpisode(anime, 1, fromNow(-6 * HOUR - 60_000));
      await buildEpisode(anime, 2, fromNow(-6 * HOUR + 60_000));
      await buildEpisode(anime, 3, fromNow(HOUR));

      const res = await postSchedule({});

      expect(res.body.pagination.total).toBe(2);
      const episodes = (res.body as PageBody).list;
      expect(episodes.map((item) => item.episode)).toEqual([2, 3]);
      expect(episodes[0].time_left).toBeGreaterThanOrEqual(-LOOKBACK_SECONDS);
      expect(episodes[0].time_left).toBeLessThanOrEqual(-LOOKBACK_SECONDS + 62);
    });

    it('never lists deleted or NSFW anime', async () => {
      await airing('live');
      await airing('deleted', 1, { deleted: true });
      await airing('nsfw', 1, { nsfw: true });

      const res = await postSchedule({ rating: [], status: [] });

      expect(slugsOf(res.body)).toEqual(['live']);
      expect(res.body.pagination.total).toBe(1);
    });
  });

  describe('order and pagination', () => {
    it('orders by airing_at asc, then entry reference asc', async () => {
      const early = await buildAnime(t.orm, { slug: 'early' });
      const tie = await buildAnime(t.orm, { slug: 'tie' });
      const late = await buildAnime(t.orm, { slug: 'late' });
      const at = fromNow(3 * HOUR);
      await buildEpisode(late, 1, fromNow(10 * HOUR), orderedReference(1));
      await buildEpisode(tie, 7, at, orderedReference(9));
      await buildEpisode(tie, 8, at, orderedReference(3));
      await buildEpisode(early, 1, fromNow(-HOUR), orderedReference(8));

      const res = await postSchedule({});

      expect((res.body as PageBody).list.map((item) => `${item.anime.slug}:${item.episode}`)).toEqual([
        'early:1',
        'tie:8',
        'tie:7',
        'late:1',
      ]);
    });

    it('counts entries (not anime) in total and serves the requested page', async () => {
      const anime = await buildAnime(t.orm, { slug: 'weekly' });
      for (let n = 1; n <= 5; n += 1) await buildEpisode(anime, n, fromNow(n * 24 * HOUR));

      const res = await postSchedule({}, '?page=2&size=2');

      expect(res.status).toBe(200);
      expect(res.body.pagination).toEqual({ total: 5, pages: 3, page: 2 });
      expect((res.body as PageBody).list.map((item) => item.episode)).toEqual([3, 4]);

      const past = await postSchedule({}, '?page=4&size=2');
      expect(past.body).toEqual({ pagination: { total: 5, pages: 3, page: 4 }, list: [] });
    });

    it('defaults to page 1 and size 15', async () => {
      const anime = await buildAnime(t.orm, { slug: 'long' });
      for (let n = 1; n <= 17; n += 1) await buildEpisode(anime, n, fromNow(n * HOUR));
      const res = await postSchedule({});
      expect(res.body.pagination).toEqual({ total: 17, pages: 2, page: 1 });
      expect(res.body.list).toHaveLength(15);
    });
  });

  describe('filters', () => {
    it('status and rating keep anime whose value is listed ([] imposes nothing; null never matches)', async () => {
      await airing('ongoing-pg13', 1, { status: 'ongoing', rating: 'pg_13' });
      await airing('ongoing-r', 2, { status: 'ongoing', rating: 'r' });
      await airing('announced-pg13', 3, { status: 'announced', rating: 'pg_13' });
      await airing('no-status', 4, { status: null, rating: null });

      const byStatus = await postSchedule({ status: ['ongoing'] });
      expect(slugsOf(byStatus.body)).toEqual(['ongoing-pg13', 'ongoing-r']);

      const byRating = await postSchedule({ rating: ['pg_13', 'g'] });
      expect(slugsOf(byRating.body)).toEqual(['ongoing-pg13', 'announced-pg13']);

      const both = await postSchedule({ status: ['ongoing', 'announced'], rating: ['pg_13'] });
      expect(slugsOf(both.body)).toEqual(['ongoing-pg13', 'announced-pg13']);
      expect(both.body.pagination.total).toBe(2);

      const none = await postSchedule({ status: [], rating: [] });
      expect(slugsOf(none.body)).toHaveLength(4);
    });

    it('does not auto-hide any rating (rx is listed when not filtered)', async () => {
      await airing('adult', 1, { rating: 'rx' });
      const res = await postSchedule({});
      expect(slugsOf(res.body)).toEqual(['adult']);
    });

    describe('airing_season', () => {
      beforeEach(async () => {
        // Airs every season from fall 2024 (no end date: up to now).
        await airing('ongoing-since-fall-2024', 1, { start_date: new Date('2024-10-03T00:00:00Z') });
        // Starts with fewer than 7 days of September left: counted from October, fall 2024 only.
        await airing('late-september-start', 2, {
          start_date: new Date('2024-09-26T00:00:00Z'),
          end_date: new Date('2024-12-20T00:00:00Z'),
        });
        await airing('winter-2021', 3, {
          start_date: new Date('2021-01-05T00:00:00Z'),
          end_date: new Date('2021-03-28T00:00:00Z'),
        });
        await airing('undated', 4);
      });

      it('keeps the anime that aired in <season>_<year>', async () => {
        const fall = await postSchedule({ airing_season: ['fall', 2024] });
        expect(slugsOf(fall.body)).toEqual(['ongoing-since-fall-2024', 'late-september-start']);

        const summer = await postSchedule({ airing_season: ['summer', 2024] });
        expect(slugsOf(summer.body)).toEqual([]);

        const winter = await postSchedule({ airing_season: ['winter', 2021] });
        expect(slugsOf(winter.body)).toEqual(['winter-2021']);
        expect(winter.body.pagination.total).toBe(1);
      });

      it('keeps matching later seasons for an anime without an end date', async () => {
        const res = await postSchedule({ airing_season: ['spring', 2025] });
        expect(slugsOf(res.body)).toEqual(['ongoing-since-fall-2024']);
      });

      it('reads a numeric string year as that year', async () => {
        const asString = await postSchedule({ airing_season: ['fall', '2024'] });
        const asNumber = await postSchedule({ airing_season: ['fall', 2024] });
        expect(asString.status).toBe(200);
        expect(slugsOf(asString.body).length).toBeGreaterThan(0);
        expectSameSchedule(asString.body, asNumber.body);
      });

      it('imposes nothing when null or []', async () => {
        for (const airingSeason of [null, []]) {
          const res = await postSchedule({ airing_season: airingSeason });
          expect(res.status).toBe(200);
          expect(res.body.pagination.total).toBe(4);
        }
      });

      it('matches nothing for a year no date can reach, without failing', async () => {
        const res = await postSchedule({ airing_season: ['fall', 9_999_999_999] });
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ pagination: { total: 0, pages: 0, page: 1 }, list: [] });
      });
    });

    describe('only_watch', () => {
      it("keeps only anime on the caller's watch list, whatever the status", async () => {
        const dropped = await airing('dropped', 1);
        const planned = await airing('planned', 2);
        const theirs = await airing('theirs', 3);
        await airing('nobody', 4);
        const viewer = await buildUser(t.orm);
        await buildWatchEntry(t.orm, viewer, dropped, { status: 'dropped' });
        await buildWatchEntry(t.orm, viewer, planned, { status: 'planned' });
        await buildWatchEntry(t.orm, await buildUser(t.orm), theirs, { status: 'watching' });
        const token = await buildToken(t.orm, viewer);

        const only = await postSchedule({ only_watch: true }, '', { token });
        expect(only.status).toBe(200);
        expect(slugsOf(only.body)).toEqual(['dropped', 'planned']);
        expect(only.body.pagination.total).toBe(2);

        const all = await postSchedule({ only_watch: false }, '', { token });
        expect(slugsOf(all.body)).toEqual(['dropped', 'planned', 'theirs', 'nobody']);
      });

      it('answers 400 schedule:watch_no_user for an anonymous caller', async () => {
        await airing('any');
        const res = await postSchedule({ only_watch: true });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          message: "You can't use only_watch without user",
          code: 'schedule:watch_no_user',
        });
        const uk = await postSchedule({ only_watch: true }, '', { language: 'uk' });
        expect(uk.body).toEqual({
          message: 'Не можна використовувати only_watch без користувача',
          code: 'schedule:watch_no_user',
        });
      });

      it('treats an unknown or expired token as anonymous (400 schedule:watch_no_user)', async () => {
        const user = await buildUser(t.orm);
        const expired = await buildToken(t.orm, user, { expiration: new Date(Date.now() - 1000) });
        for (const token of ['garbage', expired]) {
          const res = await postSchedule({ only_watch: true }, '', { token });
          expect(res.status).toBe(400);
          expect(res.body.code).toBe('schedule:watch_no_user');
        }
      });
    });
  });

  describe('authentication and scope', () => {
    const thirdParty = async (scope: string[]) => buildThirdPartyToken(t.orm, await buildUser(t.orm), scope);

    it('answers 403 permission:denied for a third-party token without read:watchlist', async () => {
      await airing('scoped');
      const token = await thirdParty(['read:readlist', 'update:watchlist']);
      const res = await postSchedule({}, '', { token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        message: "You don't have permission for this action",
        code: 'permission:denied',
      });
    });

    it('serves third-party tokens holding read:watchlist, directly or through a group', async () => {
      await airing('scoped');
      for (const scope of [['read:watchlist'], ['watchlist'], ['all']]) {
        const res = await postSchedule({}, '', { token: await thirdParty(scope) });
        expect(res.status).toBe(200);
        expect(slugsOf(res.body)).toEqual(['scoped']);
      }
    });

    it('validates before the scope check, and checks the scope before only_watch', async () => {
      const token = await thirdParty(['read:readlist']);
      const invalid = await postSchedule({ only_watch: 'yes' }, '', { token });
      expect(invalid.status).toBe(400);
      expect(invalid.body).toEqual(validation('only_watch'));

      const scoped = await postSchedule({ only_watch: true }, '', { token });
      expect(scoped.status).toBe(403);
      expect(scoped.body.code).toBe('permission:denied');
    });

    it('answers 400 user:deleted for the token of a deleted account', async () => {
      const token = await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' }));
      const res = await postSchedule({}, '', { token });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'Deleted', code: 'user:deleted' });
    });
  });

  describe('validation', () => {
    it.each([
      [{ airing_season: ['fall'] }, 'airing_season'],
      [{ airing_season: ['fall', 2024, 1] }, 'airing_season'],
      [{ airing_season: [2024, 'fall'] }, 'airing_season'],
      [{ airing_season: ['autumn', 2024] }, 'airing_season'],
      [{ airing_season: ['Fall', 2024] }, 'airing_season'],
      [{ airing_season: ['fall', 2019] }, 'airing_season'],
      [{ airing_season: ['fall', '2019'] }, 'airing_season'],
      [{ airing_season: ['fall', 2024.5] }, 'airing_season'],
      [{ airing_season: ['fall', '2024.0'] }, 'airing_season'],
      [{ airing_season: ['fall', ' 2024'] }, 'airing_season'],
      [{ airing_season: ['fall', '+2024'] }, 'airing_season'],
      [{ airing_season: ['fall', 'year'] }, 'airing_season'],
      [{ airing_season: ['fall', null] }, 'airing_season'],
      [{ airing_season: ['fall', true] }, 'airing_season'],
      [{ airing_season: [null, null] }, 'airing_season'],
      [{ airing_season: 'fall_2024' }, 'airing_season'],
      [{ airing_season: { season: 'fall', year: 2024 } }, 'airing_season'],
      [{ airing_season: [['fall', 2024]] }, 'airing_season'],
      [{ rating: 'pg_13' }, 'rating'],
      [{ rating: ['PG_13'] }, 'rating'],
      [{ rating: [null] }, 'rating'],
      [{ rating: null }, 'rating'],
      [{ status: ['airing'] }, 'status'],
      [{ status: [1] }, 'status'],
      [{ only_watch: 'true' }, 'only_watch'],
      [{ only_watch: 1 }, 'only_watch'],
      [{ only_watch: null }, 'only_watch'],
      [{ page: 1 }, 'page'],
      [{ airing_season: ['fall', 2019], rating: ['bad'] }, 'airing_season'],
      [{ rating: ['bad'], status: ['bad'] }, 'rating'],
      [{ status: ['bad'], only_watch: 'x' }, 'status'],
      [{ extra: true, only_watch: 'x' }, 'only_watch'],
    ])('%j → 400 Invalid field %s in request body', async (body, name) => {
      const res = await postSchedule(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(validation(name));
    });

    it.each([
      ['no body', undefined],
      ['an array', []],
      ['a string', 'x'],
      ['null', null],
    ])('%s → 400 Invalid field in request body', async (_, body) => {
      const res = await (body === undefined
        ? rest(t.app, 'POST', '/schedule/anime')
        : rest(t.app, 'POST', '/schedule/anime')
            .set('Content-Type', 'application/json')
            .send(JSON.stringify(body)));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(validation());
    });

    it('refuses a body without a JSON content type and malformed JSON', async () => {
      const text = await rest(t.app, 'POST', '/schedule/anime').set('Content-Type', 'text/plain').send('{}');
      expect(text.body).toEqual(validation());
      const broken = await rest(t.app, 'POST', '/schedule/anime')
        .set('Content-Type', 'application/json')
        .send('{"rating": [');
      expect(broken.status).toBe(400);
      expect(broken.body).toEqual(validation());
    });

    it.each([
      [{ airing_season: ['winter', 2020] }],
      [{ airing_season: ['spring', '2020'] }],
      [{ airing_season: ['summer', '12345'] }],
      [{ airing_season: null, rating: [], status: [], only_watch: false }],
      [{ rating: ['g', 'pg', 'pg_13', 'r', 'r_plus', 'rx'] }],
      [{ status: ['announced', 'ongoing', 'finished', 'paused', 'discontinued'] }],
    ])('accepts %j', async (body) => {
      const res = await postSchedule(body);
      expect(res.status).toBe(200);
    });

    it('checks the query before the body', async () => {
      const res = await postSchedule({ rating: 'bad' }, '?size=0');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: 'Invalid field size in request query',
        code: 'system:validation_error',
      });
    });

    it('answers the Ukrainian message when Accept-Language prefers uk', async () => {
      const res = await postSchedule({ airing_season: ['fall'] }, '', { language: 'uk-UA' });
      expect(res.body).toEqual({
        message: 'Некоректне поле airing_season у запиті body',
        code: 'system:validation_error',
      });
    });

    it('answers 405 with Allow for GET', async () => {
      const res = await rest(t.app, 'GET', '/schedule/anime');
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('POST');
    });
  });

  describe('GraphQL input', () => {
    // The JSON Schema of the REST body checks the GraphQL input too: same rule, same message.
    it.each([
      [['fall']],
      [['fall', 2019]],
      [['fall', '2019']],
      [['fall', '+2024']],
      [[2024, 'fall']],
      [['autumn', 2024]],
      ['fall_2024'],
      [{ season: 'fall' }],
      [true],
    ])('refuses airing_season %j like the REST body does', async (airingSeason) => {
      const viaRest = await postSchedule({ airing_season: airingSeason });
      const viaGraphQL = await gqlSchedule({ airing_season: airingSeason });
      expect(viaRest.status).toBe(400);
      expect(viaGraphQL.status).toBe(400);
      expect(viaGraphQL.body.errors[0].message).toBe(viaRest.body.message);
      expect(viaGraphQL.body.errors[0].extensions).toEqual({
        code: 'system:validation_error',
        http: { status: 400 },
      });
    });

    it.each([[{ rating: ['bad'] }], [{ status: ['airing'] }], [{ only_watch: 'true' }], [{ unknown: 1 }]])(
      'refuses %j in both doors with 400 system:validation_error',
      async (input) => {
        const viaRest = await postSchedule(input);
        const viaGraphQL = await gqlSchedule(input);
        expect(viaRest.status).toBe(400);
        expect(viaGraphQL.status).toBe(400);
        expect(viaGraphQL.body.errors[0].extensions.code).toBe('system:validation_error');
      },
    );

    it('accepts the same valid inputs, with defaults for omitted fields', async () => {
      await airing('both', 1, { start_date: new Date('2024-10-03T00:00:00Z') });
      for (const input of [{}, { airing_season: ['fall', '2024'] }, { airing_season: [] }]) {
        const viaGraphQL = await gqlSchedule(input);
        expect(viaGraphQL.status).toBe(200);
        expect(viaGraphQL.body.errors).toBeUndefined();
        expect(viaGraphQL.body.data.animeSchedule.pagination.total).toBe(1);
      }
    });
  });

  describe('REST ≡ GraphQL', () => {
    async function fixture() {
      const viewer = await buildUser(t.orm);
      for (let n = 1; n <= 3; n += 1) {
        const anime = await buildAnime(t.orm, {
          slug: `parity-${n}`,
          title_ua: `Аніме ${n}`,
          title_ja: `アニメ ${n}`,
          status: 'ongoing',
          season: 'fall',
          source: 'original',
          rating: 'pg_13',
          year: 2024,
          episodes_released: n,
          episodes_total: 12,
          image: `/anime/${n}.jpg`,
          synopsis_en: `Synopsis ${n}`,
          synopsis_ua: `Опис ${n}`,
          start_date: new Date('2024-10-01T00:00:00Z'),
          end_date: new Date('2024-12-20T00:00:00Z'),
        });
        await buildEpisode(anime, n + 1, fromNow(n * HOUR));
        await buildWatchEntry(t.orm, viewer, anime, { note: `note ${n}`, score: n });
      }
      return viewer;
    }

    async function expectParity(
      body: Json,
      query: string,
      page: Record<string, number>,
      options: CallOptions,
    ) {
      const viaRest = await postSchedule(body, query, options);
      const viaGraphQL = await gqlSchedule(body, page, options);
      expect(viaRest.status).toBe(200);
      expect(viaGraphQL.status).toBe(200);
      expect(viaGraphQL.body.errors).toBeUndefined();
      expectSameSchedule(viaRest.body, viaGraphQL.body.data.animeSchedule);
      return viaRest.body as PageBody;
    }

    it('equals data.animeSchedule anonymously, with every contract field', async () => {
      await fixture();
      const body = await expectParity({ airing_season: ['fall', 2024] }, '', {}, {});
      expect(shapeProblems(body, SCHEDULE_PAGE, 'page', ['watch'])).toEqual([]);
      expect(body.list.every((item) => item.anime.watch.length === 0)).toBe(true);
    });

    it("equals data.animeSchedule with a viewer token, holding the viewer's entries", async () => {
      const viewer = await fixture();
      const token = await buildToken(t.orm, viewer);
      const body = await expectParity(
        { only_watch: true },
        '?page=1&size=2',
        { page: 1, size: 2 },
        { token },
      );
      expect(shapeProblems(body, SCHEDULE_PAGE, 'page')).toEqual([]);
      expect(body.list.map((item) => item.anime.watch[0].note)).toEqual(['note 1', 'note 2']);
    });

    it('reports the same errors', async () => {
      const anonymous = await gqlSchedule({ only_watch: true }, {}, { language: 'uk' });
      const viaRest = await postSchedule({ only_watch: true }, '', { language: 'uk' });
      expect(anonymous.status).toBe(200);
      expect(anonymous.body.errors[0]).toMatchObject({
        message: viaRest.body.message,
        extensions: { code: 'schedule:watch_no_user', http: { status: 400 } },
      });
    });
  });

  describe('bounded SQL', () => {
    it('sends as many statements for size=100 as for size=1, anonymously and with a token', async () => {
      const viewer = await buildUser(t.orm);
      for (let n = 1; n <= 30; n += 1) {
        const anime = await buildAnime(t.orm, { start_date: new Date('2024-10-01T00:00:00Z') });
        await buildEpisode(anime, 1, fromNow(n * HOUR));
        await buildWatchEntry(t.orm, viewer, anime);
      }
      const token = await buildToken(t.orm, viewer);
      await postSchedule({}, '', { token }); // the token's first use writes its new expiry once

      for (const options of [{}, { token }]) {
        const body = { airing_season: ['fall', 2024], only_watch: 'token' in options };
        const one = await t.queries.count(async () => {
          const res = await postSchedule(body, '?size=1', options);
          expect(res.body.list).toHaveLength(1);
        });
        const hundred = await t.queries.count(async () => {
          const res = await postSchedule(body, '?size=100', options);
          expect(res.body.list).toHaveLength(30);
        });
        expect(one).toBeGreaterThan(0);
        expect(hundred).toBe(one);
      }
    });
  });
});
