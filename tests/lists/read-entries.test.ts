import { User } from '../../src/accounts/user.entity';
import type { Manga } from '../../src/catalog/manga.entity';
import { ReadEntry } from '../../src/lists/read-entry.entity';
import type { RestRoute } from '../../src/rest/route';
import { restRoutes } from '../../src/routes';
import { buildManga, buildNovel, buildReadEntry, buildToken, buildUser } from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { keysOf, READ_ENTRY, READABLE_SUMMARY, shapeProblems } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { asObject, seconds, sortedKeys, type Json } from '../setup/json';
import { expectBetween, listEntryProbes } from './list-entry-probes';

/** §3.4 PUT/GET/DELETE /read/{content_type}/{slug}: the caller's read entries. */
const t = useTestApp();
const { thirdParty, storedUser, actions, statementKinds } = listEntryProbes(t);

type Kind = 'manga' | 'novel';
const put = (kind: string, slug: string, body: unknown, options: CallOptions) =>
  rest(t.app, 'PUT', `/read/${kind}/${slug}`, body, options);
const get = (kind: string, slug: string, options: CallOptions) =>
  rest(t.app, 'GET', `/read/${kind}/${slug}`, undefined, options);
const del = (kind: string, slug: string, options: CallOptions) =>
  rest(t.app, 'DELETE', `/read/${kind}/${slug}`, undefined, options);

const routeOf = (method: string): RestRoute =>
  restRoutes.find((route) => route.method === method && route.path === '/read/{content_type}/{slug}')!;

const FILLED = {
  title_original: '葬送のフリーレン',
  title_ua: 'Фрірен',
  status: 'ongoing' as const,
  chapters: 140,
  volumes: 14,
  translated_ua: true,
  image: '/manga/frieren.jpg',
  year: 2020,
  start_date: new Date('2020-04-28T00:00:00Z'),
  end_date: new Date('2024-01-01T00:00:00Z'),
};

/** A user with a first-party token, a manga and a novel (both with the slug `frieren`). */
async function setup(title: Pick<Partial<Manga>, 'chapters' | 'volumes'> = {}) {
  const user = await buildUser(t.orm);
  const token = await buildToken(t.orm, user);
  const manga = await buildManga(t.orm, { slug: 'frieren', ...FILLED, ...title });
  const novel = await buildNovel(t.orm, { slug: 'frieren-novel', ...FILLED, ...title });
  return { user, token, manga, novel, as: { token } };
}

const slugOf = (kind: Kind) => (kind === 'manga' ? 'frieren' : 'frieren-novel');

const storedEntry = (user: User) => t.orm.em.fork().findOne(ReadEntry, { user: user.reference });

