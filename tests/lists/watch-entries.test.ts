import { User } from '../../src/accounts/user.entity';
import { Anime } from '../../src/catalog/anime.entity';
import { WatchEntry } from '../../src/lists/watch-entry.entity';
import type { RestRoute } from '../../src/rest/route';
import { restRoutes } from '../../src/routes';
import { buildAnime, buildToken, buildUser, buildWatchEntry } from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { ANIME_SUMMARY, keysOf, shapeProblems, WATCH_ENTRY } from '../setup/contract-shapes';
import { withFailingActionRecords } from '../setup/db';
import { useTestApp } from '../setup/harness';
import { asObject, seconds, sortedKeys, type Json } from '../setup/json';
import { expectBetween, listEntryProbes } from './list-entry-probes';

/** §3.3 PUT/GET/DELETE /watch/{slug}: the caller's watch entries. */
const t = useTestApp();
const { thirdParty, storedUser, actions, statementKinds } = listEntryProbes(t);

const put = (slug: string, body: unknown, options: CallOptions) =>
  rest(t.app, 'PUT', `/watch/${slug}`, body, options);
const get = (slug: string, options: CallOptions) => rest(t.app, 'GET', `/watch/${slug}`, undefined, options);
const del = (slug: string, options: CallOptions) =>
  rest(t.app, 'DELETE', `/watch/${slug}`, undefined, options);

const routeOf = (method: string): RestRoute =>
  restRoutes.find((route) => route.method === method && route.path === '/watch/{slug}')!;

/** A user with a first-party token, and an anime of 12 episodes of 24 minutes. */
async function setup(anime: Partial<Anime> = {}) {
  const user = await buildUser(t.orm);
  const token = await buildToken(t.orm, user);
  const title = await buildAnime(t.orm, { slug: 'frieren', episodes_total: 12, duration: 24, ...anime });
  return { user, token, anime: title, as: { token } };
}

const storedEntry = (user: User) =>
  t.orm.em.fork().findOne(WatchEntry, { user: user.reference }, { populate: ['anime'] });
/** The entry's row as stored, every column. */
const entryRow = async (user: User) =>
  (
    await t.orm.em
      .getConnection()
      .execute(`select * from watch_entry where user_reference = ?`, [user.reference])
  )[0] as Json | undefined;

