import { AuthToken } from '../../src/accounts/auth-token.entity';
import { User } from '../../src/accounts/user.entity';
import type { Anime } from '../../src/catalog/anime.entity';
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
  buildToken,
  buildUser,
  orderedReference,
} from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { CHARACTER, keysOf, PAGINATION, shapeProblems, type Shape } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { INVALID_PAGING_QUERIES } from '../setup/paging';
import { tokensToIgnore } from '../setup/ignored-tokens';
import { sortedKeys, type Json } from '../setup/json';

/**
 * The characters of a title: #19 GET /novel/{slug}/characters, and GET /anime/{slug}/characters
 * and GET /manga/{slug}/characters (pages.md "Anime page", "Manga page"): paged TitleCharacter
 * `{main, character}` items, auth none, the same rules for every kind, each written once.
 */
const t = useTestApp();

type Kind = 'anime' | 'manga' | 'novel';
type TitleLink = { anime?: Anime; manga?: Manga; novel?: Novel };

interface PageBody {
  pagination: { total: number; pages: number; page: number };
  list: { main: boolean; character: Json & { slug: string } }[];
}

const TITLE_CHARACTERS_PAGE: Shape = {
  pagination: { object: PAGINATION },
  list: { arrayOf: { main: 'boolean', character: { object: CHARACTER } } },
};

/** A new title of `kind` (slug, deleted as given), as buildAppearance's `title`. */
async function titleOf(kind: Kind, o: { slug?: string; deleted?: boolean } = {}): Promise<TitleLink> {
  if (kind === 'anime') return { anime: await buildAnime(t.orm, o) };
  if (kind === 'manga') return { manga: await buildManga(t.orm, o) };
  return { novel: await buildNovel(t.orm, o) };
}

/** `count` characters of `title`, slugs `c-00`, `c-01`… and distinct English names in that order. */
async function castOf(title: TitleLink, count: number): Promise<Character[]> {
  const characters: Character[] = [];
  for (let n = 0; n < count; n += 1) {
    const slug = `c-${String(n).padStart(2, '0')}`;
    const character = await buildCharacter(t.orm, { slug, name_en: `Name ${String(n).padStart(2, '0')}` });
    await buildAppearance(t.orm, character, title);
    characters.push(character);
  }
  return characters;
}

const slugsOf = (body: PageBody) => body.list.map((item) => item.character.slug);

const validationMessage = (name: string) => ({
  message: `Invalid field ${name} in request query`,
  code: 'system:validation_error',
});

const KINDS = [
  {
    kind: 'anime' as const,
    root: 'animeCharacters',
    others: ['manga', 'novel'] as Kind[],
    notFound: { en: 'Anime not found', uk: 'Аніме не знайдено', code: 'anime:not_found' },
  },
  {
    kind: 'manga' as const,
    root: 'mangaCharacters',
    others: ['anime', 'novel'] as Kind[],
    notFound: { en: 'Manga not found', uk: 'Манґа не знайдена', code: 'manga:not_found' },
  },
  {
    kind: 'novel' as const,
    root: 'novelCharacters',
    others: ['anime', 'manga'] as Kind[],
    notFound: { en: 'Novel not found', uk: 'Ранобе не знайдено', code: 'novel:not_found' },
  },
];

