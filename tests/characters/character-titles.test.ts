import type { User } from '../../src/accounts/user.entity';
import type { Anime } from '../../src/catalog/anime.entity';
import type { CatalogTitle } from '../../src/catalog/catalog-title.entity';
import type { Manga } from '../../src/catalog/manga.entity';
import type { Novel } from '../../src/catalog/novel.entity';
import type { Character } from '../../src/characters/character.entity';
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
  orderedReference,
} from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import {
  ANIME_SUMMARY_WITH_WATCH,
  keysOf,
  PAGINATION,
  READABLE_SUMMARY_WITH_READ,
  shapeProblems,
  type Shape,
} from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { INVALID_PAGING_QUERIES } from '../setup/paging';
import { type Json, seconds, sortedKeys } from '../setup/json';

/**
 * GET /characters/{slug}/anime (GraphQL `characterAnime`) and GET /characters/{slug}/manga
 * (`characterManga`), pages.md "Character page": #8 for anime and manga. Paged `{main, anime}`
 * / `{main, manga}` items, optional authentication; the anime route asks no scope, the manga
 * route asks `read:readlist`.
 */
const t = useTestApp();

type Kind = 'anime' | 'manga' | 'novel';

/** A title as buildAppearance takes it. */
type Linked = { anime?: Anime; manga?: Manga; novel?: Novel };

type TitleOverrides = Partial<Pick<CatalogTitle, 'slug' | 'score' | 'scored_by' | 'reference' | 'deleted'>>;

/** A new title of `kind`, as buildAppearance takes it. */
async function titleOf(kind: Kind, o: TitleOverrides = {}): Promise<Linked> {
  if (kind === 'anime') return { anime: await buildAnime(t.orm, o) };
  if (kind === 'manga') return { manga: await buildManga(t.orm, o) };
  return { novel: await buildNovel(t.orm, o) };
}

type TitleJson = Json & { slug: string };
type Item = Json & { main: boolean };
interface PageBody {
  pagination: { total: number; pages: number; page: number };
  list: Item[];
}

interface EntryValues {
  note?: string;
  score?: number;
}

interface TitlesRoute {
  kind: 'anime' | 'manga';
  rootField: 'characterAnime' | 'characterManga';
  /** The viewer array of the item's title. */
  entries: 'watch' | 'read';
  summary: Shape;
  /** A fully filled title of the kind, the viewer's entry on it, and the exact item title they give. */
  filled: (viewer: User) => Promise<{ title: Linked; expected: Json }>;
  /** `user`'s list entry on `title`. */
  entry: (user: User, title: Linked, o?: EntryValues) => Promise<unknown>;
}