describe('PUT /watch/{slug}', () => {
  describe('response', () => {
    it('answers the WatchEntry fields plus `anime` (Anime summary, no `watch`), with every contract type', async () => {
      const { as } = await setup({
        title_ua: 'Фрірен',
        title_ja: 'フリーレン',
        status: 'finished',
        season: 'fall',
        source: 'manga',
        rating: 'pg_13',
        episodes_released: 12,
        image: '/anime/frieren.jpg',
        year: 2023,
        translated_ua: true,
        start_date: new Date('2023-09-29T00:00:00Z'),
        end_date: new Date('2024-03-22T00:00:00Z'),
      });
      const before = Date.now();
      const res = await put('frieren', { status: 'watching', note: 'great', episodes: 3, score: 9 }, as);
      expect(res.status).toBe(200);
      expect(sortedKeys(res.body)).toEqual([...keysOf(WATCH_ENTRY), 'anime'].sort());
      const { anime, ...entry } = asObject(res.body);
      expect(shapeProblems(entry, WATCH_ENTRY, 'entry')).toEqual([]);
      expect(shapeProblems(anime, ANIME_SUMMARY, 'anime')).toEqual([]);
      expect(entry).toMatchObject({ status: 'watching', note: 'great', episodes: 3, rewatches: 0, score: 9 });
      expect(entry.created).toBeGreaterThanOrEqual(seconds(new Date(before)));
      expect(entry.updated).toBe(entry.created);
      expect(anime).toMatchObject({ slug: 'frieren', data_type: 'anime', episodes_total: '12' });
    });

    it('finds the anime by its lower-cased slug', async () => {
      const { as } = await setup();
      const res = await put('FrIeReN', { status: 'planned' }, as);
      expect(res.status).toBe(200);
      expect(asObject(res.body.anime).slug).toBe('frieren');
    });
  });

  describe('replacement and defaults', () => {
    it('applies the defaults to omitted fields on creation', async () => {
      const { as } = await setup();
      const res = await put('frieren', { status: 'planned' }, as);
      expect(res.body).toMatchObject({
        status: 'planned',
        note: null,
        episodes: 0,
        rewatches: 0,
        score: 0,
        duration: 0,
      });
    });

    it('replaces every field: an omitted field takes its default, the reference and `created` stay', async () => {
      const { as } = await setup();
      const first = await put(
        'frieren',
        { status: 'watching', note: 'n', episodes: 5, rewatches: 1, score: 8 },
        as,
      );
      const second = await put('frieren', { status: 'dropped' }, as);
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({
        reference: first.body.reference,
        created: first.body.created,
        status: 'dropped',
        note: null,
        episodes: 0,
        rewatches: 0,
        score: 0,
        duration: 0,
      });
      expect(await t.orm.em.fork().count(WatchEntry, {})).toBe(1);
    });

    it('stores the given values', async () => {
      const { as, user } = await setup();
      await put('frieren', { status: 'on_hold', note: 'later', episodes: 7, rewatches: 2, score: 6 }, as);
      expect(await storedEntry(user)).toMatchObject({
        status: 'on_hold',
        note: 'later',
        episodes: 7,
        rewatches: 2,
        score: 6,
      });
    });

    it('keeps other users’ entries apart', async () => {
      const { as, anime } = await setup();
      const stranger = await buildUser(t.orm);
      await buildWatchEntry(t.orm, stranger, anime, { status: 'completed', score: 3, note: 'theirs' });
      const res = await put('frieren', { status: 'planned', score: 7 }, as);
      expect(res.body).toMatchObject({ note: null, score: 7 });
      expect(await storedEntry(stranger)).toMatchObject({ status: 'completed', score: 3, note: 'theirs' });
    });
  });

  describe('times', () => {
    it('creation sets `created`, `updated` and `start_date` to now, and no `end_date`', async () => {
      const { as, user } = await setup();
      const before = Date.now();
      await put('frieren', { status: 'watching' }, as);
      const after = Date.now();
      const entry = await storedEntry(user);
      expectBetween(entry?.created, before, after);
      expectBetween(entry?.updated, before, after);
      expectBetween(entry?.start_date, before, after);
      expect(entry?.end_date).toBeNull();
    });

    it('creation keeps a `start_date` given in the body (fractions of seconds allowed)', async () => {
      const { as, user } = await setup();
      await put('frieren', { status: 'watching', start_date: 1600000000.25 }, as);
      expect((await storedEntry(user))?.start_date?.getTime()).toBe(1600000000250);
    });

    it('an update keeps `created`, moves `updated` and keeps stored dates the body does not mention', async () => {
      const { as, user, anime } = await setup();
      const created = new Date('2020-01-01T00:00:00Z');
      const start = new Date('2020-01-02T00:00:00Z');
      await buildWatchEntry(t.orm, user, anime, { created, updated: created, start_date: start });
      const before = Date.now();
      await put('frieren', { status: 'watching', episodes: 2 }, as);
      const entry = await storedEntry(user);
      expect(entry?.created).toEqual(created);
      expectBetween(entry?.updated, before, Date.now());
      expect(entry?.start_date).toEqual(start);
      expect(entry?.end_date).toBeNull();
    });

    it('an update replaces dates the body gives; null dates mean the same as leaving them out (§7.4)', async () => {
      const { as, user } = await setup();
      await put('frieren', { status: 'watching' }, as);
      await put('frieren', { status: 'watching', start_date: 1500000000, end_date: 1500000100 }, as);
      const given = { start_date: new Date(1500000000000), end_date: new Date(1500000100000) };
      expect(await storedEntry(user)).toMatchObject(given);
      const res = await put(
        'frieren',
        { status: 'watching', start_date: null, end_date: null, note: null },
        as,
      );
      expect(res.status).toBe(200);
      expect(await storedEntry(user)).toMatchObject({ ...given, note: null });
    });

    it('status `completed` without an end date sets `end_date` to now', async () => {
      const { as, user } = await setup();
      await put('frieren', { status: 'watching' }, as);
      const before = Date.now();
      await put('frieren', { status: 'completed', episodes: 12 }, as);
      expectBetween((await storedEntry(user))?.end_date, before, Date.now());
    });

    it('status `completed` keeps a stored `end_date`, and one given in the body', async () => {
      const { as, user, anime } = await setup();
      const end = new Date('2021-05-05T00:00:00Z');
      await buildWatchEntry(t.orm, user, anime, { status: 'completed', end_date: end });
      await put('frieren', { status: 'completed' }, as);
      expect((await storedEntry(user))?.end_date).toEqual(end);
      await put('frieren', { status: 'completed', end_date: 1700000000 }, as);
      expect((await storedEntry(user))?.end_date).toEqual(new Date(1700000000000));
    });

    it('other statuses set no `end_date`', async () => {
      const { as, user } = await setup();
      for (const status of ['planned', 'watching', 'on_hold', 'dropped']) {
        await put('frieren', { status }, as);
        expect((await storedEntry(user))?.end_date).toBeNull();
      }
    });

    it('sets the user’s `updated` (list change time) to now', async () => {
      const { as, user } = await setup();
      expect((await storedUser(user)).lists_updated).toBeNull();
      const before = Date.now();
      await put('frieren', { status: 'planned' }, as);
      expectBetween((await storedUser(user)).lists_updated, before, Date.now());
    });

    it('shows the dates as Unix seconds in GraphQL', async () => {
      const { as } = await setup();
      await put('frieren', { status: 'completed', start_date: 1500000000.9, end_date: 1600000000 }, as);
      const res = await gql(t.app, '{ watchEntry(slug: "frieren") { start_date end_date } }', {}, as);
      expect(res.body.data.watchEntry).toEqual({ start_date: 1500000000, end_date: 1600000000 });
    });
  });

  describe('duration (§6.3)', () => {
    it('is the episode length × (episodes + episodes_total × rewatches)', async () => {
      const { as } = await setup({ duration: 24, episodes_total: 12 });
      const res = await put('frieren', { status: 'watching', episodes: 5, rewatches: 2 }, as);
      expect(res.body.duration).toBe(24 * (5 + 12 * 2));
    });

    it('is recomputed on every write', async () => {
      const { as } = await setup({ duration: 24, episodes_total: 12 });
      await put('frieren', { status: 'watching', episodes: 5, rewatches: 2 }, as);
      const res = await put('frieren', { status: 'watching', episodes: 1 }, as);
      expect(res.body.duration).toBe(24);
    });

    it('counts an unknown episode total as 0', async () => {
      const { as } = await setup({ duration: 30, episodes_total: null });
      const res = await put('frieren', { status: 'watching', episodes: 3, rewatches: 4 }, as);
      expect(res.body.duration).toBe(90);
    });

    it('is 0 when the episode length is unknown', async () => {
      const { as } = await setup({ duration: null });
      const res = await put('frieren', { status: 'watching', episodes: 3, rewatches: 1 }, as);
      expect(res.body.duration).toBe(0);
    });
  });

  describe('watch:bad_episodes', () => {
    it('refuses episodes above a known episode total (400)', async () => {
      const { as } = await setup({ episodes_total: 12 });
      const res = await put('frieren', { status: 'watching', episodes: 13 }, as);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'Episodes exceed the total', code: 'watch:bad_episodes' });
    });

    it('accepts episodes equal to the total', async () => {
      const { as } = await setup({ episodes_total: 12 });
      expect((await put('frieren', { status: 'completed', episodes: 12 }, as)).status).toBe(200);
    });

    it('does not check episodes when the total is unknown', async () => {
      const { as } = await setup({ episodes_total: null });
      expect((await put('frieren', { status: 'watching', episodes: 10000 }, as)).status).toBe(200);
    });

    it('leaves the database unchanged: entry, native score, user time and action records', async () => {
      const { as, user, anime } = await setup({ episodes_total: 12 });
      await put('frieren', { status: 'watching', episodes: 3, score: 7, note: 'kept' }, as);
      const entryBefore = await entryRow(user);
      const userBefore = await storedUser(user);
      const res = await put('frieren', { status: 'completed', episodes: 13, score: 2 }, as);
      expect(res.body.code).toBe('watch:bad_episodes');
      expect(await entryRow(user)).toEqual(entryBefore);
      expect((await storedUser(user)).lists_updated).toEqual(userBefore.lists_updated);
      expect(await actions(user)).toEqual([['watch_create', anime.reference]]);
      const title = await t.orm.em.fork().findOneOrFail(Anime, { reference: anime.reference });
      expect(title).toMatchObject({ native_scored_by: 1, native_score_total: 7 });
    });
  });

  it('writes nothing when the transaction fails at its last statement', async () => {
    const { as, user, anime } = await setup();
    await put('frieren', { status: 'watching', score: 4 }, as);
    // A failure injected into the action record insert, the last write of the request.
    const res = await withFailingActionRecords(t.orm, () =>
      put('frieren', { status: 'completed', score: 9, note: 'lost' }, as),
    );
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('system:internal_error');
    expect(await storedEntry(user)).toMatchObject({
      status: 'watching',
      score: 4,
      note: null,
      end_date: null,
    });
    const title = await t.orm.em.fork().findOneOrFail(Anime, { reference: anime.reference });
    expect(title).toMatchObject({ native_scored_by: 1, native_score_total: 4 });
    const [baseline] = await t.orm.em
      .getConnection()
      .execute(
        `select sum(total)::int as total, sum(count)::int as count from native_score_baseline where content_type = 'anime'`,
      );
    expect(baseline).toEqual({ total: 4, count: 1 });
  });

  it("sends the lock with the look-up, then the write, after the token, and reads the anime back in the write's round trip when its score moved", async () => {
    const { as } = await setup();
    const sent = async (body: object) => statementKinds(() => put('frieren', body, as));
    // In the transaction: BEGIN with the lock and the look-up, then the write (with the title read back when its score moved).
    const trips = (write: string) => ['begin+lock+find', write, 'commit'];
    expect(await sent({ status: 'watching', score: 7 })).toEqual([
      'token',
      'token use',
      ...trips('write+title'),
    ]);
    expect(await sent({ status: 'completed', score: 8 })).toEqual(['token', ...trips('write+title')]);
    expect(await sent({ status: 'completed', score: 8 })).toEqual(['token', ...trips('write')]);
    expect(await statementKinds(() => del('frieren', as))).toEqual(['token', ...trips('write')]);
  });

  describe('action records', () => {
    it('records watch_create, then watch_update only when something changed', async () => {
      const { as, user, anime } = await setup();
      await put('frieren', { status: 'watching', episodes: 1 }, as);
      await put('frieren', { status: 'watching', episodes: 1 }, as);
      expect(await actions(user)).toEqual([['watch_create', anime.reference]]);
      await put('frieren', { status: 'watching', episodes: 2 }, as);
      await put('frieren', { status: 'watching', episodes: 2, end_date: 1700000000 }, as);
      expect(await actions(user)).toEqual([
        ['watch_create', anime.reference],
        ['watch_update', anime.reference],
        ['watch_update', anime.reference],
      ]);
    });

    it('an unchanged write still moves `updated`', async () => {
      const { as, user, anime } = await setup();
      const long_ago = new Date('2020-01-01T00:00:00Z');
      await buildWatchEntry(t.orm, user, anime, {
        status: 'planned',
        created: long_ago,
        updated: long_ago,
        start_date: long_ago,
      });
      const res = await put('frieren', { status: 'planned' }, as);
      expect(res.body.updated).toBeGreaterThan(seconds(long_ago));
      expect(await actions(user)).toEqual([]);
    });
  });

  describe('look-up', () => {
    it('answers 404 anime:not_found for an unknown slug', async () => {
      const { as } = await setup();
      const res = await put('nothing', { status: 'planned' }, as);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Anime not found', code: 'anime:not_found' });
    });

    it('answers 404 anime:not_found for a deleted anime', async () => {
      const { as } = await setup({ deleted: true });
      expect((await put('frieren', { status: 'planned' }, as)).body.code).toBe('anime:not_found');
    });
  });
});

