import { AuthToken } from '../../src/accounts/auth-token.entity';
import { Anime } from '../../src/catalog/anime.entity';
import { Company } from '../../src/catalog/company.entity';
import { Genre } from '../../src/catalog/genre.entity';
import type { WatchStatus } from '../../src/common/enums';
import { restRoutes } from '../../src/routes';
import { buildComment } from '../comments/helpers';
import {
  buildAiringEpisode,
  buildAnime,
  buildFranchise,
  buildGenre,
  buildManga,
  buildNovel,
  buildReadEntry,
  buildToken,
  buildUser,
  buildWatchEntry,
  linkCompany,
  linkTitle,
} from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { ANIME_FULL, keysOf, shapeProblems } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { asList, asObject, seconds, sortedKeys } from '../setup/json';

/** GET /anime/{slug} (pages.md, Anime page): the Anime full record, auth none. */
const t = useTestApp();

const route = restRoutes.find((r) => r.path === '/anime/{slug}' && r.method === 'GET')!;

const getAnime = (slug: string, options: CallOptions = {}) =>
  rest(t.app, 'GET', `/anime/${slug}`, undefined, options);

const gqlAnime = (slug: string, options: CallOptions = {}) => gql(t.app, route.document, { slug }, options);

const STATS_KEYS = [
  'completed',
  'watching',
  'planned',
  'on_hold',
  'dropped',
  ...Array.from({ length: 10 }, (_, i) => `score_${i + 1}`),
].sort();

const ZERO_STATS = Object.fromEntries(STATS_KEYS.map((key) => [key, 0]));

/** A comment on `anime` by a fresh user. */
const commentOn = async (anime: Anime, o: Parameters<typeof buildComment>[3] = {}) =>
  buildComment(
    t.orm,
    await buildUser(t.orm),
    { type: 'anime', reference: anime.reference, slug: anime.slug },
    o,
  );

/** A watch entry on `anime` by a fresh user. */
const watchedBy = async (anime: Anime, status: WatchStatus, score: number) =>
  buildWatchEntry(t.orm, await buildUser(t.orm), anime, { status, score });

/** An anime with every field and relation filled, and related rows of other titles around it. */
async function frieren(): Promise<Anime> {
  const franchise = await buildFranchise(t.orm);
  const anime = await buildAnime(t.orm, {
    slug: 'frieren',
    extcat_id: 52991,
    media_type: 'tv',
    status: 'finished',
    season: 'fall',
    source: 'manga',
    rating: 'pg_13',
    title_ua: 'Фрірен, що проводжає в останню путь',
    title_en: "Frieren: Beyond Journey's End",
    title_ja: '葬送のフリーレン',
    episodes_released: 28,
    episodes_total: 28,
    duration: 24,
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
    synopsis_en: 'After the party of heroes defeated the Demon King...',
    synopsis_ua: 'Після того, як загін героїв переміг Короля демонів...',
    synonyms: ['Sousou no Frieren', 'Frieren at the Funeral'],
    nsfw: true,
    comments_count: 17,
    franchise,
  });

  const fantasy = await buildGenre(t.orm, {
    slug: 'fantasy',
    name_en: 'Fantasy',
    name_ua: 'Фентезі',
    type: 'genre',
  });
  const shounen = await buildGenre(t.orm, {
    slug: 'shounen',
    name_en: 'Shounen',
    name_ua: null,
    type: 'demographic',
  });
  const adventure = await buildGenre(t.orm, {
    slug: 'adventure',
    name_en: 'Adventure',
    name_ua: 'Пригоди',
    type: 'genre',
  });
  await linkTitle(t.orm, anime, { genres: [shounen, fantasy, adventure] });

  await linkCompany(t.orm, anime, 'toho', 'producer', { name: 'TOHO', image: '/companies/toho.png' });
  await linkCompany(t.orm, anime, 'madhouse', 'studio', {
    name: 'Madhouse',
    image: '/companies/madhouse.png',
  });
  await linkCompany(t.orm, anime, 'aniplex', 'producer', { name: 'Aniplex', image: null });

  await watchedBy(anime, 'completed', 10);
  await watchedBy(anime, 'completed', 0);
  await watchedBy(anime, 'watching', 9);
  await watchedBy(anime, 'planned', 0);

  await commentOn(anime, { review_recommendation: 'yes' });
  await commentOn(anime, { review_recommendation: 'yes' });
  await commentOn(anime, { review_recommendation: 'maybe' });
  await commentOn(anime);

  await buildAiringEpisode(t.orm, anime, 2, new Date('2023-10-06T14:00:00.700Z'));
  await buildAiringEpisode(t.orm, anime, 1, new Date('2023-09-29T14:00:00Z'));

  // Rows of another anime: none of them shows on frieren.
  const other = await buildAnime(t.orm, { slug: 'other' });
  await linkTitle(t.orm, other, { genres: [await buildGenre(t.orm, { slug: 'aaa' })] });
  await linkCompany(t.orm, other, 'a-studio', 'studio');
  await watchedBy(other, 'dropped', 3);
  await commentOn(other, { review_recommendation: 'no' });
  await buildAiringEpisode(t.orm, other, 3, new Date('2023-10-13T14:00:00Z'));
  return anime;
}