describe.each(KINDS)('GET /$kind/{slug}/characters', ({ kind, root, others, notFound }) => {
  const route = restRoutes.find((r) => r.path === `/${kind}/{slug}/characters` && r.method === 'GET')!;
  /** The route's document with a root `__typename`: never compiled, so the resolvers run. */
  const executedDocument = route.document.replace('{', '{ __typename ');

  const getCharacters = (slug: string, query = '', options: CallOptions = {}) =>
    rest(t.app, 'GET', `/${kind}/${slug}/characters${query}`, undefined, options);

  const title = (o: { slug?: string; deleted?: boolean } = {}) => titleOf(kind, o);

  const notFoundBody = { message: notFound.en, code: notFound.code };
  const notFoundUk = { message: notFound.uk, code: notFound.code };

  it('is a GET route of the table with auth none, paged, answering data.' + root, () => {
    expect(route).toBeDefined();
    expect(route.auth).toBe('none');
    expect(route.paged).toBe(true);
    expect(route.rootField).toBe(root);
  });

  describe('items', () => {
    it('serves {main, character} with exactly the contract Character fields', async () => {
      const show = await title({ slug: 'overlord' });
      const ainz = await buildCharacter(t.orm, {
        slug: 'ainz',
        name_ua: 'Айнз',
        name_en: 'Ainz Ooal Gown',
        name_ja: 'アインズ',
        image: '/characters/ainz.jpg',
        synonyms: ['Momonga', 'モモンガ'],
        comments_count: 4,
      });
      await buildAppearance(t.orm, ainz, show, true);
      const bare = await buildCharacter(t.orm, {
        slug: 'bare',
        name_en: null,
        image: 'https://img.example/b.png',
      });
      await buildAppearance(t.orm, bare, show, false);
      const imageless = await buildCharacter(t.orm, { slug: 'imageless', name_en: 'Zzz', image: null });
      await buildAppearance(t.orm, imageless, show, false);

      const res = await getCharacters('overlord');

      expect(res.status).toBe(200);
      expect(sortedKeys(res.body)).toEqual(['list', 'pagination']);
      expect(res.body).toEqual({
        pagination: { total: 3, pages: 1, page: 1 },
        list: [
          {
            main: true,
            character: {
              data_type: 'character',
              name_ua: 'Айнз',
              name_en: 'Ainz Ooal Gown',
              name_ja: 'アインズ',
              image: 'https://cdn.test/characters/ainz.jpg',
              slug: 'ainz',
              synonyms: ['Momonga', 'モモンガ'],
            },
          },
          {
            main: false,
            character: {
              data_type: 'character',
              name_ua: null,
              name_en: 'Zzz',
              name_ja: null,
              image: null,
              slug: 'imageless',
              synonyms: [],
            },
          },
          {
            main: false,
            character: {
              data_type: 'character',
              name_ua: null,
              name_en: null,
              name_ja: null,
              image: 'https://img.example/b.png',
              slug: 'bare',
              synonyms: [],
            },
          },
        ],
      });
      for (const item of (res.body as PageBody).list) {
        expect(sortedKeys(item)).toEqual(['character', 'main']);
        expect(sortedKeys(item.character)).toEqual(keysOf(CHARACTER));
      }
      // The fully filled item against the contract shape (no nulls, no empty arrays).
      const filled = { pagination: res.body.pagination, list: [res.body.list[0]] };
      expect(shapeProblems(filled, TITLE_CHARACTERS_PAGE, 'page')).toEqual([]);
    });

    it(`lists only the characters of this ${kind}, not of other ${kind} or of titles of other kinds (even with the same slug)`, async () => {
      const mine = await title({ slug: 'mine' });
      const own = await buildCharacter(t.orm, { slug: 'own' });
      await buildAppearance(t.orm, own, mine);
      for (const other of others) {
        // The same slug on another kind, with its own character, and `own` appearing there too.
        const twin = await titleOf(other, { slug: 'mine' });
        await buildAppearance(t.orm, await buildCharacter(t.orm, { slug: `twin-${other}` }), twin);
        await buildAppearance(t.orm, own, twin);
      }
      await buildAppearance(t.orm, await buildCharacter(t.orm, { slug: 'elsewhere' }), await title());

      const res = await getCharacters('mine');

      expect(res.status).toBe(200);
      expect(slugsOf(res.body)).toEqual(['own']);
      expect(res.body.pagination).toEqual({ total: 1, pages: 1, page: 1 });
    });

    it(`takes main from the appearance in this ${kind}, not from the character's other appearances`, async () => {
      const show = await title({ slug: 'show' });
      const lead = await buildCharacter(t.orm, { slug: 'lead', name_en: 'B' });
      const extra = await buildCharacter(t.orm, { slug: 'extra', name_en: 'A' });
      await buildAppearance(t.orm, lead, show, true);
      await buildAppearance(t.orm, extra, show, false);
      for (const other of others) {
        const elsewhere = await titleOf(other);
        await buildAppearance(t.orm, lead, elsewhere, false);
        await buildAppearance(t.orm, extra, elsewhere, true);
      }
      await buildAppearance(t.orm, extra, await title(), true);

      const res = await getCharacters('show');

      expect((res.body as PageBody).list.map((item) => [item.character.slug, item.main])).toEqual([
        ['lead', true],
        ['extra', false],
      ]);
    });

    it(`still lists a character whose other appearances are all in deleted titles`, async () => {
      const show = await title({ slug: 'alive' });
      const survivor = await buildCharacter(t.orm, { slug: 'survivor' });
      await buildAppearance(t.orm, survivor, show);
      await buildAppearance(t.orm, survivor, await title({ deleted: true }), true);
      for (const other of others)
        await buildAppearance(t.orm, survivor, await titleOf(other, { deleted: true }));

      const res = await getCharacters('alive');

      expect(res.status).toBe(200);
      expect((res.body as PageBody).list.map((item) => [item.character.slug, item.main])).toEqual([
        ['survivor', false],
      ]);
    });
  });

  describe('order', () => {
    // The test databases default to C.UTF-8, where an ORDER BY without `collate "C"` would
    // pass too: give the column a linguistic collation, as a system PostgreSQL may have.
    const setNameCollation = (collation: string) =>
      t.orm.em
        .getConnection()
        .execute(`alter table "character" alter column "name_en" type text collate ${collation}`);
    beforeAll(() => setNameCollation('"en-x-icu"'));
    afterAll(() => setNameCollation('"default"'));

    it('puts main characters first, then name_en asc in C collation with nulls last, then character reference asc', async () => {
      const show = await title({ slug: 'ordered' });
      // Built in an order that matches none of the expected orderings.
      const cast: [string, string | null, boolean, number][] = [
        ['same-late', 'Same', false, 9],
        ['nameless', null, false, 1],
        ['lower-alpha', 'alpha', false, 2],
        ['main-nameless', null, true, 3],
        ['accented', 'Émile', false, 10],
        ['zed', 'Zed', false, 4],
        ['main-zoe', 'Zoe', true, 5],
        ['same-early', 'Same', false, 8],
        ['upper-alpha', 'Alpha', false, 6],
        ['main-bob', 'bob', true, 7],
      ];
      const connection = t.orm.em.getConnection();
      for (const [slug, name_en, main, n] of cast) {
        const character = await buildCharacter(t.orm, { slug, name_en, reference: orderedReference(n) });
        await buildAppearance(t.orm, character, show, main);
        // Appearance references run against character references: the tie must follow the character's.
        await connection.execute('update appearance set reference = ? where character_reference = ?', [
          orderedReference(100 - n),
          character.reference,
        ]);
      }

      const res = await getCharacters('ordered');

      expect(res.status).toBe(200);
      expect(slugsOf(res.body)).toEqual([
        'main-zoe',
        'main-bob',
        'main-nameless',
        'upper-alpha',
        'same-early',
        'same-late',
        'zed',
        'lower-alpha',
        'accented',
        'nameless',
      ]);
      expect((res.body as PageBody).list.map((item) => item.main)).toEqual([
        true,
        true,
        true,
        false,
        false,
        false,
        false,
        false,
        false,
        false,
      ]);
    });

    it('keeps the order across pages (ties split by a page boundary are not repeated or lost)', async () => {
      const show = await title({ slug: 'tied' });
      for (let n = 1; n <= 7; n += 1) {
        const character = await buildCharacter(t.orm, {
          slug: `tie-${n}`,
          name_en: 'Same',
          reference: orderedReference(8 - n),
        });
        await buildAppearance(t.orm, character, show, n === 4);
      }

      const pages: string[] = [];
      for (let page = 1; page <= 3; page += 1)
        pages.push(...slugsOf((await getCharacters('tied', `?page=${page}&size=3`)).body));

      expect(pages).toEqual(['tie-4', 'tie-7', 'tie-6', 'tie-5', 'tie-3', 'tie-2', 'tie-1']);
    });
  });

  describe('pagination', () => {
    it('defaults to page 1 and size 15', async () => {
      await castOf(await title({ slug: 'big-cast' }), 20);

      const res = await getCharacters('big-cast');

      expect(res.status).toBe(200);
      expect(res.body.pagination).toEqual({ total: 20, pages: 2, page: 1 });
      expect(slugsOf(res.body)).toEqual(
        Array.from({ length: 15 }, (_, n) => `c-${String(n).padStart(2, '0')}`),
      );
    });

    it('serves items (page-1)*size+1 .. page*size with total, pages = ceil(total/size) and the page echoed', async () => {
      await castOf(await title({ slug: 'paged' }), 7);

      const res = await getCharacters('paged', '?page=2&size=3');

      expect(res.status).toBe(200);
      expect(res.body.pagination).toEqual({ total: 7, pages: 3, page: 2 });
      expect(slugsOf(res.body)).toEqual(['c-03', 'c-04', 'c-05']);

      const last = await getCharacters('paged', '?page=3&size=3');
      expect(last.body.pagination).toEqual({ total: 7, pages: 3, page: 3 });
      expect(slugsOf(last.body)).toEqual(['c-06']);
    });

    it('answers a page past the end with list [] and the same total and pages', async () => {
      await castOf(await title({ slug: 'short' }), 7);

      const res = await getCharacters('short', '?page=4&size=3');

      expect(res.status).toBe(200);
      expect(res.body).toEqual({ pagination: { total: 7, pages: 3, page: 4 }, list: [] });
    });

    it(`answers total 0 and pages 0 for ${kind === 'anime' ? 'an anime' : 'a manga'} without characters`, async () => {
      await title({ slug: 'empty' });
      // Characters of other titles do not count.
      await castOf(await title(), 2);
      const res = await getCharacters('empty');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ pagination: { total: 0, pages: 0, page: 1 }, list: [] });
    });

    it('counts in total only the characters of this title', async () => {
      const show = await title({ slug: 'counted' });
      await castOf(show, 4);
      for (const other of others)
        await buildAppearance(t.orm, await buildCharacter(t.orm), await titleOf(other, { slug: 'counted' }));
      await buildAppearance(t.orm, await buildCharacter(t.orm), await title());

      const res = await getCharacters('counted', '?size=3');

      expect(res.body.pagination).toEqual({ total: 4, pages: 2, page: 1 });
      expect(slugsOf(res.body)).toEqual(['c-00', 'c-01', 'c-02']);
    });

    it('accepts the bounds page=10000 and size=100', async () => {
      await castOf(await title({ slug: 'bounds' }), 2);

      const far = await getCharacters('bounds', '?page=10000');
      expect(far.status).toBe(200);
      expect(far.body).toEqual({ pagination: { total: 2, pages: 1, page: 10000 }, list: [] });

      const wide = await getCharacters('bounds', '?size=100');
      expect(wide.status).toBe(200);
      expect(wide.body.pagination).toEqual({ total: 2, pages: 1, page: 1 });
      expect(slugsOf(wide.body)).toEqual(['c-00', 'c-01']);

      const one = await getCharacters('bounds', '?page=1&size=1');
      expect(one.body).toMatchObject({ pagination: { total: 2, pages: 2, page: 1 } });
      expect(slugsOf(one.body)).toEqual(['c-00']);
    });

    it('ignores unknown query parameters', async () => {
      await castOf(await title({ slug: 'tolerant' }), 2);
      const res = await getCharacters('tolerant', '?foo=bar&sort=name:desc&limit=0');
      expect(res.status).toBe(200);
      expect(slugsOf(res.body)).toEqual(['c-00', 'c-01']);
    });
  });

  describe('validation', () => {
    beforeEach(() => title({ slug: 'validated' }));

    it.each(INVALID_PAGING_QUERIES)('%s → 400 Invalid field %s in request query', async (query, name) => {
      const res = await getCharacters('validated', `?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(validationMessage(name));
    });

    it('answers the Ukrainian validation message when Accept-Language prefers uk', async () => {
      const res = await getCharacters('validated', '?size=101', { language: 'uk-UA,uk;q=0.9' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: 'Некоректне поле size у запиті query',
        code: 'system:validation_error',
      });
    });

    it.each([
      ['page=0', 'page'],
      ['size=101', 'size'],
      ['size=abc', 'size'],
    ])(
      `checks the query (%s) before the ${kind} exists (validation precedes existence)`,
      async (query, name) => {
        await castOf(await title({ slug: 'deleted-title', deleted: true }), 1);
        for (const slug of ['no-such-title', 'deleted-title']) {
          const res = await getCharacters(slug, `?${query}`);
          expect(res.status).toBe(400);
          expect(res.body).toEqual(validationMessage(name));
        }
      },
    );
  });

  describe('look-up', () => {
    it('lower-cases the slug', async () => {
      await castOf(await title({ slug: 'mushoku-tensei' }), 1);
      const res = await getCharacters('Mushoku-TENSEI');
      expect(res.status).toBe(200);
      expect(slugsOf(res.body)).toEqual(['c-00']);
    });

    it(`answers 404 ${notFound.code} "${notFound.en}" for a deleted ${kind}, even with characters`, async () => {
      await castOf(await title({ slug: 'deleted-title', deleted: true }), 1);
      const res = await getCharacters('deleted-title');
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFoundBody);
    });

    it(`answers 404 ${notFound.code} for an unknown slug and for the slugs of the other kinds`, async () => {
      const slugs = ['unknown'];
      for (const other of others) {
        const slug = `a-${other}`;
        await titleOf(other, { slug });
        slugs.push(slug);
      }
      for (const slug of slugs) {
        const res = await getCharacters(slug);
        expect(res.status).toBe(404);
        expect(res.body).toEqual(notFoundBody);
      }
    });

    it('answers the Ukrainian not-found message when Accept-Language prefers uk', async () => {
      await title({ slug: 'gone', deleted: true });
      for (const slug of ['unknown', 'gone']) {
        const res = await getCharacters(slug, '', { language: 'uk' });
        expect(res.status).toBe(404);
        expect(res.body).toEqual(notFoundUk);
      }
    });
  });

  describe('authentication none: the token is never resolved', () => {
    beforeEach(async () => castOf(await title({ slug: 'open' }), 2));

    const tokens = tokensToIgnore(t);

    it.each(tokens)('ignores %s, in the header and in the cookie, on both doors', async (_name, make) => {
      const token = await make();
      const anonymous = (await getCharacters('open')).body;
      expect(slugsOf(anonymous)).toEqual(['c-00', 'c-01']);
      for (const options of [{ token }, { cookie: token }]) {
        const viaRest = await getCharacters('open', '', options);
        expect(viaRest.status).toBe(200);
        expect(viaRest.body).toEqual(anonymous);
        const viaGraphQL = await gql(t.app, route.document, { slug: 'open' }, options);
        expect(viaGraphQL.body.errors).toBeUndefined();
        expect(viaGraphQL.body.data[root]).toEqual(anonymous);
      }
    });

    it('a token does not change the not-found answer', async () => {
      const token = await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' }));
      const res = await getCharacters('unknown', '', { token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFoundBody);
    });

    it('sends no token look-up and has no side effects on a valid token (expiry not slid, use and activity not recorded)', async () => {
      const user = await buildUser(t.orm, { last_active: new Date('2024-01-01T00:00:00Z') });
      const expiration = new Date(Date.now() + 60 * 60 * 1000);
      const token = await buildToken(t.orm, user, { expiration });

      const anonymous = await t.queries.count(async () =>
        expect((await getCharacters('open')).status).toBe(200),
      );
      const withToken = await t.queries.count(async () =>
        expect((await getCharacters('open', '', { token })).status).toBe(200),
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
    /** Five characters: mains, nulls, relative and absolute images. */
    async function parityCast(): Promise<void> {
      const show = await title({ slug: 'parity' });
      const rows: [string, Partial<Character>, boolean][] = [
        ['p-main', { name_ua: 'Головний', name_en: 'Main', name_ja: '主', image: '/c/main.jpg' }, true],
        ['p-nameless', { name_en: null, image: null }, false],
        ['p-alpha', { name_en: 'Alpha', synonyms: ['A', 'Α'], image: 'https://img.example/a.png' }, false],
        ['p-beta', { name_en: 'Beta', name_ja: 'ベータ' }, false],
        ['p-main-2', { name_en: 'Other main', synonyms: ['Second'] }, true],
      ];
      for (const [slug, fields, main] of rows)
        await buildAppearance(t.orm, await buildCharacter(t.orm, { slug, ...fields }), show, main);
    }

    it(`REST equals data.${root}, compiled and through the resolvers, for defaults and for a given page`, async () => {
      await parityCast();

      for (const [query, page] of [
        ['', {}],
        ['?page=2&size=2', { page: 2, size: 2 }],
        ['?page=9&size=2', { page: 9, size: 2 }],
      ] as const) {
        const viaRest = await getCharacters('PARITY', query);
        const viaGraphQL = await gql(t.app, route.document, { slug: 'PARITY', ...page });
        const executed = await gql(t.app, executedDocument, { slug: 'PARITY', ...page });

        expect(viaRest.status).toBe(200);
        expect(viaGraphQL.status).toBe(200);
        expect(viaGraphQL.body.errors).toBeUndefined();
        expect(viaGraphQL.body.data).toEqual({ [root]: viaRest.body });
        expect(executed.body.errors).toBeUndefined();
        expect(executed.body.data).toEqual({ __typename: 'Query', [root]: viaRest.body });
        // Key order is part of the JSON: both doors and both ways of answering agree.
        expect(JSON.stringify(viaGraphQL.body.data[root])).toBe(JSON.stringify(viaRest.body));
        expect(JSON.stringify((executed.body.data as Json)[root])).toBe(JSON.stringify(viaRest.body));
      }

      const all = (await getCharacters('parity')).body as PageBody;
      expect(slugsOf(all)).toEqual(['p-main', 'p-main-2', 'p-alpha', 'p-beta', 'p-nameless']);
      expect((await getCharacters('parity', '?page=2&size=2')).body.pagination).toEqual({
        total: 5,
        pages: 3,
        page: 2,
      });
    });

    it.each([
      ['an unknown slug', 'en', 'missing'],
      ['a deleted title', 'en', 'gone'],
      ['an unknown slug', 'uk', 'missing'],
      ['a deleted title', 'uk', 'GONE'],
    ])(
      'reports the same not-found error for %s (%s), compiled and through the resolvers',
      async (_name, language, slug) => {
        await castOf(await title({ slug: 'gone', deleted: true }), 1);
        const body = language === 'uk' ? notFoundUk : notFoundBody;

        const viaRest = await getCharacters(slug, '', { language });
        expect(viaRest.status).toBe(404);
        expect(viaRest.body).toEqual(body);

        for (const document of [route.document, executedDocument]) {
          const viaGraphQL = await gql(t.app, document, { slug }, { language });
          expect(viaGraphQL.body.errors).toHaveLength(1);
          expect(viaGraphQL.body.errors[0]).toMatchObject({
            message: body.message,
            path: [root],
            extensions: { code: notFound.code, http: { status: 404 } },
          });
          expect((viaGraphQL.body.data as Json | null)?.[root] ?? null).toBeNull();
        }
      },
    );

    it.each([
      ['page=0', { page: 0 }, 'page'],
      ['size=101', { size: 101 }, 'size'],
      ['size=abc', { size: 'abc' }, 'size'],
    ])('reports the same validation error for %s, before the look-up', async (query, variables, name) => {
      const viaRest = await getCharacters('missing', `?${query}`);
      expect(viaRest.status).toBe(400);
      expect(viaRest.body).toEqual(validationMessage(name));

      const viaGraphQL = await gql(t.app, route.document, { slug: 'missing', ...variables });
      expect(viaGraphQL.status).toBe(400);
      expect(viaGraphQL.body.errors[0]).toMatchObject({
        message: viaRest.body.message,
        extensions: { code: 'system:validation_error', http: { status: 400 } },
      });
    });
  });

  describe('bounded SQL', () => {
    it('sends as many statements for size=100 as for size=1 (30 characters), on both doors', async () => {
      const show = await title({ slug: 'crowded' });
      const cast = await castOf(show, 30);
      // Their appearances elsewhere must not be fetched either.
      for (const character of cast.slice(0, 10))
        for (const other of others) await buildAppearance(t.orm, character, await titleOf(other), true);

      const calls: [string, (size: number) => Promise<PageBody>][] = [
        ['REST', async (size) => (await getCharacters('crowded', `?size=${size}`)).body as PageBody],
        [
          'GraphQL compiled',
          async (size) => (await gql(t.app, route.document, { slug: 'crowded', size })).body.data[root],
        ],
        [
          'GraphQL resolvers',
          async (size) => (await gql(t.app, executedDocument, { slug: 'crowded', size })).body.data[root],
        ],
      ];
      for (const [door, call] of calls) {
        const one = await t.queries.count(async () => {
          const body = await call(1);
          expect(body.list).toHaveLength(1);
        });
        const hundred = await t.queries.count(async () => {
          const body = await call(100);
          expect(body.list).toHaveLength(30);
          expect(body.pagination.total).toBe(30);
        });

        expect([door, one]).not.toEqual([door, 0]);
        expect([door, hundred]).toEqual([door, one]);
      }
    });
  });
});