describe('PUT /watch/{slug} validation', () => {
  const long = 'x'.repeat(2049);
  it.each<[string, unknown, string]>([
    ['missing status', {}, 'status'],
    ['unknown status', { status: 'reading' }, 'status'],
    ['null status', { status: null }, 'status'],
    ['note over 2048 characters', { status: 'planned', note: long }, 'note'],
    ['note of the wrong type', { status: 'planned', note: 5 }, 'note'],
    ['negative episodes', { status: 'planned', episodes: -1 }, 'episodes'],
    ['episodes above 10000', { status: 'planned', episodes: 10001 }, 'episodes'],
    ['fractional episodes', { status: 'planned', episodes: 1.5 }, 'episodes'],
    ['episodes as a fractional string', { status: 'planned', episodes: '3.0' }, 'episodes'],
    ['episodes as an empty string', { status: 'planned', episodes: '' }, 'episodes'],
    ['episodes as a string above 10000', { status: 'planned', episodes: '10001' }, 'episodes'],
    ['episodes as a boolean', { status: 'planned', episodes: true }, 'episodes'],
    ['null episodes', { status: 'planned', episodes: null }, 'episodes'],
    ['negative rewatches', { status: 'planned', rewatches: -1 }, 'rewatches'],
    ['rewatches above 100', { status: 'planned', rewatches: 101 }, 'rewatches'],
    ['fractional rewatches', { status: 'planned', rewatches: 0.5 }, 'rewatches'],
    ['negative score', { status: 'planned', score: -1 }, 'score'],
    ['score above 10', { status: 'planned', score: 11 }, 'score'],
    ['fractional score', { status: 'planned', score: 7.5 }, 'score'],
    ['score as a non-decimal string', { status: 'planned', score: '0x7' }, 'score'],
    ['start_date 0', { status: 'planned', start_date: 0 }, 'start_date'],
    ['negative start_date', { status: 'planned', start_date: -5 }, 'start_date'],
    ['start_date as a string', { status: 'planned', start_date: '1600000000' }, 'start_date'],
    ['start_date as a boolean', { status: 'planned', start_date: true }, 'start_date'],
    ['end_date 0', { status: 'planned', end_date: 0 }, 'end_date'],
    ['end_date as a string', { status: 'planned', end_date: 'yesterday' }, 'end_date'],
    ['an unknown key', { status: 'planned', episode: 3 }, 'episode'],
    ['the first violation in field order', { status: 'x', score: 11, bogus: 1 }, 'status'],
    ['field violations before unknown keys', { status: 'planned', bogus: 1, score: 11 }, 'score'],
  ])('refuses %s', async (_, body, name) => {
    const { as, user } = await setup();
    const res = await put('frieren', body, as);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: `Invalid field ${name} in request body`,
      code: 'system:validation_error',
    });
    expect(await storedEntry(user)).toBeNull();
  });

  it.each<[string, unknown]>([
    ['start_date later than end_date', { status: 'planned', start_date: 1600000001, end_date: 1600000000 }],
    ['an empty body', undefined],
    ['a body that is not an object', ['planned']],
  ])('refuses %s with a message naming no field', async (_, body) => {
    const { as } = await setup();
    const res = await put('frieren', body, as);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Invalid field in request body', code: 'system:validation_error' });
  });

  it('refuses start_date later than end_date over GraphQL with the same message naming no field', async () => {
    const { as } = await setup();
    const res = await gql(
      t.app,
      'mutation ($input: WatchEntryInput!) { saveWatchEntry(slug: "frieren", input: $input) { status } }',
      { input: { status: 'planned', start_date: 1600000001, end_date: 1600000000 } },
      as,
    );
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toBe('Invalid field in request body');
    expect(res.body.errors[0].extensions.code).toBe('system:validation_error');
  });

  it('answers in Ukrainian when asked', async () => {
    const { token } = await setup();
    const res = await put('frieren', { status: 'planned', score: 11 }, { token, language: 'uk' });
    expect(res.body.message).toBe('Некоректне поле score у запиті body');
  });

  it.each<[string, Json]>([
    [
      'the upper bounds',
      { status: 'completed', note: 'x'.repeat(2048), episodes: 12, rewatches: 100, score: 10 },
    ],
    ['the lower bounds', { status: 'dropped', note: '', episodes: 0, rewatches: 0, score: 0 }],
    ['null note and dates', { status: 'planned', note: null, start_date: null, end_date: null }],
    ['equal dates', { status: 'planned', start_date: 1600000000, end_date: 1600000000 }],
    ['fractional dates in order', { status: 'planned', start_date: 1600000000.5, end_date: 1600000000.75 }],
    ['one date alone', { status: 'planned', end_date: 1 }],
  ])('accepts %s', async (_, body) => {
    const { as } = await setup();
    const res = await put('frieren', body, as);
    expect(res.status).toBe(200);
  });

  it('accepts episodes up to 10000 when the total is unknown', async () => {
    const { as } = await setup({ episodes_total: null });
    expect((await put('frieren', { status: 'planned', episodes: 10000 }, as)).status).toBe(200);
  });

  it('checks the body before the anime exists (400 before 404)', async () => {
    const { as } = await setup();
    const res = await put('nothing', { status: 'planned', score: 11 }, as);
    expect(res.status).toBe(400);
  });
});

