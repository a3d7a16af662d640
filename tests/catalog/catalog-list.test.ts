import { Anime } from '../../src/catalog/anime.entity';
import { Genre } from '../../src/catalog/genre.entity';
import type { Manga } from '../../src/catalog/manga.entity';
import { restRoutes } from '../../src/routes';
import {
  buildAnime,
  buildGenre,
  buildMagazine,
  buildManga,
  buildNovel,
  buildReadEntry,
  buildThirdPartyToken,
  buildToken,
  buildUser,
  buildWatchEntry,
  linkTitle,
  linkCompany,
} from '../factories';
import { gql, type CallOptions } from '../setup/clients';
import { useTestApp } from '../setup/harness';
import { type Json } from '../setup/json';

/** The GraphQL catalog lists (`animeList`, `mangaList`, `novelList`): #3's rules for every kind. */
const t = useTestApp();

const LIST = (field: 'animeList' | 'mangaList' | 'novelList', input: string, viewer: string) =>
  `query ($page: Int, $size: Int, $input: ${input}) {
    ${field}(page: $page, size: $size, input: $input) {
      pagination { total pages page }
      list { slug ${viewer} { note } }
    }
  }`;
const ANIME = LIST('animeList', 'AnimeListInput', 'watch');
const MANGA = LIST('mangaList', 'MangaListInput', 'read');
const NOVEL = LIST('novelList', 'NovelSearchInput', 'read');

interface Paging {
  page?: number;
  size?: number;
}

async function call(document: string, input: unknown, options: CallOptions & Paging = {}) {
  return gql(t.app, document, { page: options.page ?? 1, size: options.size ?? 15, input }, options);
}

/** The slugs of a successful list call. */
async function slugs(
  document: string,
  input: unknown,
  options: CallOptions & Paging = {},
): Promise<string[]> {
  const res = await call(document, input, options);
  expect(res.body.errors).toBeUndefined();
  const [page] = Object.values(res.body.data as Record<string, { list: Json[] }>);
  return page.list.map((item) => item.slug as string);
}
const animeSlugs = (input: unknown) => slugs(ANIME, input);
const mangaSlugs = (input: unknown) => slugs(MANGA, input);
const sortedAnime = async (input: unknown) => (await animeSlugs(input)).sort();

async function genres(slugs: string[]): Promise<Genre[]> {
  const em = t.orm.em.fork();
  const out: Genre[] = [];
  for (const slug of slugs)
    out.push((await em.findOne(Genre, { slug })) ?? (await buildGenre(t.orm, { slug })));
  return out;
}

async function animeWithGenres(anime: Anime, slugs: string[]): Promise<void> {
  const em = t.orm.em.fork();
  const loaded = await em.findOneOrFail(Anime, { reference: anime.reference }, { populate: ['genres'] });
  for (const genre of await genres(slugs)) loaded.genres.add(em.getReference(Genre, genre.reference));
  await em.flush();
}

async function thirdParty(scope: string[]): Promise<CallOptions> {
  return { token: await buildThirdPartyToken(t.orm, await buildUser(t.orm), scope) };
}