describe.each<Kind>(['manga', 'novel'])('PUT /read/%s/{slug}', (kind) => {
  const slug = slugOf(kind);

  it("sends the lock with the look-up, then the write, after the token, and reads the title back in the write's round trip when its score moved", async () => {
    const { as } = await setup();
    const sent = async (body: object) => statementKinds(() => put(kind, slug, body, as));
    // In the transaction: BEGIN with the lock and the look-up, then the write (with the title read back when its score moved).
    const trips = (write: string) => ['begin+lock+find', write, 'commit'];
    expect(await sent({ status: 'reading', score: 7 })).toEqual([
      'token',
      'token use',
      ...trips('write+title'),
    ]);
    expect(await sent({ status: 'reading', score: 0 })).toEqual(['token', ...trips('write+title')]);
    expect(await sent({ status: 'reading', score: 0 })).toEqual(['token', ...trips('write')]);
    expect(await statementKinds(() => del(kind, slug, as))).toEqual(['token', ...trips('write')]);
  });

  it('answers the ReadEntry fields plus `content` (the summary, no `read`), with every contract type', async () => {
    const { as } = await setup();
    const before = Date.now();
    const res = await put(
      kind,
      slug,
      { status: 'reading', note: 'good', chapters: 3, volumes: 1, score: 8 },
      as,
    );
    expect(res.status).toBe(200);
    expect(sortedKeys(res.body)).toEqual([...keysOf(READ_ENTRY), 'content'].sort());
    const { content, ...entry } = asObject(res.body);
    expect(shapeProblems(entry, READ_ENTRY, 'entry')).toEqual([]);
    expect(shapeProblems(content, READABLE_SUMMARY, 'content')).toEqual([]);
    expect(entry).toMatchObject({
      status: 'reading',
      note: 'good',
      chapters: 3,
      volumes: 1,
      rereads: 0,
      score: 8,
    });
    expect(entry.created).toBeGreaterThanOrEqual(seconds(new Date(before)));
    expect(content).toMatchObject({ slug, data_type: kind });
  });

  it('records the entry on the right title kind', async () => {
    const { as, user, manga, novel } = await setup();
    await put(kind, slug, { status: 'planned' }, as);
    const entry = await storedEntry(user);
    expect(entry?.content_type).toBe(kind);
    expect(entry?.manga?.reference ?? null).toBe(kind === 'manga' ? manga.reference : null);
    expect(entry?.novel?.reference ?? null).toBe(kind === 'novel' ? novel.reference : null);
  });

  it('replaces every field: omitted ones take their defaults', async () => {
    const { as } = await setup();
    const first = await put(
      kind,
      slug,
      { status: 'reading', note: 'n', chapters: 9, volumes: 2, rereads: 1, score: 7 },
      as,
    );
    const second = await put(kind, slug, { status: 'dropped' }, as);
    expect(second.body).toMatchObject({
      reference: first.body.reference,
      created: first.body.created,
      status: 'dropped',
      note: null,
      chapters: 0,
      volumes: 0,
      rereads: 0,
      score: 0,
    });
  });

  it('does not check chapters and volumes against the totals', async () => {
    const { as } = await setup({ chapters: 10, volumes: 1 });
    const res = await put(kind, slug, { status: 'reading', chapters: 10000, volumes: 10000 }, as);
    expect(res.status).toBe(200);
  });

  it('creation sets `start_date` to now, completion sets `end_date`, and dates follow the watch rules', async () => {
    const { as, user } = await setup();
    const before = Date.now();
    await put(kind, slug, { status: 'reading' }, as);
    let entry = await storedEntry(user);
    expectBetween(entry?.created, before, Date.now());
    expectBetween(entry?.start_date, before, Date.now());
    expect(entry?.end_date).toBeNull();
    const start = entry!.start_date;

    await put(kind, slug, { status: 'completed' }, as);
    entry = await storedEntry(user);
    expect(entry?.start_date).toEqual(start);
    expectBetween(entry?.end_date, before, Date.now());
    const end = entry!.end_date;

    await put(kind, slug, { status: 'completed', score: 9 }, as);
    expect((await storedEntry(user))?.end_date).toEqual(end);
    // A null date means the same as leaving it out (§7.4): the stored end date stays.
    await put(kind, slug, { status: 'reading', start_date: 1000.5, end_date: null }, as);
    expect(await storedEntry(user)).toMatchObject({ start_date: new Date(1000500), end_date: end });
  });

  it('sets the user’s list change time and records read_create / read_update / read_delete', async () => {
    const { as, user, manga, novel } = await setup();
    const target = kind === 'manga' ? manga.reference : novel.reference;
    const before = Date.now();
    await put(kind, slug, { status: 'reading', chapters: 1 }, as);
    expectBetween((await storedUser(user)).lists_updated, before, Date.now());
    await put(kind, slug, { status: 'reading', chapters: 1 }, as);
    await put(kind, slug, { status: 'reading', chapters: 2 }, as);
    await del(kind, slug, as);
    expect(await actions(user)).toEqual([
      ['read_create', target],
      ['read_update', target],
      ['read_delete', target],
    ]);
  });

  it('finds the title by exact slug only (404 read:content_not_found), never a deleted one', async () => {
    const { as } = await setup();
    const upper = await put(kind, slug.toUpperCase(), { status: 'planned' }, as);
    expect(upper.status).toBe(404);
    expect(upper.body).toEqual({ message: 'Content not found', code: 'read:content_not_found' });
    const other = kind === 'manga' ? 'frieren-novel' : 'frieren';
    expect((await put(kind, other, { status: 'planned' }, as)).body.code).toBe('read:content_not_found');
    const build = kind === 'manga' ? buildManga : buildNovel;
    await build(t.orm, { slug: 'gone', deleted: true });
    expect((await put(kind, 'gone', { status: 'planned' }, as)).body.code).toBe('read:content_not_found');
  });

  it('GET answers the caller’s entry as PUT did; 404 read:not_found without one', async () => {
    const { as } = await setup();
    expect((await get(kind, slug, as)).body).toEqual({
      message: 'Read entry not found',
      code: 'read:not_found',
    });
    const saved = await put(kind, slug, { status: 'on_hold', score: 4 }, as);
    const res = await get(kind, slug, as);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(saved.body);
  });

  it('DELETE removes the entry ({"success": true}); a second DELETE is 404 read:not_found', async () => {
    const { as, user } = await setup();
    await put(kind, slug, { status: 'planned' }, as);
    expect((await del(kind, slug, as)).body).toEqual({ success: true });
    expect(await storedEntry(user)).toBeNull();
    const again = await del(kind, slug, as);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('read:not_found');
  });
});