/** The exact record of `frieren()`. */
const FRIEREN = {
  data_type: 'anime',
  media_type: 'tv',
  status: 'finished',
  season: 'fall',
  source: 'manga',
  rating: 'pg_13',
  title_ua: 'Фрірен, що проводжає в останню путь',
  title_en: "Frieren: Beyond Journey's End",
  title_ja: '葬送のフリーレン',
  episodes_released: '28',
  episodes_total: '28',
  image: 'https://cdn.test/content/frieren.jpg',
  native_scored_by: 12,
  scored_by: 654321,
  native_score: 4.91,
  score: 9.31,
  slug: 'frieren',
  start_date: seconds('2023-09-29T10:20:30Z'),
  end_date: seconds('2024-03-22T00:00:00Z'),
  created: seconds('2023-05-06T07:08:09Z'),
  updated: seconds('2024-02-03T04:05:06Z'),
  translated_ua: true,
  year: 2023,
  extcat_id: 52991,
  synopsis_en: 'After the party of heroes defeated the Demon King...',
  synopsis_ua: 'Після того, як загін героїв переміг Короля демонів...',
  duration: 24,
  synonyms: ['Sousou no Frieren', 'Frieren at the Funeral'],
  nsfw: true,
  has_franchise: true,
  comments_count: 17,
  genres: [
    { name_ua: 'Пригоди', name_en: 'Adventure', slug: 'adventure', type: 'genre' },
    { name_ua: 'Фентезі', name_en: 'Fantasy', slug: 'fantasy', type: 'genre' },
    { name_ua: null, name_en: 'Shounen', slug: 'shounen', type: 'demographic' },
  ],
  companies: [
    {
      company: { image: 'https://cdn.test/companies/madhouse.png', slug: 'madhouse', name: 'Madhouse' },
      type: 'studio',
    },
    { company: { image: null, slug: 'aniplex', name: 'Aniplex' }, type: 'producer' },
    {
      company: { image: 'https://cdn.test/companies/toho.png', slug: 'toho', name: 'TOHO' },
      type: 'producer',
    },
  ],
  external: [],
  videos: [],
  ost: [],
  stats: { ...ZERO_STATS, completed: 2, watching: 1, planned: 1, score_9: 1, score_10: 1 },
  review_stats: { yes: 2, no: 0, maybe: 1 },
  schedule: [
    { episode: 1, airing_at: seconds('2023-09-29T14:00:00Z') },
    { episode: 2, airing_at: seconds('2023-10-06T14:00:00Z') },
  ],
};