describe('GET /watch/{slug}', () => {
  it('answers the caller’s entry with its anime, as PUT does', async () => {
    const { as } = await setup();
    const saved = await put('frieren', { status: 'watching', episodes: 4, score: 8, note: 'mine' }, as);
    const res = await get('FRIEREN', as);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(saved.body);
  });

  it('answers 404 watch:not_found when the caller has no entry (another user’s does not count)', async () => {
    const { as, anime } = await setup();
    await buildWatchEntry(t.orm, await buildUser(t.orm), anime);
    const res = await get('frieren', as);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Watch entry not found', code: 'watch:not_found' });
  });

  it('answers 404 anime:not_found for an unknown anime, or a deleted one even with an entry', async () => {
    const { as, user, anime } = await setup({ deleted: true });
    await buildWatchEntry(t.orm, user, anime);
    expect((await get('nothing', as)).body.code).toBe('anime:not_found');
    expect((await get('frieren', as)).body.code).toBe('anime:not_found');
  });

  it('writes nothing: neither the user’s list time nor an action record', async () => {
    const { as, user, anime } = await setup();
    await buildWatchEntry(t.orm, user, anime);
    await get('frieren', as);
    expect((await storedUser(user)).lists_updated).toBeNull();
    expect(await actions(user)).toEqual([]);
  });
});