describe('PUT /read/{content_type}/{slug} validation', () => {
  it.each<[string, unknown, string]>([
    ['missing status', {}, 'status'],
    ['a watch status', { status: 'watching' }, 'status'],
    ['note over 2048 characters', { status: 'planned', note: 'x'.repeat(2049) }, 'note'],
    ['negative chapters', { status: 'planned', chapters: -1 }, 'chapters'],
    ['chapters above 10000', { status: 'planned', chapters: 10001 }, 'chapters'],
    ['fractional chapters', { status: 'planned', chapters: 2.5 }, 'chapters'],
    ['chapters as a string with spaces', { status: 'planned', chapters: ' 3' }, 'chapters'],
    ['negative volumes', { status: 'planned', volumes: -1 }, 'volumes'],
    ['volumes above 10000', { status: 'planned', volumes: 10001 }, 'volumes'],
    ['volumes as a boolean', { status: 'planned', volumes: false }, 'volumes'],
    ['negative rereads', { status: 'planned', rereads: -1 }, 'rereads'],
    ['rereads above 100', { status: 'planned', rereads: 101 }, 'rereads'],
    ['negative score', { status: 'planned', score: -1 }, 'score'],
    ['score above 10', { status: 'planned', score: 11 }, 'score'],
    ['fractional score', { status: 'planned', score: 9.5 }, 'score'],
    ['start_date 0', { status: 'planned', start_date: 0 }, 'start_date'],
    ['negative end_date', { status: 'planned', end_date: -1 }, 'end_date'],
    ['end_date as a boolean', { status: 'planned', end_date: false }, 'end_date'],
    ['a watch field', { status: 'planned', episodes: 1 }, 'episodes'],
    ['field order: chapters before score', { status: 'planned', score: 11, chapters: -1 }, 'chapters'],
  ])('refuses %s', async (_, body, name) => {
    const { as, user } = await setup();
    const res = await put('manga', 'frieren', body, as);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: `Invalid field ${name} in request body`,
      code: 'system:validation_error',
    });
    expect(await storedEntry(user)).toBeNull();
  });

  it('refuses start_date later than end_date naming no field', async () => {
    const { as } = await setup();
    const res = await put(
      'novel',
      'frieren-novel',
      { status: 'planned', start_date: 3.5, end_date: 3.25 },
      as,
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Invalid field in request body', code: 'system:validation_error' });
  });

  it('accepts the bounds', async () => {
    const { as } = await setup();
    const body = {
      status: 'completed',
      note: 'x'.repeat(2048),
      chapters: 10000,
      volumes: 10000,
      rereads: 100,
      score: 10,
    };
    expect((await put('manga', 'frieren', body, as)).status).toBe(200);
    const low = {
      status: 'planned',
      note: null,
      chapters: 0,
      volumes: 0,
      rereads: 0,
      score: 0,
      start_date: 1,
      end_date: 1,
    };
    expect((await put('manga', 'frieren', low, as)).status).toBe(200);
  });

  it.each(['PUT', 'GET', 'DELETE'] as const)(
    '%s refuses a content type other than manga or novel (path, before the body)',
    async (method) => {
      const { as } = await setup();
      const res = await rest(
        t.app,
        method,
        '/read/anime/frieren',
        method === 'PUT' ? { score: 11 } : undefined,
        as,
      );
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Invalid field content_type in request path');
    },
  );
});

