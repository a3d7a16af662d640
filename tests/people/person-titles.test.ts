import type { User } from '../../src/accounts/user.entity';
import type { Anime } from '../../src/catalog/anime.entity';
import type { CatalogTitle } from '../../src/catalog/catalog-title.entity';
import type { Novel } from '../../src/catalog/novel.entity';
import type { TitleContentType } from '../../src/common/enums';
import type { ListEntry } from '../../src/lists/list-entry.entity';
import type { Person } from '../../src/people/person.entity';
import type { Role } from '../../src/people/role.entity';
import { restRoutes } from '../../src/routes';
import {
  buildAnime,
  buildCredit,
  buildManga,
  buildNovel,
  buildPerson,
  buildReadEntry,
  buildRole,
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
import { type Json, seconds, sortedKeys } from '../setup/json';

/**
 * GET /people/{slug}/anime and GET /people/{slug}/novel (pages.md "Person page"): paged
 * `{roles, anime}` / `{roles, novel}` items, optional authentication, scope read:watchlist /
 * read:readlist. They mirror #7 GET /people/{slug}/manga (tests/people/person-manga.test.ts);
 * each rule is written once and run for both kinds.
 */
const t = useTestApp();

/** A new title of `kind` credited to `person` with `roles`. */
async function credited(
  person: Person,
  kind: TitleContentType,
  roles: Role[],
  o: Partial<CatalogTitle> = {},
): Promise<CatalogTitle> {
  if (kind === 'anime') {
    const anime = await buildAnime(t.orm, o);
    await buildCredit(t.orm, person, { anime }, roles);
    return anime;
  }
  if (kind === 'manga') {
    const manga = await buildManga(t.orm, o);
    await buildCredit(t.orm, person, { manga }, roles);
    return manga;
  }
  const novel = await buildNovel(t.orm, o);
  await buildCredit(t.orm, person, { novel }, roles);
  return novel;
}

/** A third-party token of a fresh user holding `scope`. */
const thirdParty = async (scope: string[]) => buildThirdPartyToken(t.orm, await buildUser(t.orm), scope);

interface Case {
  kind: 'anime' | 'novel';
  rootField: string;
  /** The viewer-specific array of the item's title. */
  entries: 'watch' | 'read';
  summary: Shape;
  scope: string;
  group: string;
  /** Scopes of a third-party token that lacks `scope`. */
  withoutScope: string[];
  /** The other kinds a person can be credited on. */
  others: TitleContentType[];
  /** A list entry of `user` on `title` (a watch entry for anime, a read entry for novels). */
  entry(user: User, title: CatalogTitle, o?: Partial<ListEntry>): Promise<ListEntry>;
  /** A title with every summary field filled, credited to `person`, and its exact JSON without the entries. */
  filled(person: Person, roles: Role[]): Promise<{ title: CatalogTitle; json: Json }>;
  /** A viewer's entry on `title` with every field filled, and its exact JSON. */
  filledEntry(user: User, title: CatalogTitle): Promise<Json>;
  /** A title with every nullable field null, and the nulls it must serve. */
  bare: Partial<CatalogTitle>;
  bareJson: Json;
}

const CASES: Case[] = [
  {
    kind: 'anime',
    rootField: 'personAnime',
    entries: 'watch',
    summary: ANIME_SUMMARY_WITH_WATCH,
    scope: 'read:watchlist',
    group: 'watchlist',
    withoutScope: ['read:readlist', 'update:watchlist'],
    others: ['manga', 'novel'],
    entry: (user, title, o = {}) => buildWatchEntry(t.orm, user, title as Anime, o),
    async filled(person, roles) {
      const title = await credited(person, 'anime', roles, {
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
        image: '/anime/frieren.jpg',
        score: 9.31,
        scored_by: 654321,
        // native_score is derived: (12/22)·9 + (10/22)·C, with C = 0 while the baseline is empty.
        native_scored_by: 12,
        native_score_total: 108,
        translated_ua: true,
        year: 2023,
        start_date: new Date('2023-09-29T10:20:30.999Z'),
        end_date: new Date('2024-03-22T00:00:00.500Z'),
        created: new Date('2023-05-06T07:08:09.750Z'),
        updated: new Date('2024-02-03T04:05:06.001Z'),
      } as Partial<Anime>);
      const json = {
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
        image: 'https://cdn.test/anime/frieren.jpg',
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
      };
      return { title, json };
    },
    async filledEntry(user, title) {
      const entry = await buildWatchEntry(t.orm, user, title as Anime, {
        note: 'mine',
        status: 'completed',
        episodes: 28,
        rewatches: 1,
        duration: 672,
        score: 9,
      });
      return {
        reference: entry.reference,
        note: 'mine',
        updated: seconds(entry.updated),
        created: seconds(entry.created),
        status: 'completed',
        rewatches: 1,
        duration: 672,
        episodes: 28,
        score: 9,
      };
    },
    bare: {
      title_ua: null,
      title_en: null,
      image: null,
      year: null,
      start_date: null,
      end_date: null,
      status: null,
    } as Partial<CatalogTitle>,
    bareJson: {
      title_ua: null,
      title_en: null,
      title_ja: null,
      media_type: 'tv',
      status: null,
      season: null,
      source: null,
      rating: null,
      episodes_released: null,
      episodes_total: null,
      image: null,
      year: null,
      start_date: null,
      end_date: null,
      native_score: 0,
      native_scored_by: 0,
      translated_ua: false,
      watch: [],
    },
  },
  {
    kind: 'novel',
    rootField: 'personNovel',
    entries: 'read',
    summary: READABLE_SUMMARY_WITH_READ,
    scope: 'read:readlist',
    group: 'readlist',
    withoutScope: ['read:watchlist', 'update:readlist'],
    others: ['anime', 'manga'],
    entry: (user, title, o = {}) => buildReadEntry(t.orm, user, { novel: title as Novel }, o),
    async filled(person, roles) {
      const title = await credited(person, 'novel', roles, {
        slug: 'tensura',
        extcat_id: 36543,
        title_original: '転生したらスライムだった件',
        title_ua: 'Реінкарнація в слайма',
        title_en: 'That Time I Got Reincarnated as a Slime',
        media_type: 'light_novel',
        status: 'ongoing',
        chapters: 300,
        volumes: 21,
        translated_ua: true,
        score: 8.37,
        scored_by: 4000,
        // native_score is derived: (12/22)·9 + (10/22)·C, with C = 0 while the baseline is empty.
        native_scored_by: 12,
        native_score_total: 108,
        image: 'https://img.example/tensura.png',
        year: 2014,
        start_date: new Date('2014-05-30T10:20:30.999Z'),
        end_date: new Date('2030-01-01T00:00:00.500Z'),
        created: new Date('2020-01-01T01:02:03.750Z'),
        updated: new Date('2021-01-01T04:05:06.001Z'),
      } as Partial<Novel>);
      const json = {
        data_type: 'novel',
        media_type: 'light_novel',
        status: 'ongoing',
        title_original: '転生したらスライムだった件',
        title_ua: 'Реінкарнація в слайма',
        title_en: 'That Time I Got Reincarnated as a Slime',
        chapters: 300,
        volumes: 21,
        translated_ua: true,
        native_score: 4.91,
        score: 8.37,
        native_scored_by: 12,
        scored_by: 4000,
        image: 'https://img.example/tensura.png',
        year: 2014,
        extcat_id: 36543,
        slug: 'tensura',
        start_date: seconds('2014-05-30T10:20:30Z'),
        end_date: seconds('2030-01-01T00:00:00Z'),
        created: seconds('2020-01-01T01:02:03Z'),
        updated: seconds('2021-01-01T04:05:06Z'),
      };
      return { title, json };
    },
    async filledEntry(user, title) {
      const entry = await buildReadEntry(
        t.orm,
        user,
        { novel: title as Novel },
        { note: 'mine', status: 'completed', chapters: 300, volumes: 21, rereads: 2, score: 8 },
      );
      return {
        reference: entry.reference,
        note: 'mine',
        updated: seconds(entry.updated),
        created: seconds(entry.created),
        status: 'completed',
        chapters: 300,
        volumes: 21,
        rereads: 2,
        score: 8,
      };
    },
    bare: {
      title_ua: null,
      title_en: null,
      image: null,
      year: null,
      start_date: null,
      end_date: null,
      status: null,
    } as Partial<CatalogTitle>,
    bareJson: {
      title_original: null,
      title_ua: null,
      title_en: null,
      media_type: 'light_novel',
      status: null,
      chapters: null,
      volumes: null,
      image: null,
      year: null,
      start_date: null,
      end_date: null,
      native_score: 0,
      native_scored_by: 0,
      translated_ua: false,
      read: [],
    },
  },
];

const validation = (name: string) => ({
  message: `Invalid field ${name} in request query`,
  code: 'system:validation_error',
});
const notFound = { message: 'Person not found', code: 'person:not_found' };
const notFoundUk = { message: 'Людину не знайдено', code: 'person:not_found' };
const denied = { message: "You don't have permission for this action", code: 'permission:denied' };
const deletedUser = { message: 'Deleted', code: 'user:deleted' };

describe.each(CASES)('GET /people/{slug}/$kind ($rootField)', (c) => {
  const route = restRoutes.find((r) => r.path === `/people/{slug}/${c.kind}` && r.method === 'GET')!;
  /** The route's document with a root `__typename`: never compiled, so the resolvers run. */
  const executedDocument = route.document.replace('{', '{ __typename ');

  const PAGE: Shape = {
    pagination: { object: PAGINATION },
    list: {
      arrayOf: {
        roles: { arrayOf: { name_en: 'string', name_ua: 'string' } },
        [c.kind]: { object: c.summary },
      },
    },
  };

  const getTitles = (slug: string, query = '', options: CallOptions = {}) =>
    rest(t.app, 'GET', `/people/${slug}/${c.kind}${query}`, undefined, options);

  const titleIn = (item: Json) => item[c.kind] as Json & { slug: string };
  const entriesIn = (item: Json) => titleIn(item)[c.entries] as Json[];
  const slugsOf = (body: { list: Json[] }) => body.list.map((item) => titleIn(item).slug);
  /** The entries of the first item of a response body. */
  const firstEntries = (body: { list: Json[] }) => entriesIn(body.list[0]);

  /** `count` titles credited to `person` with decreasing scores: slugs `t-00`, `t-01`… */
  async function bibliography(person: Person, count: number): Promise<CatalogTitle[]> {
    const role = await buildRole(t.orm);
    const titles: CatalogTitle[] = [];
    for (let n = 0; n < count; n += 1)
      titles.push(
        await credited(person, c.kind, [role], {
          slug: `t-${String(n).padStart(2, '0')}`,
          score: 9 - n / 10,
        }),
      );
    return titles;
  }

  it(`is an optional-auth paged GET route answering data.${c.rootField}`, () => {
    expect(route).toBeDefined();
    expect(route.auth).toBe('optional');
    expect(route.paged).toBe(true);
    expect(route.rootField).toBe(c.rootField);
  });

  describe('items', () => {
    it(`serves exactly {roles: [{name_en, name_ua}], ${c.kind}: summary with the caller's ${c.entries}}`, async () => {
      const person = await buildPerson(t.orm, { slug: 'author' });
      const story = await buildRole(t.orm, { slug: 'story', name_en: 'Story', name_ua: 'Сюжет', weight: 20 });
      const art = await buildRole(t.orm, { slug: 'art', name_en: 'Art', name_ua: 'Малюнок', weight: 10 });
      const { title, json } = await c.filled(person, [art, story]);
      const viewer = await buildUser(t.orm);
      const entry = await c.filledEntry(viewer, title);
      await c.entry(await buildUser(t.orm), title, { note: 'theirs', score: 3 });

      const res = await getTitles('author', '', { token: await buildToken(t.orm, viewer) });

      expect(res.status).toBe(200);
      expect(shapeProblems(res.body, PAGE, 'page')).toEqual([]);
      expect(sortedKeys(res.body)).toEqual(['list', 'pagination']);
      expect(res.body.pagination).toEqual({ total: 1, pages: 1, page: 1 });
      const [item] = res.body.list as Json[];
      expect(sortedKeys(item)).toEqual([c.kind, 'roles'].sort());
      expect(sortedKeys(titleIn(item))).toEqual(keysOf(c.summary));
      expect(item).toEqual({
        roles: [
          { name_en: 'Story', name_ua: 'Сюжет' },
          { name_en: 'Art', name_ua: 'Малюнок' },
        ],
        [c.kind]: { ...json, [c.entries]: [entry] },
      });
    });

    it('serves absent values as null, and an anonymous caller [] entries', async () => {
      const person = await buildPerson(t.orm, { slug: 'sparse' });
      await credited(person, c.kind, [await buildRole(t.orm)], { slug: 'bare', ...c.bare });

      const res = await getTitles('sparse');

      expect(res.status).toBe(200);
      const title = titleIn(res.body.list[0]);
      expect(sortedKeys(title)).toEqual(keysOf(c.summary));
      expect(title).toMatchObject({ data_type: c.kind, slug: 'bare', ...c.bareJson });
    });

    it('orders roles by weight desc with null weights last, then by slug; null names stay null', async () => {
      const person = await buildPerson(t.orm, { slug: 'writer' });
      await credited(person, c.kind, [
        await buildRole(t.orm, { slug: 'b-unweighted', name_en: 'B', weight: null }),
        await buildRole(t.orm, { slug: 'z-light', name_en: 'Z', weight: 1 }),
        await buildRole(t.orm, { slug: 'a-unweighted', name_en: 'A', name_ua: null, weight: null }),
        await buildRole(t.orm, { slug: 'y-heavy', name_en: 'Y', weight: 50 }),
        await buildRole(t.orm, { slug: 'c-heavy', name_en: null, weight: 50 }),
      ]);

      const res = await getTitles('writer');

      expect(res.body.list[0].roles).toEqual([
        { name_en: null, name_ua: 'Роль' },
        { name_en: 'Y', name_ua: 'Роль' },
        { name_en: 'Z', name_ua: 'Роль' },
        { name_en: 'A', name_ua: null },
        { name_en: 'B', name_ua: 'Роль' },
      ]);
    });

    it(`serves a credit without roles with roles []`, async () => {
      const person = await buildPerson(t.orm, { slug: 'roleless' });
      await credited(person, c.kind, [], { slug: 'uncredited-role' });
      const res = await getTitles('roleless');
      expect(res.status).toBe(200);
      expect(res.body.list).toHaveLength(1);
      expect(res.body.list[0].roles).toEqual([]);
    });

    it(`lists the person's ${c.kind} credits only: not other kinds, not other people's, not deleted titles`, async () => {
      const person = await buildPerson(t.orm, { slug: 'busy' });
      const role = await buildRole(t.orm);
      await credited(person, c.kind, [role], { slug: 'own' });
      await credited(person, c.kind, [role], { slug: 'gone', deleted: true, score: 10 });
      for (const other of c.others) await credited(person, other, [role], { slug: `a-${other}`, score: 10 });
      await credited(await buildPerson(t.orm), c.kind, [role], { slug: 'theirs', score: 10 });

      const res = await getTitles('busy');

      expect(slugsOf(res.body)).toEqual(['own']);
      expect(res.body.pagination).toEqual({ total: 1, pages: 1, page: 1 });
    });

    it('orders by title score desc, scored_by desc, then reference desc', async () => {
      const person = await buildPerson(t.orm, { slug: 'ordered' });
      const role = await buildRole(t.orm);
      const rows: [string, number, number, number][] = [
        ['low', 6, 900, 9],
        ['tie-1', 8, 50, 1],
        ['top', 9, 10, 2],
        ['tie-7', 8, 50, 7],
        ['more-voters', 8, 60, 3],
        ['tie-4', 8, 50, 4],
      ];
      for (const [slug, score, scored_by, n] of rows)
        await credited(person, c.kind, [role], { slug, score, scored_by, reference: orderedReference(n) });

      const res = await getTitles('ordered');

      expect(slugsOf(res.body)).toEqual(['top', 'more-voters', 'tie-7', 'tie-4', 'tie-1', 'low']);
    });

    it(`holds only the caller's own ${c.entries} entry, and [] anonymously`, async () => {
      const person = await buildPerson(t.orm, { slug: 'lists' });
      const [title] = await bibliography(person, 1);
      const viewer = await buildUser(t.orm);
      await c.entry(await buildUser(t.orm), title, { note: 'theirs' });
      const token = await buildToken(t.orm, viewer);

      expect(firstEntries((await getTitles('lists', '', { token })).body)).toEqual([]);
      await c.entry(viewer, title, { note: 'mine' });
      const mine = await getTitles('lists', '', { token });
      expect(firstEntries(mine.body).map((entry) => entry.note)).toEqual(['mine']);
      expect(firstEntries((await getTitles('lists')).body)).toEqual([]);
    });

    it('reads the token from the auth cookie too', async () => {
      const person = await buildPerson(t.orm, { slug: 'cookie' });
      const [title] = await bibliography(person, 1);
      const viewer = await buildUser(t.orm);
      await c.entry(viewer, title, { note: 'mine' });

      const res = await getTitles('cookie', '', { cookie: await buildToken(t.orm, viewer) });

      expect(res.status).toBe(200);
      expect(firstEntries(res.body).map((entry) => entry.note)).toEqual(['mine']);
    });
  });

  describe('pagination', () => {
    it('serves the requested page with the live total (deleted titles not counted), and [] past the end', async () => {
      const person = await buildPerson(t.orm, { slug: 'prolific' });
      await bibliography(person, 7);
      const role = await buildRole(t.orm);
      for (let n = 0; n < 2; n += 1) await credited(person, c.kind, [role], { deleted: true, score: 9.5 });

      const res = await getTitles('prolific', '?page=2&size=3');
      expect(res.status).toBe(200);
      expect(res.body.pagination).toEqual({ total: 7, pages: 3, page: 2 });
      expect(slugsOf(res.body)).toEqual(['t-03', 't-04', 't-05']);

      const last = await getTitles('prolific', '?page=3&size=3');
      expect(slugsOf(last.body)).toEqual(['t-06']);

      const past = await getTitles('prolific', '?page=4&size=3');
      expect(past.status).toBe(200);
      expect(past.body).toEqual({ pagination: { total: 7, pages: 3, page: 4 }, list: [] });
    });

    it('defaults to page 1 and size 15, and ignores unknown query parameters', async () => {
      const person = await buildPerson(t.orm, { slug: 'many' });
      const titles = await bibliography(person, 16);

      for (const query of ['', '?sort=asc&foo=bar']) {
        const res = await getTitles('many', query);
        expect(res.status).toBe(200);
        expect(res.body.pagination).toEqual({ total: 16, pages: 2, page: 1 });
        expect(slugsOf(res.body)).toEqual(titles.slice(0, 15).map((title) => title.slug));
      }
      const second = await getTitles('many', '?page=2');
      expect(slugsOf(second.body)).toEqual(['t-15']);
    });

    it(`answers total 0 for a person without live ${c.kind} credits`, async () => {
      const person = await buildPerson(t.orm, { slug: 'idle' });
      const role = await buildRole(t.orm);
      await credited(person, c.kind, [role], { deleted: true });
      for (const other of c.others) await credited(person, other, [role]);
      await buildPerson(t.orm, { slug: 'uncredited' });

      for (const slug of ['idle', 'uncredited']) {
        const res = await getTitles(slug);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ pagination: { total: 0, pages: 0, page: 1 }, list: [] });
      }
    });

    it.each([
      ['?page=0', 'page'],
      ['?page=10001', 'page'],
      ['?page=01', 'page'],
      ['?page=', 'page'],
      ['?page=1&page=2', 'page'],
      ['?size=0', 'size'],
      ['?size=101', 'size'],
      ['?size=abc', 'size'],
      ['?size=1.0', 'size'],
      ['?size=%2B1', 'size'],
      ['?page=0&size=0', 'page'],
    ])('%s → 400 Invalid field %s in request query, before the person look-up', async (query, name) => {
      for (const slug of ['nobody', 'known']) {
        if (slug === 'known') await bibliography(await buildPerson(t.orm, { slug }), 1);
        const res = await getTitles(slug, query);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(validation(name));
      }
    });

    it('accepts the bounds page=10000 and size=100', async () => {
      await bibliography(await buildPerson(t.orm, { slug: 'bounds' }), 2);
      const res = await getTitles('bounds', '?page=10000&size=100');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ pagination: { total: 2, pages: 1, page: 10000 }, list: [] });
    });
  });

  describe('look-up', () => {
    it('lower-cases the slug', async () => {
      await bibliography(await buildPerson(t.orm, { slug: 'kentaro-miura' }), 1);
      const res = await getTitles('Kentaro-MIURA');
      expect(res.status).toBe(200);
      expect(slugsOf(res.body)).toEqual(['t-00']);
    });

    it('answers 404 person:not_found for an unknown person or a title slug, in both languages', async () => {
      await credited(await buildPerson(t.orm), c.kind, [await buildRole(t.orm)], { slug: 'a-title' });
      for (const slug of ['unknown', 'a-title']) {
        const res = await getTitles(slug);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(notFound);
      }
      const uk = await getTitles('unknown', '', { language: 'uk' });
      expect(uk.status).toBe(404);
      expect(uk.body).toEqual(notFoundUk);
    });
  });

  describe('authentication and scope', () => {
    it(`answers 403 permission:denied for a third-party token without ${c.scope}`, async () => {
      await bibliography(await buildPerson(t.orm, { slug: 'scoped' }), 1);
      for (const scope of [c.withoutScope, []]) {
        const res = await getTitles('scoped', '', { token: await thirdParty(scope) });
        expect(res.status).toBe(403);
        expect(res.body).toEqual(denied);
      }
    });

    it('looks the person up before checking the scope (404, not 403)', async () => {
      const res = await getTitles('unknown', '', { token: await thirdParty(c.withoutScope) });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
    });

    it('validates the query before checking the scope (400, not 403)', async () => {
      await bibliography(await buildPerson(t.orm, { slug: 'scoped' }), 1);
      const res = await getTitles('scoped', '?size=101', { token: await thirdParty(c.withoutScope) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(validation('size'));
    });

    it(`serves third-party tokens with ${c.scope}, its group or all, with their user's own entries`, async () => {
      const [title] = await bibliography(await buildPerson(t.orm, { slug: 'scoped' }), 1);
      for (const scope of [[c.scope], [c.group], ['all']]) {
        const user = await buildUser(t.orm);
        await c.entry(user, title, { note: `via ${scope[0]}` });
        const token = await buildThirdPartyToken(t.orm, user, scope);
        const res = await getTitles('scoped', '', { token });
        expect(res.status).toBe(200);
        expect(slugsOf(res.body)).toEqual(['t-00']);
        expect(firstEntries(res.body).map((entry) => entry.note)).toEqual([`via ${scope[0]}`]);
      }
    });

    it.each([
      ['an unknown token', false, async () => 'not-a-token'],
      [
        'an expired token',
        false,
        async (user: User) => buildToken(t.orm, user, { expiration: new Date(Date.now() - 60_000) }),
      ],
      ['a banned account’s token', true, async (user: User) => buildToken(t.orm, user)],
    ])('treats %s as anonymous: 200 with [] entries', async (_what, banned, tokenOf) => {
      const [title] = await bibliography(await buildPerson(t.orm, { slug: 'open' }), 1);
      const user = await buildUser(t.orm, { banned });
      await c.entry(user, title, { note: 'hidden' });

      const res = await getTitles('open', '', { token: await tokenOf(user) });

      expect(res.status).toBe(200);
      expect(slugsOf(res.body)).toEqual(['t-00']);
      expect(firstEntries(res.body)).toEqual([]);
    });

    it("answers 400 user:deleted for a deleted account's token, before validation and look-up", async () => {
      await bibliography(await buildPerson(t.orm, { slug: 'open' }), 1);
      const token = await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' }));
      for (const [slug, query] of [
        ['open', ''],
        ['unknown', ''],
        ['open', '?page=0'],
      ]) {
        const res = await getTitles(slug, query, { token });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(deletedUser);
      }
    });
  });

  describe('REST ≡ GraphQL', () => {
    it(`equals data.${c.rootField}, compiled and through the resolvers, anonymously and with tokens`, async () => {
      const person = await buildPerson(t.orm, { slug: 'parity' });
      const story = await buildRole(t.orm, { slug: 'story', name_en: 'Story', name_ua: 'Сюжет', weight: 5 });
      const art = await buildRole(t.orm, { slug: 'art', name_en: 'Art', name_ua: null, weight: null });
      const viewer = await buildUser(t.orm);
      const { title } = await c.filled(person, [story, art]);
      await c.filledEntry(viewer, title);
      for (let n = 1; n <= 3; n += 1) {
        const other = await credited(person, c.kind, n === 2 ? [art] : [story, art], {
          slug: `parity-${n}`,
          title_ua: `Назва ${n}`,
          image: `/titles/${n}.jpg`,
          year: 2000 + n,
          score: 5 + n / 10,
          start_date: new Date('2001-01-01T00:00:00Z'),
          end_date: new Date('2002-01-01T00:00:00Z'),
        });
        await c.entry(viewer, other, { note: `note ${n}`, score: n });
      }
      const token = await buildToken(t.orm, viewer);
      const scoped = await buildThirdPartyToken(t.orm, viewer, [c.scope]);

      for (const [options, query, page] of [
        [{}, '', {}],
        [{ token }, '', {}],
        [{ token }, '?page=2&size=2', { page: 2, size: 2 }],
        [{ token: scoped }, '?size=3', { size: 3 }],
      ] as const) {
        const viaRest = await getTitles('PARITY', query, options);
        expect(viaRest.status).toBe(200);
        expect(viaRest.body.list.length).toBeGreaterThan(0);
        // The fixture keeps some nulls on purpose (both doors must serve them alike): check key sets.
        for (const item of viaRest.body.list as Json[]) {
          expect(sortedKeys(item)).toEqual([c.kind, 'roles'].sort());
          expect(sortedKeys(titleIn(item))).toEqual(keysOf(c.summary));
          expect(entriesIn(item)).toHaveLength('token' in options ? 1 : 0);
        }

        const viaGraphQL = await gql(t.app, route.document, { slug: 'PARITY', ...page }, options);
        expect(viaGraphQL.status).toBe(200);
        expect(viaGraphQL.body.errors).toBeUndefined();
        expect(viaGraphQL.body.data).toEqual({ [c.rootField]: viaRest.body });
        expect(JSON.stringify(viaGraphQL.body.data[c.rootField])).toBe(JSON.stringify(viaRest.body));

        const executed = await gql(t.app, executedDocument, { slug: 'PARITY', ...page }, options);
        expect(executed.body.errors).toBeUndefined();
        expect(executed.body.data).toEqual({ __typename: 'Query', [c.rootField]: viaRest.body });
        expect(JSON.stringify(executed.body.data[c.rootField])).toBe(JSON.stringify(viaRest.body));
      }
    });

    it('reports the same resolver errors (not found in both languages, scope, deleted account), compiled and not', async () => {
      await bibliography(await buildPerson(t.orm, { slug: 'scoped' }), 1);
      const cases: [string, CallOptions, number, Json][] = [
        ['missing', {}, 404, notFound],
        ['missing', { language: 'uk' }, 404, notFoundUk],
        ['scoped', { token: await thirdParty(c.withoutScope) }, 403, denied],
        ['missing', { token: await thirdParty(c.withoutScope) }, 404, notFound],
        [
          'scoped',
          { token: await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' })) },
          400,
          deletedUser,
        ],
      ];
      for (const [slug, options, status, body] of cases) {
        const viaRest = await getTitles(slug, '', options);
        expect(viaRest.status).toBe(status);
        expect(viaRest.body).toEqual(body);
        for (const document of [route.document, executedDocument]) {
          const viaGraphQL = await gql(t.app, document, { slug }, options);
          expect(viaGraphQL.status).toBe(200);
          expect(viaGraphQL.body.errors).toHaveLength(1);
          expect(viaGraphQL.body.errors[0]).toMatchObject({
            message: body.message,
            path: [c.rootField],
            extensions: { code: body.code, http: { status } },
          });
          expect(viaGraphQL.body.data ?? null).toBeNull();
        }
      }
    });

    it.each([
      ['?page=0', { page: 0 }, 'page'],
      ['?size=101', { size: 101 }, 'size'],
      ['?size=abc', { size: 'abc' }, 'size'],
    ])(
      'reports the same validation error for %s (HTTP 400 on both doors)',
      async (query, variables, name) => {
        const viaRest = await getTitles('nobody', query);
        const viaGraphQL = await gql(t.app, route.document, { slug: 'nobody', ...variables });
        expect(viaRest.status).toBe(400);
        expect(viaRest.body).toEqual(validation(name));
        expect(viaGraphQL.status).toBe(400);
        expect(viaGraphQL.body.errors).toHaveLength(1);
        expect(viaGraphQL.body.errors[0]).toMatchObject({
          message: viaRest.body.message,
          extensions: { code: viaRest.body.code },
        });
      },
    );
  });

  describe('bounded SQL', () => {
    it('sends as many statements for size=100 as for size=1, anonymously and with a token', async () => {
      const person = await buildPerson(t.orm, { slug: 'crowded' });
      const roles = [await buildRole(t.orm), await buildRole(t.orm), await buildRole(t.orm)];
      const viewer = await buildUser(t.orm);
      for (let n = 0; n < 30; n += 1) {
        const title = await credited(person, c.kind, roles);
        await c.entry(viewer, title);
        await c.entry(await buildUser(t.orm), title);
      }
      await credited(person, c.kind, roles, { deleted: true });
      const token = await buildToken(t.orm, viewer);
      await getTitles('crowded', '', { token }); // the token's first use writes once

      for (const options of [{}, { token }]) {
        const one = await t.queries.count(async () => {
          const res = await getTitles('crowded', '?size=1', options);
          expect(res.body.list).toHaveLength(1);
        });
        const hundred = await t.queries.count(async () => {
          const res = await getTitles('crowded', '?size=100', options);
          expect(res.body.list).toHaveLength(30);
          expect(res.body.list[0].roles).toHaveLength(3);
          expect(firstEntries(res.body)).toHaveLength('token' in options ? 1 : 0);
        });
        expect(one).toBeGreaterThan(0);
        expect(hundred).toBe(one);
      }
    });

    it('sends as many statements through the resolvers for 30 titles as for 1', async () => {
      const viewer = await buildUser(t.orm);
      const token = await buildToken(t.orm, viewer);
      const role = await buildRole(t.orm);
      const small = await buildPerson(t.orm, { slug: 'small' });
      const large = await buildPerson(t.orm, { slug: 'large' });
      await c.entry(viewer, await credited(small, c.kind, [role, await buildRole(t.orm)]));
      for (let n = 0; n < 30; n += 1)
        await c.entry(viewer, await credited(large, c.kind, [role, await buildRole(t.orm)]));
      await getTitles('small', '', { token }); // the token's first use writes once

      const counts: number[] = [];
      for (const slug of ['small', 'large'])
        counts.push(
          await t.queries.count(async () => {
            const res = await gql(t.app, executedDocument, { slug, size: 100 }, { token });
            expect(res.body.errors).toBeUndefined();
            expect(res.body.data[c.rootField].list).toHaveLength(slug === 'small' ? 1 : 30);
          }),
        );
      expect(counts[0]).toBeGreaterThan(0);
      expect(counts[1]).toBe(counts[0]);
    });
  });
});
