import type { Genre } from '../../src/catalog/genre.entity';
import type { Novel } from '../../src/catalog/novel.entity';
import type { RestRoute } from '../../src/rest/route';
import { restRoutes } from '../../src/routes';
import {
  buildGenre,
  buildMagazine,
  buildNovel,
  buildReadEntry,
  buildThirdPartyToken,
  buildToken,
  buildUser,
  linkTitle,
} from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { PAGINATION, READABLE_SUMMARY_WITH_READ, shapeProblems, type Shape } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { type Json } from '../setup/json';

/** #3 POST /novel: filters, search, sorts and paging of novels; optional auth, scope `read:readlist`. */
const t = useTestApp();

const route: RestRoute = restRoutes.find((r) => r.contract === 3)!;

interface Paging {
  page?: number;
  size?: number;
}

/** The REST call, with `page`/`size` in the query string. */
function search(body: unknown, options: CallOptions & Paging = {}) {
  const query = new URLSearchParams();
  if (options.page !== undefined) query.set('page', String(options.page));
  if (options.size !== undefined) query.set('size', String(options.size));
  const qs = query.toString();
  return rest(t.app, 'POST', `/novel${qs ? `?${qs}` : ''}`, body, options);
}

/** The route's own GraphQL document, as a frontend would send it. */
const searchGql = (input: unknown, options: CallOptions & Paging = {}) =>
  gql(t.app, route.document, { page: options.page ?? 1, size: options.size ?? 15, input }, options);

/** Slugs listed by a successful REST call. */
async function slugs(body: unknown, options: CallOptions & Paging = {}): Promise<string[]> {
  const res = await search(body, options);
  expect(res.status).toBe(200);
  return (res.body.list as Json[]).map((item) => item.slug as string);
}

const PAGE: Shape = { pagination: { object: PAGINATION }, list: { arrayOf: READABLE_SUMMARY_WITH_READ } };

const novel = (slug: string, o: Partial<Novel> = {}) => buildNovel(t.orm, { slug, ...o });

async function genre(slug: string): Promise<Genre> {
  return buildGenre(t.orm, { slug, name_en: slug });
}

/** A third-party token of `user` holding `scope`. */
async function thirdParty(scope: string[]): Promise<CallOptions> {
  return { token: await buildThirdPartyToken(t.orm, await buildUser(t.orm), scope) };
}

