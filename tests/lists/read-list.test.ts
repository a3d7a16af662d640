import type { User } from '../../src/accounts/user.entity';
import { Genre } from '../../src/catalog/genre.entity';
import { Magazine } from '../../src/catalog/magazine.entity';
import type { Manga } from '../../src/catalog/manga.entity';
import type { Novel } from '../../src/catalog/novel.entity';
import type { ReadEntry } from '../../src/lists/read-entry.entity';
import type { RestRoute } from '../../src/rest/route';
import { restRoutes } from '../../src/routes';
import {
  buildGenre,
  buildMagazine,
  buildManga,
  buildNovel,
  buildReadEntry,
  buildThirdPartyToken,
  buildToken,
  buildUser,
  linkTitle,
  orderedReference,
} from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import {
  keysOf,
  PAGINATION,
  READ_ENTRY,
  READABLE_SUMMARY,
  shapeProblems,
  type Shape,
} from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { type Json, seconds, sortedKeys } from '../setup/json';
import { executedTwin, type Paging } from '../setup/list-route';
import { INVALID_PAGING_QUERIES } from '../setup/paging';

/**
 * POST /read/{content_type}/{username}/list (GraphQL `readList`, pages.md "User profile"):
 * a user's manga or novel read entries with their titles; auth none; paged; #21's counterpart.
 */
const t = useTestApp();

type Kind = 'manga' | 'novel';
const KINDS: readonly Kind[] = ['manga', 'novel'];
const other = (kind: Kind): Kind => (kind === 'manga' ? 'novel' : 'manga');

const PATH = '/read/{content_type}/{username}/list';
const route: RestRoute = restRoutes.find((r) => r.path === PATH && r.method === 'POST')!;
const resolverDocument = executedTwin(route.document);

const MEDIA_TYPES: Record<Kind, readonly string[]> = {
  manga: ['manga', 'manhwa', 'manhua', 'one_shot', 'doujin'],
  novel: ['light_novel', 'novel'],
};

function list(kind: string, username: string, body: unknown, options: CallOptions & Paging = {}) {
  const query = new URLSearchParams();
  if (options.page !== undefined) query.set('page', String(options.page));
  if (options.size !== undefined) query.set('size', String(options.size));
  const qs = query.toString();
  return rest(t.app, 'POST', `/read/${kind}/${username}/list${qs ? `?${qs}` : ''}`, body, options);
}

const listGql = (
  kind: string,
  username: string,
  input: unknown,
  options: CallOptions & Paging = {},
  document = route.document,
) =>
  gql(
    t.app,
    document,
    { content_type: kind, username, page: options.page ?? 1, size: options.size ?? 15, input },
    options,
  );

const ITEM: Shape = { ...READ_ENTRY, content: { object: READABLE_SUMMARY } };
const PAGE: Shape = { pagination: { object: PAGINATION }, list: { arrayOf: ITEM } };

type Title = Manga | Novel;
type TitleData = Record<string, unknown>;

const buildTitle = (kind: Kind, o: TitleData = {}): Promise<Title> =>
  kind === 'manga' ? buildManga(t.orm, o as Partial<Manga>) : buildNovel(t.orm, o as Partial<Novel>);

const titleLink = (kind: Kind, title: Title) =>
  kind === 'manga' ? { manga: title as Manga } : { novel: title as Novel };

let owner: User;
let username: string;

beforeEach(async () => {
  owner = await buildUser(t.orm, { username: `Reader_${Date.now() % 100000}` });
  username = owner.username;
});

/** A title of `kind` on the owner's list (or `user`'s). */
async function entry(
  kind: Kind,
  slug: string,
  title: TitleData = {},
  read: Partial<ReadEntry> = {},
  user: User = owner,
): Promise<Title> {
  const built = await buildTitle(kind, { slug, ...title });
  await buildReadEntry(t.orm, user, titleLink(kind, built), read);
  return built;
}

/** Slugs of the titles listed by a successful REST call on the owner's `kind` list. */
async function slugs(kind: Kind, body: unknown, options: CallOptions & Paging = {}): Promise<string[]> {
  const res = await list(kind, username, body, options);
  expect(res.status).toBe(200);
  return (res.body.list as { content: Json }[]).map((item) => item.content.slug as string);
}
const sorted = async (kind: Kind, body: unknown) => (await slugs(kind, body)).sort();

async function genre(slug: string): Promise<Genre> {
  return (await t.orm.em.fork().findOne(Genre, { slug })) ?? buildGenre(t.orm, { slug, name_en: slug });
}
async function magazine(slug: string): Promise<Magazine> {
  return (await t.orm.em.fork().findOne(Magazine, { slug })) ?? buildMagazine(t.orm, { slug });
}
async function link(title: Title, o: { genres?: string[]; magazines?: string[] }): Promise<void> {
  const genres = await Promise.all((o.genres ?? []).map(genre));
  const magazines = await Promise.all((o.magazines ?? []).map(magazine));
  await linkTitle(t.orm, title, { genres, ...(o.magazines ? { magazines } : {}) });
}