const ROUTES: TitlesRoute[] = [
  {
    kind: 'anime',
    rootField: 'characterAnime',
    entries: 'watch',
    summary: ANIME_SUMMARY_WITH_WATCH,
    entry: (user, title, o = {}) => buildWatchEntry(t.orm, user, title.anime!, o),
    filled: async (viewer) => {
      const anime = await buildAnime(t.orm, {
        slug: 'tensura',
        extcat_id: 37430,
        media_type: 'tv',
        status: 'finished',
        season: 'fall',
        source: 'manga',
        rating: 'pg_13',
        title_ua: 'Реінкарнація в слайма',
        title_en: 'That Time I Got Reincarnated as a Slime',
        title_ja: '転生したらスライムだった件',
        episodes_released: 24,
        episodes_total: 25,
        image: '/anime/tensura.jpg',
        score: 8.14,
        scored_by: 900000,
        // native_score = round(v/(v+10)·total/v + 10/(v+10)·C, 2) with C = 0 (no baseline): 85/20.
        native_scored_by: 10,
        native_score_total: 85,
        year: 2018,
        start_date: new Date('2018-10-02T10:20:30.900Z'),
        end_date: new Date('2019-03-19T00:00:00.500Z'),
        created: new Date('2020-01-01T01:02:03.999Z'),
        updated: new Date('2021-01-01T00:00:00Z'),
        translated_ua: true,
        // Full-record fields, not in the summary.
        synopsis_en: 'A slime.',
        synopsis_ua: 'Слиз.',
        duration: 24,
        synonyms: ['TenSura'],
        nsfw: true,
        comments_count: 4,
      });
      const entry = await buildWatchEntry(t.orm, viewer, anime, {
        note: 'mine',
        status: 'completed',
        score: 9,
        episodes: 24,
        rewatches: 1,
        duration: 576,
      });
      const expected = {
        data_type: 'anime',
        media_type: 'tv',
        status: 'finished',
        season: 'fall',
        source: 'manga',
        rating: 'pg_13',
        title_ua: 'Реінкарнація в слайма',
        title_en: 'That Time I Got Reincarnated as a Slime',
        title_ja: '転生したらスライムだった件',
        episodes_released: '24',
        episodes_total: '25',
        image: 'https://cdn.test/anime/tensura.jpg',
        native_scored_by: 10,
        scored_by: 900000,
        native_score: 4.25,
        score: 8.14,
        slug: 'tensura',
        start_date: seconds('2018-10-02T10:20:30Z'),
        end_date: seconds('2019-03-19T00:00:00Z'),
        created: seconds('2020-01-01T01:02:03Z'),
        updated: seconds('2021-01-01T00:00:00Z'),
        translated_ua: true,
        year: 2018,
        extcat_id: 37430,
        watch: [
          {
            reference: entry.reference,
            note: 'mine',
            status: 'completed',
            score: 9,
            episodes: 24,
            rewatches: 1,
            duration: 576,
            created: seconds(entry.created),
            updated: seconds(entry.updated),
          },
        ],
      };
      return { title: { anime }, expected };
    },
  },
  {
    kind: 'manga',
    rootField: 'characterManga',
    entries: 'read',
    summary: READABLE_SUMMARY_WITH_READ,
    entry: (user, title, o = {}) => buildReadEntry(t.orm, user, { manga: title.manga! }, o),
    filled: async (viewer) => {
      const manga = await buildManga(t.orm, {
        slug: 'tensura',
        extcat_id: 87609,
        title_original: '転生したらスライムだった件',
        title_ua: 'Реінкарнація в слайма',
        title_en: 'That Time I Got Reincarnated as a Slime',
        media_type: 'manga',
        status: 'ongoing',
        chapters: 120,
        volumes: 26,
        translated_ua: true,
        score: 8.3,
        scored_by: 40000,
        // native_score = 120/25 with no baseline (see the anime fixture).
        native_scored_by: 15,
        native_score_total: 120,
        image: 'https://img.example/tensura.png',
        year: 2015,
        start_date: new Date('2015-03-26T12:00:00.750Z'),
        end_date: new Date('2030-01-01T00:00:00Z'),
        created: new Date('2020-01-01T00:00:00Z'),
        updated: new Date('2021-06-07T08:09:10.100Z'),
        // Full-record fields, not in the summary.
        synopsis_en: 'A slime.',
        synonyms: ['TenSura'],
        comments_count: 2,
      });
      const entry = await buildReadEntry(
        t.orm,
        viewer,
        { manga },
        { note: 'mine', status: 'completed', score: 8, chapters: 120, volumes: 26, rereads: 2 },
      );
      const expected = {
        data_type: 'manga',
        media_type: 'manga',
        status: 'ongoing',
        title_original: '転生したらスライムだった件',
        title_ua: 'Реінкарнація в слайма',
        title_en: 'That Time I Got Reincarnated as a Slime',
        chapters: 120,
        volumes: 26,
        translated_ua: true,
        native_score: 4.8,
        score: 8.3,
        native_scored_by: 15,
        scored_by: 40000,
        image: 'https://img.example/tensura.png',
        year: 2015,
        extcat_id: 87609,
        slug: 'tensura',
        start_date: seconds('2015-03-26T12:00:00Z'),
        end_date: seconds('2030-01-01T00:00:00Z'),
        created: seconds('2020-01-01T00:00:00Z'),
        updated: seconds('2021-06-07T08:09:10Z'),
        read: [
          {
            reference: entry.reference,
            note: 'mine',
            status: 'completed',
            score: 8,
            chapters: 120,
            volumes: 26,
            rereads: 2,
            created: seconds(entry.created),
            updated: seconds(entry.updated),
          },
        ],
      };
      return { title: { manga }, expected };
    },
  },
];