describe('DELETE /watch/{slug}', () => {
  it('removes the entry and answers {"success": true}', async () => {
    const { as, user, anime } = await setup();
    await put('frieren', { status: 'watching' }, as);
    const res = await del('frieren', as);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(await storedEntry(user)).toBeNull();
    expect((await get('frieren', as)).body.code).toBe('watch:not_found');
    expect(await actions(user)).toEqual([
      ['watch_create', anime.reference],
      ['watch_delete', anime.reference],
    ]);
  });

  it('sets the user’s list change time', async () => {
    const { as, user, anime } = await setup();
    await buildWatchEntry(t.orm, user, anime);
    const before = Date.now();
    await del('frieren', as);
    expectBetween((await storedUser(user)).lists_updated, before, Date.now());
  });

  it('answers 404 watch:not_found without an entry, and changes nothing', async () => {
    const { as, user, anime } = await setup();
    const other = await buildUser(t.orm);
    await buildWatchEntry(t.orm, other, anime);
    const res = await del('frieren', as);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('watch:not_found');
    expect(await storedEntry(other)).not.toBeNull();
    expect((await storedUser(user)).lists_updated).toBeNull();
    expect(await actions(user)).toEqual([]);
  });

  it('answers 404 anime:not_found for an unknown anime', async () => {
    const { as } = await setup();
    expect((await del('nothing', as)).body.code).toBe('anime:not_found');
  });
});

