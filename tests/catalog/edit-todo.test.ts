import type { Anime } from '../../src/catalog/anime.entity';
import type { Manga } from '../../src/catalog/manga.entity';
import type { Novel } from '../../src/catalog/novel.entity';
import { restRoutes } from '../../src/routes';
import {
  buildAnime,
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
import { type Json, sortedKeys } from '../setup/json';

/** #6 GET /edit/todo/{content_type}/{todo_type}: titles lacking a translation, optional authentication. */
const t = useTestApp();

type Kind = 'anime' | 'manga' | 'novel';
type TodoType = 'title_ua' | 'synopsis_ua';

interface PageBody {
  pagination: { total: number; pages: number; page: number };
  list: (Json & { slug: string; data_type: string })[];
}

const route = restRoutes.find((r) => r.contract === 6)!;

const getTodo = (kind: string, todo: string, query = '', options: CallOptions = {}) =>
  rest(t.app, 'GET', `/edit/todo/${kind}/${todo}${query}`, undefined, options);

const slugsOf = (body: PageBody) => body.list.map((item) => item.slug);

/** Overrides of any title kind's fields (the kind's own builder checks nothing more). */
type TitleOverrides = Record<string, unknown>;

const BUILD: Record<Kind, (o: TitleOverrides) => Promise<Anime | Manga | Novel>> = {
  anime: (o) => buildAnime(t.orm, o as Partial<Anime>),
  manga: (o) => buildManga(t.orm, o as Partial<Manga>),
  novel: (o) => buildNovel(t.orm, o as Partial<Novel>),
};

const pageShape = (kind: Kind): Shape => ({
  pagination: { object: PAGINATION },
  list: { arrayOf: kind === 'anime' ? ANIME_SUMMARY_WITH_WATCH : READABLE_SUMMARY_WITH_READ },
});

/** Every nullable summary field filled, so that types can be checked. */
function filled(kind: Kind, n: number): TitleOverrides {
  const common = {
    slug: `${kind}-full-${n}`,
    title_en: `Title ${n}`,
    status: 'finished' as const,
    year: 2015,
    image: `/content/${n}.jpg`,
    score: 8 - n / 10,
    native_scored_by: 12,
    native_score_total: 96,
    translated_ua: true,
    start_date: new Date('2015-03-04T05:06:07Z'),
    end_date: new Date('2016-03-04T05:06:07Z'),
    created: new Date('2020-01-02T03:04:05Z'),
    updated: new Date('2021-01-02T03:04:05Z'),
    synopsis_en: 'Synopsis',
    // Synopses are not summary fields: the fixtures are listed as `synopsis_ua` to-dos.
    synopsis_ua: null,
    title_ua: `Назва ${n}`,
  };
  if (kind === 'anime')
    return {
      ...common,
      title_ja: `タイトル ${n}`,
      media_type: 'tv' as const,
      season: 'fall' as const,
      source: 'manga' as const,
      rating: 'pg_13' as const,
      episodes_released: 12,
      episodes_total: 12,
    };
  return {
    ...common,
    title_original: `原題 ${n}`,
    media_type: kind === 'manga' ? ('manhwa' as const) : ('light_novel' as const),
    chapters: 100,
    volumes: 10,
  };
}

describe('GET /edit/todo/{content_type}/{todo_type} (#6)', () => {
  describe.each(['anime', 'manga', 'novel'] as const)('%s', (kind) => {
    it.each(['title_ua', 'synopsis_ua'] as const)(
      'lists live items whose %s is null (an empty string counts as present)',
      async (todo: TodoType) => {
        const other: TodoType = todo === 'title_ua' ? 'synopsis_ua' : 'title_ua';
        await BUILD[kind]({ slug: 'missing', [todo]: null, [other]: 'present' });
        await BUILD[kind]({ slug: 'empty', [todo]: '', [other]: null });
        await BUILD[kind]({ slug: 'translated', [todo]: 'Переклад', [other]: null });
        await BUILD[kind]({ slug: 'deleted', [todo]: null, deleted: true });

        const res = await getTodo(kind, todo);

        expect(res.status).toBe(200);
        expect(slugsOf(res.body)).toEqual(['missing']);
        expect(res.body.pagination).toEqual({ total: 1, pages: 1, page: 1 });
      },
    );

    it(`serves ${kind} summaries with exactly the contract fields`, async () => {
      await BUILD[kind](filled(kind, 1));
      const res = await getTodo(kind, 'synopsis_ua');
      expect(res.status).toBe(200);
      expect(shapeProblems(res.body, pageShape(kind), 'page', ['watch', 'read'])).toEqual([]);
      const [item] = (res.body as PageBody).list;
      expect(item.data_type).toBe(kind);
      expect(sortedKeys(item)).toEqual(
        keysOf(kind === 'anime' ? ANIME_SUMMARY_WITH_WATCH : READABLE_SUMMARY_WITH_READ),
      );
    });

    it('lists only titles of the requested kind', async () => {
      for (const other of ['anime', 'manga', 'novel'] as const)
        await BUILD[other]({ slug: `${other}-todo`, title_ua: null });
      const res = await getTodo(kind, 'title_ua');
      expect(slugsOf(res.body)).toEqual([`${kind}-todo`]);
    });

    it('orders by score desc, scored_by desc, reference desc', async () => {
      const rows: [string, number, number, number][] = [
        ['low-score', 6, 900, 9],
        ['tie-ref-1', 8, 50, 1],
        ['top', 9, 10, 2],
        ['tie-ref-7', 8, 50, 7],
        ['more-voters', 8, 60, 3],
      ];
      for (const [slug, score, scored_by, n] of rows)
        await BUILD[kind]({ slug, score, scored_by, reference: orderedReference(n), title_ua: null });

      const res = await getTodo(kind, 'title_ua');

      expect(slugsOf(res.body)).toEqual(['top', 'more-voters', 'tie-ref-7', 'tie-ref-1', 'low-score']);
    });
  });

  it('excludes anime music videos, but keeps anime without a media type', async () => {
    await buildAnime(t.orm, { slug: 'tv', media_type: 'tv', title_ua: null });
    await buildAnime(t.orm, { slug: 'music', media_type: 'music', title_ua: null });
    await buildAnime(t.orm, { slug: 'untyped', media_type: null, title_ua: null, score: 5 });

    const res = await getTodo('anime', 'title_ua');

    expect(slugsOf(res.body)).toEqual(['tv', 'untyped']);
    expect(res.body.pagination.total).toBe(2);
  });

  describe('viewer arrays', () => {
    it("carries the caller's own watch or read entry only, and [] anonymously", async () => {
      const viewer = await buildUser(t.orm);
      const stranger = await buildUser(t.orm);
      const anime = await buildAnime(t.orm, { slug: 'a', title_ua: null });
      const manga = await buildManga(t.orm, { slug: 'm', title_ua: null });
      const novel = await buildNovel(t.orm, { slug: 'n', title_ua: null });
      await buildWatchEntry(t.orm, viewer, anime, { note: 'mine' });
      await buildWatchEntry(t.orm, stranger, anime, { note: 'theirs' });
      await buildReadEntry(t.orm, viewer, { manga }, { note: 'mine' });
      await buildReadEntry(t.orm, stranger, { manga }, { note: 'theirs' });
      await buildReadEntry(t.orm, stranger, { novel }, { note: 'theirs' });
      const token = await buildToken(t.orm, viewer);

      const notes = async (kind: Kind, field: 'watch' | 'read', options: CallOptions) =>
        ((await getTodo(kind, 'title_ua', '', options)).body as PageBody).list.map((item) =>
          (item[field] as Json[]).map((entry) => entry.note),
        );

      expect(await notes('anime', 'watch', { token })).toEqual([['mine']]);
      expect(await notes('manga', 'read', { token })).toEqual([['mine']]);
      expect(await notes('novel', 'read', { token })).toEqual([[]]);
      expect(await notes('anime', 'watch', {})).toEqual([[]]);
      expect(await notes('manga', 'read', {})).toEqual([[]]);
    });
  });

  describe('pagination', () => {
    it('serves the requested page with the live total, and [] past the end', async () => {
      for (let n = 1; n <= 7; n += 1)
        await buildManga(t.orm, { slug: `m-${n}`, score: 10 - n, title_ua: null });

      const res = await getTodo('manga', 'title_ua', '?page=2&size=3');
      expect(res.body.pagination).toEqual({ total: 7, pages: 3, page: 2 });
      expect(slugsOf(res.body)).toEqual(['m-4', 'm-5', 'm-6']);

      const past = await getTodo('manga', 'title_ua', '?page=5&size=3');
      expect(past.body).toEqual({ pagination: { total: 7, pages: 3, page: 5 }, list: [] });

      const empty = await getTodo('novel', 'title_ua');
      expect(empty.body).toEqual({ pagination: { total: 0, pages: 0, page: 1 }, list: [] });
    });

    it('defaults to page 1 and size 15', async () => {
      for (let n = 1; n <= 16; n += 1) await buildNovel(t.orm, { synopsis_ua: null });
      const res = await getTodo('novel', 'synopsis_ua');
      expect(res.body.pagination).toEqual({ total: 16, pages: 2, page: 1 });
      expect(res.body.list).toHaveLength(15);
    });
  });

  describe('validation', () => {
    it.each([
      ['character', 'title_ua', '', 'content_type', 'path'],
      ['Anime', 'title_ua', '', 'content_type', 'path'],
      ['anime', 'title_en', '', 'todo_type', 'path'],
      ['anime', 'synopsis_en', '', 'todo_type', 'path'],
      ['person', 'synopsis', '', 'content_type', 'path'],
      ['anime', 'bad', '?page=0', 'todo_type', 'path'],
      ['anime', 'title_ua', '?page=0', 'page', 'query'],
      ['anime', 'title_ua', '?size=101', 'size', 'query'],
      ['anime', 'title_ua', '?page=1&page=2', 'page', 'query'],
    ])('/%s/%s%s → 400 Invalid field %s in request %s', async (kind, todo, query, name, location) => {
      const res = await getTodo(kind, todo, query);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: `Invalid field ${name} in request ${location}`,
        code: 'system:validation_error',
      });
    });

    it('refuses an unknown todo type on the GraphQL side as a validation error', async () => {
      const res = await gql(t.app, route.document, { content_type: 'anime', todo_type: 'title_en' });
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions.code).toBe('system:validation_error');
    });
  });

  describe('authentication and scopes', () => {
    const thirdParty = async (scope: string[]) => buildThirdPartyToken(t.orm, await buildUser(t.orm), scope);

    it.each([[['read:readlist']], [['read:watchlist']], [['readlist']], [['read:vote']]])(
      'answers 403 permission:denied for a third-party token with only %j',
      async (scope) => {
        await buildAnime(t.orm, { title_ua: null });
        const res = await getTodo('anime', 'title_ua', '', { token: await thirdParty(scope) });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({
          message: "You don't have permission for this action",
          code: 'permission:denied',
        });
      },
    );

    it('needs both scopes for every content type, whatever the kind listed', async () => {
      const token = await thirdParty(['read:watchlist']);
      const res = await getTodo('manga', 'synopsis_ua', '', { token });
      expect(res.status).toBe(403);
    });

    it.each([[['read:readlist', 'read:watchlist']], [['readlist', 'watchlist']], [['all']]])(
      'serves a third-party token with %j',
      async (scope) => {
        await buildAnime(t.orm, { slug: 'shown', title_ua: null });
        const res = await getTodo('anime', 'title_ua', '', { token: await thirdParty(scope) });
        expect(res.status).toBe(200);
        expect(slugsOf(res.body)).toEqual(['shown']);
      },
    );

    it('validates the path before the scope check', async () => {
      const res = await getTodo('anime', 'nope', '', { token: await thirdParty(['read:vote']) });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('system:validation_error');
    });

    it('treats a bad token as anonymous, and a deleted account as 400 user:deleted', async () => {
      await buildAnime(t.orm, { slug: 'shown', title_ua: null });
      const bad = await getTodo('anime', 'title_ua', '', { token: 'garbage' });
      expect(bad.status).toBe(200);
      expect(slugsOf(bad.body)).toEqual(['shown']);

      const deleted = await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' }));
      const res = await getTodo('anime', 'title_ua', '', { token: deleted });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'Deleted', code: 'user:deleted' });
    });
  });

  describe('REST ≡ GraphQL', () => {
    async function fixture() {
      const viewer = await buildUser(t.orm);
      for (let n = 1; n <= 3; n += 1) {
        const anime = (await BUILD.anime(filled('anime', n))) as Anime;
        const manga = (await BUILD.manga(filled('manga', n))) as Manga;
        const novel = (await BUILD.novel(filled('novel', n))) as Novel;
        await buildWatchEntry(t.orm, viewer, anime, { note: `anime ${n}`, score: 7 });
        await buildReadEntry(t.orm, viewer, { manga }, { note: `manga ${n}`, score: 6 });
        await buildReadEntry(t.orm, viewer, { novel }, { note: `novel ${n}`, score: 5 });
      }
      return viewer;
    }

    it.each(['anime', 'manga', 'novel'] as const)(
      'equals data.editTodo for %s, anonymously and with a viewer token',
      async (kind) => {
        const viewer = await fixture();
        const token = await buildToken(t.orm, viewer);
        for (const [options, query, page] of [
          [{}, '', {}],
          [{ token }, '?page=1&size=2', { page: 1, size: 2 }],
        ] as const) {
          const viaRest = await getTodo(kind, 'synopsis_ua', query, options);
          const viaGraphQL = await gql(
            t.app,
            route.document,
            { content_type: kind, todo_type: 'synopsis_ua', ...page },
            options,
          );
          expect(viaRest.status).toBe(200);
          expect(viaGraphQL.status).toBe(200);
          expect(viaGraphQL.body.errors).toBeUndefined();
          expect(viaRest.body).toEqual(viaGraphQL.body.data.editTodo);
          const allowEmpty = 'token' in options ? [] : ['watch', 'read'];
          expect(shapeProblems(viaRest.body, pageShape(kind), 'page', allowEmpty)).toEqual([]);
        }
      },
    );

    it('reports the same scope error', async () => {
      const token = await buildThirdPartyToken(t.orm, await buildUser(t.orm), ['read:readlist']);
      const viaRest = await getTodo('novel', 'title_ua', '', { token, language: 'uk' });
      const viaGraphQL = await gql(
        t.app,
        route.document,
        { content_type: 'novel', todo_type: 'title_ua' },
        { token, language: 'uk' },
      );
      expect(viaRest.status).toBe(403);
      expect(viaGraphQL.body.errors[0]).toMatchObject({
        message: viaRest.body.message,
        extensions: { code: 'permission:denied', http: { status: 403 } },
      });
    });
  });

  describe('bounded SQL', () => {
    it.each(['anime', 'manga'] as const)(
      'sends as many statements for size=100 as for size=1 (%s, anonymously and with a token)',
      async (kind) => {
        const viewer = await buildUser(t.orm);
        for (let n = 1; n <= 30; n += 1) {
          const title = await BUILD[kind]({ title_ua: null });
          if (kind === 'anime') await buildWatchEntry(t.orm, viewer, title as Anime);
          else await buildReadEntry(t.orm, viewer, { manga: title as Manga });
        }
        const token = await buildToken(t.orm, viewer);
        await getTodo(kind, 'title_ua', '', { token }); // the token's first use writes once

        for (const options of [{}, { token }]) {
          const one = await t.queries.count(async () => {
            const res = await getTodo(kind, 'title_ua', '?size=1', options);
            expect(res.body.list).toHaveLength(1);
          });
          const hundred = await t.queries.count(async () => {
            const res = await getTodo(kind, 'title_ua', '?size=100', options);
            expect(res.body.list).toHaveLength(30);
          });
          expect(one).toBeGreaterThan(0);
          expect(hundred).toBe(one);
        }
      },
    );
  });
});