describe('GET /anime/{slug}', () => {
  describe('full record', () => {
    it('returns exactly the full record of a filled anime', async () => {
      await frieren();

      const res = await getAnime('frieren');

      expect(res.status).toBe(200);
      expect(res.body).toEqual(FRIEREN);
    });

    it('has exactly the ANIME_FULL keys with the contract types, and no viewer `watch`', async () => {
      await frieren();
      // Fill the two nullable values frieren leaves null, so that every field is checked for its type.
      const em = t.orm.em.fork();
      await em.nativeUpdate(Genre, { slug: 'shounen' }, { name_ua: 'Сьонен' });
      await em.nativeUpdate(Company, { slug: 'aniplex' }, { image: '/companies/aniplex.png' });

      const res = await getAnime('frieren');

      expect(res.status).toBe(200);
      expect(sortedKeys(res.body)).toEqual(keysOf(ANIME_FULL));
      expect(shapeProblems(res.body, ANIME_FULL, 'anime', ['external', 'videos', 'ost'])).toEqual([]);
      expect(res.body).not.toHaveProperty('watch');
      for (const key of ['start_date', 'end_date', 'created', 'updated']) {
        expect(Number.isInteger(res.body[key])).toBe(true);
      }
    });

    it('serves absent values as null, empty lists as [], every stats key as 0, has_franchise/nsfw false', async () => {
      await buildAnime(t.orm, {
        slug: 'bare',
        media_type: null,
        status: null,
        title_en: null,
        image: null,
        year: null,
        start_date: null,
        end_date: null,
        created: null,
        updated: null,
        score: 0,
        scored_by: 0,
      });

      const res = await getAnime('bare');

      expect(res.status).toBe(200);
      expect(sortedKeys(res.body)).toEqual(keysOf(ANIME_FULL));
      expect(res.body).toEqual({
        data_type: 'anime',
        media_type: null,
        status: null,
        season: null,
        source: null,
        rating: null,
        title_ua: null,
        title_en: null,
        title_ja: null,
        episodes_released: null,
        episodes_total: null,
        image: null,
        native_scored_by: 0,
        scored_by: 0,
        native_score: 0,
        score: 0,
        slug: 'bare',
        start_date: null,
        end_date: null,
        created: null,
        updated: null,
        translated_ua: false,
        year: null,
        extcat_id: expect.any(Number),
        synopsis_en: null,
        synopsis_ua: null,
        duration: null,
        synonyms: [],
        nsfw: false,
        has_franchise: false,
        comments_count: 0,
        genres: [],
        companies: [],
        external: [],
        videos: [],
        ost: [],
        stats: ZERO_STATS,
        review_stats: { yes: 0, no: 0, maybe: 0 },
        schedule: [],
      });
      expect(sortedKeys(asObject(res.body.stats))).toEqual(STATS_KEYS);
    });

    it.each([
      ['a count', 12, '12'],
      ['zero', 0, '0'],
      ['no count', null, null],
    ])('serves episode counts as decimal strings or null: %s', async (_name, stored, served) => {
      await buildAnime(t.orm, { slug: 'episodes', episodes_released: stored, episodes_total: stored });
      const res = await getAnime('episodes');
      expect(res.status).toBe(200);
      expect(res.body.episodes_released).toBe(served);
      expect(res.body.episodes_total).toBe(served);
    });

    it('serves episodes_released and episodes_total independently', async () => {
      await buildAnime(t.orm, { slug: 'airing', episodes_released: 5, episodes_total: null });
      const res = await getAnime('airing');
      expect(res.body).toMatchObject({ episodes_released: '5', episodes_total: null });
    });
  });

  describe('images', () => {
    it.each([
      ['a stored path is joined to IMAGE_BASE_URL', '/content/x.jpg', 'https://cdn.test/content/x.jpg'],
      ['a path without a leading slash gets one slash', 'content/y.jpg', 'https://cdn.test/content/y.jpg'],
      [
        'an absolute URL passes through',
        'https://elsewhere.example/z.png',
        'https://elsewhere.example/z.png',
      ],
      ['no image stays null', null, null],
    ])('%s, for the anime and for its companies', async (_name, stored, served) => {
      const anime = await buildAnime(t.orm, { slug: 'pictured', image: stored });
      await linkCompany(t.orm, anime, 'studio-x', 'studio', { image: stored });

      const res = await getAnime('pictured');

      expect(res.status).toBe(200);
      expect(res.body.image).toBe(served);
      expect(asObject(asList(res.body.companies)[0].company).image).toBe(served);
    });
  });

  describe('genres', () => {
    it("lists the anime's genres as {name_ua, name_en, slug, type} by slug, no other title's", async () => {
      const anime = await buildAnime(t.orm, { slug: 'genred' });
      const genre = (slug: string, type: 'genre' | 'theme' | 'demographic' | 'explicit') =>
        buildGenre(t.orm, { slug, name_en: `EN ${slug}`, name_ua: `UA ${slug}`, type });
      const romance = await genre('romance', 'genre');
      const gore = await genre('gore', 'theme');
      const action = await genre('action', 'genre');
      const hentai = await genre('hentai', 'explicit');
      const seinen = await genre('seinen', 'demographic');
      await linkTitle(t.orm, anime, { genres: [seinen, romance, hentai, gore, action] });
      const manga = await buildManga(t.orm);
      await linkTitle(t.orm, manga, { genres: [await genre('aaa-manga', 'genre')] });
      await linkTitle(t.orm, await buildAnime(t.orm), {
        genres: [await genre('aaa-anime', 'genre'), action],
      });

      const res = await getAnime('genred');

      expect(res.body.genres).toEqual([
        { name_ua: 'UA action', name_en: 'EN action', slug: 'action', type: 'genre' },
        { name_ua: 'UA gore', name_en: 'EN gore', slug: 'gore', type: 'theme' },
        { name_ua: 'UA hentai', name_en: 'EN hentai', slug: 'hentai', type: 'explicit' },
        { name_ua: 'UA romance', name_en: 'EN romance', slug: 'romance', type: 'genre' },
        { name_ua: 'UA seinen', name_en: 'EN seinen', slug: 'seinen', type: 'demographic' },
      ]);
    });
  });

  describe('companies', () => {
    it('lists studios first, then producers, each by company slug; a company in both roles shows twice', async () => {
      const anime = await buildAnime(t.orm, { slug: 'produced' });
      await linkCompany(t.orm, anime, 'p-zeta', 'producer');
      await linkCompany(t.orm, anime, 's-beta', 'studio');
      await linkCompany(t.orm, anime, 'both', 'producer');
      await linkCompany(t.orm, anime, 'a-producer', 'producer');
      await linkCompany(t.orm, anime, 's-alpha', 'studio');
      await linkCompany(t.orm, anime, 'both', 'studio');
      await linkCompany(t.orm, anime, 'z-studio', 'studio');
      // Another anime's links never show, even to a company this one also has.
      const other = await buildAnime(t.orm);
      await linkCompany(t.orm, other, '0-first', 'studio');
      await linkCompany(t.orm, other, 's-alpha', 'producer');

      const res = await getAnime('produced');

      expect(res.status).toBe(200);
      const companies = asList(res.body.companies);
      expect(companies.map((link) => [link.type, asObject(link.company).slug])).toEqual([
        ['studio', 'both'],
        ['studio', 's-alpha'],
        ['studio', 's-beta'],
        ['studio', 'z-studio'],
        ['producer', 'a-producer'],
        ['producer', 'both'],
        ['producer', 'p-zeta'],
      ]);
      for (const link of companies) {
        expect(sortedKeys(link)).toEqual(['company', 'type']);
        expect(sortedKeys(asObject(link.company))).toEqual(['image', 'name', 'slug']);
      }
    });

    it('serves each company as {image, slug, name}', async () => {
      const anime = await buildAnime(t.orm, { slug: 'one-company' });
      await linkCompany(t.orm, anime, 'kyoto-animation', 'studio', {
        name: 'Kyoto Animation',
        image: '/companies/kyoani.png',
      });

      const res = await getAnime('one-company');

      expect(res.body.companies).toEqual([
        {
          company: {
            image: 'https://cdn.test/companies/kyoani.png',
            slug: 'kyoto-animation',
            name: 'Kyoto Animation',
          },
          type: 'studio',
        },
      ]);
    });
  });

  describe('external, videos and ost', () => {
    it('are always [] (the service stores none), even for a filled anime', async () => {
      await frieren();
      const res = await getAnime('frieren');
      expect(res.status).toBe(200);
      expect(res.body.external).toEqual([]);
      expect(res.body.videos).toEqual([]);
      expect(res.body.ost).toEqual([]);
    });
  });

  describe('stats', () => {
    it("counts watch entries by status and by score 1..10, not score 0 and not other titles' entries", async () => {
      const anime = await buildAnime(t.orm, { slug: 'popular' });
      const other = await buildAnime(t.orm);
      const manga = await buildManga(t.orm);
      const entries: [WatchStatus, number][] = [
        ['completed', 10],
        ['completed', 0],
        ['completed', 8],
        ['watching', 7],
        ['watching', 7],
        ['watching', 1],
        ['on_hold', 0],
        ['dropped', 3],
        ['dropped', 2],
        ['planned', 0],
        ['planned', 0],
        ['planned', 5],
      ];
      for (const [status, score] of entries) {
        const user = await buildUser(t.orm);
        await buildWatchEntry(t.orm, user, anime, { status, score });
        await buildWatchEntry(t.orm, user, other, { status: 'on_hold', score: 4 });
        // A read entry: list rows of another kind, which anime stats never count.
        await buildReadEntry(t.orm, user, { manga }, { status: 'completed', score: 6 });
      }

      const res = await getAnime('popular');

      expect(res.status).toBe(200);
      expect(res.body.stats).toEqual({
        completed: 3,
        watching: 3,
        planned: 3,
        on_hold: 1,
        dropped: 2,
        score_1: 1,
        score_2: 1,
        score_3: 1,
        score_4: 0,
        score_5: 1,
        score_6: 0,
        score_7: 2,
        score_8: 1,
        score_9: 0,
        score_10: 1,
      });
    });

    it('has all 15 keys at 0 when only other anime have entries', async () => {
      await buildAnime(t.orm, { slug: 'unwatched' });
      const other = await buildAnime(t.orm);
      await watchedBy(other, 'completed', 9);
      await watchedBy(other, 'watching', 4);

      const res = await getAnime('unwatched');

      expect(res.status).toBe(200);
      expect(sortedKeys(asObject(res.body.stats))).toEqual(STATS_KEYS);
      expect(res.body.stats).toEqual(ZERO_STATS);
    });
  });

  describe('review_stats', () => {
    it('counts live reviews on this anime by recommendation', async () => {
      const anime = await buildAnime(t.orm, { slug: 'reviewed' });
      for (const recommendation of ['yes', 'no', 'no', 'maybe', 'maybe', 'maybe'] as const) {
        await commentOn(anime, { review_recommendation: recommendation });
      }

      const res = await getAnime('reviewed');

      expect(res.status).toBe(200);
      expect(res.body.review_stats).toEqual({ yes: 1, no: 2, maybe: 3 });
    });

    it('does not count hidden or deleted reviews, plain comments, or reviews of other titles', async () => {
      const anime = await buildAnime(t.orm, { slug: 'reviewed' });
      const moderator = await buildUser(t.orm, { role: 'moderator' });
      await commentOn(anime, { review_recommendation: 'yes' });
      await commentOn(anime, { review_recommendation: 'yes', hidden: true, hidden_by: moderator });
      await commentOn(anime, { review_recommendation: 'no', deleted: true });
      await commentOn(anime, { review_recommendation: 'maybe', hidden: true, deleted: true });
      await commentOn(anime);
      await commentOn(anime, { hidden: true });
      await commentOn(await buildAnime(t.orm), { review_recommendation: 'no' });
      const manga = await buildManga(t.orm);
      await buildComment(
        t.orm,
        await buildUser(t.orm),
        { type: 'manga', reference: manga.reference },
        {
          review_recommendation: 'maybe',
        },
      );
      const novel = await buildNovel(t.orm);
      await buildComment(
        t.orm,
        await buildUser(t.orm),
        { type: 'novel', reference: novel.reference },
        {
          review_recommendation: 'maybe',
        },
      );

      const res = await getAnime('reviewed');

      expect(res.status).toBe(200);
      expect(res.body.review_stats).toEqual({ yes: 1, no: 0, maybe: 0 });
    });

    it('is {yes: 0, no: 0, maybe: 0} with only plain comments', async () => {
      const anime = await buildAnime(t.orm, { slug: 'chatty' });
      await commentOn(anime);
      await commentOn(anime);

      const res = await getAnime('chatty');

      expect(res.body.review_stats).toEqual({ yes: 0, no: 0, maybe: 0 });
    });
  });

  describe('schedule', () => {
    it("lists the anime's airing episodes by episode as {episode, airing_at} in integer seconds", async () => {
      const anime = await buildAnime(t.orm, { slug: 'weekly' });
      // Stored out of order, with airing times that do not follow the episode order.
      await buildAiringEpisode(t.orm, anime, 3, new Date('2024-01-19T15:00:00.999Z'));
      await buildAiringEpisode(t.orm, anime, 1, new Date('2024-01-20T15:00:00Z'));
      await buildAiringEpisode(t.orm, anime, 12, new Date('2024-01-01T15:00:00.250Z'));
      await buildAiringEpisode(t.orm, anime, 2, new Date('2024-01-12T15:00:00Z'));
      await buildAiringEpisode(t.orm, await buildAnime(t.orm), 4, new Date('2024-01-26T15:00:00Z'));

      const res = await getAnime('weekly');

      expect(res.status).toBe(200);
      expect(res.body.schedule).toEqual([
        { episode: 1, airing_at: seconds('2024-01-20T15:00:00Z') },
        { episode: 2, airing_at: seconds('2024-01-12T15:00:00Z') },
        { episode: 3, airing_at: seconds('2024-01-19T15:00:00Z') },
        { episode: 12, airing_at: seconds('2024-01-01T15:00:00Z') },
      ]);
      for (const item of asList(res.body.schedule)) expect(Number.isInteger(item.airing_at)).toBe(true);
    });
  });

  describe('look-up', () => {
    it('lower-cases the slug: an upper-case path finds the lower-case anime', async () => {
      await buildAnime(t.orm, { slug: 'one-piece' });
      const res = await getAnime('ONE-Piece');
      expect(res.status).toBe(200);
      expect(res.body.slug).toBe('one-piece');
    });

    it('answers 404 anime:not_found "Anime not found" for a deleted anime', async () => {
      await buildAnime(t.orm, { slug: 'gone', deleted: true });
      const res = await getAnime('gone');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Anime not found', code: 'anime:not_found' });
    });

    it('answers the Ukrainian message when Accept-Language prefers uk', async () => {
      await buildAnime(t.orm, { slug: 'gone', deleted: true });
      const res = await getAnime('gone', { language: 'uk-UA,uk;q=0.9' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Аніме не знайдено', code: 'anime:not_found' });
    });

    it('answers 404 anime:not_found for an unknown slug', async () => {
      await buildAnime(t.orm, { slug: 'known' });
      const res = await getAnime('unknown');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Anime not found', code: 'anime:not_found' });
    });

    it('never finds a manga or a novel with the same slug', async () => {
      await buildManga(t.orm, { slug: 'shared-manga' });
      await buildNovel(t.orm, { slug: 'shared-novel' });
      for (const slug of ['shared-manga', 'shared-novel']) {
        const res = await getAnime(slug);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: 'Anime not found', code: 'anime:not_found' });
      }
    });

    it('ignores query parameters (the route is not paged)', async () => {
      await buildAnime(t.orm, { slug: 'queried' });
      const res = await getAnime('queried?page=0&size=abc&foo=bar&slug=other');
      expect(res.status).toBe(200);
      expect(res.body.slug).toBe('queried');
      expect(sortedKeys(res.body)).toEqual(keysOf(ANIME_FULL));
    });
  });

  describe('authentication none: the token is never resolved', () => {
    beforeEach(() => buildAnime(t.orm, { slug: 'public' }));

    it('ignores an unknown token', async () => {
      const res = await getAnime('public', { token: 'not-a-token' });
      expect(res.status).toBe(200);
      expect(res.body.slug).toBe('public');
      expect(res.body).not.toHaveProperty('watch');
    });

    it('ignores an expired token', async () => {
      const user = await buildUser(t.orm);
      const token = await buildToken(t.orm, user, { expiration: new Date(Date.now() - 60_000) });
      const res = await getAnime('public', { token });
      expect(res.status).toBe(200);
      expect(res.body.slug).toBe('public');
    });

    it("ignores a deleted account's token (no user:deleted), through REST and GraphQL", async () => {
      const user = await buildUser(t.orm, { role: 'deleted' });
      const token = await buildToken(t.orm, user);

      const viaRest = await getAnime('public', { token });
      const viaGraphQL = await gqlAnime('public', { token });

      expect(viaRest.status).toBe(200);
      expect(viaRest.body.slug).toBe('public');
      expect(viaGraphQL.body.errors).toBeUndefined();
      expect(viaGraphQL.body.data.anime.slug).toBe('public');
    });

    it('has no side effects on a valid token (expiry not slid, use not recorded)', async () => {
      const user = await buildUser(t.orm);
      const expiration = new Date(Date.now() + 60 * 60 * 1000);
      const token = await buildToken(t.orm, user, { expiration });

      const res = await getAnime('public', { token });

      expect(res.status).toBe(200);
      const stored = await t.orm.em.fork().findOneOrFail(AuthToken, { user: user.reference });
      expect(stored.used).toBeNull();
      expect(stored.expiration.getTime()).toBe(expiration.getTime());
    });

    it("serves the same record with a token as without one (the viewer's watch entry plays no part)", async () => {
      const anime = await buildAnime(t.orm, { slug: 'watched' });
      const viewer = await buildUser(t.orm);
      await buildWatchEntry(t.orm, viewer, anime, { status: 'completed', score: 8 });
      const token = await buildToken(t.orm, viewer);

      const anonymous = await getAnime('watched');
      const signedIn = await getAnime('watched', { token });

      expect(signedIn.status).toBe(200);
      expect(signedIn.body).toEqual(anonymous.body);
      expect(signedIn.body).not.toHaveProperty('watch');
    });
  });

  describe('REST ≡ GraphQL', () => {
    it('serves data.anime of the route document with variables {slug} as the REST body', async () => {
      await frieren();
      await buildAnime(t.orm, { slug: 'bare' });

      for (const slug of ['frieren', 'FRIEREN', 'bare']) {
        const viaRest = await getAnime(slug);
        const viaGraphQL = await gqlAnime(slug);
        expect(viaRest.status).toBe(200);
        expect(viaGraphQL.body.errors).toBeUndefined();
        expect(viaRest.body).toEqual(viaGraphQL.body.data.anime);
      }
      expect((await gqlAnime('frieren')).body.data.anime).toEqual(FRIEREN);
    });

    it.each([
      ['an unknown slug', 'en', 'Anime not found'],
      ['an unknown slug', 'uk', 'Аніме не знайдено'],
      ['a deleted anime', 'en', 'Anime not found'],
      ['a deleted anime', 'uk', 'Аніме не знайдено'],
    ])('reports the same not-found error for %s (%s)', async (name, language, message) => {
      await buildAnime(t.orm, { slug: 'gone', deleted: true });
      const slug = name === 'a deleted anime' ? 'gone' : 'missing';

      const viaRest = await getAnime(slug, { language });
      const viaGraphQL = await gqlAnime(slug, { language });

      expect(viaRest.status).toBe(404);
      expect(viaRest.body).toEqual({ message, code: 'anime:not_found' });
      expect(viaGraphQL.body.data?.anime ?? null).toBeNull();
      expect(viaGraphQL.body.errors).toHaveLength(1);
      expect(viaGraphQL.body.errors[0]).toMatchObject({
        message,
        extensions: { code: 'anime:not_found', http: { status: 404 } },
      });
    });
  });

  describe('bounded SQL', () => {
    it('sends as many statements for an anime with many related rows as for a bare one', async () => {
      await buildAnime(t.orm, { slug: 'small' });
      const large = await buildAnime(t.orm, { slug: 'large', franchise: await buildFranchise(t.orm) });
      const genres = await Promise.all(
        [1, 2, 3, 4, 5, 6].map((n) => buildGenre(t.orm, { slug: `tag-${n}` })),
      );
      await linkTitle(t.orm, large, { genres });
      for (let n = 0; n < 6; n += 1) {
        await linkCompany(t.orm, large, `company-${n}`, n % 2 === 0 ? 'studio' : 'producer');
      }
      for (let n = 1; n <= 12; n += 1) {
        await buildAiringEpisode(t.orm, large, n, new Date(Date.UTC(2024, 0, n, 15)));
        await watchedBy(large, n % 2 === 0 ? 'completed' : 'watching', n % 11);
      }
      for (const recommendation of ['yes', 'no', 'maybe', 'yes', 'no', 'maybe'] as const) {
        await commentOn(large, { review_recommendation: recommendation });
      }

      for (const call of [getAnime, gqlAnime]) {
        const small = await t.queries.count(async () => expect((await call('small')).status).toBe(200));
        const many = await t.queries.count(async () => {
          const res = await call('large');
          expect(res.status).toBe(200);
          const body = call === getAnime ? res.body : res.body.data.anime;
          expect(asList(body.genres)).toHaveLength(6);
          expect(asList(body.companies)).toHaveLength(6);
          expect(asList(body.schedule)).toHaveLength(12);
        });

        expect(small).toBeGreaterThan(0);
        expect(many).toBe(small);
      }
    });
  });
});
