import type { Manga } from '../../src/catalog/manga.entity';
import type { Person } from '../../src/people/person.entity';
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
  orderedReference,
} from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import {
  keysOf,
  PAGINATION,
  READABLE_SUMMARY_WITH_READ,
  shapeProblems,
  type Shape,
} from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { type Json, sortedKeys } from '../setup/json';

/** #7 GET /people/{slug}/manga: paged `{roles, manga}` items, optional authentication, scope read:readlist. */
const t = useTestApp();

interface PageBody {
  pagination: { total: number; pages: number; page: number };
  list: { roles: Json[]; manga: Json & { slug: string; read: Json[] } }[];
}

const PERSON_MANGA_PAGE: Shape = {
  pagination: { object: PAGINATION },
  list: {
    arrayOf: {
      roles: { arrayOf: { name_en: 'string', name_ua: 'string' } },
      manga: { object: READABLE_SUMMARY_WITH_READ },
    },
  },
};

const route = restRoutes.find((r) => r.contract === 7)!;

const getManga = (slug: string, query = '', options: CallOptions = {}) =>
  rest(t.app, 'GET', `/people/${slug}/manga${query}`, undefined, options);

const slugsOf = (body: PageBody) => body.list.map((item) => item.manga.slug);

/** `count` manga authored by `person` with decreasing scores: slugs `m-00`, `m-01`… */
async function bibliography(person: Person, count: number): Promise<Manga[]> {
  const role = await buildRole(t.orm);
  const manga: Manga[] = [];
  for (let n = 0; n < count; n += 1) {
    const title = await buildManga(t.orm, { slug: `m-${String(n).padStart(2, '0')}`, score: 9 - n / 10 });
    await buildCredit(t.orm, person, { manga: title }, [role]);
    manga.push(title);
  }
  return manga;
}

/** A third-party token of a fresh user holding `scope`. */
const thirdParty = async (scope: string[]) => buildThirdPartyToken(t.orm, await buildUser(t.orm), scope);

