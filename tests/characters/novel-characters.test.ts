import type { Character } from '../../src/characters/character.entity';
import type { Novel } from '../../src/catalog/novel.entity';
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
import { rest } from '../setup/clients';
import { CHARACTER, keysOf } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { sortedKeys, type Json } from '../setup/json';

/** #19 GET /novel/{slug}/characters: paged `{main, character}` items, auth none. */
const t = useTestApp();

interface PageBody {
  pagination: { total: number; pages: number; page: number };
  list: { main: boolean; character: Json }[];
}

const getCharacters = (slug: string, query = '', options: { token?: string; language?: string } = {}) =>
  rest(t.app, 'GET', `/novel/${slug}/characters${query}`, undefined, options);

/** `count` characters of `novel`, slugs `c-00`, `c-01`… and distinct English names. */
async function castOf(novel: Novel, count: number): Promise<Character[]> {
  const characters: Character[] = [];
  for (let n = 0; n < count; n += 1) {
    const slug = `c-${String(n).padStart(2, '0')}`;
    const character = await buildCharacter(t.orm, { slug, name_en: `Name ${String(n).padStart(2, '0')}` });
    await buildAppearance(t.orm, character, { novel });
    characters.push(character);
  }
  return characters;
}

const slugsOf = (body: PageBody) => body.list.map((item) => item.character.slug);

const validationMessage = (name: string) => ({
  message: `Invalid field ${name} in request query`,
  code: 'system:validation_error',
});