const ANIME = ROUTES[0];
const MANGA = ROUTES[1];

const routeOf = (r: TitlesRoute) =>
  restRoutes.find((route) => route.path === `/characters/{slug}/${r.kind}` && route.method === 'GET')!;

const pageShape = (r: TitlesRoute): Shape => ({
  pagination: { object: PAGINATION },
  list: { arrayOf: { main: 'boolean', [r.kind]: { object: r.summary } } },
});

const getTitles = (r: TitlesRoute, slug: string, query = '', options: CallOptions = {}) =>
  rest(t.app, 'GET', `/characters/${slug}/${r.kind}${query}`, undefined, options);

/**
 * The route's GraphQL document, as the REST route runs it (`compiled`: answered in SQL where
 * every field has a SQL form) or with a root `__typename` (`executed`: never compiled, so the
 * resolvers run).
 */
const documentOf = (r: TitlesRoute, way: 'compiled' | 'executed' = 'compiled') =>
  way === 'compiled' ? routeOf(r).document : routeOf(r).document.replace('{', '{ __typename ');

const gqlTitles = (
  r: TitlesRoute,
  variables: Json,
  options: CallOptions = {},
  way: 'compiled' | 'executed' = 'compiled',
) => gql(t.app, documentOf(r, way), variables, options);

const WAYS = ['compiled', 'executed'] as const;

const titlesOf = (r: TitlesRoute, body: PageBody): TitleJson[] =>
  body.list.map((item) => item[r.kind] as TitleJson);

const slugsOf = (r: TitlesRoute, body: PageBody): string[] => titlesOf(r, body).map((title) => title.slug);

/** Each item title's viewer entries, by note. */
const notesOf = (r: TitlesRoute, body: PageBody): unknown[][] =>
  titlesOf(r, body).map((title) => (title[r.entries] as Json[]).map((entry) => entry.note));

/** `count` titles of `r.kind` for `character` with decreasing scores (slugs `t-00`, `t-01`…), main every other one. */
async function appearancesOf(r: TitlesRoute, character: Character, count: number): Promise<Linked[]> {
  const titles: Linked[] = [];
  for (let n = 0; n < count; n += 1) {
    const title = await titleOf(r.kind, { slug: `t-${String(n).padStart(2, '0')}`, score: 9 - n / 10 });
    await buildAppearance(t.orm, character, title, n % 2 === 0);
    titles.push(title);
  }
  return titles;
}

/** A third-party token of `user` (a fresh one by default) holding `scope`. */
const thirdParty = async (scope: string[], user?: User) =>
  buildThirdPartyToken(t.orm, user ?? (await buildUser(t.orm)), scope);

const notFound = { message: 'Character not found', code: 'character:not_found' };
const notFoundUk = { message: 'Персонажа не знайдено', code: 'character:not_found' };
const deletedAccount = { message: 'Deleted', code: 'user:deleted' };
const invalidQuery = (name: string) => ({
  message: `Invalid field ${name} in request query`,
  code: 'system:validation_error',
});

