import { AuthToken } from '../../src/accounts/auth-token.entity';
import type { Anime } from '../../src/catalog/anime.entity';
import type { Manga } from '../../src/catalog/manga.entity';
import type { Novel } from '../../src/catalog/novel.entity';
import { restRoutes } from '../../src/routes';
import { buildAnime, buildManga, buildNovel, buildToken, buildUser, orderedReference } from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { shapeProblems, type Shape } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { tokensToIgnore } from '../setup/ignored-tokens';
import { type Json, seconds } from '../setup/json';
import { executedTwin } from '../setup/list-route';

/**
 * GET /sitemap/sitemap_{content_type}.json (`sitemap`, pages.md "Sitemaps"): every
 * non-deleted anime, manga or novel as `{slug, updated_at}`, best scored first.
 */
const t = useTestApp();

type Kind = 'anime' | 'manga' | 'novel';
const KINDS: readonly Kind[] = ['anime', 'manga', 'novel'];

const PATH = '/sitemap/sitemap_{content_type}.json';
const route = restRoutes.find((r) => r.method === 'GET' && r.path === PATH)!;
const resolverDocument = executedTwin(route.document);
const DOCUMENTS = [
  ['/graphql route document', route.document],
  ['/graphql executed twin', resolverDocument],
] as const;

const ENTRY: Shape = { slug: 'string', updated_at: 'integer' };
const BAD_KIND = {
  status: 400,
  code: 'system:validation_error',
  message: 'Invalid field content_type in request path',
} as const;
const BAD_KIND_UK = 'Некоректне поле content_type у запиті path';

// ---------------------------------------------------------------------------
// Data and calls.

type Title = Anime | Manga | Novel;
function title(kind: Kind, o: Partial<Title> = {}): Promise<Title> {
  if (kind === 'anime') return buildAnime(t.orm, o as Partial<Anime>);
  if (kind === 'manga') return buildManga(t.orm, o as Partial<Manga>);
  return buildNovel(t.orm, o as Partial<Novel>);
}

const sql = <T = Json>(text: string, params: unknown[] = []): Promise<T[]> =>
  t.orm.em.getConnection().execute<T[]>(text, params);

const call = (kind: string, options: CallOptions = {}) =>
  rest(t.app, 'GET', `/sitemap/sitemap_${kind}.json`, undefined, options);
const callGql = (kind: string, options: CallOptions = {}, document: string = route.document) =>
  gql(t.app, document, { content_type: kind }, options);

/** REST, the compiled document and its executed twin: one 200 answer; returns it. */
async function expectSitemap(kind: string, options: CallOptions = {}): Promise<Json[]> {
  const viaRest = await call(kind, options);
  expect(viaRest.status).toBe(200);
  expect(Array.isArray(viaRest.body)).toBe(true);
  for (const [name, document] of DOCUMENTS) {
    const viaGql = await callGql(kind, options, document);
    expect({ document: name, errors: viaGql.body.errors }).toEqual({ document: name, errors: undefined });
    expect({ document: name, body: viaGql.body.data.sitemap }).toEqual({
      document: name,
      body: viaRest.body,
    });
  }
  return viaRest.body as Json[];
}

const slugsOf = (body: Json[]): string[] => body.map((entry) => entry.slug as string);

// ---------------------------------------------------------------------------