describe('POST /novel (#3)', () => {
  describe('REST ≡ GraphQL', () => {
    async function fixture() {
      const viewer = await buildUser(t.orm);
      const other = await buildUser(t.orm);
      const full = {
        title_original: '原題',
        title_ua: 'Назва',
        status: 'finished' as const,
        chapters: 10,
        volumes: 2,
        translated_ua: true,
        image: '/novel.jpg',
        year: 2015,
        start_date: new Date('2015-01-02T03:04:05.600Z'),
        end_date: new Date('2016-01-02T03:04:05Z'),
      };
      const a = await novel('alpha', { ...full, score: 9 });
      const b = await novel('beta', { ...full, score: 8 });
      await buildReadEntry(t.orm, viewer, { novel: a }, { status: 'completed', score: 9, note: 'mine' });
      await buildReadEntry(t.orm, viewer, { novel: b }, { status: 'reading', score: 7, note: 'mine' });
      await buildReadEntry(t.orm, other, { novel: a }, { status: 'dropped', note: 'theirs' });
      return { viewer };
    }

    async function expectParity(body: Json, options: CallOptions & Paging = {}) {
      const restRes = await search(body, options);
      const gqlRes = await searchGql(body, options);
      expect(restRes.status).toBe(200);
      expect(gqlRes.status).toBe(200);
      expect(gqlRes.body.errors).toBeUndefined();
      expect(restRes.body).toEqual(gqlRes.body.data.novelSearch);
      return restRes.body as Json;
    }

    it('answers data.novelSearch anonymously, with the contract fields and empty read arrays', async () => {
      await fixture();
      const body = await expectParity({});
      expect(shapeProblems(body, PAGE, 'page', ['read'])).toEqual([]);
      expect((body.list as Json[]).map((n) => n.read)).toEqual([[], []]);
      expect(body.pagination).toEqual({ total: 2, pages: 1, page: 1 });
    });

    it("answers data.novelSearch with a viewer token, holding only the viewer's own entries", async () => {
      const { viewer } = await fixture();
      const token = await buildToken(t.orm, viewer);
      const body = await expectParity({ sort: ['score:asc'] }, { token, page: 1, size: 5 });
      expect(shapeProblems(body, PAGE, 'page')).toEqual([]);
      const list = body.list as { slug: string; read: { note: string; status: string }[] }[];
      expect(list.map((n) => [n.slug, n.read.map((r) => [r.note, r.status])])).toEqual([
        ['beta', [['mine', 'reading']]],
        ['alpha', [['mine', 'completed']]],
      ]);
    });

    it('reports the same errors through both doors, in both languages', async () => {
      for (const [body, code, status] of [
        [{ sort: ['title:asc'] }, 'system:validation_error', 400],
        [{ magazines: ['nope'] }, 'novel:unknown_magazine', 400],
        [{ genres: ['-nope'] }, 'novel:unknown_genre', 400],
      ] as const) {
        for (const language of ['en', 'uk']) {
          const restRes = await search(body, { language });
          const gqlRes = await searchGql(body, { language });
          expect(restRes.status).toBe(status);
          expect(restRes.body.code).toBe(code);
          const [error] = gqlRes.body.errors;
          expect({
            message: error.message,
            code: error.extensions.code,
            status: error.extensions.http.status,
          }).toEqual({ message: restRes.body.message, code, status });
        }
      }
    });
  });

  describe('defaults and paging', () => {
    it('lists non-deleted novels by score desc, scored_by desc, then reference desc', async () => {
      await novel('low', { score: 5 });
      await novel('high', { score: 9, scored_by: 10 });
      await novel('high-more-votes', { score: 9, scored_by: 20 });
      const tied = [await novel('tie-1', { score: 7 }), await novel('tie-2', { score: 7 })];
      await novel('gone', { score: 10, deleted: true });
      const ties = tied
        .map((n) => n.slug)
        .sort((x, y) => {
          const [rx, ry] = [tied.find((n) => n.slug === x)!, tied.find((n) => n.slug === y)!];
          return rx.reference < ry.reference ? 1 : -1;
        });
      expect(await slugs({})).toEqual(['high-more-votes', 'high', ...ties, 'low']);
    });

    it('pages exactly: total, pages, a page past the end', async () => {
      for (let i = 0; i < 7; i += 1) await novel(`n${i}`, { score: i });
      const page2 = await search({}, { page: 2, size: 3 });
      expect(page2.body.pagination).toEqual({ total: 7, pages: 3, page: 2 });
      expect(page2.body.list.map((n: Json) => n.slug)).toEqual(['n3', 'n2', 'n1']);
      const past = await search({}, { page: 9, size: 3 });
      expect(past.status).toBe(200);
      expect(past.body).toEqual({ pagination: { total: 7, pages: 3, page: 9 }, list: [] });
      const none = await search({ status: ['paused'] });
      expect(none.body).toEqual({ pagination: { total: 0, pages: 0, page: 1 }, list: [] });
    });

    it('answers the default page size of 15', async () => {
      for (let i = 0; i < 16; i += 1) await novel(`n${i}`);
      const res = await search({});
      expect(res.body.list).toHaveLength(15);
      expect(res.body.pagination).toEqual({ total: 16, pages: 2, page: 1 });
    });
  });

  describe('filters', () => {
    it('years: bounds inclusive, either may be open; null and [] impose nothing', async () => {
      await novel('y1999', { year: 1999 });
      await novel('y2005', { year: 2005 });
      await novel('y2010', { year: 2010 });
      await novel('ynull', { year: null, score: 1 });
      const sorted = (list: string[]) => [...list].sort();
      expect(sorted(await slugs({ years: [2000, 2010] }))).toEqual(['y2005', 'y2010']);
      expect(sorted(await slugs({ years: [2005, null] }))).toEqual(['y2005', 'y2010']);
      expect(sorted(await slugs({ years: [null, 2005] }))).toEqual(['y1999', 'y2005']);
      expect(sorted(await slugs({ years: [2005, 2005] }))).toEqual(['y2005']);
      expect(await slugs({ years: [null, null] })).toHaveLength(4);
      expect(await slugs({ years: null })).toHaveLength(4);
      expect(await slugs({ years: [] })).toHaveLength(4);
      expect(await slugs({ years: [3000000000, null] })).toEqual([]);
    });

    it('media_type and status: the value is listed (a null value never matches)', async () => {
      await novel('ln', { media_type: 'light_novel', status: 'ongoing' });
      await novel('nv', { media_type: 'novel', status: 'finished' });
      await novel('none', { media_type: null, status: null });
      expect(await slugs({ media_type: ['novel'] })).toEqual(['nv']);
      expect((await slugs({ media_type: ['novel', 'light_novel'] })).sort()).toEqual(['ln', 'nv']);
      expect(await slugs({ status: ['ongoing'] })).toEqual(['ln']);
      expect((await slugs({ status: ['ongoing', 'finished'] })).sort()).toEqual(['ln', 'nv']);
      expect(await slugs({ media_type: [], status: [] })).toHaveLength(3);
    });

    it('only_translated: translated_ua is true', async () => {
      await novel('ua', { translated_ua: true });
      await novel('en', { translated_ua: false });
      expect(await slugs({ only_translated: true })).toEqual(['ua']);
      expect((await slugs({ only_translated: false })).sort()).toEqual(['en', 'ua']);
    });

    it('magazines: any listed magazine, each novel listed and counted once', async () => {
      const [m1, m2, m3] = [
        await buildMagazine(t.orm, { slug: 'm1' }),
        await buildMagazine(t.orm, { slug: 'm2' }),
        await buildMagazine(t.orm, { slug: 'm3' }),
      ];
      await linkTitle(t.orm, await novel('both'), { magazines: [m1, m2] });
      await linkTitle(t.orm, await novel('second'), { magazines: [m2] });
      await linkTitle(t.orm, await novel('third'), { magazines: [m3] });
      await novel('none');
      const res = await search({ magazines: ['m1', 'm2'] });
      expect(res.body.list.map((n: Json) => n.slug).sort()).toEqual(['both', 'second']);
      expect(res.body.pagination.total).toBe(2);
      expect(await slugs({ magazines: ['m3'] })).toEqual(['third']);
    });

    it('genres: every plain slug present, every `-` slug absent', async () => {
      const [action, drama, comedy] = [await genre('action'), await genre('drama'), await genre('comedy')];
      await linkTitle(t.orm, await novel('ad'), { genres: [action, drama] });
      await linkTitle(t.orm, await novel('a'), { genres: [action] });
      await linkTitle(t.orm, await novel('dc'), { genres: [drama, comedy] });
      await novel('none');
      expect((await slugs({ genres: ['action'] })).sort()).toEqual(['a', 'ad']);
      expect(await slugs({ genres: ['action', 'drama'] })).toEqual(['ad']);
      expect(await slugs({ genres: ['action', 'drama', 'action'] })).toEqual(['ad']);
      expect((await slugs({ genres: ['-action'] })).sort()).toEqual(['dc', 'none']);
      expect(await slugs({ genres: ['drama', '-comedy'] })).toEqual(['ad']);
      expect(await slugs({ genres: ['-drama', '-action'] })).toEqual(['none']);
    });

    it('score: literal comparison, bounds inclusive, 0 a real bound', async () => {
      await novel('s0', { score: 0 });
      await novel('s8', { score: 8 });
      await novel('s9', { score: 9 });
      await novel('s907', { score: 9.07 });
      await novel('s10', { score: 10 });
      expect((await slugs({ score: [8, 9] })).sort()).toEqual(['s8', 's9']);
      expect(await slugs({ score: [0, 0] })).toEqual(['s0']);
      expect((await slugs({ score: [9, null] })).sort()).toEqual(['s10', 's9', 's907']);
      expect((await slugs({ score: [null, 8] })).sort()).toEqual(['s0', 's8']);
      expect(await slugs({ score: [null, null] })).toHaveLength(5);
    });

    it('native_score: the derived native score (0 below 10 scored entries)', async () => {
      // No baseline row: C = 0, so native_score = v/(v+10)·S: v = 10, S = 8 → 4; v = 30, S = 10 → 7.5.
      await novel('few', { native_scored_by: 5, native_score_total: 50 });
      await novel('four', { native_scored_by: 10, native_score_total: 80 });
      await novel('seven-half', { native_scored_by: 30, native_score_total: 300 });
      expect(await slugs({ native_score: [4, 4] })).toEqual(['four']);
      expect(await slugs({ native_score: [5, null] })).toEqual(['seven-half']);
      expect(await slugs({ native_score: [0, 0] })).toEqual(['few']);
      expect((await slugs({ native_score: [null, 7] })).sort()).toEqual(['few', 'four']);
    });

    it('NSFW auto-hide: without genres and query, titles with ecchi, erotica or hentai are hidden', async () => {
      const [ecchi, erotica, hentai, drama] = [
        await genre('ecchi'),
        await genre('erotica'),
        await genre('hentai'),
        await genre('drama'),
      ];
      await linkTitle(t.orm, await novel('nsfw-ecchi', { title_en: 'Secret garden' }), {
        genres: [ecchi, drama],
      });
      await linkTitle(t.orm, await novel('nsfw-erotica', { title_en: 'Secret room' }), { genres: [erotica] });
      await linkTitle(t.orm, await novel('nsfw-hentai'), { genres: [hentai] });
      await linkTitle(t.orm, await novel('safe', { title_en: 'Secret path' }), { genres: [drama] });
      expect(await slugs({})).toEqual(['safe']);
      expect(await slugs({ genres: [] })).toEqual(['safe']);
      // Any genre, even an exclusion, turns the auto-hide off; so does a query.
      expect((await slugs({ genres: ['drama'] })).sort()).toEqual(['nsfw-ecchi', 'safe']);
      expect((await slugs({ genres: ['-erotica'] })).sort()).toEqual(['nsfw-ecchi', 'nsfw-hentai', 'safe']);
      expect((await slugs({ query: 'secret' })).sort()).toEqual(['nsfw-ecchi', 'nsfw-erotica', 'safe']);
    });

    it('never lists deleted novels, whatever the filter or query', async () => {
      const drama = await genre('drama');
      await linkTitle(t.orm, await novel('gone', { title_en: 'Berserk', deleted: true, year: 2000 }), {
        genres: [drama],
      });
      await novel('kept', { title_en: 'Berserk', year: 2000 });
      expect(await slugs({})).toEqual(['kept']);
      expect(await slugs({ query: 'Berserk' })).toEqual(['kept']);
      await genre('action');
      expect(await slugs({ genres: ['-action'], years: [2000, 2000] })).toEqual(['kept']);
    });

    it('combines different filters with AND', async () => {
      await novel('match', { year: 2010, status: 'ongoing', translated_ua: true, score: 8 });
      await novel('wrong-year', { year: 2000, status: 'ongoing', translated_ua: true, score: 8 });
      await novel('wrong-status', { year: 2010, status: 'finished', translated_ua: true, score: 8 });
      await novel('untranslated', { year: 2010, status: 'ongoing', translated_ua: false, score: 8 });
      await novel('low-score', { year: 2010, status: 'ongoing', translated_ua: true, score: 3 });
      expect(
        await slugs({ years: [2010, null], status: ['ongoing'], only_translated: true, score: [5, null] }),
      ).toEqual(['match']);
    });
  });

  describe('query', () => {
    async function library() {
      await novel('berserk', { title_en: 'Berserk', title_original: 'ベルセルク', score: 5 });
      await novel('ua-only', { title_en: null, title_ua: 'Відьмак', score: 6 });
      await novel('synonym', {
        title_en: 'The Witcher Saga',
        synonyms: ['Wiedźmin', 'Geralt of Rivia'],
        score: 7,
      });
      await novel('original', { title_en: 'Overlord', title_original: 'オーバーロード', score: 8 });
      await novel('unrelated', { title_en: 'Spice and Wolf', score: 9 });
    }

    it('is typo tolerant: "Berserc" finds Berserk', async () => {
      await library();
      expect(await slugs({ query: 'Berserc' })).toEqual(['berserk']);
    });

    it('matches Ukrainian titles case-insensitively, original titles and synonyms', async () => {
      await library();
      expect(await slugs({ query: 'відьмак' })).toEqual(['ua-only']);
      expect(await slugs({ query: 'WIEDŹMIN' })).toEqual(['synonym']);
      expect(await slugs({ query: 'of Rivia' })).toEqual(['synonym']);
      expect(await slugs({ query: 'オーバーロード' })).toEqual(['original']);
      expect(await slugs({ query: 'zzzz' })).toEqual([]);
    });

    it('ranks substring matches first, then by similarity, then reference desc', async () => {
      await novel('similar', { title_en: 'Berserc', score: 9 });
      await novel('exact-inside', { title_en: 'The Berserk Saga', score: 1 });
      await novel('partial', { title_en: 'Bersek warriors', score: 8 });
      await novel('unrelated', { title_en: 'Overlord', score: 10 });
      const found = await slugs({ query: 'Berserk' });
      expect(found[0]).toBe('exact-inside');
      expect(found).toEqual(['exact-inside', 'similar', 'partial']);
    });

    it('a substring of any length ranks as an exact match (LIKE wildcards taken literally)', async () => {
      await novel('percent', { title_en: '100% Love', score: 1 });
      await novel('hundred', { title_en: '1000 Love', score: 9 });
      expect(await slugs({ query: '0% L' })).toEqual(['percent']);
    });

    it('keeps the other filters and the NSFW genres visible, and counts totals exactly', async () => {
      for (let i = 0; i < 5; i += 1)
        await novel(`berserk-${i}`, { title_en: `Berserk ${i}`, year: 2000 + i });
      await novel('other', { title_en: 'Spice and Wolf', year: 2002 });
      const res = await search({ query: 'berserk', years: [2001, 2003] }, { size: 2 });
      expect(res.body.pagination).toEqual({ total: 3, pages: 2, page: 1 });
      const second = await search({ query: 'berserk', years: [2001, 2003] }, { size: 2, page: 2 });
      expect(second.body.pagination).toEqual({ total: 3, pages: 2, page: 2 });
      const all = [...res.body.list, ...second.body.list].map((n: Json) => n.slug).sort();
      expect(all).toEqual(['berserk-1', 'berserk-2', 'berserk-3']);
    });

    it('with a sort key, orders by the sort entries instead of the rank', async () => {
      await novel('exact', { title_en: 'Berserk', score: 1 });
      await novel('typo', { title_en: 'Berserc', score: 9 });
      expect(await slugs({ query: 'Berserk' })).toEqual(['exact', 'typo']);
      expect(await slugs({ query: 'Berserk', sort: ['score:desc'] })).toEqual(['typo', 'exact']);
    });

    describe('matches kept between requests (src/catalog/title-search.ts)', () => {
      const execute = (statement: string) => t.orm.em.fork().getConnection().execute(statement);
      const statements = (body: Json) =>
        t.queries.count(async () => expect((await search(body)).status).toBe(200));

      it('serve a repeated query from one version look-up, and a new one from one computation', async () => {
        await library();
        const cold = { query: 'Berzerk' }; // a query no other test sends
        const computes = () =>
          t.queries.last.filter((statement) => statement.includes('word_similarity')).length;
        expect(await statements(cold)).toBe(2); // the matches with the version, then the page
        expect(computes()).toBe(1);
        expect(await statements(cold)).toBe(2); // the version alone, then the page
        expect(computes()).toBe(0);
        expect(t.queries.last[0]).toContain('title_search_version');
        expect(await slugs(cold)).toEqual(['berserk']);
      });

      it('are computed once for concurrent requests of a new query', async () => {
        await library();
        const concurrent = await t.queries.count(async () => {
          const answers = await Promise.all([1, 2, 3, 4, 5].map(() => search({ query: 'Berserkk' })));
          for (const res of answers) expect(res.body.list.map((n: Json) => n.slug)).toEqual(['berserk']);
        });
        expect(concurrent).toBe(1 + 5); // one computation, five pages
      });

      it('hold only while no title text of the kind changes: renamed, added, removed, emptied', async () => {
        await library();
        expect(await slugs({ query: 'Berserk' })).toEqual(['berserk']);
        await execute(`update novel set title_en = 'Claymore' where slug = 'berserk'`);
        expect(await slugs({ query: 'Berserk' })).toEqual([]);
        expect(await slugs({ query: 'Claymore' })).toEqual(['berserk']);
        await execute(`update novel set synonyms = '{"Berserk Deluxe"}' where slug = 'unrelated'`);
        expect(await slugs({ query: 'Berserk' })).toEqual(['unrelated']);
        await novel('added', { title_ua: 'Берсерк', title_en: 'Berserk: Added', score: 1 });
        // Both contain the query (rank 1): their order is by reference.
        expect((await slugs({ query: 'Berserk' })).sort()).toEqual(['added', 'unrelated']);
        await execute(`delete from novel where slug = 'unrelated'`);
        expect(await slugs({ query: 'Berserk' })).toEqual(['added']);
        await execute(`truncate novel cascade`);
        expect(await slugs({ query: 'Berserk' })).toEqual([]);
      });

      it('apply the deleted flag and every other filter as they are now', async () => {
        await library();
        expect(await slugs({ query: 'Berserk' })).toEqual(['berserk']);
        await execute(`update novel set deleted = true where slug = 'berserk'`);
        expect(await slugs({ query: 'Berserk' })).toEqual([]);
        await execute(`update novel set deleted = false, year = 1990 where slug = 'berserk'`);
        expect(await slugs({ query: 'Berserk', years: [2000, null] })).toEqual([]);
        expect(await slugs({ query: 'Berserk', years: [1990, 1990] })).toEqual(['berserk']);
      });

      it('are renewed by changes to the searched columns of each kind, not by other columns', async () => {
        const version = async (kind: string) => {
          const [row] = await execute(
            `select version::text as version from title_search_version where kind = '${kind}'`,
          );
          return (row as { version?: string } | undefined)?.version;
        };
        await library();
        const searched = {
          anime: ['title_ua', 'title_en', 'title_ja', 'synonyms', 'extcat_id'],
          manga: ['title_ua', 'title_en', 'title_original', 'synonyms', 'extcat_id'],
          novel: ['title_ua', 'title_en', 'title_original', 'synonyms', 'extcat_id'],
        };
        for (const [kind, columns] of Object.entries(searched)) {
          for (const column of columns) {
            const before = await version(kind);
            await execute(`update ${kind} set ${column} = ${column} where false`);
            expect(await version(kind)).not.toBe(before);
          }
          const before = await version(kind);
          await execute(`update ${kind} set score = score, deleted = deleted, year = year`);
          expect(await version(kind)).toBe(before);
        }
      });
    });
  });

  describe('sort', () => {
    it.each([
      ['score', { score: 1 }, { score: 2 }],
      ['scored_by', { scored_by: 1 }, { scored_by: 2 }],
      ['native_scored_by', { native_scored_by: 1 }, { native_scored_by: 2 }],
      [
        'native_score',
        { native_scored_by: 10, native_score_total: 50 },
        { native_scored_by: 10, native_score_total: 90 },
      ],
      ['media_type', { media_type: 'light_novel' as const }, { media_type: 'novel' as const }],
      ['start_date', { start_date: new Date('2001-01-01') }, { start_date: new Date('2002-01-01') }],
      ['created', { created: new Date('2001-01-01') }, { created: new Date('2002-01-01') }],
      ['updated', { updated: new Date('2001-01-01') }, { updated: new Date('2002-01-01') }],
    ])('%s asc and desc', async (field, smaller: Partial<Novel>, larger: Partial<Novel>) => {
      // The default order (score desc) would put `big` first if the sort were ignored... and vice versa.
      await novel('small', { score: 9, ...smaller });
      await novel('big', { score: 1, ...larger });
      if (field === 'score') {
        expect(await slugs({ sort: ['score:asc'] })).toEqual(['small', 'big']);
        expect(await slugs({ sort: ['score:desc'] })).toEqual(['big', 'small']);
        return;
      }
      expect(await slugs({ sort: [`${field}:asc`] })).toEqual(['small', 'big']);
      expect(await slugs({ sort: [`${field}:desc`] })).toEqual(['big', 'small']);
    });

    it('applies entries in order, then reference desc; an empty sort leaves only the tie-break', async () => {
      const a = await novel('a', { score: 5, scored_by: 1 });
      const b = await novel('b', { score: 5, scored_by: 1 });
      const c = await novel('c', { score: 5, scored_by: 9 });
      const d = await novel('d', { score: 6, scored_by: 0 });
      const byReferenceDesc = (list: Novel[]) =>
        [...list].sort((x, y) => (x.reference < y.reference ? 1 : -1)).map((n) => n.slug);
      expect(await slugs({ sort: ['scored_by:asc', 'score:desc'] })).toEqual([
        'd',
        ...byReferenceDesc([a, b]),
        'c',
      ]);
      expect(await slugs({ sort: [] })).toEqual(byReferenceDesc([a, b, c, d]));
    });

    it('start_date desc puts nulls last; asc puts them last too; media_type uses the C collation', async () => {
      await novel('dated', { start_date: new Date('2001-01-01') });
      await novel('undated', { start_date: null, score: 9 });
      expect(await slugs({ sort: ['start_date:desc'] })).toEqual(['dated', 'undated']);
      expect(await slugs({ sort: ['start_date:asc'] })).toEqual(['dated', 'undated']);
    });
  });

  describe('validation (400 system:validation_error naming the field)', () => {
    it.each([
      [{ years: [2000] }, 'years'],
      [{ years: [2000, 2001, 2002] }, 'years'],
      [{ years: [2010, 2000] }, 'years'],
      [{ years: [0, null] }, 'years'],
      [{ years: [1.5, null] }, 'years'],
      [{ years: ['2000.0', null] }, 'years'],
      [{ years: ['', null] }, 'years'],
      [{ years: [true, null] }, 'years'],
      [{ years: 2000 }, 'years'],
      [{ media_type: ['tv'] }, 'media_type'],
      [{ media_type: null }, 'media_type'],
      [{ status: ['airing'] }, 'status'],
      [{ only_translated: 'yes' }, 'only_translated'],
      [{ only_translated: null }, 'only_translated'],
      [{ magazines: [1] }, 'magazines'],
      [{ genres: [true] }, 'genres'],
      [{ score: [1] }, 'score'],
      [{ score: [1, 2, 3] }, 'score'],
      [{ score: [9, 8] }, 'score'],
      [{ score: [-1, null] }, 'score'],
      [{ score: [null, 11] }, 'score'],
      [{ score: [7.5, null] }, 'score'],
      [{ score: null }, 'score'],
      [{ native_score: [5, 4] }, 'native_score'],
      [{ native_score: [] }, 'native_score'],
      [{ query: 'a' }, 'query'],
      [{ query: 'x'.repeat(256) }, 'query'],
      [{ query: 12 }, 'query'],
      [{ sort: ['title:asc'] }, 'sort'],
      [{ sort: ['score:desc', 'score:asc'] }, 'sort'],
      [{ sort: ['score:up'] }, 'sort'],
      [{ sort: ['score'] }, 'sort'],
      [{ sort: ['score:desc:x'] }, 'sort'],
      [{ sort: ['watch_score:desc'] }, 'sort'],
      [{ surprise: 1 }, 'surprise'],
      [{ sort: ['bad:asc'], years: [3, 2] }, 'years'],
      [{ query: 'a', magazines: [1] }, 'magazines'],
      [{ surprise: 1, sort: ['bad:asc'] }, 'sort'],
    ])('%j → %s, through REST and GraphQL', async (body, name) => {
      const res = await search(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'system:validation_error',
        message: `Invalid field ${name} in request body`,
      });
      const graph = await searchGql(body);
      const [error] = graph.body.errors;
      expect(error.extensions.code).toBe('system:validation_error');
      // Unknown keys and values GraphQL cannot coerce fail in graphql-js (its own message);
      // everything else is named exactly as in REST.
      if (graph.status === 400 && error.message !== res.body.message) {
        expect(error.message).toMatch(/\$input|input/);
      } else {
        expect(error.message).toBe(res.body.message);
        expect(error.extensions.http.status).toBe(400);
      }
    });

    it.each([
      [{ media_type: 'novel' }, 'media_type'],
      [{ magazines: 'm1' }, 'magazines'],
      [{ sort: 'score:desc' }, 'sort'],
    ])(
      '%j (a single value for an array) → %s in REST; GraphQL coerces it to a one-item list',
      async (body, name) => {
        await buildMagazine(t.orm, { slug: 'm1' });
        const res = await search(body);
        expect(res.status).toBe(400);
        expect(res.body.message).toBe(`Invalid field ${name} in request body`);
        const graph = await searchGql(body);
        expect(graph.body.errors).toBeUndefined();
      },
    );

    it.each([
      ['page=0', 'page'],
      ['size=101', 'size'],
      ['size=0', 'size'],
      ['page=10001', 'page'],
      ['page=1.5', 'page'],
    ])('query %s → Invalid field %s in request query', async (qs, name) => {
      const res = await rest(t.app, 'POST', `/novel?${qs}`, { sort: ['bad:asc'] });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(`Invalid field ${name} in request query`);
    });

    it('GraphQL page 0 and size 101 are refused with HTTP 400', async () => {
      for (const [args, name] of [
        [{ page: 0 }, 'page'],
        [{ size: 101 }, 'size'],
      ] as const) {
        const res = await gql(t.app, route.document, { ...args, input: {} });
        expect(res.status).toBe(400);
        expect(res.body.errors[0].message).toBe(`Invalid field ${name} in request query`);
      }
    });

    it('a missing or non-JSON body is `Invalid field in request body`', async () => {
      const empty = await rest(t.app, 'POST', '/novel');
      expect(empty.status).toBe(400);
      expect(empty.body.message).toBe('Invalid field in request body');
      const array = await search([]);
      expect(array.body.message).toBe('Invalid field in request body');
    });
  });

  describe('check order: validation → scope → magazines → genres', () => {
    it('a third-party token without read:readlist is refused (403) after validation', async () => {
      const stranger = await thirdParty(['read:watchlist']);
      const invalid = await search({ sort: ['bad:asc'] }, stranger);
      expect(invalid.status).toBe(400);
      const denied = await search({ magazines: ['nope'] }, stranger);
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe('permission:denied');
      const graph = await searchGql({}, stranger);
      expect(graph.body.errors[0].extensions).toEqual({ code: 'permission:denied', http: { status: 403 } });
    });

    it('a third-party token with read:readlist (or its group) gets its read entries', async () => {
      const n = await novel('mine');
      for (const scope of ['read:readlist', 'readlist']) {
        const user = await buildUser(t.orm);
        const token = await buildThirdPartyToken(t.orm, user, [scope]);
        await buildReadEntry(t.orm, user, { novel: n }, { note: scope });
        const res = await search({}, { token });
        expect(res.status).toBe(200);
        expect(res.body.list[0].read.map((r: Json) => r.note)).toEqual([scope]);
      }
    });

    it('bad or expired tokens mean anonymous; a deleted account is 400 user:deleted', async () => {
      await novel('n');
      const invalid = await search({}, { token: 'not-a-token' });
      expect(invalid.status).toBe(200);
      const expired = await buildToken(t.orm, await buildUser(t.orm), {
        expiration: new Date(Date.now() - 1000),
      });
      expect((await search({}, { token: expired })).status).toBe(200);
      const deleted = await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' }));
      const res = await search({}, { token: deleted });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('user:deleted');
    });

    it('magazines: unknown or repeated slugs are 400 novel:unknown_magazine, before genre checks', async () => {
      await buildMagazine(t.orm, { slug: 'm1' });
      await genre('drama');
      for (const magazines of [['nope'], ['m1', 'nope'], ['m1', 'm1']]) {
        const res = await search({ magazines, genres: ['nope'] });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'novel:unknown_magazine', message: 'Unknown magazine' });
      }
      expect((await search({ magazines: ['m1'], genres: ['drama'] })).status).toBe(200);
    });

    it('genres: checked after removing prefixes and duplicates; unknown is 400 novel:unknown_genre', async () => {
      await genre('drama');
      for (const genres of [['nope'], ['-nope'], ['drama', '-nope'], ['--drama']]) {
        const res = await search({ genres }, { language: 'uk' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'novel:unknown_genre', message: 'Невідомий жанр' });
      }
      for (const genres of [['drama', 'drama'], ['-drama'], ['drama', '-drama']]) {
        expect((await search({ genres })).status).toBe(200);
      }
    });
  });

  describe('SQL queries per request', () => {
    it('do not grow with the page size (size 1 vs 100, 40 matching novels, with a viewer)', async () => {
      const viewer = await buildUser(t.orm);
      const token = await buildToken(t.orm, viewer);
      const drama = await genre('drama');
      const magazine = await buildMagazine(t.orm, { slug: 'mag' });
      for (let i = 0; i < 40; i += 1) {
        const n = await novel(`n${i}`, { title_en: `Berserk ${i}` });
        await linkTitle(t.orm, n, { genres: [drama], magazines: [magazine] });
        if (i % 2 === 0) await buildReadEntry(t.orm, viewer, { novel: n });
      }
      const count = async (body: Json, size: number, options: CallOptions = { token }) => {
        let status = 0;
        let length = 0;
        const queries = await t.queries.count(async () => {
          const res = await search(body, { ...options, size });
          status = res.status;
          length = res.body.list.length;
        });
        expect(status).toBe(200);
        expect(length).toBe(Math.min(size, 40));
        return queries;
      };
      await count({}, 1); // the token's first use writes once
      // A query's first use computes its matches (src/catalog/title-search.ts); later ones read their version.
      await count({ query: 'berserk' }, 1);
      for (const body of [{}, { query: 'berserk', genres: ['drama'], magazines: ['mag'] }]) {
        const small = await count(body, 1);
        const large = await count(body, 100);
        expect(large).toBe(small);
        const anonymousSmall = await count(body, 1, {});
        expect(await count(body, 100, {})).toBe(anonymousSmall);
      }
      // One compiled statement (the page with its titles and the caller's entries); a
      // viewer's token +1; the magazine and genre look-ups +1 together.
      expect(await count({}, 100, {})).toBe(1);
      expect(await count({}, 100)).toBe(2);
      expect(await count({ genres: ['drama'], magazines: ['mag'] }, 100)).toBe(3);
      expect(await count({ query: 'berserk' }, 100, {})).toBe(2);
    });
  });
});