describe.each(ROUTES)('GET /characters/{slug}/$kind ($rootField)', (r) => {
  const get = (slug: string, query = '', options: CallOptions = {}) => getTitles(r, slug, query, options);

  describe('items', () => {
    it(`serves {main, ${r.kind}} with exactly the summary and the viewer's ${r.entries} entry`, async () => {
      const character = await buildCharacter(t.orm, { slug: 'rimuru' });
      const viewer = await buildUser(t.orm);
      const { title, expected } = await r.filled(viewer);
      await buildAppearance(t.orm, character, title, true);

      const res = await get('rimuru', '', { token: await buildToken(t.orm, viewer) });

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        pagination: { total: 1, pages: 1, page: 1 },
        list: [{ main: true, [r.kind]: expected }],
      });
      expect(shapeProblems(res.body, pageShape(r), 'page')).toEqual([]);
      const [item] = (res.body as PageBody).list;
      expect(sortedKeys(item)).toEqual([r.kind, 'main'].sort());
      expect(sortedKeys(item[r.kind] as Json)).toEqual(keysOf(r.summary));
    });

    it('serves main false for a supporting appearance', async () => {
      const character = await buildCharacter(t.orm, { slug: 'side' });
      await buildAppearance(t.orm, character, await titleOf(r.kind), false);
      const res = await get('side');
      expect(res.status).toBe(200);
      expect((res.body as PageBody).list.map((item) => item.main)).toEqual([false]);
    });

    it(`lists the character's ${r.kind} only: not other kinds, not other characters', not deleted ones`, async () => {
      const character = await buildCharacter(t.orm, { slug: 'busy' });
      await buildAppearance(t.orm, character, await titleOf(r.kind, { slug: 'own' }));
      await buildAppearance(t.orm, character, await titleOf(r.kind, { slug: 'gone', deleted: true }));
      for (const kind of ['anime', 'manga', 'novel'] as const)
        if (kind !== r.kind) await buildAppearance(t.orm, character, await titleOf(kind, { slug: kind }));
      const other = await buildCharacter(t.orm);
      await buildAppearance(t.orm, other, await titleOf(r.kind, { slug: 'theirs' }));

      const res = await get('busy');

      expect(res.status).toBe(200);
      expect(slugsOf(r, res.body)).toEqual(['own']);
      expect(res.body.pagination).toEqual({ total: 1, pages: 1, page: 1 });
    });

    it('orders by title score desc, scored_by desc, reference desc (main does not matter)', async () => {
      const character = await buildCharacter(t.orm, { slug: 'ordered' });
      const rows: [string, number, number, number, boolean][] = [
        ['low', 6, 900, 9, true],
        ['tie-1', 8, 50, 1, true],
        ['top', 9, 10, 2, false],
        ['tie-7', 8, 50, 7, false],
        ['more-voters', 8, 60, 3, true],
      ];
      for (const [slug, score, scored_by, n, main] of rows)
        await buildAppearance(
          t.orm,
          character,
          await titleOf(r.kind, { slug, score, scored_by, reference: orderedReference(n) }),
          main,
        );

      const res = await get('ordered');

      expect(res.status).toBe(200);
      expect(slugsOf(r, res.body)).toEqual(['top', 'more-voters', 'tie-7', 'tie-1', 'low']);
      expect((res.body as PageBody).list.map((item) => item.main)).toEqual([false, true, false, true, true]);
    });

    it(`holds only the caller's own ${r.entries} entry on each title, and [] anonymously`, async () => {
      const character = await buildCharacter(t.orm, { slug: 'viewed' });
      const [first, second] = await appearancesOf(r, character, 2);
      const viewer = await buildUser(t.orm);
      const stranger = await buildUser(t.orm);
      await r.entry(stranger, first, { note: 'theirs' });
      await r.entry(stranger, second, { note: 'theirs too' });
      const token = await buildToken(t.orm, viewer);

      expect(notesOf(r, (await get('viewed', '', { token })).body)).toEqual([[], []]);
      await r.entry(viewer, second, { note: 'mine' });
      expect(notesOf(r, (await get('viewed', '', { token })).body)).toEqual([[], ['mine']]);
      expect(notesOf(r, (await get('viewed')).body)).toEqual([[], []]);
    });
  });

  describe('pagination', () => {
    it('serves items (page-1)*size+1 .. page*size with the live total (deleted titles not counted), and [] past the end', async () => {
      const character = await buildCharacter(t.orm, { slug: 'famous' });
      await appearancesOf(r, character, 7);
      for (const slug of ['deleted-a', 'deleted-b'])
        await buildAppearance(t.orm, character, await titleOf(r.kind, { slug, score: 10, deleted: true }));

      const second = await get('famous', '?page=2&size=3');
      expect(second.status).toBe(200);
      expect(second.body.pagination).toEqual({ total: 7, pages: 3, page: 2 });
      expect(slugsOf(r, second.body)).toEqual(['t-03', 't-04', 't-05']);

      const last = await get('famous', '?page=3&size=3');
      expect(last.body.pagination).toEqual({ total: 7, pages: 3, page: 3 });
      expect(slugsOf(r, last.body)).toEqual(['t-06']);

      const past = await get('famous', '?page=9&size=3');
      expect(past.status).toBe(200);
      expect(past.body).toEqual({ pagination: { total: 7, pages: 3, page: 9 }, list: [] });
    });

    it('defaults to page 1 and size 15', async () => {
      await appearancesOf(r, await buildCharacter(t.orm, { slug: 'many' }), 16);
      const res = await get('many');
      expect(res.status).toBe(200);
      expect(res.body.pagination).toEqual({ total: 16, pages: 2, page: 1 });
      expect(slugsOf(r, res.body)).toEqual(
        Array.from({ length: 15 }, (_, n) => `t-${String(n).padStart(2, '0')}`),
      );
    });

    it('accepts the bounds page=10000 and size=100, and ignores unknown query parameters', async () => {
      await appearancesOf(r, await buildCharacter(t.orm, { slug: 'bounds' }), 2);

      const far = await get('bounds', '?page=10000');
      expect(far.status).toBe(200);
      expect(far.body).toEqual({ pagination: { total: 2, pages: 1, page: 10000 }, list: [] });

      const wide = await get('bounds', '?size=100&sort=slug:asc&limit=1');
      expect(wide.status).toBe(200);
      expect(wide.body.pagination).toEqual({ total: 2, pages: 1, page: 1 });
      expect(slugsOf(r, wide.body)).toEqual(['t-00', 't-01']);
    });

    it(`answers total 0 for a character that appears in no live ${r.kind}`, async () => {
      const character = await buildCharacter(t.orm, { slug: 'elsewhere' });
      await buildAppearance(t.orm, character, await titleOf('novel'));
      await buildAppearance(t.orm, character, await titleOf(r.kind, { deleted: true }));
      const res = await get('elsewhere');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ pagination: { total: 0, pages: 0, page: 1 }, list: [] });
    });
  });

  describe('validation', () => {
    beforeEach(async () => {
      await appearancesOf(r, await buildCharacter(t.orm, { slug: 'validated' }), 1);
    });

    it.each(INVALID_PAGING_QUERIES)('%s → 400 Invalid field %s in request query', async (query, name) => {
      const res = await get('validated', `?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalidQuery(name));
    });

    it('answers the Ukrainian validation message when Accept-Language prefers uk', async () => {
      const res = await get('validated', '?size=101', { language: 'uk-UA,uk;q=0.9' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: 'Некоректне поле size у запиті query',
        code: 'system:validation_error',
      });
    });

    it('checks the query before the character look-up (unknown and orphan characters)', async () => {
      await buildCharacter(t.orm, { slug: 'orphan' });
      for (const slug of ['unknown', 'orphan']) {
        const res = await get(slug, '?page=0');
        expect(res.status).toBe(400);
        expect(res.body).toEqual(invalidQuery('page'));
      }
    });
  });

  describe('look-up', () => {
    it('lower-cases the slug', async () => {
      await appearancesOf(r, await buildCharacter(t.orm, { slug: 'subaru-natsuki' }), 1);
      const res = await get('Subaru-NATSUKI');
      expect(res.status).toBe(200);
      expect(slugsOf(r, res.body)).toEqual(['t-00']);
    });

    it('answers 404 character:not_found for an unknown character, in both languages', async () => {
      const res = await get('unknown');
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
      const uk = await get('unknown', '', { language: 'uk' });
      expect(uk.status).toBe(404);
      expect(uk.body).toEqual(notFoundUk);
    });

    it('answers 404 for an orphan character (in no title), in both languages', async () => {
      await buildCharacter(t.orm, { slug: 'orphan' });
      const res = await get('orphan');
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
      expect((await get('orphan', '', { language: 'uk' })).body).toEqual(notFoundUk);
    });

    it('treats a character linked only to deleted titles as an orphan', async () => {
      const character = await buildCharacter(t.orm, { slug: 'forgotten' });
      for (const kind of ['anime', 'manga', 'novel'] as const)
        await buildAppearance(t.orm, character, await titleOf(kind, { deleted: true }), true);
      const res = await get('forgotten');
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
    });

    it.each(['anime', 'manga', 'novel'] as const)(
      'finds a character whose only live title is of kind %s',
      async (kind) => {
        const character = await buildCharacter(t.orm, { slug: `in-${kind}` });
        await buildAppearance(t.orm, character, await titleOf(kind));
        const res = await get(`in-${kind}`);
        expect(res.status).toBe(200);
        expect(res.body.pagination.total).toBe(kind === r.kind ? 1 : 0);
      },
    );
  });

  describe('optional authentication', () => {
    /** A character `open` in one title of the kind, on which `user` has an entry. */
    async function viewed(user: User): Promise<Linked> {
      const [title] = await appearancesOf(r, await buildCharacter(t.orm, { slug: 'open' }), 1);
      await r.entry(user, title, { note: 'mine' });
      return title;
    }

    it(`shows the viewer's ${r.entries} entry for a token sent as the auth cookie`, async () => {
      const viewer = await buildUser(t.orm);
      await viewed(viewer);
      const res = await get('open', '', { cookie: await buildToken(t.orm, viewer) });
      expect(res.status).toBe(200);
      expect(notesOf(r, res.body)).toEqual([['mine']]);
    });

    it('treats an unknown token, an expired token and a banned account’s token as anonymous', async () => {
      const viewer = await buildUser(t.orm);
      const title = await viewed(viewer);
      const banned = await buildUser(t.orm, { banned: true });
      await r.entry(banned, title, { note: 'banned' });

      for (const token of [
        'not-a-token',
        await buildToken(t.orm, viewer, { expiration: new Date(Date.now() - 60_000) }),
        await buildToken(t.orm, banned),
      ]) {
        const res = await get('open', '', { token });
        expect(res.status).toBe(200);
        expect(notesOf(r, res.body)).toEqual([[]]);
      }
    });

    it('answers 400 user:deleted for a deleted account’s token, in both languages', async () => {
      await viewed(await buildUser(t.orm));
      const token = await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' }));
      const res = await get('open', '', { token });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(deletedAccount);
      const uk = await get('open', '', { token, language: 'uk' });
      expect(uk.body).toEqual({ message: 'Видалено...', code: 'user:deleted' });
    });

    it('checks a deleted account before the query and before the character look-up', async () => {
      await viewed(await buildUser(t.orm));
      await buildCharacter(t.orm, { slug: 'orphan' });
      const token = await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' }));
      for (const [slug, query] of [
        ['open', '?page=0'],
        ['unknown', ''],
        ['orphan', ''],
      ]) {
        const res = await get(slug, query, { token });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(deletedAccount);
      }
    });

    it('looks the character up before any scope check: 404 for an unknown or orphan character and a scope-less third-party token', async () => {
      await buildCharacter(t.orm, { slug: 'orphan' });
      const token = await thirdParty(['update:watchlist']);
      for (const slug of ['unknown', 'orphan']) {
        const res = await get(slug, '', { token });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(notFound);
      }
    });
  });

  describe('REST ≡ GraphQL', () => {
    it(`equals data.${r.rootField} anonymously and with a viewer token`, async () => {
      const character = await buildCharacter(t.orm, { slug: 'parity' });
      const viewer = await buildUser(t.orm);
      const { title } = await r.filled(viewer);
      await buildAppearance(t.orm, character, title, true);
      for (const extra of await appearancesOf(r, character, 3))
        await r.entry(viewer, extra, { note: 'extra' });
      const token = await buildToken(t.orm, viewer);

      for (const [options, query, page, notes] of [
        [{}, '', {}, [[], [], [], []]],
        [{ token }, '', {}, [['extra'], ['extra'], ['extra'], ['mine']]],
        [{ token }, '?page=2&size=2', { page: 2, size: 2 }, [['extra'], ['mine']]],
      ] as const) {
        const viaRest = await get('Parity', query, options);
        expect(viaRest.status).toBe(200);
        expect(notesOf(r, viaRest.body)).toEqual(notes);
        for (const way of WAYS) {
          const viaGraphQL = await gqlTitles(r, { slug: 'Parity', ...page }, options, way);
          expect(viaGraphQL.body.errors).toBeUndefined();
          expect(viaGraphQL.body.data[r.rootField]).toEqual(viaRest.body);
          // Key order is part of the JSON: both doors and both ways of answering agree.
          expect(JSON.stringify(viaGraphQL.body.data[r.rootField])).toBe(JSON.stringify(viaRest.body));
        }
      }
    });

    it('reports the same not-found error, in both languages', async () => {
      await buildCharacter(t.orm, { slug: 'orphan' });
      for (const language of ['en', 'uk']) {
        const viaRest = await get('orphan', '', { language });
        expect(viaRest.status).toBe(404);
        expect(viaRest.body.message).toBe(language === 'en' ? notFound.message : notFoundUk.message);
        for (const way of WAYS) {
          const viaGraphQL = await gqlTitles(r, { slug: 'orphan' }, { language }, way);
          expect(viaGraphQL.body.data ?? null).toBeNull();
          expect(viaGraphQL.body.errors).toHaveLength(1);
          expect(viaGraphQL.body.errors[0]).toMatchObject({
            message: viaRest.body.message,
            path: [r.rootField],
            extensions: { code: 'character:not_found', http: { status: 404 } },
          });
        }
      }
    });

    it('reports the same validation and deleted-account errors', async () => {
      await appearancesOf(r, await buildCharacter(t.orm, { slug: 'errors' }), 1);
      const deleted = await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' }));
      for (const [query, variables, options, code, status] of [
        ['?size=101', { size: 101 }, {}, 'system:validation_error', 400],
        ['?page=0', { page: 0 }, {}, 'system:validation_error', 400],
        ['', {}, { token: deleted }, 'user:deleted', 400],
      ] as const) {
        const viaRest = await get('errors', query, options);
        expect(viaRest.status).toBe(status);
        expect(viaRest.body.code).toBe(code);
        for (const way of WAYS) {
          const viaGraphQL = await gqlTitles(r, { slug: 'errors', ...variables }, options, way);
          expect(viaGraphQL.body.errors[0]).toMatchObject({
            message: viaRest.body.message,
            extensions: { code, http: { status } },
          });
        }
      }
    });
  });

  describe('bounded SQL', () => {
    it('sends as many statements for size=100 as for size=1, anonymously and with a token', async () => {
      const character = await buildCharacter(t.orm, { slug: 'crowded' });
      const viewer = await buildUser(t.orm);
      for (const title of await appearancesOf(r, character, 30)) await r.entry(viewer, title);
      const token = await buildToken(t.orm, viewer);
      await get('crowded', '', { token }); // the token's first use writes once

      for (const options of [{}, { token }]) {
        const one = await t.queries.count(async () => {
          const res = await get('crowded', '?size=1', options);
          expect(res.body.list).toHaveLength(1);
        });
        const hundred = await t.queries.count(async () => {
          const res = await get('crowded', '?size=100', options);
          expect(res.body.list).toHaveLength(30);
          expect(notesOf(r, res.body).every((notes) => notes.length === ('token' in options ? 1 : 0))).toBe(
            true,
          );
        });
        expect(one).toBeGreaterThan(0);
        expect(hundred).toBe(one);
      }
    });

    it('sends as many statements for size=100 as for size=1 when the resolvers run (executed GraphQL)', async () => {
      const character = await buildCharacter(t.orm, { slug: 'crowded' });
      const viewer = await buildUser(t.orm);
      for (const title of await appearancesOf(r, character, 30)) await r.entry(viewer, title);
      const token = await buildToken(t.orm, viewer);
      await get('crowded', '', { token }); // the token's first use writes once

      for (const options of [{}, { token }]) {
        const countFor = (size: number) =>
          t.queries.count(async () => {
            const res = await gqlTitles(r, { slug: 'crowded', size }, options, 'executed');
            expect(res.body.errors).toBeUndefined();
            expect(res.body.data[r.rootField].list).toHaveLength(Math.min(size, 30));
          });
        const one = await countFor(1);
        expect(one).toBeGreaterThan(0);
        expect(await countFor(100)).toBe(one);
      }
    });
  });
});