describe('GET /sitemap/sitemap_{content_type}.json', () => {
  it('is a GET without authentication, its one parameter content_type, answering sitemap', () => {
    expect(route).toMatchObject({ auth: 'none', rootField: 'sitemap' });
    expect(Object.keys(route.params)).toEqual(['content_type']);
    expect(route.paged).toBeFalsy();
  });

  describe.each(KINDS)('%s', (kind) => {
    it('a plain array of {slug, updated_at} of every live title of the kind, best scored first', async () => {
      const others = KINDS.filter((k) => k !== kind);
      await title(kind, { slug: `${kind}-good`, score: 8.2, scored_by: 10 });
      await title(kind, { slug: `${kind}-best`, score: 9.1, scored_by: 5 });
      await title(kind, { slug: `${kind}-gone`, score: 9.9, deleted: true });
      await title(kind, { slug: `${kind}-poor`, score: 1.05, scored_by: 1000 });
      await title(kind, { slug: `${kind}-unscored`, score: 0, scored_by: 0 });
      // Titles of the other kinds never show.
      for (const other of others) await title(other, { slug: `${other}-elsewhere`, score: 10 });
      const body = await expectSitemap(kind);
      body.forEach((entry, i) => expect(shapeProblems(entry, ENTRY, `[${i}]`)).toEqual([]));
      expect(slugsOf(body)).toEqual([`${kind}-best`, `${kind}-good`, `${kind}-poor`, `${kind}-unscored`]);
    });

    it('no live title: []', async () => {
      await title(kind, { deleted: true });
      for (const other of KINDS.filter((k) => k !== kind)) await title(other);
      expect(await expectSitemap(kind)).toEqual([]);
    });
  });

  describe('order', () => {
    it('score desc, then scored_by desc, then reference asc (not slug, not creation order)', async () => {
      const rows: [number, string, number, number][] = [
        [5, 'e', 7.5, 100],
        [4, 'd', 7.5, 100],
        [9, 'a', 7.5, 100],
        [1, 'z', 7.5, 50],
        [7, 'b', 7.5, 200],
        [8, 'c', 7.51, 1],
        [2, 'y', 7.49, 1000],
      ];
      for (const [n, slug, score, scored_by] of rows) {
        await title('manga', { reference: orderedReference(n), slug, score, scored_by });
      }
      expect(slugsOf(await expectSitemap('manga'))).toEqual(['c', 'b', 'd', 'e', 'a', 'z', 'y']);
    });

    it('a title leaves the sitemap once deleted and moves when its score changes', async () => {
      const first = await title('novel', { slug: 'first', score: 9 });
      await title('novel', { slug: 'second', score: 8 });
      await title('novel', { slug: 'third', score: 7 });
      expect(slugsOf(await expectSitemap('novel'))).toEqual(['first', 'second', 'third']);
      await sql(`update novel set score = 1 where slug = 'third'`);
      await sql(`update novel set deleted = true where reference = ?`, [first.reference]);
      expect(slugsOf(await expectSitemap('novel'))).toEqual(['second', 'third']);
    });
  });

  describe('updated_at', () => {
    it("is the title's updated time in whole Unix seconds, or null when it has none", async () => {
      await title('anime', { slug: 'dated', score: 9, updated: new Date('2024-03-05T06:07:08Z') });
      await title('anime', { slug: 'never', score: 8, updated: null } as Partial<Title>);
      const body = await expectSitemap('anime');
      expect(body).toEqual([
        { slug: 'dated', updated_at: seconds('2024-03-05T06:07:08Z') },
        { slug: 'never', updated_at: null },
      ]);
      expect(shapeProblems(body[0], ENTRY, '[0]')).toEqual([]);
    });

    it('truncates fractions of a second (semantics §1.6), never rounding up', async () => {
      await title('anime', {
        slug: 'late-in-second',
        score: 9,
        updated: new Date('2024-01-02T00:00:00.700Z'),
      });
      await title('manga', { slug: 'half', score: 9, updated: new Date('2024-01-02T00:00:00.500Z') });
      await title('novel', { slug: 'micro', score: 9 });
      await sql(`update novel set updated = '2024-01-02T00:00:00.999999Z'`);
      const expected = seconds('2024-01-02T00:00:00Z');
      expect({
        anime: await expectSitemap('anime'),
        manga: await expectSitemap('manga'),
        novel: await expectSitemap('novel'),
      }).toEqual({
        anime: [{ slug: 'late-in-second', updated_at: expected }],
        manga: [{ slug: 'half', updated_at: expected }],
        novel: [{ slug: 'micro', updated_at: expected }],
      });
    });

    it('is not the created time', async () => {
      await title('manga', {
        slug: 'edited',
        created: new Date('2020-01-01T00:00:00Z'),
        updated: new Date('2023-06-01T12:00:00Z'),
      });
      expect(await expectSitemap('manga')).toEqual([
        { slug: 'edited', updated_at: seconds('2023-06-01T12:00:00Z') },
      ]);
    });
  });

  describe('validation', () => {
    it.each(['Anime', 'ANIME', 'person', 'character', 'collection', 'article', 'animes', 'mangas', 'x'])(
      'content_type %s → 400 Invalid field content_type in request path; GraphQL refuses it alike',
      async (kind) => {
        await title('anime', { slug: 'present' });
        const res = await call(kind);
        expect({ status: res.status, body: res.body }).toEqual({
          status: 400,
          body: { code: BAD_KIND.code, message: BAD_KIND.message },
        });
        for (const [name, document] of DOCUMENTS) {
          const graph = await callGql(kind, {}, document);
          expect({ document: name, status: graph.status, data: graph.body.data }).toEqual({
            document: name,
            status: 400,
            data: undefined,
          });
          expect(graph.body.errors).toHaveLength(1);
          expect(graph.body.errors[0].extensions.code).toBe(BAD_KIND.code);
          expect(graph.body.errors[0].extensions.http).toEqual({ status: 400 });
        }
      },
    );

    it('the content_type message in Ukrainian, on REST and GraphQL', async () => {
      const res = await call('person', { language: 'uk' });
      expect([res.status, res.body]).toEqual([400, { code: BAD_KIND.code, message: BAD_KIND_UK }]);
      const graph = await callGql('person', { language: 'uk' });
      expect(graph.body.errors[0].extensions.code).toBe(BAD_KIND.code);
    });

    it('the validation error comes whatever the token (there is no authentication step)', async () => {
      const gone = await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' }));
      for (const token of ['not-a-token', gone]) {
        const res = await call('people', { token });
        expect([res.status, res.body.code]).toEqual([400, BAD_KIND.code]);
      }
    });

    it('other suffixes, cases and a trailing slash are unknown paths (404 system:not_found)', async () => {
      await title('anime');
      for (const path of [
        '/sitemap/sitemap_anime.xml',
        '/sitemap/sitemap_anime.JSON',
        '/sitemap/sitemap_anime.json/',
        '/sitemap/anime.json',
        '/Sitemap/sitemap_anime.json',
      ]) {
        const res = await rest(t.app, 'GET', path);
        expect({ path, status: res.status, code: res.body.code }).toEqual({
          path,
          status: 404,
          code: 'system:not_found',
        });
      }
    });

    it('ignores query parameters and any body; answers HEAD', async () => {
      await title('anime', { slug: 'only' });
      const plain = await expectSitemap('anime');
      expect((await rest(t.app, 'GET', '/sitemap/sitemap_anime.json?page=0&size=x')).body).toEqual(plain);
      expect((await rest(t.app, 'GET', '/sitemap/sitemap_anime.json', { x: 1 })).body).toEqual(plain);
      expect((await rest(t.app, 'HEAD', '/sitemap/sitemap_anime.json')).status).toBe(200);
      expect((await rest(t.app, 'POST', '/sitemap/sitemap_anime.json', {})).status).toBe(405);
    });
  });

  describe('authentication none: the token is never resolved', () => {
    it.each(tokensToIgnore(t))('%s: the same answer as anonymous, on every door', async (_name, make) => {
      await title('anime', { slug: 'a1', score: 9 });
      await title('anime', { slug: 'a2', score: 8 });
      const anonymous = await expectSitemap('anime');
      expect(await expectSitemap('anime', { token: await make() })).toEqual(anonymous);
      expect(slugsOf(anonymous)).toEqual(['a1', 'a2']);
    });

    it('a valid token is not used: no token statement, its expiry not slid, its use not recorded', async () => {
      await title('novel', { slug: 'n1' });
      const user = await buildUser(t.orm);
      const expiration = new Date(Date.now() + 60 * 60 * 1000);
      const token = await buildToken(t.orm, user, { expiration });
      const count = await t.queries.count(async () => {
        expect((await call('novel', { token })).status).toBe(200);
      });
      expect(count).toBe(1);
      expect(t.queries.last.filter((statement) => /auth_token|"user"/.test(statement))).toEqual([]);
      const stored = await t.orm.em.fork().findOneOrFail(AuthToken, { user: user.reference });
      expect(stored.used).toBeNull();
      expect(stored.expiration.getTime()).toBe(expiration.getTime());
    });
  });

  describe('bounded SQL', () => {
    it.each(KINDS)(
      '%s: one statement on REST and the compiled document, for 1 title as for 30; the executed twin bounded',
      async (kind) => {
        const counts = async (expected: number): Promise<number[]> => {
          const result = [
            await t.queries.count(async () => {
              const res = await call(kind);
              expect(res.status).toBe(200);
              expect(res.body).toHaveLength(expected);
            }),
          ];
          for (const [, document] of DOCUMENTS) {
            result.push(
              await t.queries.count(async () => {
                const res = await callGql(kind, {}, document);
                expect(res.body.errors).toBeUndefined();
                expect(res.body.data.sitemap).toHaveLength(expected);
              }),
            );
          }
          return result;
        };
        await title(kind);
        const one = await counts(1);
        for (let i = 0; i < 29; i += 1)
          await title(kind, { score: i / 3, updated: i % 2 ? null : new Date() } as Partial<Title>);
        const many = await counts(30);
        expect(many).toEqual(one);
        expect(one.slice(0, 2)).toEqual([1, 1]);
        expect(one[2]).toBeGreaterThanOrEqual(1);
      },
    );
  });
});