/** A fully filled title of `kind`: every summary field has a value. */
const filled = (kind: Kind) => ({
  title_original: 'ベルセルク',
  title_ua: 'Берсерк',
  title_en: 'Berserk',
  media_type: kind === 'manga' ? 'manhwa' : 'novel',
  status: 'ongoing',
  chapters: 374,
  volumes: 41,
  translated_ua: true,
  score: 9.47,
  scored_by: 345678,
  // native_score: (12/22)·9 + (10/22)·C, with C = 0 while no list score was ever counted.
  native_scored_by: 12,
  native_score_total: 108,
  image: '/content/x.jpg',
  year: 1989,
  start_date: new Date('1989-08-25T10:20:30.999Z'),
  end_date: new Date('2021-09-10T00:00:00.500Z'),
  created: new Date('2023-05-06T07:08:09.750Z'),
  updated: new Date('2024-02-03T04:05:06.001Z'),
});

const filledJson = (kind: Kind) => ({
  data_type: kind,
  slug: 'berserk',
  extcat_id: 2,
  title_original: 'ベルセルク',
  title_ua: 'Берсерк',
  title_en: 'Berserk',
  media_type: kind === 'manga' ? 'manhwa' : 'novel',
  status: 'ongoing',
  chapters: 374,
  volumes: 41,
  translated_ua: true,
  score: 9.47,
  scored_by: 345678,
  native_score: 4.91,
  native_scored_by: 12,
  image: 'https://cdn.test/content/x.jpg',
  year: 1989,
  start_date: seconds('1989-08-25T10:20:30Z'),
  end_date: seconds('2021-09-10T00:00:00Z'),
  created: seconds('2023-05-06T07:08:09Z'),
  updated: seconds('2024-02-03T04:05:06Z'),
});

/**
 * The owner's list of `kind`: the filled title (entry score 0: the mean stays 0) and a
 * second one, an entry of the other kind, another user's entry and a deleted title.
 */
async function fixture(kind: Kind) {
  const berserk = await buildTitle(kind, { slug: 'berserk', extcat_id: 2, ...filled(kind) });
  const first = await buildReadEntry(t.orm, owner, titleLink(kind, berserk), {
    status: 'completed',
    note: 'mine',
    chapters: 12,
    volumes: 3,
    rereads: 2,
    score: 0,
    created: new Date('2024-03-04T05:06:07.800Z'),
    updated: new Date('2024-04-05T06:07:08.900Z'),
  });
  const second = await entry(
    kind,
    'second',
    { ...filled(kind), title_en: 'Second', score: 3, media_type: MEDIA_TYPES[kind][0], year: 2010 },
    { status: 'reading', note: 'fine', chapters: 1, created: new Date('2023-01-01T00:00:00Z') },
  );
  await link(second, { genres: ['drama'], magazines: ['jump'] });
  await entry(other(kind), 'other-kind', {}, { note: 'other kind' });
  await entry(kind, 'theirs', {}, { note: 'theirs' }, await buildUser(t.orm));
  await entry(kind, 'deleted', { deleted: true }, { note: 'deleted title', score: 10 });
  return { berserk, first };
}

/** REST, compiled GraphQL and executed GraphQL answer the same 200 body; returns it. */
async function expectParity(kind: Kind, user: string, body: unknown, options: CallOptions & Paging = {}) {
  const viaRest = await list(kind, user, body, options);
  const compiled = await listGql(kind, user, body, options);
  const resolved = await listGql(kind, user, body, options, resolverDocument);
  expect(viaRest.status).toBe(200);
  expect(compiled.status).toBe(200);
  expect(compiled.body.errors).toBeUndefined();
  expect(compiled.body.data.readList).toEqual(viaRest.body);
  expect(resolved.body.errors).toBeUndefined();
  expect(resolved.body.data.__typename).toBe('Query');
  expect(resolved.body.data.readList).toEqual(viaRest.body);
  return viaRest.body as Json;
}

/** The REST error and the same error through both GraphQL documents. */
async function expectErrorParity(
  kind: string,
  user: string,
  body: unknown,
  expected: { status: number; code: string; message: string },
  options: CallOptions = {},
) {
  const viaRest = await list(kind, user, body, options);
  expect(viaRest.status).toBe(expected.status);
  expect(viaRest.body).toEqual({ code: expected.code, message: expected.message });
  for (const document of [route.document, resolverDocument]) {
    const graph = await listGql(kind, user, body, options, document);
    expect(graph.body.errors).toHaveLength(1);
    const [error] = graph.body.errors;
    expect({
      message: error.message,
      code: error.extensions.code,
      status: error.extensions.http.status,
    }).toEqual(expected);
  }
}

