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

/** #8 GET /characters/{slug}/novel: paged `{main, novel}` items, optional authentication, scope read:readlist. */
const t = useTestApp();

interface PageBody {
  pagination: { total: number; pages: number; page: number };
  list: { main: boolean; novel: Json & { slug: string; read: Json[] } }[];
}

const CHARACTER_NOVELS_PAGE: Shape = {
  pagination: { object: PAGINATION },
  list: { arrayOf: { main: 'boolean', novel: { object: READABLE_SUMMARY_WITH_READ } } },
};

const route = restRoutes.find((r) => r.contract === 8)!;

const getNovels = (slug: string, query = '', options: CallOptions = {}) =>
  rest(t.app, 'GET', `/characters/${slug}/novel${query}`, undefined, options);

const slugsOf = (body: PageBody) => body.list.map((item) => item.novel.slug);

/** `count` novels of `character` with decreasing scores: slugs `n-00`, `n-01`… */
async function novelsOf(character: Character, count: number) {
  const novels = [];
  for (let n = 0; n < count; n += 1) {
    const novel = await buildNovel(t.orm, { slug: `n-${String(n).padStart(2, '0')}`, score: 9 - n / 10 });
    await buildAppearance(t.orm, character, { novel }, n % 2 === 0);
    novels.push(novel);
  }
  return novels;
}

/** A third-party token of a fresh user holding `scope`. */
const thirdParty = async (scope: string[]) => buildThirdPartyToken(t.orm, await buildUser(t.orm), scope);