describe('GET /people/{slug}/manga (#7)', () => {
  describe('items', () => {
    it('serves {roles: [{name_en, name_ua}], manga: Manga summary with read}', async () => {
      const person = await buildPerson(t.orm, { slug: 'oda' });
      const manga = await buildManga(t.orm, {
        slug: 'one-piece',
        title_original: 'ワンピース',
        title_ua: 'Ван Піс',
        title_en: 'One Piece',
        media_type: 'manga',
        status: 'ongoing',
        chapters: 1100,
        volumes: 107,
        translated_ua: true,
        score: 9.2,
        scored_by: 10000,
        native_scored_by: 11,
        native_score_total: 99,
        image: '/manga/op.jpg',
        year: 1997,
        start_date: new Date('1997-07-22T00:00:00Z'),
        end_date: new Date('2030-01-01T00:00:00Z'),
        created: new Date('2020-01-01T00:00:00Z'),
        updated: new Date('2021-01-01T00:00:00Z'),
      });
      const story = await buildRole(t.orm, { slug: 'story', name_en: 'Story', name_ua: 'Сюжет', weight: 20 });
      const art = await buildRole(t.orm, { slug: 'art', name_en: 'Art', name_ua: 'Малюнок', weight: 10 });
      await buildCredit(t.orm, person, { manga }, [art, story]);
      const viewer = await buildUser(t.orm);
      await buildReadEntry(t.orm, viewer, { manga }, { note: 'mine', chapters: 3, score: 9 });

      const res = await getManga('oda', '', { token: await buildToken(t.orm, viewer) });

      expect(res.status).toBe(200);
      expect(shapeProblems(res.body, PERSON_MANGA_PAGE, 'page')).toEqual([]);
      const [item] = (res.body as PageBody).list;
      expect(sortedKeys(item)).toEqual(['manga', 'roles']);
      expect(item.roles).toEqual([
        { name_en: 'Story', name_ua: 'Сюжет' },
        { name_en: 'Art', name_ua: 'Малюнок' },
      ]);
      expect(sortedKeys(item.manga)).toEqual(keysOf(READABLE_SUMMARY_WITH_READ));
      expect(item.manga).toMatchObject({
        data_type: 'manga',
        slug: 'one-piece',
        chapters: 1100,
        image: 'https://cdn.test/manga/op.jpg',
      });
      expect(item.manga.read.map((entry) => entry.note)).toEqual(['mine']);
    });

    it('orders roles by weight desc with null weights last, then by slug; null names stay null', async () => {
      const person = await buildPerson(t.orm, { slug: 'writer' });
      const manga = await buildManga(t.orm);
      const roles = [
        await buildRole(t.orm, { slug: 'b-unweighted', name_en: 'B', weight: null }),
        await buildRole(t.orm, { slug: 'z-light', name_en: 'Z', weight: 1 }),
        await buildRole(t.orm, { slug: 'a-unweighted', name_en: 'A', name_ua: null, weight: null }),
        await buildRole(t.orm, { slug: 'y-heavy', name_en: 'Y', weight: 50 }),
        await buildRole(t.orm, { slug: 'c-heavy', name_en: 'C', weight: 50 }),
      ];
      await buildCredit(t.orm, person, { manga }, roles);

      const res = await getManga('writer');

      expect((res.body as PageBody).list[0].roles).toEqual([
        { name_en: 'C', name_ua: 'Роль' },
        { name_en: 'Y', name_ua: 'Роль' },
        { name_en: 'Z', name_ua: 'Роль' },
        { name_en: 'A', name_ua: null },
        { name_en: 'B', name_ua: 'Роль' },
      ]);
    });

    it("lists the person's manga only: not anime or novel credits, not other people's manga, not deleted manga", async () => {
      const person = await buildPerson(t.orm, { slug: 'busy' });
      const role = await buildRole(t.orm);
      await buildCredit(t.orm, person, { manga: await buildManga(t.orm, { slug: 'own' }) }, [role]);
      await buildCredit(t.orm, person, { manga: await buildManga(t.orm, { slug: 'gone', deleted: true }) }, [
        role,
      ]);
      await buildCredit(t.orm, person, { anime: await buildAnime(t.orm, { slug: 'anime' }) }, [role]);
      await buildCredit(t.orm, person, { novel: await buildNovel(t.orm, { slug: 'novel' }) }, [role]);
      const other = await buildPerson(t.orm);
      await buildCredit(t.orm, other, { manga: await buildManga(t.orm, { slug: 'theirs' }) }, [role]);

      const res = await getManga('busy');

      expect(slugsOf(res.body)).toEqual(['own']);
      expect(res.body.pagination).toEqual({ total: 1, pages: 1, page: 1 });
    });

    it('orders by manga score desc, scored_by desc, reference desc', async () => {
      const person = await buildPerson(t.orm, { slug: 'ordered' });
      const role = await buildRole(t.orm);
      const rows: [string, number, number, number][] = [
        ['low', 6, 900, 9],
        ['tie-1', 8, 50, 1],
        ['top', 9, 10, 2],
        ['tie-7', 8, 50, 7],
        ['more-voters', 8, 60, 3],
      ];
      for (const [slug, score, scored_by, n] of rows)
        await buildCredit(
          t.orm,
          person,
          { manga: await buildManga(t.orm, { slug, score, scored_by, reference: orderedReference(n) }) },
          [role],
        );

      const res = await getManga('ordered');

      expect(slugsOf(res.body)).toEqual(['top', 'more-voters', 'tie-7', 'tie-1', 'low']);
    });

    it("holds only the caller's own read entry, and [] anonymously", async () => {
      const person = await buildPerson(t.orm, { slug: 'read' });
      const [manga] = await bibliography(person, 1);
      const viewer = await buildUser(t.orm);
      await buildReadEntry(t.orm, await buildUser(t.orm), { manga }, { note: 'theirs' });
      const token = await buildToken(t.orm, viewer);

      expect((await getManga('read', '', { token })).body.list[0].manga.read).toEqual([]);
      await buildReadEntry(t.orm, viewer, { manga }, { note: 'mine' });
      const mine = await getManga('read', '', { token });
      expect(mine.body.list[0].manga.read.map((e: Json) => e.note)).toEqual(['mine']);
      expect((await getManga('read')).body.list[0].manga.read).toEqual([]);
    });
  });

  describe('pagination', () => {
    it('serves the requested page with the live total, and [] past the end', async () => {
      const person = await buildPerson(t.orm, { slug: 'prolific' });
      await bibliography(person, 7);

      const res = await getManga('prolific', '?page=2&size=3');
      expect(res.body.pagination).toEqual({ total: 7, pages: 3, page: 2 });
      expect(slugsOf(res.body)).toEqual(['m-03', 'm-04', 'm-05']);

      const past = await getManga('prolific', '?page=4&size=3');
      expect(past.body).toEqual({ pagination: { total: 7, pages: 3, page: 4 }, list: [] });
    });

    it('defaults to page 1 and size 15, and answers total 0 for a person without manga', async () => {
      const person = await buildPerson(t.orm, { slug: 'many' });
      await bibliography(person, 16);
      const res = await getManga('many');
      expect(res.body.pagination).toEqual({ total: 16, pages: 2, page: 1 });
      expect(res.body.list).toHaveLength(15);

      await buildPerson(t.orm, { slug: 'idle' });
      const idle = await getManga('idle');
      expect(idle.body).toEqual({ pagination: { total: 0, pages: 0, page: 1 }, list: [] });
    });

    it.each([
      ['?page=0', 'page'],
      ['?size=101', 'size'],
      ['?size=abc', 'size'],
    ])('%s → 400 Invalid field %s in request query, before the person look-up', async (query, name) => {
      const res = await getManga('nobody', query);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: `Invalid field ${name} in request query`,
        code: 'system:validation_error',
      });
    });
  });

  describe('look-up', () => {
    it('lower-cases the slug', async () => {
      const person = await buildPerson(t.orm, { slug: 'kentaro-miura' });
      await bibliography(person, 1);
      const res = await getManga('Kentaro-MIURA');
      expect(res.status).toBe(200);
      expect(slugsOf(res.body)).toEqual(['m-00']);
    });

    it('answers 404 person:not_found for an unknown person, in both languages', async () => {
      await buildManga(t.orm, { slug: 'a-manga' });
      for (const slug of ['unknown', 'a-manga']) {
        const res = await getManga(slug);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: 'Person not found', code: 'person:not_found' });
      }
      const uk = await getManga('unknown', '', { language: 'uk' });
      expect(uk.body).toEqual({ message: 'Людину не знайдено', code: 'person:not_found' });
    });
  });

  describe('authentication and scope', () => {
    it('answers 403 permission:denied for a third-party token without read:readlist', async () => {
      await bibliography(await buildPerson(t.orm, { slug: 'scoped' }), 1);
      const res = await getManga('scoped', '', { token: await thirdParty(['read:watchlist']) });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        message: "You don't have permission for this action",
        code: 'permission:denied',
      });
    });

    it('looks the person up before checking the scope (404, not 403)', async () => {
      const res = await getManga('unknown', '', { token: await thirdParty(['read:watchlist']) });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('person:not_found');
    });

    it('serves third-party tokens with read:readlist or its group', async () => {
      await bibliography(await buildPerson(t.orm, { slug: 'scoped' }), 1);
      for (const scope of [['read:readlist'], ['readlist']]) {
        const res = await getManga('scoped', '', { token: await thirdParty(scope) });
        expect(res.status).toBe(200);
        expect(slugsOf(res.body)).toEqual(['m-00']);
      }
    });

    it('treats a bad token as anonymous, and a deleted account as 400 user:deleted', async () => {
      await bibliography(await buildPerson(t.orm, { slug: 'open' }), 1);
      expect((await getManga('open', '', { token: 'garbage' })).status).toBe(200);
      const deleted = await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' }));
      const res = await getManga('open', '', { token: deleted });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'Deleted', code: 'user:deleted' });
    });
  });

  describe('REST ≡ GraphQL', () => {
    it('equals data.personManga anonymously and with a viewer token', async () => {
      const person = await buildPerson(t.orm, { slug: 'parity' });
      const role = await buildRole(t.orm, { slug: 'story', name_en: 'Story', name_ua: 'Сюжет' });
      const viewer = await buildUser(t.orm);
      for (let n = 1; n <= 3; n += 1) {
        const manga = await buildManga(t.orm, {
          slug: `parity-${n}`,
          title_original: `原題 ${n}`,
          title_ua: `Назва ${n}`,
          status: 'finished',
          chapters: 10 * n,
          volumes: n,
          image: `/manga/${n}.jpg`,
          year: 2000 + n,
          start_date: new Date('2001-01-01T00:00:00Z'),
          end_date: new Date('2002-01-01T00:00:00Z'),
        });
        await buildCredit(t.orm, person, { manga }, [role]);
        await buildReadEntry(t.orm, viewer, { manga }, { note: `note ${n}`, score: n });
      }
      const token = await buildToken(t.orm, viewer);

      for (const [options, query, page] of [
        [{}, '', {}],
        [{ token }, '?page=2&size=2', { page: 2, size: 2 }],
      ] as const) {
        const viaRest = await getManga('PARITY', query, options);
        const viaGraphQL = await gql(t.app, route.document, { slug: 'PARITY', ...page }, options);
        expect(viaRest.status).toBe(200);
        expect(viaGraphQL.body.errors).toBeUndefined();
        expect(viaRest.body).toEqual(viaGraphQL.body.data.personManga);
        const allowEmpty = 'token' in options ? [] : ['read'];
        expect(shapeProblems(viaRest.body, PERSON_MANGA_PAGE, 'page', allowEmpty)).toEqual([]);
      }
    });

    it('reports the same not-found error', async () => {
      const viaRest = await getManga('missing', '', { language: 'uk' });
      const viaGraphQL = await gql(t.app, route.document, { slug: 'missing' }, { language: 'uk' });
      expect(viaRest.status).toBe(404);
      expect(viaGraphQL.body.errors[0]).toMatchObject({
        message: viaRest.body.message,
        extensions: { code: 'person:not_found', http: { status: 404 } },
      });
    });
  });

  describe('bounded SQL', () => {
    it('sends as many statements for size=100 as for size=1, anonymously and with a token', async () => {
      const person = await buildPerson(t.orm, { slug: 'crowded' });
      const roles = [await buildRole(t.orm), await buildRole(t.orm)];
      const viewer = await buildUser(t.orm);
      for (let n = 0; n < 30; n += 1) {
        const manga = await buildManga(t.orm);
        await buildCredit(t.orm, person, { manga }, roles);
        await buildReadEntry(t.orm, viewer, { manga });
      }
      const token = await buildToken(t.orm, viewer);
      await getManga('crowded', '', { token }); // the token's first use writes once

      for (const options of [{}, { token }]) {
        const one = await t.queries.count(async () => {
          const res = await getManga('crowded', '?size=1', options);
          expect(res.body.list).toHaveLength(1);
        });
        const hundred = await t.queries.count(async () => {
          const res = await getManga('crowded', '?size=100', options);
          expect(res.body.list).toHaveLength(30);
        });
        expect(one).toBeGreaterThan(0);
        expect(hundred).toBe(one);
      }
    });
  });
});
