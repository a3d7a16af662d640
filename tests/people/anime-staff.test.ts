import type { RequiredEntityData } from '@mikro-orm/core';
import { AuthToken } from '../../src/accounts/auth-token.entity';
import { User } from '../../src/accounts/user.entity';
import type { Anime } from '../../src/catalog/anime.entity';
import { Credit } from '../../src/people/credit.entity';
import type { Person } from '../../src/people/person.entity';
import { Role } from '../../src/people/role.entity';
import { restRoutes } from '../../src/routes';
import {
  buildAnime,
  buildCharacter,
  buildCredit,
  buildManga,
  buildNovel,
  buildPerson,
  buildRole,
  buildToken,
  buildUser,
  orderedReference,
} from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { keysOf, PAGINATION, PERSON, shapeProblems, type Shape } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { INVALID_PAGING_QUERIES } from '../setup/paging';
import { tokensToIgnore } from '../setup/ignored-tokens';
import { type Json, sortedKeys } from '../setup/json';

/** GET /anime/{slug}/staff (pages.md, Anime page): paged StaffEntry items, auth none. */
const t = useTestApp();

const route = restRoutes.find((r) => r.path === '/anime/{slug}/staff' && r.method === 'GET')!;

/** The route's document with a root `__typename`: never compiled, so the resolvers run. */
const executedDocument = route.document.replace('{', '{ __typename ');

interface StaffItem {
  person: Json & { slug: string };
  roles: { name_ua: string | null; name_en: string | null; slug: string; weight: number | null }[];
  weight: number | null;
}

interface PageBody {
  pagination: { total: number; pages: number; page: number };
  list: StaffItem[];
}

const ROLE: Shape = { name_ua: 'string', name_en: 'string', slug: 'string', weight: 'integer' };

const STAFF_PAGE: Shape = {
  pagination: { object: PAGINATION },
  list: { arrayOf: { person: { object: PERSON }, roles: { arrayOf: ROLE }, weight: 'integer' } },
};

const getStaff = (slug: string, query = '', options: CallOptions = {}) =>
  rest(t.app, 'GET', `/anime/${slug}/staff${query}`, undefined, options);

const slugsOf = (body: PageBody) => body.list.map((item) => item.person.slug);

const notFound = { message: 'Anime not found', code: 'anime:not_found' };
const notFoundUk = { message: 'Аніме не знайдено', code: 'anime:not_found' };

const validationMessage = (name: string) => ({
  message: `Invalid field ${name} in request query`,
  code: 'system:validation_error',
});

/** A credit of `person` on `anime` with `roles`, its reference `orderedReference(n)` when `n` is given. */
async function staffCredit(person: Person, anime: Anime, roles: Role[], n?: number): Promise<void> {
  const em = t.orm.em.fork();
  const credit = em.create(Credit, {
    person: person.reference,
    anime: anime.reference,
    ...(n === undefined ? {} : { reference: orderedReference(n) }),
  } as unknown as RequiredEntityData<Credit>);
  roles.forEach((role) => credit.roles.add(em.getReference(Role, role.reference)));
  await em.flush();
}

/** `count` people on `anime`'s staff, slugs `s-00`, `s-01`…, each with one role of weight 100 - n. */
async function staffOf(anime: Anime, count: number): Promise<void> {
  for (let n = 0; n < count; n += 1) {
    const person = await buildPerson(t.orm, { slug: `s-${String(n).padStart(2, '0')}` });
    await buildCredit(t.orm, person, { anime }, [await buildRole(t.orm, { weight: 100 - n })]);
  }
}

/**
 * The page through REST, through compiled GraphQL and through the resolvers: asserts all
 * three are the same JSON (key order included) and returns the REST body.
 */