describe('POST /read/{content_type}/{username}/list (readList)', () => {
  it('is registered as an auth-none paged POST over readList', () => {
    expect(route).toBeDefined();
    expect(route.auth).toBe('none');
    expect(route.paged).toBe(true);
    expect(route.rootField).toBe('readList');
    expect(route.document).toContain('...ReadEntryWithContent');
  });

  describe.each(KINDS)('%s list', (kind) => {
    describe('items and REST ≡ GraphQL', () => {
      it('serves ReadEntry fields plus `content` (the summary without read), exactly', async () => {
        const { first } = await fixture(kind);
        const body = await expectParity(kind, username, {});
        expect(shapeProblems(body, PAGE, 'page')).toEqual([]);
        expect(body.pagination).toEqual({ total: 2, pages: 1, page: 1 });
        const [item, second] = body.list as Json[];
        expect(item).toEqual({
          reference: first.reference,
          note: 'mine',
          status: 'completed',
          chapters: 12,
          volumes: 3,
          rereads: 2,
          score: 0,
          created: seconds('2024-03-04T05:06:07Z'),
          updated: seconds('2024-04-05T06:07:08Z'),
          content: filledJson(kind),
        });
        expect(sortedKeys(item)).toEqual(keysOf(ITEM));
        expect(sortedKeys(item.content as object)).toEqual(keysOf(READABLE_SUMMARY));
        expect(item.content).not.toHaveProperty('read');
        // Default order: read_score desc (0 and 0), then read_created desc.
        expect(second).toMatchObject({ note: 'fine', status: 'reading', content: { slug: 'second' } });
      });

      it('answers the same JSON over REST, compiled /graphql and executed /graphql, for many bodies and pages', async () => {
        await fixture(kind);
        const bodies: Json[] = [
          {},
          { sort: ['score:asc'] },
          { sort: ['read_chapters:desc', 'media_type:asc'] },
          { genres: ['drama'], magazines: ['jump'] },
          { genres: ['-drama'] },
          { media_type: [MEDIA_TYPES[kind][0]], years: [2000, null] },
          { read_status: 'completed' },
          { read_status: null, status: ['ongoing'], only_translated: true },
          { score: [5, null], native_score: [null, null] },
          { years: [], magazines: ['nope'] },
        ];
        const seen = new Set<string>();
        for (const options of [{}, { page: 2, size: 1 }, { page: 5, size: 1 }]) {
          for (const body of bodies) {
            const answer = await expectParity(kind, username, body, options);
            expect(shapeProblems(answer, PAGE, 'page', ['list'])).toEqual([]);
            seen.add(JSON.stringify(answer.list));
          }
        }
        // The bodies do select different things.
        expect(seen.size).toBeGreaterThan(3);
      });

      it('ignores tokens entirely (auth none): owner, stranger, third party, bad, expired, deleted', async () => {
        await fixture(kind);
        const anonymous = await expectParity(
          kind,
          username,
          { sort: ['read_chapters:asc'] },
          { size: 1, page: 2 },
        );
        expect(anonymous.list).toHaveLength(1);
        expect(anonymous.pagination).toEqual({ total: 2, pages: 2, page: 2 });
        const tokens = [
          await buildToken(t.orm, owner),
          await buildToken(t.orm, await buildUser(t.orm)),
          await buildThirdPartyToken(t.orm, owner, []),
          'not-a-token',
          'x'.repeat(64),
          await buildToken(t.orm, owner, { expiration: new Date(Date.now() - 1000) }),
          await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' })),
        ];
        for (const token of tokens) {
          expect(
            await expectParity(kind, username, { sort: ['read_chapters:asc'] }, { size: 1, page: 2, token }),
          ).toEqual(anonymous);
        }
      });

      it('finds the user ignoring case', async () => {
        await fixture(kind);
        const exact = await expectParity(kind, username, {});
        expect(await expectParity(kind, username.toUpperCase(), {})).toEqual(exact);
        expect(await expectParity(kind, username.toLowerCase(), {})).toEqual(exact);
        expect(exact.pagination).toEqual({ total: 2, pages: 1, page: 1 });
      });

      it('unknown user: 404 user:not_found; deleted user: 400 user:deleted; both doors, both languages', async () => {
        await fixture(kind);
        const gone = await buildUser(t.orm, { role: 'deleted' });
        await entry(kind, 'gone-entry', {}, {}, gone);
        for (const language of ['en', 'uk']) {
          await expectErrorParity(
            kind,
            'nobody_here',
            {},
            {
              status: 404,
              code: 'user:not_found',
              message: language === 'uk' ? 'Користувача не знайдено' : 'User not found',
            },
            { language },
          );
          await expectErrorParity(
            kind,
            gone.username,
            {},
            { status: 400, code: 'user:deleted', message: language === 'uk' ? 'Видалено...' : 'Deleted' },
            { language },
          );
        }
        // Upper case finds the deleted user too.
        expect((await list(kind, gone.username.toUpperCase(), {})).body.code).toBe('user:deleted');
      });

      it('validation precedes the user look-up: an unknown or deleted user with a bad body is 400 validation', async () => {
        const gone = await buildUser(t.orm, { role: 'deleted' });
        for (const user of ['nobody_here', gone.username]) {
          await expectErrorParity(
            kind,
            user,
            { sort: ['bad:asc'] },
            { status: 400, code: 'system:validation_error', message: 'Invalid field sort in request body' },
          );
          // The media type of the other kind is refused before the look-up too, on both doors.
          await expectErrorParity(
            kind,
            user,
            { media_type: [MEDIA_TYPES[other(kind)][0]] },
            {
              status: 400,
              code: 'system:validation_error',
              message: 'Invalid field media_type in request body',
            },
          );
        }
      });
    });

    describe('selection', () => {
      it("lists the user's entries of this kind whose title is not deleted; total agrees", async () => {
        await entry(kind, 'kept', {}, { score: 1 });
        await entry(kind, 'kept-too', {}, { score: 2 });
        await entry(kind, 'gone', { deleted: true }, { score: 9 });
        await entry(other(kind), 'other-kind', {}, { score: 9 });
        const stranger = await buildUser(t.orm);
        await entry(kind, 'stranger', {}, { score: 9 }, stranger);
        const res = await list(kind, username, {});
        expect(res.status).toBe(200);
        expect(res.body.list.map((e: { content: Json }) => e.content.slug)).toEqual(['kept-too', 'kept']);
        expect(res.body.pagination).toEqual({ total: 2, pages: 1, page: 1 });
        // The same title on another user's list is theirs only.
        expect((await list(kind, stranger.username, {})).body.list.map((e: Json) => e.note)).toEqual([null]);
        // The other kind's list holds the other entry only.
        expect(
          (await list(other(kind), username, {})).body.list.map((e: { content: Json }) => e.content.slug),
        ).toEqual(['other-kind']);
      });

      it('an empty list is a 200 with no pages', async () => {
        await entry(other(kind), 'elsewhere');
        const body = await expectParity(kind, username, {});
        expect(body).toEqual({ pagination: { total: 0, pages: 0, page: 1 }, list: [] });
      });

      it('read_status filters the entry status; null means all', async () => {
        const statuses = ['planned', 'reading', 'completed', 'on_hold', 'dropped'] as const;
        for (const status of statuses) await entry(kind, `s-${status}`, {}, { status });
        for (const status of statuses)
          expect(await slugs(kind, { read_status: status })).toEqual([`s-${status}`]);
        expect(await slugs(kind, { read_status: null })).toHaveLength(5);
        expect(await slugs(kind, {})).toHaveLength(5);
      });

      it('media_type takes each media type of the kind and keeps only the listed ones', async () => {
        const types = MEDIA_TYPES[kind];
        for (const [i, type] of types.entries())
          await entry(kind, `t-${type}`, { media_type: type }, { score: 9 - i });
        await entry(kind, 'untyped', { media_type: null }, { score: 1 });
        for (const type of types) expect(await slugs(kind, { media_type: [type] })).toEqual([`t-${type}`]);
        expect(await slugs(kind, { media_type: [...types].reverse() })).toEqual(types.map((x) => `t-${x}`));
        expect(await slugs(kind, { media_type: [] })).toHaveLength(types.length + 1);
      });

      it('status and only_translated: the title values', async () => {
        await entry(kind, 'ongoing', { status: 'ongoing', translated_ua: true });
        await entry(kind, 'finished', { status: 'finished', translated_ua: false });
        await entry(kind, 'none', { status: null, translated_ua: false });
        expect(await slugs(kind, { status: ['ongoing'] })).toEqual(['ongoing']);
        expect(await sorted(kind, { status: ['ongoing', 'finished'] })).toEqual(['finished', 'ongoing']);
        expect(await slugs(kind, { status: ['paused'] })).toEqual([]);
        expect(await sorted(kind, { status: [] })).toEqual(['finished', 'none', 'ongoing']);
        expect(await slugs(kind, { only_translated: true })).toEqual(['ongoing']);
        expect(await sorted(kind, { only_translated: false })).toEqual(['finished', 'none', 'ongoing']);
        expect(await slugs(kind, { only_translated: true, status: ['finished'] })).toEqual([]);
      });

      it('years: inclusive bounds on the year, either open; null, [] and [null, null] mean none', async () => {
        await entry(kind, 'y1999', { year: 1999 });
        await entry(kind, 'y2005', { year: 2005 });
        await entry(kind, 'y2010', { year: 2010 });
        await entry(kind, 'undated', { year: null });
        expect(await slugs(kind, { years: [2005, 2005] })).toEqual(['y2005']);
        expect(await sorted(kind, { years: [2005, null] })).toEqual(['y2005', 'y2010']);
        expect(await sorted(kind, { years: [null, 2005] })).toEqual(['y1999', 'y2005']);
        expect(await sorted(kind, { years: [2000, 2010] })).toEqual(['y2005', 'y2010']);
        expect(await slugs(kind, { years: ['2005', '2005'] })).toEqual(['y2005']);
        for (const years of [null, [], [null, null]]) expect(await slugs(kind, { years })).toHaveLength(4);
        expect(await slugs(kind, { years: [3000000000, 3000000001] })).toEqual([]);
      });

      it('score and native_score: literal, inclusive bounds', async () => {
        await entry(kind, 's8', { score: 8, native_scored_by: 10, native_score_total: 60 }); // native 3
        await entry(kind, 's907', { score: 9.07, native_scored_by: 30, native_score_total: 240 }); // native 6
        await entry(kind, 's9', { score: 9 }); // native 0
        expect(await sorted(kind, { score: [8, 9] })).toEqual(['s8', 's9']);
        expect(await sorted(kind, { score: [9, null] })).toEqual(['s9', 's907']);
        expect(await slugs(kind, { score: [null, 8] })).toEqual(['s8']);
        expect(await slugs(kind, { score: [9, 9] })).toEqual(['s9']);
        expect(await slugs(kind, { score: ['8', '8'] })).toEqual(['s8']);
        expect(await slugs(kind, { native_score: [3, 3] })).toEqual(['s8']);
        expect(await slugs(kind, { native_score: [4, null] })).toEqual(['s907']);
        expect(await slugs(kind, { native_score: [0, 0] })).toEqual(['s9']);
        expect(await slugs(kind, { score: [null, null], native_score: [null, null] })).toHaveLength(3);
      });

      it('magazines: any listed; unknown slugs are no error and match nothing', async () => {
        await link(await entry(kind, 'a'), { magazines: ['jump'] });
        await link(await entry(kind, 'b'), { magazines: ['magazine', 'young'] });
        await entry(kind, 'none');
        expect(await slugs(kind, { magazines: ['jump'] })).toEqual(['a']);
        expect(await sorted(kind, { magazines: ['jump', 'young'] })).toEqual(['a', 'b']);
        expect(await slugs(kind, { magazines: ['jump', 'never-made'] })).toEqual(['a']);
        expect(await slugs(kind, { magazines: ['never-made'] })).toEqual([]);
        expect(await slugs(kind, { magazines: [] })).toHaveLength(3);
      });

      it('genres: include all, exclude with `-`; unknown slugs are no error; NSFW never hidden', async () => {
        await link(await entry(kind, 'ad'), { genres: ['action', 'drama'] });
        await link(await entry(kind, 'a'), { genres: ['action'] });
        await link(await entry(kind, 'hentai'), { genres: ['hentai'] });
        await link(await entry(kind, 'ecchi'), { genres: ['ecchi', 'erotica'] });
        await entry(kind, 'none');
        const all = ['a', 'ad', 'ecchi', 'hentai', 'none'];
        expect(await sorted(kind, {})).toEqual(all);
        expect((await list(kind, username, {})).body.pagination.total).toBe(5);
        expect(await sorted(kind, { genres: [] })).toEqual(all);
        expect(await sorted(kind, { genres: ['action'] })).toEqual(['a', 'ad']);
        expect(await slugs(kind, { genres: ['action', 'drama'] })).toEqual(['ad']);
        expect(await sorted(kind, { genres: ['-drama', '-hentai'] })).toEqual(['a', 'ecchi', 'none']);
        expect(await slugs(kind, { genres: ['action', '-drama'] })).toEqual(['a']);
        expect(await slugs(kind, { genres: ['unknown'] })).toEqual([]);
        expect(await sorted(kind, { genres: ['-unknown'] })).toEqual(all);
      });

      it('filters combine with AND', async () => {
        await link(await entry(kind, 'match', { year: 2020, score: 8 }, { status: 'reading' }), {
          genres: ['drama'],
        });
        await link(await entry(kind, 'wrong-status', { year: 2020, score: 8 }, { status: 'dropped' }), {
          genres: ['drama'],
        });
        await link(await entry(kind, 'wrong-year', { year: 2000, score: 8 }, { status: 'reading' }), {
          genres: ['drama'],
        });
        await entry(kind, 'no-genre', { year: 2020, score: 8 }, { status: 'reading' });
        expect(
          await slugs(kind, {
            read_status: 'reading',
            years: [2010, null],
            genres: ['drama'],
            score: [8, 8],
            media_type: [MEDIA_TYPES[kind][0]],
          }),
        ).toEqual(['match']);
      });
    });

    describe('sort', () => {
      it('defaults to read_score desc, read_created desc, then title reference desc', async () => {
        await entry(kind, 'low', {}, { score: 3 });
        await entry(kind, 'old-high', {}, { score: 9, created: new Date('2020-01-01T00:00:00Z') });
        await entry(kind, 'new-high', {}, { score: 9, created: new Date('2021-01-01T00:00:00Z') });
        const same = { score: 5, created: new Date('2020-06-01T00:00:00Z') };
        await entry(kind, 'tie-1', { reference: orderedReference(1) }, same);
        await entry(kind, 'tie-2', { reference: orderedReference(2) }, same);
        const expected = ['new-high', 'old-high', 'tie-2', 'tie-1', 'low'];
        expect(await slugs(kind, {})).toEqual(expected);
        expect(await slugs(kind, { sort: ['read_score:desc', 'read_created:desc'] })).toEqual(expected);
      });

      it('ties of the sort entries fall back to title reference desc, whatever the direction', async () => {
        for (const n of [3, 1, 2])
          await entry(kind, `r${n}`, { reference: orderedReference(n) }, { chapters: 4 });
        expect(await slugs(kind, { sort: ['read_chapters:asc'] })).toEqual(['r3', 'r2', 'r1']);
        expect(await slugs(kind, { sort: ['read_chapters:desc'] })).toEqual(['r3', 'r2', 'r1']);
        // An empty sort list leaves the reference order alone.
        expect(await slugs(kind, { sort: [] })).toEqual(['r3', 'r2', 'r1']);
      });

      it.each([
        ['read_score', {}, { score: 1 }, {}, { score: 2 }],
        ['read_chapters', {}, { chapters: 1 }, {}, { chapters: 2 }],
        ['read_volumes', {}, { volumes: 1 }, {}, { volumes: 2 }],
        ['read_created', {}, { created: new Date('2020-01-01') }, {}, { created: new Date('2021-01-01') }],
        ['score', { score: 1 }, {}, { score: 2 }, {}],
        ['scored_by', { scored_by: 1 }, {}, { scored_by: 2 }, {}],
        ['native_scored_by', { native_scored_by: 1 }, {}, { native_scored_by: 2 }, {}],
        [
          'native_score',
          { native_scored_by: 10, native_score_total: 20 },
          {},
          { native_scored_by: 10, native_score_total: 90 },
          {},
        ],
        [
          'start_date',
          { start_date: new Date('2001-01-01') },
          {},
          { start_date: new Date('2002-01-01') },
          {},
        ],
      ])(
        '%s asc and desc',
        async (field, smallTitle: TitleData, smallRead: Partial<ReadEntry>, bigTitle: TitleData, bigRead) => {
          // The reference order would put `small` first: the sort must overrule it.
          await entry(kind, 'small', { reference: orderedReference(2), ...smallTitle }, smallRead);
          await entry(
            kind,
            'big',
            { reference: orderedReference(1), ...bigTitle },
            bigRead as Partial<ReadEntry>,
          );
          expect(await slugs(kind, { sort: [`${field}:asc`] })).toEqual(['small', 'big']);
          expect(await slugs(kind, { sort: [`${field}:desc`] })).toEqual(['big', 'small']);
        },
      );

      it('media_type asc and desc (byte order of the values)', async () => {
        const [first, second] = [...MEDIA_TYPES[kind]].sort();
        await entry(kind, 'small', { reference: orderedReference(2), media_type: first });
        await entry(kind, 'big', { reference: orderedReference(1), media_type: second });
        expect(await slugs(kind, { sort: ['media_type:asc'] })).toEqual(['small', 'big']);
        expect(await slugs(kind, { sort: ['media_type:desc'] })).toEqual(['big', 'small']);
      });

      it('read_updated refers to the entry, score to the title, read_score to the entry', async () => {
        await entry(kind, 'small', { reference: orderedReference(2), score: 9 }, { score: 1 });
        await entry(kind, 'big', { reference: orderedReference(1), score: 1 }, { score: 9 });
        await t.orm.em.getConnection().execute(
          `update read_entry e set updated = case t.slug when 'small' then '2020-01-01'::timestamptz else '2021-01-01'::timestamptz end
             from ${kind} t where t.reference = e.${kind}_reference`,
        );
        expect(await slugs(kind, { sort: ['read_updated:asc'] })).toEqual(['small', 'big']);
        expect(await slugs(kind, { sort: ['read_updated:desc'] })).toEqual(['big', 'small']);
        expect(await slugs(kind, { sort: ['read_score:desc'] })).toEqual(['big', 'small']);
        expect(await slugs(kind, { sort: ['score:desc'] })).toEqual(['small', 'big']);
      });

      it('start_date desc puts nulls last; the entries apply in order', async () => {
        await entry(kind, 'undated', { start_date: null }, { score: 1 });
        await entry(kind, 'dated', { start_date: new Date('2001-01-01') }, { score: 9 });
        await entry(kind, 'dated-low', { start_date: new Date('2001-01-01') }, { score: 2 });
        expect(await slugs(kind, { sort: ['start_date:desc', 'read_score:asc'] })).toEqual([
          'dated-low',
          'dated',
          'undated',
        ]);
        expect(await slugs(kind, { sort: ['read_score:asc', 'start_date:desc'] })).toEqual([
          'undated',
          'dated-low',
          'dated',
        ]);
      });
    });

    describe('paging', () => {
      it('total, pages, exact pages and a page past the end', async () => {
        for (let i = 0; i < 5; i += 1) await entry(kind, `a${i}`, {}, { score: i });
        const page2 = await list(kind, username, {}, { page: 2, size: 2 });
        expect(page2.body.pagination).toEqual({ total: 5, pages: 3, page: 2 });
        expect(page2.body.list.map((e: { content: Json }) => e.content.slug)).toEqual(['a2', 'a1']);
        const last = await list(kind, username, {}, { page: 3, size: 2 });
        expect(last.body.list.map((e: { content: Json }) => e.content.slug)).toEqual(['a0']);
        const past = await expectParity(kind, username, {}, { page: 4, size: 2 });
        expect(past).toEqual({ pagination: { total: 5, pages: 3, page: 4 }, list: [] });
        const filtered = await list(kind, username, { read_status: 'dropped' }, { page: 1, size: 2 });
        expect(filtered.body).toEqual({ pagination: { total: 0, pages: 0, page: 1 }, list: [] });
      });

      it('serves the default page size of 15, and up to 100', async () => {
        for (let i = 0; i < 16; i += 1) await entry(kind, `a${i}`);
        const res = await list(kind, username, {});
        expect(res.body.list).toHaveLength(15);
        expect(res.body.pagination).toEqual({ total: 16, pages: 2, page: 1 });
        const all = await list(kind, username, {}, { size: 100 });
        expect(all.body.list).toHaveLength(16);
        expect(all.body.pagination).toEqual({ total: 16, pages: 1, page: 1 });
      });
    });
  });

  describe('paging validation', () => {
    it.each(INVALID_PAGING_QUERIES)('query %s → Invalid field %s in request query', async (qs, name) => {
      // The body and the user are bad too: the query is checked first.
      const res = await rest(t.app, 'POST', `/read/manga/nobody_here/list?${qs}`, { sort: ['bad:asc'] });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'system:validation_error',
        message: `Invalid field ${name} in request query`,
      });
    });

    it('GraphQL page 0 and size 101 are refused with HTTP 400, on both documents', async () => {
      for (const document of [route.document, resolverDocument]) {
        for (const [args, name] of [
          [{ page: 0 }, 'page'],
          [{ size: 101 }, 'size'],
        ] as const) {
          const res = await gql(t.app, document, { content_type: 'manga', username, ...args, input: {} });
          expect(res.status).toBe(400);
          expect(res.body.errors[0].message).toBe(`Invalid field ${name} in request query`);
        }
      }
    });
  });

  describe('path validation', () => {
    it.each(['anime', 'Manga', 'novels', 'character', 'light_novel'])(
      'content_type %s → Invalid field content_type in request path (REST); GraphQL refuses the enum',
      async (kind) => {
        const res = await list(kind, username, {});
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          code: 'system:validation_error',
          message: 'Invalid field content_type in request path',
        });
        const graph = await listGql(kind, username, {});
        expect(graph.status).toBe(400);
        expect(graph.body.errors[0].extensions.code).toBe('system:validation_error');
        expect(graph.body.data).toBeUndefined();
      },
    );

    it('the path is checked before the query and the body, the query before the body', async () => {
      const bad = await rest(t.app, 'POST', `/read/anime/${username}/list?page=0`, { sort: ['bad:asc'] });
      expect(bad.body.message).toBe('Invalid field content_type in request path');
      const query = await rest(t.app, 'POST', `/read/novel/${username}/list?size=0`, { sort: ['bad:asc'] });
      expect(query.body.message).toBe('Invalid field size in request query');
      const uk = await list('anime', username, {}, { language: 'uk' });
      expect(uk.body.message).toBe('Некоректне поле content_type у запиті path');
    });
  });

  describe('body validation (400 system:validation_error naming the field)', () => {
    const invalid: [Json, string][] = [
      [{ query: 'berserk' }, 'query'],
      [{ query: null }, 'query'],
      [{ surprise: 1 }, 'surprise'],
      [{ rating: ['pg'] }, 'rating'],
      [{ season: ['winter'] }, 'season'],
      [{ include_multiseason: true }, 'include_multiseason'],
      [{ watch_status: 'watching' }, 'watch_status'],
      [{ years: [2000] }, 'years'],
      [{ years: [2000, 2001, 2002] }, 'years'],
      [{ years: [2010, 2000] }, 'years'],
      [{ years: [0, null] }, 'years'],
      [{ years: [null, -1] }, 'years'],
      [{ years: [1.5, null] }, 'years'],
      [{ years: ['2000.0', null] }, 'years'],
      [{ years: ['', null] }, 'years'],
      [{ years: [true, null] }, 'years'],
      [{ years: 2000 }, 'years'],
      [{ years: {} }, 'years'],
      [
        {
          years: [
            ['winter', 2020],
            ['fall', 2020],
          ],
        },
        'years',
      ],
      [{ media_type: ['tv'] }, 'media_type'],
      [{ media_type: ['Manga'] }, 'media_type'],
      [{ media_type: null }, 'media_type'],
      [{ media_type: [null] }, 'media_type'],
      [{ status: ['airing'] }, 'status'],
      [{ status: null }, 'status'],
      [{ only_translated: 'yes' }, 'only_translated'],
      [{ only_translated: 1 }, 'only_translated'],
      [{ only_translated: null }, 'only_translated'],
      [{ magazines: [1] }, 'magazines'],
      [{ magazines: null }, 'magazines'],
      [{ genres: [true] }, 'genres'],
      [{ genres: [null] }, 'genres'],
      [{ genres: [{}] }, 'genres'],
      [{ score: [1] }, 'score'],
      [{ score: [1, 2, 3] }, 'score'],
      [{ score: [9, 8] }, 'score'],
      [{ score: [-1, null] }, 'score'],
      [{ score: [null, 11] }, 'score'],
      [{ score: [7.5, null] }, 'score'],
      [{ score: null }, 'score'],
      [{ score: [] }, 'score'],
      [{ native_score: [5, 4] }, 'native_score'],
      [{ native_score: [null, 11] }, 'native_score'],
      [{ native_score: [null] }, 'native_score'],
      [{ native_score: [] }, 'native_score'],
      [{ sort: ['title:asc'] }, 'sort'],
      [{ sort: ['watch_score:desc'] }, 'sort'],
      [{ sort: ['created:desc'] }, 'sort'],
      [{ sort: ['updated:desc'] }, 'sort'],
      [{ sort: ['read_rereads:desc'] }, 'sort'],
      [{ sort: ['score:desc', 'score:asc'] }, 'sort'],
      [{ sort: ['score:up'] }, 'sort'],
      [{ sort: ['score'] }, 'sort'],
      [{ sort: null }, 'sort'],
      [{ read_status: 'watching' }, 'read_status'],
      [{ read_status: 'Reading' }, 'read_status'],
      [{ read_status: ['completed'] }, 'read_status'],
      [{ read_status: '' }, 'read_status'],
      // The first violation in the contract's field order wins; unknown keys come last.
      [{ sort: ['bad:asc'], years: [3, 2] }, 'years'],
      [{ native_score: [2, 1], score: [2, 1] }, 'score'],
      [{ genres: [1], magazines: [1] }, 'magazines'],
      [{ read_status: 'bad', sort: ['bad:asc'] }, 'sort'],
      [{ surprise: 1, read_status: 'bad' }, 'read_status'],
      [{ query: 'berserk', sort: ['bad:asc'] }, 'sort'],
    ];

    describe.each(KINDS)('%s list', (kind) => {
      it.each(invalid)('%j → %s, through REST and both GraphQL documents', async (body, name) => {
        const res = await list(kind, username, body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          code: 'system:validation_error',
          message: `Invalid field ${name} in request body`,
        });
        for (const document of [route.document, resolverDocument]) {
          const graph = await listGql(kind, username, body, {}, document);
          expect(graph.status).toBe(400);
          const [error] = graph.body.errors;
          expect(error.extensions.code).toBe('system:validation_error');
          // Unknown keys and values GraphQL cannot coerce fail in graphql-js (its own message);
          // everything else is named exactly as in REST.
          if (error.message !== res.body.message) expect(error.message).toMatch(/\$input|input/);
        }
      });

      it("refuses the other kind's media types, alone or mixed, on both doors", async () => {
        await entry(kind, 'mine');
        const mine = MEDIA_TYPES[kind];
        for (const type of MEDIA_TYPES[other(kind)]) {
          for (const media_type of [[type], [mine[0], type]]) {
            await expectErrorParity(
              kind,
              username,
              { media_type },
              {
                status: 400,
                code: 'system:validation_error',
                message: 'Invalid field media_type in request body',
              },
            );
          }
        }
        await expectErrorParity(
          kind,
          username,
          { media_type: [MEDIA_TYPES[other(kind)][0]] },
          {
            status: 400,
            code: 'system:validation_error',
            message: 'Некоректне поле media_type у запиті body',
          },
          { language: 'uk' },
        );
      });

      // One body schema serves both kinds, so it admits either kind's media types; that
      // they are of the list's kind is checked once the body has its shape (a documented
      // exception to the field order of §1.1.1).
      it.each([
        [{ sort: ['bad:asc'] }, 'sort'],
        [{ read_status: 'bad' }, 'read_status'],
        [{ score: [9, 1] }, 'score'],
      ])("the other kind's media type with %j: the body's shape is checked first", async (later, field) => {
        const body = { media_type: [MEDIA_TYPES[other(kind)][0]], ...later };
        const viaRest = await list(kind, username, body);
        const compiled = await listGql(kind, username, body);
        const resolved = await listGql(kind, username, body, {}, resolverDocument);
        const expected = `Invalid field ${field} in request body`;
        expect({
          rest: viaRest.body.message,
          compiled: compiled.body.errors?.[0].message,
          resolved: resolved.body.errors?.[0].message,
        }).toEqual({ rest: expected, compiled: expected, resolved: expected });
      });

      it('accepts the boundary values of every field', async () => {
        await entry(
          kind,
          'm',
          { year: 2000, score: 10, translated_ua: true, status: 'ongoing' },
          {
            status: 'completed',
          },
        );
        const body = {
          years: [1, null],
          media_type: [...MEDIA_TYPES[kind]],
          status: ['ongoing'],
          only_translated: true,
          magazines: [],
          genres: [],
          score: [0, 10],
          native_score: [null, null],
          sort: ['native_scored_by:asc', 'native_score:desc', 'media_type:asc', 'start_date:desc'],
          read_status: 'completed',
        };
        expect(await slugs(kind, body)).toEqual(['m']);
        for (const extra of [
          { sort: ['read_chapters:asc', 'read_volumes:desc', 'read_updated:asc', 'read_created:desc'] },
          { sort: ['read_score:asc', 'scored_by:desc', 'score:asc'] },
          { sort: [] },
          { years: null },
          { years: [] },
          { years: [null, null] },
          { years: ['1', '2024'], score: ['0', '10'], native_score: [null, '-0'] },
          { score: [10, 10] },
          { native_score: [0, 0] },
          { magazines: ['never-made'], genres: ['never-made', '-never-made'] },
          { read_status: null },
          { media_type: [] },
          { status: [...['announced', 'ongoing', 'finished', 'paused', 'discontinued']] },
        ]) {
          const res = await list(kind, username, extra);
          expect(res.status).toBe(200);
          const graph = await listGql(kind, username, extra);
          expect(graph.body.errors).toBeUndefined();
          expect(graph.body.data.readList).toEqual(res.body);
        }
      });
    });

    it('a missing, empty-array or non-object body is `Invalid field in request body`', async () => {
      const expected = { code: 'system:validation_error', message: 'Invalid field in request body' };
      const missing = await rest(t.app, 'POST', `/read/manga/${username}/list`);
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual(expected);
      for (const body of [[], [{}]]) {
        const res = await list('novel', username, body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(expected);
      }
      const text = await rest(t.app, 'POST', `/read/manga/${username}/list`)
        .set('Content-Type', 'application/json')
        .send('null');
      expect(text.status).toBe(400);
      expect(text.body.code).toBe('system:validation_error');
      // A missing body is refused before the user look-up.
      const unknown = await rest(t.app, 'POST', '/read/manga/nobody_here/list');
      expect(unknown.body).toEqual(expected);
    });

    it('GraphQL: an omitted or null input is the empty body', async () => {
      await entry('manga', 'm');
      const rested = await list('manga', username, {});
      for (const document of [route.document, resolverDocument]) {
        for (const input of [undefined, null]) {
          const graph = await listGql('manga', username, input, {}, document);
          expect(graph.body.errors).toBeUndefined();
          expect(graph.body.data.readList).toEqual(rested.body);
        }
      }
      expect(rested.body.list).toHaveLength(1);
    });
  });

  describe('SQL statements per request', () => {
    it.each(KINDS)('%s: one statement, whatever the page size or the number of entries', async (kind) => {
      const count = async (body: Json, size: number, expectedLength: number) => {
        let status = 0;
        let length = -1;
        const queries = await t.queries.count(async () => {
          const res = await list(kind, username, body, { size });
          status = res.status;
          length = res.body.list.length;
        });
        expect(status).toBe(200);
        expect(length).toBe(expectedLength);
        return queries;
      };
      const filters = { genres: ['drama', '-hentai'], magazines: ['jump'], read_status: 'reading' };
      await link(await entry(kind, 'first', {}, { status: 'reading' }), {
        genres: ['drama'],
        magazines: ['jump'],
      });
      const oneEntry = await count({}, 100, 1);
      const oneFiltered = await count(filters, 100, 1);
      for (let i = 0; i < 39; i += 1) {
        const title = await entry(
          kind,
          `m${i}`,
          { year: 2000 + (i % 20) },
          { status: 'reading', score: i % 10 },
        );
        await link(title, { genres: ['drama'], magazines: ['jump'] });
      }
      // One compiled statement: the user, the total and the page of entries with their titles.
      expect(oneEntry).toBe(1);
      expect(oneFiltered).toBe(1);
      expect(await count({}, 100, 40)).toBe(1);
      expect(await count({}, 1, 1)).toBe(1);
      expect(await count(filters, 100, 40)).toBe(1);
      expect(await count({ ...filters, sort: ['native_score:desc', 'read_updated:asc'] }, 7, 7)).toBe(1);
    });
  });
});