describe('authentication and scopes', () => {
  const calls: [string, (options: CallOptions) => Promise<{ status: number; body: Json }>][] = [
    ['PUT', (options) => put('frieren', { status: 'planned' }, options)],
    ['GET', (options) => get('frieren', options)],
    ['DELETE', (options) => del('frieren', options)],
  ];

  it.each(calls)('%s answers 401 for a missing, unknown or expired token', async (_, call) => {
    const { user } = await setup();
    const expired = await buildToken(t.orm, user, { expiration: new Date(Date.now() - 1000) });
    expect((await call({})).body).toEqual({ message: 'Auth token is missing', code: 'auth:missing_token' });
    expect((await call({ token: 'unknown' })).body.code).toBe('auth:invalid_token');
    const res = await call({ token: expired });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('auth:token_expired');
  });

  it('authenticates before validating the body (401 before 400)', async () => {
    await setup();
    const res = await put('frieren', { status: 'nope' }, {});
    expect(res.status).toBe(401);
  });

  it.each<[string, string[], number[]]>([
    ['no list scope', ['read:readlist', 'update:readlist'], [403, 403, 403]],
    ['read:watchlist', ['read:watchlist'], [403, 200, 403]],
    ['update:watchlist', ['update:watchlist'], [200, 403, 200]],
    ['the watchlist group', ['watchlist'], [200, 200, 200]],
    ['all', ['all'], [200, 200, 200]],
  ])('a third-party token with %s: PUT, GET, DELETE answer %p', async (_, scope, statuses) => {
    const { user, anime } = await setup();
    const options = await thirdParty(user, scope);
    await buildWatchEntry(t.orm, user, anime);
    const answered = [];
    for (const [, call] of calls) {
      const res = await call(options);
      answered.push(res.status);
      if (res.status === 403) expect(res.body.code).toBe('permission:denied');
    }
    expect(answered).toEqual(statuses);
  });

  it('a first-party token passes every scope check', async () => {
    const { as } = await setup();
    for (const [, call] of calls) expect((await call(as)).status).toBe(200);
  });

  it('checks the scope after the look-ups (404 before 403) and before the episode rule (403 before 400)', async () => {
    const { user } = await setup({ episodes_total: 1 });
    const options = await thirdParty(user, ['read:watchlist']);
    expect((await put('nothing', { status: 'planned' }, options)).status).toBe(404);
    expect((await get('frieren', options)).body.code).toBe('watch:not_found');
    expect((await del('frieren', options)).body.code).toBe('watch:not_found');
    expect((await put('frieren', { status: 'planned', episodes: 2 }, options)).status).toBe(403);
  });
});