async function everyDoor(slug: string, page: { page?: number; size?: number } = {}): Promise<PageBody> {
  const query = Object.entries(page)
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const viaRest = await getStaff(slug, query ? `?${query}` : '');
  expect(viaRest.status).toBe(200);
  const compiled = await gql(t.app, route.document, { slug, ...page });
  expect(compiled.status).toBe(200);
  expect(compiled.body.errors).toBeUndefined();
  expect(compiled.body.data).toEqual({ animeStaff: viaRest.body });
  expect(JSON.stringify(compiled.body.data.animeStaff)).toBe(JSON.stringify(viaRest.body));
  const executed = await gql(t.app, executedDocument, { slug, ...page });
  expect(executed.status).toBe(200);
  expect(executed.body.errors).toBeUndefined();
  expect(executed.body.data).toEqual({ __typename: 'Query', animeStaff: viaRest.body });
  expect(JSON.stringify(executed.body.data.animeStaff)).toBe(JSON.stringify(viaRest.body));
  return viaRest.body as PageBody;
}

describe('GET /anime/{slug}/staff', () => {
  describe('items', () => {
    it('serves {person: Person, roles: [Role], weight} with exactly the contract fields', async () => {
      const anime = await buildAnime(t.orm, { slug: 'frieren' });
      const saito = await buildPerson(t.orm, {
        slug: 'keiichiro-saito',
        name_native: '斎藤圭一郎',
        name_ua: 'Кеїтіро Сайто',
        name_en: 'Keiichiro Saito',
        image: '/people/saito.jpg',
        description_ua: 'Японський режисер аніме.',
        synonyms: ['Saito', 'さいとう'],
      });
      const director = await buildRole(t.orm, {
        slug: 'director',
        name_en: 'Director',
        name_ua: 'Режисер',
        weight: 100,
      });
      const storyboard = await buildRole(t.orm, {
        slug: 'storyboard',
        name_en: 'Storyboard',
        name_ua: 'Розкадровка',
        weight: 40,
      });
      await buildCredit(t.orm, saito, { anime }, [storyboard, director]);
      const bare = await buildPerson(t.orm, {
        slug: 'bare',
        name_native: null,
        name_ua: null,
        name_en: null,
        image: 'https://img.example/b.png',
        description_ua: null,
        synonyms: [],
      });
      const keyAnimation = await buildRole(t.orm, {
        slug: 'key-animation',
        name_en: 'Key Animation',
        name_ua: null,
        weight: null,
      });
      const inBetween = await buildRole(t.orm, {
        slug: 'in-between',
        name_en: null,
        name_ua: 'Фазування',
        weight: 0,
      });
      await buildCredit(t.orm, bare, { anime }, [keyAnimation, inBetween]);

      const res = await getStaff('frieren');

      expect(res.status).toBe(200);
      expect(sortedKeys(res.body)).toEqual(['list', 'pagination']);
      expect(res.body).toEqual({
        pagination: { total: 2, pages: 1, page: 1 },
        list: [
          {
            person: {
              data_type: 'person',
              name_native: '斎藤圭一郎',
              name_ua: 'Кеїтіро Сайто',
              name_en: 'Keiichiro Saito',
              image: 'https://cdn.test/people/saito.jpg',
              slug: 'keiichiro-saito',
              description_ua: 'Японський режисер аніме.',
              synonyms: ['Saito', 'さいとう'],
            },
            roles: [
              { name_ua: 'Режисер', name_en: 'Director', slug: 'director', weight: 100 },
              { name_ua: 'Розкадровка', name_en: 'Storyboard', slug: 'storyboard', weight: 40 },
            ],
            weight: 140,
          },
          {
            person: {
              data_type: 'person',
              name_native: null,
              name_ua: null,
              name_en: null,
              image: 'https://img.example/b.png',
              slug: 'bare',
              description_ua: null,
              synonyms: [],
            },
            roles: [
              { name_ua: 'Фазування', name_en: null, slug: 'in-between', weight: 0 },
              { name_ua: null, name_en: 'Key Animation', slug: 'key-animation', weight: null },
            ],
            weight: 0,
          },
        ],
      });
      const body = res.body as PageBody;
      for (const item of body.list) {
        expect(sortedKeys(item)).toEqual(['person', 'roles', 'weight']);
        expect(sortedKeys(item.person)).toEqual(keysOf(PERSON));
        for (const role of item.roles) expect(sortedKeys(role)).toEqual(keysOf(ROLE));
      }
      // The fully filled entry has every contract field with its JSON type.
      expect(shapeProblems({ ...body, list: [body.list[0]] }, STAFF_PAGE, 'page')).toEqual([]);
    });

    it('orders an entry’s roles by weight desc with null weights last, then by slug', async () => {
      const anime = await buildAnime(t.orm, { slug: 'roles' });
      const person = await buildPerson(t.orm, { slug: 'many-hats' });
      const roles = [
        await buildRole(t.orm, { slug: 'b-unweighted', weight: null }),
        await buildRole(t.orm, { slug: 'z-light', weight: 1 }),
        await buildRole(t.orm, { slug: 'a-unweighted', weight: null }),
        await buildRole(t.orm, { slug: 'y-heavy', weight: 50 }),
        await buildRole(t.orm, { slug: 'm-zero', weight: 0 }),
        await buildRole(t.orm, { slug: 'c-heavy', weight: 50 }),
      ];
      await buildCredit(t.orm, person, { anime }, roles);

      const body = await everyDoor('roles');

      expect(body.list).toHaveLength(1);
      expect(body.list[0].roles.map((role) => [role.slug, role.weight])).toEqual([
        ['c-heavy', 50],
        ['y-heavy', 50],
        ['z-light', 1],
        ['m-zero', 0],
        ['a-unweighted', null],
        ['b-unweighted', null],
      ]);
      expect(body.list[0].weight).toBe(101);
    });

    it('weighs an entry as the sum of its roles’ non-null weights, 0-weight roles as 0, null when no role has a weight', async () => {
      const anime = await buildAnime(t.orm, { slug: 'weights' });
      const weighted: [string, (number | null)[]][] = [
        ['summed', [7, 5]],
        ['null-skipped', [7, 5, null]],
        ['single', [3]],
        ['zero', [0]],
        ['zero-and-null', [0, null]],
        ['zeros', [0, 0]],
        ['all-null', [null, null]],
        ['one-null', [null]],
        ['no-roles', []],
      ];
      for (const [slug, weights] of weighted) {
        const roles = [];
        for (const weight of weights) roles.push(await buildRole(t.orm, { weight }));
        await buildCredit(t.orm, await buildPerson(t.orm, { slug }), { anime }, roles);
      }

      const body = await everyDoor('weights');

      const weightOf = Object.fromEntries(body.list.map((item) => [item.person.slug, item.weight]));
      expect(weightOf).toEqual({
        summed: 12,
        'null-skipped': 12,
        single: 3,
        zero: 0,
        'zero-and-null': 0,
        zeros: 0,
        'all-null': null,
        'one-null': null,
        'no-roles': null,
      });
      const noRoles = body.list.find((item) => item.person.slug === 'no-roles')!;
      expect(noRoles.roles).toEqual([]);
      expect(body.pagination).toEqual({ total: 9, pages: 1, page: 1 });
    });

    it('lists only this anime’s credits and their roles: not manga or novel credits, not other anime', async () => {
      const anime = await buildAnime(t.orm, { slug: 'mine' });
      const direction = await buildRole(t.orm, { slug: 'direction', weight: 5 });
      const story = await buildRole(t.orm, { slug: 'story', weight: 90 });
      const own = await buildPerson(t.orm, { slug: 'own' });
      await buildCredit(t.orm, own, { anime }, [direction]);
      // The same person's credits elsewhere lend neither roles nor weight to this entry.
      await buildCredit(t.orm, own, { manga: await buildManga(t.orm, { slug: 'mine' }) }, [story]);
      await buildCredit(t.orm, own, { novel: await buildNovel(t.orm, { slug: 'mine' }) }, [story]);
      await buildCredit(t.orm, own, { anime: await buildAnime(t.orm, { slug: 'sequel' }) }, [story]);
      await buildCredit(
        t.orm,
        await buildPerson(t.orm, { slug: 'other-anime' }),
        { anime: await buildAnime(t.orm) },
        [story],
      );
      await buildCredit(
        t.orm,
        await buildPerson(t.orm, { slug: 'manga-author' }),
        { manga: await buildManga(t.orm) },
        [story],
      );
      await buildCredit(
        t.orm,
        await buildPerson(t.orm, { slug: 'novel-author' }),
        { novel: await buildNovel(t.orm) },
        [story],
      );

      const body = await everyDoor('mine');

      expect(slugsOf(body)).toEqual(['own']);
      expect(body.list[0].roles.map((role) => role.slug)).toEqual(['direction']);
      expect(body.list[0].weight).toBe(5);
      expect(body.pagination).toEqual({ total: 1, pages: 1, page: 1 });
    });
  });

  describe('order', () => {
    // The test databases default to C.UTF-8, where an ORDER BY without `collate "C"` would
    // pass too: give the column a linguistic collation, as a system PostgreSQL may have.
    const setNameCollation = (collation: string) =>
      t.orm.em
        .getConnection()
        .execute(`alter table "person" alter column "name_en" type text collate ${collation}`);
    beforeAll(() => setNameCollation('"en-x-icu"'));
    afterAll(() => setNameCollation('"default"'));

    it('orders by weight desc (nulls last), then person name_en asc in C collation (nulls last), then credit reference', async () => {
      const anime = await buildAnime(t.orm, { slug: 'ordered' });
      const weight = (w: number | null) => buildRole(t.orm, { weight: w });
      // [person slug, name_en, role weights, credit reference n], built in an order that
      // matches none of the expected orderings.
      const staff: [string, string | null, (number | null)[], number][] = [
        ['same-late', 'Same', [15], 9],
        ['unweighted-nameless-late', null, [null, null], 13],
        ['heavy-lower', 'bob', [30], 5],
        ['zero', 'Aaron', [0], 7],
        ['mid-nameless', null, [15], 1],
        ['single-25', 'Aa', [25], 14],
        ['unweighted', 'Adam', [null], 10],
        ['mid-lower', 'alpha', [15], 3],
        ['heavy-upper', 'Zed', [20, 10], 6],
        ['no-roles', 'Aaa', [], 12],
        ['zero-and-null', 'Abe', [0, null], 8],
        ['mid-upper', 'Alpha', [10, 5], 4],
        ['unweighted-nameless-early', null, [null], 11],
        ['same-early', 'Same', [15], 2],
      ];
      for (const [slug, name_en, weights, n] of staff) {
        const roles = [];
        for (const w of weights) roles.push(await weight(w));
        await staffCredit(await buildPerson(t.orm, { slug, name_en }), anime, roles, n);
      }

      const body = await everyDoor('ordered');

      expect(body.list.map((item) => [item.person.slug, item.weight])).toEqual([
        // 30: the sum of the roles, not the heaviest role; 'Zed' < 'bob' in C collation.
        ['heavy-upper', 30],
        ['heavy-lower', 30],
        ['single-25', 25],
        // 15: upper case before lower case, a tie on the name by credit reference, no name last.
        ['mid-upper', 15],
        ['same-early', 15],
        ['same-late', 15],
        ['mid-lower', 15],
        ['mid-nameless', 15],
        // 0 is a weight: before the entries without one.
        ['zero', 0],
        ['zero-and-null', 0],
        ['no-roles', null],
        ['unweighted', null],
        ['unweighted-nameless-early', null],
        ['unweighted-nameless-late', null],
      ]);
    });

    it('keeps the order across pages', async () => {
      const anime = await buildAnime(t.orm, { slug: 'paged-order' });
      const role = await buildRole(t.orm, { weight: 10 });
      const names: [string, string | null, number][] = [
        ['c', 'Same', 3],
        ['a', 'Same', 1],
        ['n', null, 2],
        ['u', 'Upper', 5],
        ['l', 'lower', 4],
      ];
      for (const [slug, name_en, n] of names)
        await staffCredit(await buildPerson(t.orm, { slug, name_en }), anime, [role], n);

      const pages = [];
      for (const page of [1, 2, 3]) pages.push(...slugsOf(await everyDoor('paged-order', { page, size: 2 })));

      expect(pages).toEqual(['a', 'c', 'u', 'l', 'n']);
    });
  });

  describe('pagination', () => {
    it('defaults to page 1 and size 15', async () => {
      const anime = await buildAnime(t.orm, { slug: 'big-staff' });
      await staffOf(anime, 17);

      const res = await getStaff('big-staff');

      expect(res.status).toBe(200);
      expect(res.body.pagination).toEqual({ total: 17, pages: 2, page: 1 });
      expect(slugsOf(res.body)).toEqual(
        Array.from({ length: 15 }, (_, n) => `s-${String(n).padStart(2, '0')}`),
      );
    });

    it('serves items (page-1)*size+1 .. page*size with total, pages = ceil(total/size) and the page echoed', async () => {
      const anime = await buildAnime(t.orm, { slug: 'paged' });
      await staffOf(anime, 7);

      const res = await getStaff('paged', '?page=2&size=3');
      expect(res.status).toBe(200);
      expect(res.body.pagination).toEqual({ total: 7, pages: 3, page: 2 });
      expect(slugsOf(res.body)).toEqual(['s-03', 's-04', 's-05']);

      const last = await getStaff('paged', '?page=3&size=3');
      expect(last.body.pagination).toEqual({ total: 7, pages: 3, page: 3 });
      expect(slugsOf(last.body)).toEqual(['s-06']);
    });

    it('answers a page past the end with list [] and the same total and pages', async () => {
      const anime = await buildAnime(t.orm, { slug: 'short' });
      await staffOf(anime, 7);

      const res = await getStaff('short', '?page=4&size=3');

      expect(res.status).toBe(200);
      expect(res.body).toEqual({ pagination: { total: 7, pages: 3, page: 4 }, list: [] });
    });

    it('counts only this anime’s credits in the total', async () => {
      const anime = await buildAnime(t.orm, { slug: 'counted' });
      await staffOf(anime, 4);
      const role = await buildRole(t.orm);
      const other = await buildPerson(t.orm);
      await buildCredit(t.orm, other, { anime: await buildAnime(t.orm) }, [role]);
      await buildCredit(t.orm, other, { manga: await buildManga(t.orm) }, [role]);
      await buildCredit(t.orm, other, { novel: await buildNovel(t.orm) }, [role]);

      const res = await getStaff('counted', '?size=3');

      expect(res.body.pagination).toEqual({ total: 4, pages: 2, page: 1 });
    });

    it('answers total 0 and pages 0 for an anime without staff', async () => {
      await buildAnime(t.orm, { slug: 'empty' });
      await buildCredit(t.orm, await buildPerson(t.orm), { anime: await buildAnime(t.orm) }, [
        await buildRole(t.orm),
      ]);
      const res = await getStaff('empty');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ pagination: { total: 0, pages: 0, page: 1 }, list: [] });
    });

    it('accepts the bounds page=10000 and size=100', async () => {
      const anime = await buildAnime(t.orm, { slug: 'bounds' });
      await staffOf(anime, 2);

      const far = await getStaff('bounds', '?page=10000');
      expect(far.status).toBe(200);
      expect(far.body).toEqual({ pagination: { total: 2, pages: 1, page: 10000 }, list: [] });

      const wide = await getStaff('bounds', '?size=100&page=1');
      expect(wide.status).toBe(200);
      expect(wide.body.pagination).toEqual({ total: 2, pages: 1, page: 1 });
      expect(slugsOf(wide.body)).toEqual(['s-00', 's-01']);
    });

    it('ignores unknown query parameters', async () => {
      const anime = await buildAnime(t.orm, { slug: 'tolerant' });
      await staffOf(anime, 2);
      const res = await getStaff('tolerant', '?foo=bar&sort=weight:asc&limit=0');
      expect(res.status).toBe(200);
      expect(slugsOf(res.body)).toEqual(['s-00', 's-01']);
    });
  });

  describe('validation', () => {
    beforeEach(() => buildAnime(t.orm, { slug: 'validated' }));

    it.each(INVALID_PAGING_QUERIES)('%s → 400 Invalid field %s in request query', async (query, name) => {
      const res = await getStaff('validated', `?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(validationMessage(name));
    });

    it('answers the Ukrainian validation message when Accept-Language prefers uk', async () => {
      const res = await getStaff('validated', '?size=101', { language: 'uk-UA,uk;q=0.9' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: 'Некоректне поле size у запиті query',
        code: 'system:validation_error',
      });
    });

    it.each([['page=0'], ['size=101'], ['size=abc']])(
      'checks %s before the anime look-up (validation precedes existence)',
      async (query) => {
        await buildAnime(t.orm, { slug: 'deleted', deleted: true });
        for (const slug of ['no-such-anime', 'deleted']) {
          const res = await getStaff(slug, `?${query}`);
          expect(res.status).toBe(400);
          expect(res.body.code).toBe('system:validation_error');
        }
      },
    );
  });

  describe('look-up', () => {
    it('lower-cases the slug', async () => {
      const anime = await buildAnime(t.orm, { slug: 'sousou-no-frieren' });
      await staffOf(anime, 1);
      const res = await getStaff('Sousou-No-FRIEREN');
      expect(res.status).toBe(200);
      expect(slugsOf(res.body)).toEqual(['s-00']);
    });

    it('answers 404 anime:not_found "Anime not found" for a deleted anime, even with staff', async () => {
      const anime = await buildAnime(t.orm, { slug: 'deleted-anime', deleted: true });
      await staffOf(anime, 2);
      const res = await getStaff('deleted-anime');
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
    });

    it('answers 404 anime:not_found for an unknown slug and for the slug of a manga, novel, person or character', async () => {
      await buildManga(t.orm, { slug: 'a-manga' });
      await buildNovel(t.orm, { slug: 'a-novel' });
      await buildPerson(t.orm, { slug: 'a-person' });
      await buildCharacter(t.orm, { slug: 'a-character' });
      await buildAnime(t.orm, { slug: 'known' });
      for (const slug of ['unknown', 'a-manga', 'a-novel', 'a-person', 'a-character']) {
        const res = await getStaff(slug);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(notFound);
      }
    });

    it('answers the Ukrainian not-found message when Accept-Language prefers uk, for unknown and deleted anime', async () => {
      await buildAnime(t.orm, { slug: 'deleted-anime', deleted: true });
      for (const slug of ['unknown', 'deleted-anime']) {
        const res = await getStaff(slug, '', { language: 'uk' });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(notFoundUk);
      }
    });
  });

  describe('authentication none: the token is never resolved', () => {
    beforeEach(async () => staffOf(await buildAnime(t.orm, { slug: 'public' }), 2));

    const tokens = tokensToIgnore(t);

    it.each(tokens)('ignores %s, in the header and in the cookie, on both doors', async (_name, make) => {
      const token = await make();
      const anonymous = (await getStaff('public')).body;
      expect(slugsOf(anonymous)).toEqual(['s-00', 's-01']);
      for (const options of [{ token }, { cookie: token }]) {
        const viaRest = await getStaff('public', '', options);
        expect(viaRest.status).toBe(200);
        expect(viaRest.body).toEqual(anonymous);
        for (const document of [route.document, executedDocument]) {
          const viaGraphQL = await gql(t.app, document, { slug: 'public' }, options);
          expect(viaGraphQL.body.errors).toBeUndefined();
          expect(viaGraphQL.body.data.animeStaff).toEqual(anonymous);
        }
      }
    });

    it('ignores tokens on the not-found answer too', async () => {
      for (const [, make] of tokens) {
        const res = await getStaff('unknown', '', { token: await make() });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(notFound);
      }
    });

    it('sends no token look-up and has no side effects on a valid token (expiry not slid, use and activity not recorded)', async () => {
      const user = await buildUser(t.orm, { last_active: new Date('2024-01-01T00:00:00Z') });
      const expiration = new Date(Date.now() + 60 * 60 * 1000);
      const token = await buildToken(t.orm, user, { expiration });

      const anonymous = await t.queries.count(async () =>
        expect((await getStaff('public')).status).toBe(200),
      );
      const withToken = await t.queries.count(async () =>
        expect((await getStaff('public', '', { token })).status).toBe(200),
      );

      expect(t.queries.last.filter((statement) => /auth_token/.test(statement))).toEqual([]);
      expect(withToken).toBe(anonymous);
      const em = t.orm.em.fork();
      const stored = await em.findOneOrFail(AuthToken, { user: user.reference });
      expect(stored.used).toBeNull();
      expect(stored.expiration.getTime()).toBe(expiration.getTime());
      const account = await em.findOneOrFail(User, { reference: user.reference });
      expect(account.last_active.toISOString()).toBe('2024-01-01T00:00:00.000Z');
    });
  });

  describe('REST ≡ GraphQL', () => {
    it('equals data.animeStaff for the same request, compiled and through the resolvers', async () => {
      const anime = await buildAnime(t.orm, { slug: 'parity' });
      const roles = [
        await buildRole(t.orm, { slug: 'director', name_en: 'Director', name_ua: 'Режисер', weight: 100 }),
        await buildRole(t.orm, { slug: 'music', name_en: 'Music', name_ua: 'Музика', weight: null }),
        await buildRole(t.orm, { slug: 'script', name_en: null, name_ua: 'Сценарій', weight: 0 }),
      ];
      const [director, music, script] = roles;
      // Weights 100, null, 0, 100 and null: ties broken by name (nulls last).
      const held: Record<number, Role[]> = {
        1: [director, script],
        2: [music],
        3: [script],
        4: [script, music, director],
        5: [],
      };
      for (let n = 1; n <= 5; n += 1) {
        const person = await buildPerson(t.orm, {
          slug: `parity-${n}`,
          name_native: `名前 ${n}`,
          name_ua: n === 3 ? null : `Ім’я ${n}`,
          name_en: n % 2 === 0 ? null : `Name ${n}`,
          image: n === 4 ? null : `/people/${n}.jpg`,
          description_ua: `Опис ${n}`,
          synonyms: n === 5 ? [] : [`Alias ${n}`],
        });
        await staffCredit(person, anime, held[n], n);
      }

      const whole = await everyDoor('PARITY');
      expect(whole.pagination).toEqual({ total: 5, pages: 1, page: 1 });
      expect(whole.list.map((item) => [item.person.slug, item.weight])).toEqual([
        ['parity-1', 100],
        ['parity-4', 100],
        ['parity-3', 0],
        ['parity-5', null],
        ['parity-2', null],
      ]);
      const second = await everyDoor('PARITY', { page: 2, size: 2 });
      expect(second.pagination).toEqual({ total: 5, pages: 3, page: 2 });
      expect(second.list).toEqual(whole.list.slice(2, 4));
      const past = await everyDoor('parity', { page: 9, size: 2 });
      expect(past).toEqual({ pagination: { total: 5, pages: 3, page: 9 }, list: [] });
    });

    it.each([
      ['en', undefined, notFound],
      ['uk', 'uk', notFoundUk],
    ])(
      'reports the same not-found error (%s) for unknown and deleted anime, compiled and through the resolvers',
      async (_l, language, body) => {
        await buildAnime(t.orm, { slug: 'deleted-anime', deleted: true });
        const options = language ? { language } : {};
        for (const slug of ['missing', 'deleted-anime']) {
          const viaRest = await getStaff(slug, '', options);
          expect(viaRest.status).toBe(404);
          expect(viaRest.body).toEqual(body);

          for (const document of [route.document, executedDocument]) {
            const viaGraphQL = await gql(t.app, document, { slug }, options);
            expect(viaGraphQL.body.errors).toHaveLength(1);
            expect(viaGraphQL.body.errors[0]).toMatchObject({
              message: body.message,
              path: ['animeStaff'],
              extensions: { code: 'anime:not_found', http: { status: 404 } },
            });
            expect(viaGraphQL.body.data ?? null).toBeNull();
          }
        }
      },
    );

    it.each([
      ['page=0', { page: 0 }, 'page'],
      ['size=101', { size: 101 }, 'size'],
      ['size=abc', { size: 'abc' }, 'size'],
    ])(
      'reports the same validation error for %s (HTTP 400), before the look-up',
      async (query, args, name) => {
        for (const language of ['en', 'uk']) {
          const viaRest = await getStaff('missing', `?${query}`, { language });
          expect(viaRest.status).toBe(400);
          expect(viaRest.body.code).toBe('system:validation_error');
          for (const document of [route.document, executedDocument]) {
            const viaGraphQL = await gql(t.app, document, { slug: 'missing', ...args }, { language });
            expect(viaGraphQL.status).toBe(400);
            expect(viaGraphQL.body.errors[0].message).toBe(viaRest.body.message);
            expect(viaGraphQL.body.errors[0].extensions).toEqual({
              code: 'system:validation_error',
              http: { status: 400 },
            });
          }
        }
        expect((await getStaff('missing', `?${query}`)).body).toEqual(validationMessage(name));
      },
    );
  });

  describe('bounded SQL', () => {
    it('sends as many statements for size=100 as for size=1 (30 staff with 3 roles each), on both doors', async () => {
      const anime = await buildAnime(t.orm, { slug: 'crowded' });
      const roles = [
        await buildRole(t.orm, { weight: 3 }),
        await buildRole(t.orm, { weight: null }),
        await buildRole(t.orm, { weight: 1 }),
      ];
      for (let n = 0; n < 30; n += 1) await buildCredit(t.orm, await buildPerson(t.orm), { anime }, roles);

      const counted = async (call: (size: number) => Promise<PageBody>) => ({
        one: await t.queries.count(async () => expect((await call(1)).list).toHaveLength(1)),
        hundred: await t.queries.count(async () => {
          const body = await call(100);
          expect(body.list).toHaveLength(30);
          expect(body.list.every((item) => item.roles.length === 3 && item.weight === 4)).toBe(true);
        }),
      });
      const viaRest = await counted(async (size) => {
        const res = await getStaff('crowded', `?size=${size}`);
        expect(res.status).toBe(200);
        return res.body as PageBody;
      });
      const viaGraphQL = await counted(async (size) => {
        const res = await gql(t.app, route.document, { slug: 'crowded', size });
        expect(res.body.errors).toBeUndefined();
        return res.body.data.animeStaff as PageBody;
      });
      const executed = await counted(async (size) => {
        const res = await gql(t.app, executedDocument, { slug: 'crowded', size });
        expect(res.body.errors).toBeUndefined();
        return res.body.data.animeStaff as PageBody;
      });

      for (const counts of [viaRest, viaGraphQL, executed]) {
        expect(counts.one).toBeGreaterThan(0);
        expect(counts.hundred).toBe(counts.one);
      }
    });
  });
});