describe('authentication and scopes', () => {
  const calls: [string, (options: CallOptions) => Promise<{ status: number; body: Json }>][] = [
    ['PUT', (options) => put('manga', 'frieren', { status: 'planned' }, options)],
    ['GET', (options) => get('manga', 'frieren', options)],
    ['DELETE', (options) => del('manga', 'frieren', options)],
  ];

  it.each(calls)('%s answers 401 for a missing, unknown or expired token', async (_, call) => {
    const { user } = await setup();
    const expired = await buildToken(t.orm, user, { expiration: new Date(Date.now() - 1000) });
    expect((await call({})).body.code).toBe('auth:missing_token');
    expect((await call({ token: 'unknown' })).body.code).toBe('auth:invalid_token');
    const res = await call({ token: expired });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('auth:token_expired');
  });

  it.each<[string, string[], number[]]>([
    ['watchlist scopes only', ['watchlist'], [403, 403, 403]],
    ['read:readlist', ['read:readlist'], [403, 200, 403]],
    ['update:readlist', ['update:readlist'], [200, 403, 200]],
    ['the readlist group', ['readlist'], [200, 200, 200]],
  ])('a third-party token with %s: PUT, GET, DELETE answer %p', async (_, scope, statuses) => {
    const { user, manga } = await setup();
    const options = await thirdParty(user, scope);
    await buildReadEntry(t.orm, user, { manga });
    const answered = [];
    for (const [, call] of calls) {
      const res = await call(options);
      answered.push(res.status);
      if (res.status === 403) expect(res.body.code).toBe('permission:denied');
    }
    expect(answered).toEqual(statuses);
    if (statuses[0] === 403) expect(await storedEntry(user)).toMatchObject({ status: 'reading' });
  });

  it('checks the scope after the look-ups (404 before 403)', async () => {
    const { user } = await setup();
    const options = await thirdParty(user, ['watchlist']);
    expect((await put('manga', 'nothing', { status: 'planned' }, options)).body.code).toBe(
      'read:content_not_found',
    );
    expect((await get('manga', 'frieren', options)).body.code).toBe('read:not_found');
  });
});

describe('manga stats (§6.2) follow the read entries at once', () => {
  it('#16 counts an entry written, changed and deleted through the API', async () => {
    const { as } = await setup();
    const stats = async () => asObject((await rest(t.app, 'GET', '/manga/frieren')).body.stats);
    expect(await stats()).toMatchObject({ reading: 0, score_8: 0 });
    await put('manga', 'frieren', { status: 'reading', score: 8 }, as);
    expect(await stats()).toMatchObject({ reading: 1, completed: 0, score_8: 1 });
    await put('manga', 'frieren', { status: 'completed', score: 0 }, as);
    expect(await stats()).toMatchObject({ reading: 0, completed: 1, score_8: 0 });
    await del('manga', 'frieren', as);
    expect(await stats()).toMatchObject({ completed: 0 });
  });
});

describe('REST ≡ GraphQL', () => {
  it.each<Kind>(['manga', 'novel'])(
    'PUT, GET and DELETE on a %s answer data[rootField] of their documents',
    async (kind) => {
      const { as } = await setup();
      const slug = slugOf(kind);
      const input = { status: 'reading', note: 'n', chapters: 4, volumes: 1, rereads: 0, score: 6 };

      const putRest = await put(kind, slug, input, as);
      const putGql = await gql(t.app, routeOf('PUT').document, { content_type: kind, slug, input }, as);
      expect(putGql.body.errors).toBeUndefined();
      const saved = putGql.body.data.saveReadEntry as Json;
      expect(Math.abs((saved.updated as number) - putRest.body.updated)).toBeLessThanOrEqual(1);
      expect(putRest.body).toEqual({ ...saved, updated: putRest.body.updated });

      const getRest = await get(kind, slug, as);
      const getGql = await gql(t.app, routeOf('GET').document, { content_type: kind, slug }, as);
      expect(getRest.body).toEqual(getGql.body.data.readEntry);

      const delRest = await del(kind, slug, as);
      await put(kind, slug, input, as);
      const delGql = await gql(t.app, routeOf('DELETE').document, { content_type: kind, slug }, as);
      expect(delRest.body).toEqual({ success: true });
      expect(delGql.body.data.deleteReadEntry).toEqual(delRest.body);
    },
  );

  it.each<[string, string, Record<string, unknown>, string]>([
    ['PUT', 'nothing', { input: { status: 'planned' } }, 'read:content_not_found'],
    ['PUT', 'frieren', { input: { status: 'planned', rereads: 101 } }, 'system:validation_error'],
    ['GET', 'frieren', {}, 'read:not_found'],
    ['DELETE', 'frieren', {}, 'read:not_found'],
  ])('%s /read/manga/%s %p fails alike: %s', async (method, slug, variables, code) => {
    const { as } = await setup();
    const viaRest = await rest(
      t.app,
      method as 'PUT',
      `/read/manga/${slug}`,
      method === 'PUT' ? variables.input : undefined,
      as,
    );
    const viaGql = await gql(
      t.app,
      routeOf(method).document,
      { content_type: 'manga', slug, ...variables },
      as,
    );
    const [error] = viaGql.body.errors;
    expect(viaRest.body.code).toBe(code);
    expect({
      message: error.message,
      code: error.extensions.code,
      status: error.extensions.http.status,
    }).toEqual({
      ...viaRest.body,
      status: viaRest.status,
    });
  });
});