describe('GET /characters/{slug}/novel (#8)', () => {
  describe('items', () => {
    it('serves {main, novel: Novel summary with read}', async () => {
      const character = await buildCharacter(t.orm, { slug: 'rimuru' });
      const novel = await buildNovel(t.orm, {
        slug: 'tensura',
        title_original: '転生したらスライムだった件',
        title_ua: 'Реінкарнація в слайма',
        title_en: 'That Time I Got Reincarnated as a Slime',
        media_type: 'light_novel',
        status: 'ongoing',
        chapters: 300,
        volumes: 21,
        translated_ua: true,
        score: 8.3,
        scored_by: 4000,
        native_scored_by: 10,
        native_score_total: 80,
        image: 'https://img.example/tensura.png',
        year: 2014,
        start_date: new Date('2014-05-30T00:00:00Z'),
        end_date: new Date('2030-01-01T00:00:00Z'),
        created: new Date('2020-01-01T00:00:00Z'),
        updated: new Date('2021-01-01T00:00:00Z'),
      });
      await buildAppearance(t.orm, character, { novel }, true);
      const viewer = await buildUser(t.orm);
      await buildReadEntry(t.orm, viewer, { novel }, { note: 'mine', status: 'completed' });

      const res = await getNovels('rimuru', '', { token: await buildToken(t.orm, viewer) });

      expect(res.status).toBe(200);
      expect(shapeProblems(res.body, CHARACTER_NOVELS_PAGE, 'page')).toEqual([]);
      const [item] = (res.body as PageBody).list;
      expect(sortedKeys(item)).toEqual(['main', 'novel']);
      expect(item.main).toBe(true);
      expect(sortedKeys(item.novel)).toEqual(keysOf(READABLE_SUMMARY_WITH_READ));
      expect(item.novel).toMatchObject({ data_type: 'novel', slug: 'tensura', media_type: 'light_novel' });
      expect(item.novel.read.map((entry) => entry.note)).toEqual(['mine']);
    });

    it('serves main false for a supporting appearance', async () => {
      const character = await buildCharacter(t.orm, { slug: 'side' });
      await buildAppearance(t.orm, character, { novel: await buildNovel(t.orm) }, false);
      const res = await getNovels('side');
      expect((res.body as PageBody).list.map((item) => item.main)).toEqual([false]);
    });

    it("lists the character's novels only: not manga or anime, not other characters' novels, not deleted novels", async () => {
      const character = await buildCharacter(t.orm, { slug: 'busy' });
      await buildAppearance(t.orm, character, { novel: await buildNovel(t.orm, { slug: 'own' }) });
      await buildAppearance(t.orm, character, {
        novel: await buildNovel(t.orm, { slug: 'gone', deleted: true }),
      });
      await buildAppearance(t.orm, character, { manga: await buildManga(t.orm, { slug: 'manga' }) });
      await buildAppearance(t.orm, character, { anime: await buildAnime(t.orm, { slug: 'anime' }) });
      const other = await buildCharacter(t.orm);
      await buildAppearance(t.orm, other, { novel: await buildNovel(t.orm, { slug: 'theirs' }) });

      const res = await getNovels('busy');

      expect(slugsOf(res.body)).toEqual(['own']);
      expect(res.body.pagination).toEqual({ total: 1, pages: 1, page: 1 });
    });

    it('orders by novel score desc, scored_by desc, reference desc (main does not matter)', async () => {
      const character = await buildCharacter(t.orm, { slug: 'ordered' });
      const rows: [string, number, number, number, boolean][] = [
        ['low', 6, 900, 9, true],
        ['tie-1', 8, 50, 1, false],
        ['top', 9, 10, 2, false],
        ['tie-7', 8, 50, 7, false],
        ['more-voters', 8, 60, 3, true],
      ];
      for (const [slug, score, scored_by, n, main] of rows)
        await buildAppearance(
          t.orm,
          character,
          { novel: await buildNovel(t.orm, { slug, score, scored_by, reference: orderedReference(n) }) },
          main,
        );

      const res = await getNovels('ordered');

      expect(slugsOf(res.body)).toEqual(['top', 'more-voters', 'tie-7', 'tie-1', 'low']);
    });

    it("holds only the caller's own read entry, and [] anonymously", async () => {
      const character = await buildCharacter(t.orm, { slug: 'reader' });
      const [novel] = await novelsOf(character, 1);
      const viewer = await buildUser(t.orm);
      await buildReadEntry(t.orm, await buildUser(t.orm), { novel }, { note: 'theirs' });
      const token = await buildToken(t.orm, viewer);

      expect((await getNovels('reader', '', { token })).body.list[0].novel.read).toEqual([]);
      await buildReadEntry(t.orm, viewer, { novel }, { note: 'mine' });
      const mine = await getNovels('reader', '', { token });
      expect(mine.body.list[0].novel.read.map((e: Json) => e.note)).toEqual(['mine']);
      expect((await getNovels('reader')).body.list[0].novel.read).toEqual([]);
    });
  });

  describe('pagination', () => {
    it('serves the requested page with the live total, and [] past the end', async () => {
      const character = await buildCharacter(t.orm, { slug: 'famous' });
      await novelsOf(character, 7);

      const res = await getNovels('famous', '?page=3&size=3');
      expect(res.body.pagination).toEqual({ total: 7, pages: 3, page: 3 });
      expect(slugsOf(res.body)).toEqual(['n-06']);

      const past = await getNovels('famous', '?page=9&size=3');
      expect(past.body).toEqual({ pagination: { total: 7, pages: 3, page: 9 }, list: [] });
    });

    it('defaults to page 1 and size 15', async () => {
      await novelsOf(await buildCharacter(t.orm, { slug: 'many' }), 16);
      const res = await getNovels('many');
      expect(res.body.pagination).toEqual({ total: 16, pages: 2, page: 1 });
      expect(res.body.list).toHaveLength(15);
    });

    it('answers total 0 for a character that appears only in anime or manga', async () => {
      const character = await buildCharacter(t.orm, { slug: 'anime-only' });
      await buildAppearance(t.orm, character, { anime: await buildAnime(t.orm) });
      const res = await getNovels('anime-only');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ pagination: { total: 0, pages: 0, page: 1 }, list: [] });
    });

    it.each([
      ['?page=0', 'page'],
      ['?page=10001', 'page'],
      ['?size=0', 'size'],
    ])('%s → 400 Invalid field %s in request query, before the character look-up', async (query, name) => {
      const res = await getNovels('nobody', query);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: `Invalid field ${name} in request query`,
        code: 'system:validation_error',
      });
    });
  });

  describe('look-up', () => {
    const notFound = { message: 'Character not found', code: 'character:not_found' };

    it('lower-cases the slug', async () => {
      await novelsOf(await buildCharacter(t.orm, { slug: 'subaru-natsuki' }), 1);
      const res = await getNovels('Subaru-NATSUKI');
      expect(res.status).toBe(200);
      expect(slugsOf(res.body)).toEqual(['n-00']);
    });

    it('answers 404 character:not_found for an unknown character, in both languages', async () => {
      const res = await getNovels('unknown');
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
      const uk = await getNovels('unknown', '', { language: 'uk' });
      expect(uk.body).toEqual({ message: 'Персонажа не знайдено', code: 'character:not_found' });
    });

    it('answers 404 for an orphan character (linked to no catalog item)', async () => {
      await buildCharacter(t.orm, { slug: 'orphan' });
      const res = await getNovels('orphan');
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
    });

    it('treats links to deleted titles as gone: a character linked only to deleted titles is an orphan', async () => {
      const character = await buildCharacter(t.orm, { slug: 'forgotten' });
      await buildAppearance(t.orm, character, { novel: await buildNovel(t.orm, { deleted: true }) });
      await buildAppearance(t.orm, character, { anime: await buildAnime(t.orm, { deleted: true }) });
      await buildAppearance(t.orm, character, { manga: await buildManga(t.orm, { deleted: true }) });
      const res = await getNovels('forgotten');
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
    });

    it.each(['anime', 'manga', 'novel'] as const)(
      'finds a character linked to a live %s only',
      async (kind) => {
        const character = await buildCharacter(t.orm, { slug: `in-${kind}` });
        const title =
          kind === 'anime'
            ? { anime: await buildAnime(t.orm) }
            : kind === 'manga'
              ? { manga: await buildManga(t.orm) }
              : { novel: await buildNovel(t.orm) };
        await buildAppearance(t.orm, character, title);
        const res = await getNovels(`in-${kind}`);
        expect(res.status).toBe(200);
        expect(res.body.pagination.total).toBe(kind === 'novel' ? 1 : 0);
      },
    );
  });

  describe('authentication and scope', () => {
    it('answers 403 permission:denied for a third-party token without read:readlist', async () => {
      await novelsOf(await buildCharacter(t.orm, { slug: 'scoped' }), 1);
      const res = await getNovels('scoped', '', {
        token: await thirdParty(['read:watchlist', 'update:readlist']),
      });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        message: "You don't have permission for this action",
        code: 'permission:denied',
      });
    });

    it('looks the character up before checking the scope (404, not 403), orphans included', async () => {
      await buildCharacter(t.orm, { slug: 'orphan' });
      const token = await thirdParty(['read:watchlist']);
      for (const slug of ['unknown', 'orphan']) {
        const res = await getNovels(slug, '', { token });
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('character:not_found');
      }
    });

    it('serves third-party tokens with read:readlist or its group', async () => {
      await novelsOf(await buildCharacter(t.orm, { slug: 'scoped' }), 1);
      for (const scope of [['read:readlist'], ['readlist'], ['all']]) {
        const res = await getNovels('scoped', '', { token: await thirdParty(scope) });
        expect(res.status).toBe(200);
      }
    });

    it('treats a bad token as anonymous, and a deleted account as 400 user:deleted', async () => {
      await novelsOf(await buildCharacter(t.orm, { slug: 'open' }), 1);
      expect((await getNovels('open', '', { token: 'garbage' })).status).toBe(200);
      const deleted = await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' }));
      const res = await getNovels('open', '', { token: deleted });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'Deleted', code: 'user:deleted' });
    });
  });

  describe('REST ≡ GraphQL', () => {
    it('equals data.characterNovels anonymously and with a viewer token', async () => {
      const character = await buildCharacter(t.orm, { slug: 'parity' });
      const viewer = await buildUser(t.orm);
      for (let n = 1; n <= 3; n += 1) {
        const novel = await buildNovel(t.orm, {
          slug: `parity-${n}`,
          title_original: `原題 ${n}`,
          title_ua: `Назва ${n}`,
          status: 'finished',
          chapters: 10 * n,
          volumes: n,
          image: `/novel/${n}.jpg`,
          year: 2000 + n,
          start_date: new Date('2001-01-01T00:00:00Z'),
          end_date: new Date('2002-01-01T00:00:00Z'),
        });
        await buildAppearance(t.orm, character, { novel }, n === 2);
        await buildReadEntry(t.orm, viewer, { novel }, { note: `note ${n}`, score: n });
      }
      const token = await buildToken(t.orm, viewer);

      for (const [options, query, page] of [
        [{}, '', {}],
        [{ token }, '?page=1&size=2', { page: 1, size: 2 }],
      ] as const) {
        const viaRest = await getNovels('Parity', query, options);
        const viaGraphQL = await gql(t.app, route.document, { slug: 'Parity', ...page }, options);
        expect(viaRest.status).toBe(200);
        expect(viaGraphQL.body.errors).toBeUndefined();
        expect(viaRest.body).toEqual(viaGraphQL.body.data.characterNovels);
        const allowEmpty = 'token' in options ? [] : ['read'];
        expect(shapeProblems(viaRest.body, CHARACTER_NOVELS_PAGE, 'page', allowEmpty)).toEqual([]);
      }
    });

    it('reports the same not-found error', async () => {
      await buildCharacter(t.orm, { slug: 'orphan' });
      const viaRest = await getNovels('orphan');
      const viaGraphQL = await gql(t.app, route.document, { slug: 'orphan' });
      expect(viaRest.status).toBe(404);
      expect(viaGraphQL.body.errors[0]).toMatchObject({
        message: viaRest.body.message,
        extensions: { code: 'character:not_found', http: { status: 404 } },
      });
    });
  });

  describe('bounded SQL', () => {
    it('sends as many statements for size=100 as for size=1, anonymously and with a token', async () => {
      const character = await buildCharacter(t.orm, { slug: 'crowded' });
      const viewer = await buildUser(t.orm);
      for (const novel of await novelsOf(character, 30)) await buildReadEntry(t.orm, viewer, { novel });
      const token = await buildToken(t.orm, viewer);
      await getNovels('crowded', '', { token }); // the token's first use writes once

      for (const options of [{}, { token }]) {
        const one = await t.queries.count(async () => {
          const res = await getNovels('crowded', '?size=1', options);
          expect(res.body.list).toHaveLength(1);
        });
        const hundred = await t.queries.count(async () => {
          const res = await getNovels('crowded', '?size=100', options);
          expect(res.body.list).toHaveLength(30);
        });
        expect(one).toBeGreaterThan(0);
        expect(hundred).toBe(one);
      }
    });
  });
});