describe('REST ≡ GraphQL', () => {
  it('PUT answers data.saveWatchEntry of its document with the same variables', async () => {
    const { as } = await setup();
    const body = {
      status: 'watching',
      note: 'n',
      episodes: 2,
      rewatches: 1,
      score: 5,
      start_date: 1600000000,
    };
    const viaRest = await put('Frieren', body, as);
    const viaGql = await gql(t.app, routeOf('PUT').document, { slug: 'Frieren', input: body }, as);
    expect(viaGql.body.errors).toBeUndefined();
    const fromGql = viaGql.body.data.saveWatchEntry as Json;
    expect(Math.abs((fromGql.updated as number) - viaRest.body.updated)).toBeLessThanOrEqual(1);
    expect(viaRest.body).toEqual({ ...fromGql, updated: viaRest.body.updated });
  });

  it('GET answers data.watchEntry', async () => {
    const { as } = await setup();
    await put('frieren', { status: 'completed', episodes: 12, score: 10 }, as);
    const viaRest = await get('frieren', as);
    const viaGql = await gql(t.app, routeOf('GET').document, { slug: 'frieren' }, as);
    expect(viaRest.status).toBe(200);
    expect(viaRest.body).toEqual(viaGql.body.data.watchEntry);
  });

  it('DELETE answers data.deleteWatchEntry', async () => {
    const { as } = await setup();
    await put('frieren', { status: 'planned' }, as);
    const viaRest = await del('frieren', as);
    await put('frieren', { status: 'planned' }, as);
    const viaGql = await gql(t.app, routeOf('DELETE').document, { slug: 'frieren' }, as);
    expect(viaRest.body).toEqual({ success: true });
    expect(viaGql.body.data.deleteWatchEntry).toEqual(viaRest.body);
  });

  it.each<[string, string, Record<string, unknown>, string]>([
    ['PUT', 'nothing', { input: { status: 'planned' } }, 'anime:not_found'],
    ['PUT', 'frieren', { input: { status: 'planned', episodes: 13 } }, 'watch:bad_episodes'],
    ['PUT', 'frieren', { input: { status: 'planned', score: 11 } }, 'system:validation_error'],
    ['PUT', 'frieren', { input: { status: 'planned', note: 'x'.repeat(2049) } }, 'system:validation_error'],
    ['GET', 'frieren', {}, 'watch:not_found'],
    ['DELETE', 'frieren', {}, 'watch:not_found'],
  ])('%s /watch/%s %p fails alike: %s', async (method, slug, variables, code) => {
    const { as } = await setup();
    const viaRest = await rest(
      t.app,
      method as 'PUT',
      `/watch/${slug}`,
      method === 'PUT' ? variables.input : undefined,
      as,
    );
    const viaGql = await gql(t.app, routeOf(method).document, { slug, ...variables }, as);
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

  it('GraphQL authenticates before checking the input, and refuses dates out of order', async () => {
    await setup();
    const doc = routeOf('PUT').document;
    const anonymous = await gql(t.app, doc, { slug: 'frieren', input: { status: 'planned', score: 11 } });
    expect(anonymous.body.errors[0].extensions.code).toBe('auth:missing_token');
    const { token } = await setup({ slug: 'other' });
    const reversed = { status: 'planned', start_date: 2, end_date: 1 };
    const res = await gql(t.app, doc, { slug: 'frieren', input: reversed }, { token });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('system:validation_error');
  });
});