describe('GraphQL catalog lists', () => {
  it('take every argument as optional: no input means no filters, page 1 of 15', async () => {
    await buildAnime(t.orm, { slug: 'a' });
    await buildManga(t.orm, { slug: 'm' });
    await buildNovel(t.orm, { slug: 'n' });
    const res = await gql(
      t.app,
      '{ animeList { pagination { total pages page } list { slug } } mangaList { list { slug } } novelList { list { slug } } }',
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toEqual({
      animeList: { pagination: { total: 1, pages: 1, page: 1 }, list: [{ slug: 'a' }] },
      mangaList: { list: [{ slug: 'm' }] },
      novelList: { list: [{ slug: 'n' }] },
    });
  });

  it('accept years written as literals in the document', async () => {
    await buildAnime(t.orm, {
      slug: 'fall19',
      year: 2019,
      start_date: new Date('2019-10-05T00:00:00Z'),
      end_date: new Date('2020-03-20T00:00:00Z'),
    });
    await buildManga(t.orm, { slug: 'm2001', year: 2001 });
    await buildManga(t.orm, { slug: 'm1990', year: 1990 });
    const res = await gql(
      t.app,
      `{ animeList(input: { years: [["winter", 2020], ["winter", 2020]] }) { list { slug } }
         all: animeList(input: { years: [] }) { list { slug } }
         mangaList(input: { years: [2000, null] }) { list { slug } } }`,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body).toMatchObject({
      data: {
        animeList: { list: [{ slug: 'fall19' }] },
        all: { list: [{ slug: 'fall19' }] },
        mangaList: { list: [{ slug: 'm2001' }] },
      },
    });
    const bad = await gql(
      t.app,
      '{ animeList(input: { years: [["winter", 2021], ["fall", 2020]] }) { list { slug } } }',
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].message).toBe('Invalid field years in request body');
  });

  describe('novelList', () => {
    it('is novelSearch (#3): same items, same errors', async () => {
      const viewer = await buildUser(t.orm);
      const token = await buildToken(t.orm, viewer);
      const n = await buildNovel(t.orm, { slug: 'berserk', title_en: 'Berserk' });
      await buildNovel(t.orm, { slug: 'other', score: 9 });
      await buildReadEntry(t.orm, viewer, { novel: n }, { note: 'mine' });
      const search = restRoutes.find((r) => r.contract === 3)!;
      for (const input of [{}, { query: 'berserc' }, { sort: ['score:asc'] }]) {
        const list = await call(NOVEL, input, { token });
        const reference = await gql(t.app, search.document, { page: 1, size: 15, input }, { token });
        expect(list.body.data.novelList.list.map((x: Json) => x.slug)).toEqual(
          reference.body.data.novelSearch.list.map((x: Json) => x.slug),
        );
        expect(list.body.data.novelList.pagination).toEqual(reference.body.data.novelSearch.pagination);
      }
      expect((await call(NOVEL, { query: 'berserk' }, { token })).body.data.novelList.list[0].read).toEqual([
        { note: 'mine' },
      ]);
      const error = (await call(NOVEL, { genres: ['nope'] })).body.errors[0];
      expect(error.extensions.code).toBe('novel:unknown_genre');
    });
  });

  describe('mangaList', () => {
    it('applies the #3 filters to manga', async () => {
      const magazine = await buildMagazine(t.orm, { slug: 'jump' });
      const [action, ecchi] = await genres(['action', 'ecchi']);
      const m = (slug: string, o: Partial<Manga> = {}) => buildManga(t.orm, { slug, ...o });
      await linkTitle(t.orm, await m('jump-action', { media_type: 'manhwa', year: 2001, score: 9 }), {
        magazines: [magazine],
        genres: [action],
      });
      await linkTitle(t.orm, await m('nsfw', { score: 8 }), { genres: [ecchi] });
      await m('plain', { media_type: 'manga', status: 'ongoing', translated_ua: true, year: 2010, score: 5 });
      await m('gone', { deleted: true, score: 10 });
      await m('berserk', { title_en: null, title_original: 'ベルセルク', synonyms: ['Berserk'], score: 1 });
      expect(await mangaSlugs({})).toEqual(['jump-action', 'plain', 'berserk']);
      expect(await mangaSlugs({ magazines: ['jump'] })).toEqual(['jump-action']);
      expect(await mangaSlugs({ genres: ['-action'] })).toEqual(['nsfw', 'plain', 'berserk']);
      expect(await mangaSlugs({ media_type: ['manhwa'] })).toEqual(['jump-action']);
      expect(await mangaSlugs({ status: ['ongoing'] })).toEqual(['plain']);
      expect(await mangaSlugs({ only_translated: true })).toEqual(['plain']);
      expect(await mangaSlugs({ years: [2005, null] })).toEqual(['plain']);
      expect(await mangaSlugs({ score: [8, 9] })).toEqual(['jump-action']);
      expect(await mangaSlugs({ query: 'berserc' })).toEqual(['berserk']);
      expect(await mangaSlugs({ query: 'ベルセルク' })).toEqual(['berserk']);
      expect(await mangaSlugs({ sort: ['score:asc'] })).toEqual(['berserk', 'plain', 'jump-action']);
    });

    it('refuses unknown or repeated magazines, then unknown genres (pages.md POST /manga)', async () => {
      await buildMagazine(t.orm, { slug: 'jump' });
      await genres(['action']);
      const code = async (input: Json) => (await call(MANGA, input)).body.errors?.[0].extensions.code;
      expect(await code({ magazines: ['nope'] })).toBe('manga:unknown_magazine');
      expect(await code({ magazines: ['jump', 'jump'] })).toBe('manga:unknown_magazine');
      expect(await code({ magazines: ['nope'], genres: ['nope'] })).toBe('manga:unknown_magazine');
      expect(await code({ genres: ['-nope'] })).toBe('manga:unknown_genre');
      expect(await code({ magazines: ['jump'], genres: ['action', '-action'] })).toBeUndefined();
    });

    it('carries the viewer read entries, with no scope asked of third-party tokens', async () => {
      const viewer = await buildUser(t.orm);
      const manga = await buildManga(t.orm, { slug: 'mine' });
      await buildReadEntry(t.orm, viewer, { manga }, { note: 'note' });
      const res = await call(MANGA, {}, { token: await buildToken(t.orm, viewer) });
      expect(res.body.data.mangaList.list).toEqual([{ slug: 'mine', read: [{ note: 'note' }] }]);
      expect((await call(MANGA, {})).body.data.mangaList.list).toEqual([{ slug: 'mine', read: [] }]);
      const unscoped = await call(MANGA, {}, await thirdParty(['read:watchlist']));
      expect(unscoped.body.errors).toBeUndefined();
      expect(unscoped.body.data.mangaList.list).toEqual([{ slug: 'mine', read: [] }]);
    });

    it('rejects bad values with HTTP 400 naming the field', async () => {
      for (const [input, name] of [
        [{ years: [2010, 2000] }, 'years'],
        [{ sort: ['watch_score:desc'] }, 'sort'],
        [{ score: [3, 2] }, 'score'],
        [{ query: 'x' }, 'query'],
      ] as const) {
        const res = await call(MANGA, input);
        expect(res.status).toBe(400);
        expect(res.body.errors[0].message).toBe(`Invalid field ${name} in request body`);
      }
      // A value GraphQL cannot coerce (an unknown enum value) fails in graphql-js, also HTTP 400.
      const coercion = await call(MANGA, { media_type: ['light_novel'] });
      expect(coercion.status).toBe(400);
      expect(coercion.body.errors[0].extensions.code).toBe('system:validation_error');
    });
  });

  describe('animeList', () => {
    it('applies the anime filters: rating, source, season, studios, producers, genres, scores', async () => {
      const a = await buildAnime(t.orm, {
        slug: 'a',
        rating: 'pg_13',
        source: 'manga',
        season: 'fall',
        year: 2019,
        score: 9,
        translated_ua: true,
      });
      const b = await buildAnime(t.orm, {
        slug: 'b',
        rating: 'r',
        source: 'original',
        season: 'spring',
        year: 2020,
        score: 8,
      });
      await buildAnime(t.orm, { slug: 'c', score: 7, media_type: 'movie', status: 'finished' });
      await buildAnime(t.orm, { slug: 'gone', score: 10, deleted: true });
      await linkCompany(t.orm, a, 'madhouse', 'studio');
      await linkCompany(t.orm, b, 'madhouse', 'producer');
      await animeWithGenres(a, ['action']);
      await animeWithGenres(b, ['hentai']);
      // No genre auto-hide for anime (pages.md decision 1): only `rx` ratings are hidden.
      expect(await animeSlugs({})).toEqual(['a', 'b', 'c']);
      expect(await animeSlugs({ rating: ['pg_13', 'r'] })).toEqual(['a', 'b']);
      expect(await animeSlugs({ genres: ['-action'], rating: ['r'] })).toEqual(['b']);
      expect(await animeSlugs({ source: ['manga'] })).toEqual(['a']);
      expect(await animeSlugs({ season: ['fall'] })).toEqual(['a']);
      expect(await animeSlugs({ studios: ['madhouse'] })).toEqual(['a']);
      expect(await animeSlugs({ producers: ['madhouse'], genres: ['hentai'] })).toEqual(['b']);
      expect(await animeSlugs({ media_type: ['movie'] })).toEqual(['c']);
      expect(await animeSlugs({ status: ['finished'] })).toEqual(['c']);
      expect(await animeSlugs({ only_translated: true })).toEqual(['a']);
      expect(await animeSlugs({ score: [7, 8] })).toEqual(['b', 'c']);
      expect(await animeSlugs({ native_score: [1, null] })).toEqual([]);
      expect(await animeSlugs({ years: [2019, 2019] })).toEqual(['a']);
    });

    it('years with season pairs and include_multiseason, as in #21', async () => {
      await buildAnime(t.orm, {
        slug: 'fall19',
        year: 2019,
        season: 'fall',
        start_date: new Date('2019-10-05T00:00:00Z'),
        end_date: new Date('2020-03-20T00:00:00Z'),
      });
      await buildAnime(t.orm, {
        slug: 'spring20',
        year: 2020,
        season: 'spring',
        start_date: new Date('2020-04-03T00:00:00Z'),
        end_date: new Date('2020-06-20T00:00:00Z'),
      });
      expect(
        await sortedAnime({
          years: [
            ['winter', 2020],
            ['winter', 2020],
          ],
        }),
      ).toEqual(['fall19']);
      expect(
        await sortedAnime({
          years: [
            ['winter', 2020],
            ['spring', 2020],
          ],
        }),
      ).toEqual(['fall19', 'spring20']);
      expect(await sortedAnime({ years: [2020, 2020], season: ['winter'] })).toEqual([]);
      expect(
        await sortedAnime({ years: [2020, 2020], season: ['winter'], include_multiseason: true }),
      ).toEqual(['fall19']);
    });

    it('searches title_ua, title_en, title_ja and synonyms, ranked, with rx titles found by a query', async () => {
      const frieren = await buildAnime(t.orm, {
        slug: 'frieren',
        title_en: 'Frieren',
        title_ja: '葬送のフリーレン',
      });
      await buildAnime(t.orm, { slug: 'ua', title_en: null, title_ua: 'Провідниця', score: 1 });
      await buildAnime(t.orm, { slug: 'syn', title_en: 'Other', synonyms: ['Sousou no Frieren'], score: 2 });
      await animeWithGenres(frieren, ['ecchi']);
      await t.orm.em.fork().nativeUpdate(Anime, { slug: 'frieren' }, { rating: 'rx' });
      expect(await animeSlugs({})).toEqual(['syn', 'ua']);
      expect(await animeSlugs({ query: '葬送のフリーレン' })).toEqual(['frieren']);
      expect(await animeSlugs({ query: 'провідниця' })).toEqual(['ua']);
      // Two substring matches rank alike (1): reference desc decides.
      const syn = await t.orm.em.fork().findOneOrFail(Anime, { slug: 'syn' });
      expect(await animeSlugs({ query: 'Frieren' })).toEqual(
        frieren.reference > syn.reference ? ['frieren', 'syn'] : ['syn', 'frieren'],
      );
      expect(await animeSlugs({ query: 'Freiren' })).toContain('frieren');
    });

    it('hides anime rated rx (not null ratings) unless a rating, an explicit genre or a query is asked for', async () => {
      await buildAnime(t.orm, { slug: 'rx', rating: 'rx', title_en: 'Hidden Garden', score: 9 });
      await buildAnime(t.orm, { slug: 'unrated', rating: null, score: 8 });
      await buildAnime(t.orm, { slug: 'teen', rating: 'pg_13', score: 7 });
      await genres(['ecchi', 'erotica', 'hentai', 'action']);
      expect(await animeSlugs({})).toEqual(['unrated', 'teen']);
      expect(await animeSlugs({ rating: ['rx', 'pg_13'] })).toEqual(['rx', 'teen']);
      for (const genre of ['ecchi', 'erotica', 'hentai'])
        expect(await animeSlugs({ genres: [genre] })).toEqual([]);
      expect(await animeSlugs({ genres: ['-hentai'] })).toEqual(['unrated', 'teen']);
      expect(await animeSlugs({ genres: ['-action', 'hentai'] })).toEqual([]);
      expect(await animeSlugs({ query: 'Hidden Garden' })).toEqual(['rx']);
    });

    it('refuses unknown producers, then studios, then genres (pages.md POST /anime)', async () => {
      const anime = await buildAnime(t.orm, { slug: 'known' });
      await linkCompany(t.orm, anime, 'madhouse', 'studio');
      await genres(['action']);
      const code = async (input: Json) => (await call(ANIME, input)).body.errors?.[0].extensions.code;
      expect(await code({ producers: ['nope'], studios: ['nope'], genres: ['nope'] })).toBe(
        'anime:unknown_producer',
      );
      expect(await code({ producers: ['madhouse'], studios: ['nope'], genres: ['nope'] })).toBe(
        'anime:unknown_studio',
      );
      expect(await code({ studios: ['madhouse'], genres: ['-nope'] })).toBe('anime:unknown_genre');
      // Any company may be named in either role; repeats are allowed.
      expect(
        await code({ producers: ['madhouse', 'madhouse'], studios: ['madhouse'], genres: ['action'] }),
      ).toBe(undefined);
    });

    it('sorts with the #3 allowlist', async () => {
      await buildAnime(t.orm, { slug: 'old', start_date: new Date('2001-01-01'), score: 9 });
      await buildAnime(t.orm, { slug: 'new', start_date: new Date('2002-01-01'), score: 1 });
      expect(await animeSlugs({ sort: ['start_date:desc'] })).toEqual(['new', 'old']);
      expect(await animeSlugs({})).toEqual(['old', 'new']);
      const res = await call(ANIME, { sort: ['watch_score:desc'] });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].message).toBe('Invalid field sort in request body');
    });

    it("carries the viewer's watch entries in a bounded number of queries, with no scope asked", async () => {
      const viewer = await buildUser(t.orm);
      const token = await buildToken(t.orm, viewer);
      for (let i = 0; i < 35; i += 1) {
        const anime = await buildAnime(t.orm, { slug: `a${i}`, score: i });
        if (i % 3 === 0) await buildWatchEntry(t.orm, viewer, anime, { note: `n${i}` });
      }
      const count = async (size: number) =>
        t.queries.count(async () => {
          const res = await call(ANIME, {}, { token, size });
          expect(res.body.data.animeList.list).toHaveLength(Math.min(size, 35));
        });
      await count(1);
      expect(await count(100)).toBe(await count(1));
      const res = await call(ANIME, {}, { token, size: 3 });
      expect(res.body.data.animeList.list).toEqual([
        { slug: 'a34', watch: [] },
        { slug: 'a33', watch: [{ note: 'n33' }] },
        { slug: 'a32', watch: [] },
      ]);
      expect((await call(ANIME, {}, await thirdParty(['read:readlist']))).body.errors).toBeUndefined();
      expect((await call(ANIME, {}, await thirdParty(['watchlist']))).body.errors).toBeUndefined();
    });
  });
});