describe('GET /characters/{slug}/anime: no scope', () => {
  it('serves a third-party token without any read scope, with its user’s watch entries', async () => {
    const [anime] = await appearancesOf(ANIME, await buildCharacter(t.orm, { slug: 'unscoped' }), 1);
    const viewer = await buildUser(t.orm);
    await ANIME.entry(viewer, anime, { note: 'mine' });
    await ANIME.entry(await buildUser(t.orm), anime, { note: 'theirs' });

    for (const scope of [[], ['update:watchlist'], ['read:readlist'], ['read:watchlist']]) {
      const token = await thirdParty(scope, viewer);
      const res = await getTitles(ANIME, 'unscoped', '', { token });
      expect(res.status).toBe(200);
      expect(notesOf(ANIME, res.body)).toEqual([['mine']]);
      for (const way of WAYS) {
        const viaGraphQL = await gqlTitles(ANIME, { slug: 'unscoped' }, { token }, way);
        expect(viaGraphQL.body.errors).toBeUndefined();
        expect(viaGraphQL.body.data.characterAnime).toEqual(res.body);
      }
    }
  });
});

describe('GET /characters/{slug}/manga: scope read:readlist', () => {
  it('answers 403 permission:denied for a third-party token without read:readlist, in both languages', async () => {
    await appearancesOf(MANGA, await buildCharacter(t.orm, { slug: 'scoped' }), 1);
    for (const scope of [[], ['read:watchlist', 'update:readlist'], ['watchlist']]) {
      const token = await thirdParty(scope);
      const res = await getTitles(MANGA, 'scoped', '', { token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        message: "You don't have permission for this action",
        code: 'permission:denied',
      });
      const uk = await getTitles(MANGA, 'scoped', '', { token, language: 'uk' });
      expect(uk.body).toEqual({ message: 'У вас немає дозволу на цю дію', code: 'permission:denied' });
    }
  });

  it('reports the same permission error through GraphQL', async () => {
    await appearancesOf(MANGA, await buildCharacter(t.orm, { slug: 'scoped' }), 1);
    const token = await thirdParty(['read:watchlist']);
    const viaRest = await getTitles(MANGA, 'scoped', '', { token });
    expect(viaRest.status).toBe(403);
    for (const way of WAYS) {
      const viaGraphQL = await gqlTitles(MANGA, { slug: 'scoped' }, { token }, way);
      expect(viaGraphQL.body.data ?? null).toBeNull();
      expect(viaGraphQL.body.errors[0]).toMatchObject({
        message: viaRest.body.message,
        path: ['characterManga'],
        extensions: { code: 'permission:denied', http: { status: 403 } },
      });
    }
  });

  it('serves third-party tokens with read:readlist, its group or all, with their user’s read entries', async () => {
    const [manga] = await appearancesOf(MANGA, await buildCharacter(t.orm, { slug: 'scoped' }), 1);
    const viewer = await buildUser(t.orm);
    await MANGA.entry(viewer, manga, { note: 'mine' });
    await MANGA.entry(await buildUser(t.orm), manga, { note: 'theirs' });
    for (const scope of [['read:readlist'], ['readlist'], ['all']]) {
      const res = await getTitles(MANGA, 'scoped', '', { token: await thirdParty(scope, viewer) });
      expect(res.status).toBe(200);
      expect(notesOf(MANGA, res.body)).toEqual([['mine']]);
    }
  });
});