describe('GET /novel/{slug}/characters (#19)', () => {
  describe('items', () => {
    it('serves {main, character} with exactly the contract Character fields', async () => {
      const novel = await buildNovel(t.orm, { slug: 'overlord' });
      const ainz = await buildCharacter(t.orm, {
        slug: 'ainz',
        name_ua: 'Айнз',
        name_en: 'Ainz Ooal Gown',
        name_ja: 'アインズ',
        image: '/characters/ainz.jpg',
        synonyms: ['Momonga'],
      });
      await buildAppearance(t.orm, ainz, { novel }, true);
      const bare = await buildCharacter(t.orm, {
        slug: 'bare',
        name_en: null,
        image: 'https://img.example/b.png',
      });
      await buildAppearance(t.orm, bare, { novel }, false);

      const res = await getCharacters('overlord');

      expect(res.status).toBe(200);
      expect(sortedKeys(res.body)).toEqual(['list', 'pagination']);
      expect(res.body.list).toEqual([
        {
          main: true,
          character: {
            data_type: 'character',
            name_ua: 'Айнз',
            name_en: 'Ainz Ooal Gown',
            name_ja: 'アインズ',
            image: 'https://cdn.test/characters/ainz.jpg',
            slug: 'ainz',
            synonyms: ['Momonga'],
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
      ]);
      for (const item of (res.body as PageBody).list)
        expect(sortedKeys(item.character)).toEqual(keysOf(CHARACTER));
    });

    it('lists only the characters of this novel, not of other novels, manga or anime', async () => {
      const novel = await buildNovel(t.orm, { slug: 'mine' });
      const own = await buildCharacter(t.orm, { slug: 'own' });
      await buildAppearance(t.orm, own, { novel });
      await buildAppearance(t.orm, own, { manga: await buildManga(t.orm) });
      await buildAppearance(t.orm, await buildCharacter(t.orm, { slug: 'elsewhere-novel' }), {
        novel: await buildNovel(t.orm),
      });
      await buildAppearance(t.orm, await buildCharacter(t.orm, { slug: 'elsewhere-manga' }), {
        manga: await buildManga(t.orm),
      });
      await buildAppearance(t.orm, await buildCharacter(t.orm, { slug: 'elsewhere-anime' }), {
        anime: await buildAnime(t.orm),
      });

      const res = await getCharacters('mine');

      expect(slugsOf(res.body)).toEqual(['own']);
      expect(res.body.pagination).toEqual({ total: 1, pages: 1, page: 1 });
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

    it('puts main characters first, then name_en asc in C collation with nulls last, then reference asc', async () => {
      const novel = await buildNovel(t.orm, { slug: 'ordered' });
      // Built in an order that matches none of the expected orderings.
      const cast: [string, string | null, boolean, number][] = [
        ['same-late', 'Same', false, 9],
        ['nameless', null, false, 1],
        ['lower-alpha', 'alpha', false, 2],
        ['main-nameless', null, true, 3],
        ['zed', 'Zed', false, 4],
        ['main-zoe', 'Zoe', true, 5],
        ['same-early', 'Same', false, 8],
        ['upper-alpha', 'Alpha', false, 6],
        ['main-bob', 'bob', true, 7],
      ];
      for (const [slug, name_en, main, n] of cast) {
        const character = await buildCharacter(t.orm, { slug, name_en, reference: orderedReference(n) });
        await buildAppearance(t.orm, character, { novel }, main);
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
      ]);
    });
  });

  describe('pagination', () => {
    it('defaults to page 1 and size 15', async () => {
      const novel = await buildNovel(t.orm, { slug: 'big-cast' });
      await castOf(novel, 20);

      const res = await getCharacters('big-cast');

      expect(res.status).toBe(200);
      expect(res.body.pagination).toEqual({ total: 20, pages: 2, page: 1 });
      expect(slugsOf(res.body)).toEqual(
        Array.from({ length: 15 }, (_, n) => `c-${String(n).padStart(2, '0')}`),
      );
    });

    it('serves items (page-1)*size+1 .. page*size with total, pages = ceil(total/size) and the page echoed', async () => {
      const novel = await buildNovel(t.orm, { slug: 'paged' });
      await castOf(novel, 7);

      const res = await getCharacters('paged', '?page=2&size=3');

      expect(res.status).toBe(200);
      expect(res.body.pagination).toEqual({ total: 7, pages: 3, page: 2 });
      expect(slugsOf(res.body)).toEqual(['c-03', 'c-04', 'c-05']);

      const last = await getCharacters('paged', '?page=3&size=3');
      expect(last.body.pagination).toEqual({ total: 7, pages: 3, page: 3 });
      expect(slugsOf(last.body)).toEqual(['c-06']);
    });

    it('answers a page past the end with list [] and the same total and pages', async () => {
      const novel = await buildNovel(t.orm, { slug: 'short' });
      await castOf(novel, 7);

      const res = await getCharacters('short', '?page=4&size=3');

      expect(res.status).toBe(200);
      expect(res.body).toEqual({ pagination: { total: 7, pages: 3, page: 4 }, list: [] });
    });

    it('answers total 0 and pages 0 for a novel without characters', async () => {
      await buildNovel(t.orm, { slug: 'empty' });
      const res = await getCharacters('empty');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ pagination: { total: 0, pages: 0, page: 1 }, list: [] });
    });

    it('accepts the bounds page=10000 and size=100', async () => {
      const novel = await buildNovel(t.orm, { slug: 'bounds' });
      await castOf(novel, 2);

      const far = await getCharacters('bounds', '?page=10000');
      expect(far.status).toBe(200);
      expect(far.body).toEqual({ pagination: { total: 2, pages: 1, page: 10000 }, list: [] });

      const wide = await getCharacters('bounds', '?size=100');
      expect(wide.status).toBe(200);
      expect(wide.body.pagination).toEqual({ total: 2, pages: 1, page: 1 });
    });

    it('ignores unknown query parameters', async () => {
      const novel = await buildNovel(t.orm, { slug: 'tolerant' });
      await castOf(novel, 2);
      const res = await getCharacters('tolerant', '?foo=bar&sort=name:desc&limit=0');
      expect(res.status).toBe(200);
      expect(slugsOf(res.body)).toEqual(['c-00', 'c-01']);
    });
  });

  describe('validation', () => {
    beforeEach(() => buildNovel(t.orm, { slug: 'validated' }));

    it.each([
      ['page=0', 'page'],
      ['page=10001', 'page'],
      ['page=abc', 'page'],
      ['page=01', 'page'],
      ['page=1.0', 'page'],
      ['page=+1', 'page'],
      ['page=-1', 'page'],
      ['page=', 'page'],
      ['page=1&page=2', 'page'],
      ['size=0', 'size'],
      ['size=101', 'size'],
      ['size=abc', 'size'],
      ['size=010', 'size'],
      ['size=1&size=2', 'size'],
      ['page=0&size=0', 'page'],
      ['size=0&page=0', 'page'],
    ])('%s → 400 Invalid field %s in request query', async (query, name) => {
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

    it('checks the query before the novel exists (validation precedes existence)', async () => {
      const res = await getCharacters('no-such-novel', '?page=0');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(validationMessage('page'));
    });
  });

  describe('look-up', () => {
    it('lower-cases the slug', async () => {
      const novel = await buildNovel(t.orm, { slug: 'mushoku-tensei' });
      await castOf(novel, 1);
      const res = await getCharacters('Mushoku-TENSEI');
      expect(res.status).toBe(200);
      expect(slugsOf(res.body)).toEqual(['c-00']);
    });

    it('answers 404 novel:not_found "Novel not found" for a deleted novel', async () => {
      const novel = await buildNovel(t.orm, { slug: 'deleted-novel', deleted: true });
      await castOf(novel, 1);
      const res = await getCharacters('deleted-novel');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Novel not found', code: 'novel:not_found' });
    });

    it('answers 404 novel:not_found for an unknown slug and for a manga slug', async () => {
      await buildManga(t.orm, { slug: 'a-manga' });
      for (const slug of ['unknown', 'a-manga']) {
        const res = await getCharacters(slug);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: 'Novel not found', code: 'novel:not_found' });
      }
    });

    it('answers the Ukrainian not-found message when Accept-Language prefers uk', async () => {
      const res = await getCharacters('unknown', '', { language: 'uk' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Ранобе не знайдено', code: 'novel:not_found' });
    });
  });

  describe('authentication none', () => {
    it('ignores an unknown token and a deleted account token', async () => {
      const novel = await buildNovel(t.orm, { slug: 'open' });
      await castOf(novel, 1);
      const deleted = await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' }));
      for (const token of ['garbage', deleted]) {
        const res = await getCharacters('open', '', { token });
        expect(res.status).toBe(200);
        expect(slugsOf(res.body)).toEqual(['c-00']);
      }
    });
  });

  describe('bounded SQL', () => {
    it('sends as many statements for size=100 as for size=1 (30 characters)', async () => {
      const novel = await buildNovel(t.orm, { slug: 'crowded' });
      await castOf(novel, 30);

      const one = await t.queries.count(async () => {
        const res = await getCharacters('crowded', '?size=1');
        expect(res.body.list).toHaveLength(1);
      });
      const hundred = await t.queries.count(async () => {
        const res = await getCharacters('crowded', '?size=100');
        expect(res.body.list).toHaveLength(30);
      });

      expect(one).toBeGreaterThan(0);
      expect(hundred).toBe(one);
    });
  });
});
