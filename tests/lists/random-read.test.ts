import { AuthToken } from '../../src/accounts/auth-token.entity';
import type { User } from '../../src/accounts/user.entity';
import type { Manga } from '../../src/catalog/manga.entity';
import type { Novel } from '../../src/catalog/novel.entity';
import { restRoutes } from '../../src/routes';
import {
  buildManga,
  buildNovel,
  buildReadEntry,
  buildToken,
  buildUser,
  orderedReference,
} from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { READABLE_SUMMARY, keysOf, shapeProblems } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { sortedKeys } from '../setup/json';

/** #18 GET /read/{content_type}/random/{username}/{status}: one random title of a read list, auth none. */
const t = useTestApp();

const route = restRoutes.find((r) => r.contract === 18)!;

const getRandom = (kind: string, username: string, status: string, options: CallOptions = {}) =>
  rest(t.app, 'GET', `/read/${kind}/random/${username}/${status}`, undefined, options);

const EMPTY = { message: 'User read list is empty', code: 'read:empty_random' };

/** `reader` with `count` manga in the `reading` status, slugs `m-1`…, entry references in slug order. */
async function readerWith(count: number, username = 'reader'): Promise<{ user: User; manga: Manga[] }> {
  const user = await buildUser(t.orm, { username });
  const manga: Manga[] = [];
  for (let n = 1; n <= count; n += 1) {
    const title = await buildManga(t.orm, { slug: `m-${n}`, reference: orderedReference(10 - n) });
    await buildReadEntry(
      t.orm,
      user,
      { manga: title },
      { status: 'reading', reference: orderedReference(n) },
    );
    manga.push(title);
  }
  return { user, manga };
}

afterEach(() => jest.restoreAllMocks());

describe('GET /read/{content_type}/random/{username}/{status} (#18)', () => {
  describe('response', () => {
    it.each(['manga', 'novel'] as const)(
      'serves the %s summary without read, every field filled',
      async (kind) => {
        const user = await buildUser(t.orm, { username: 'filled' });
        const fields = {
          slug: `${kind}-full`,
          title_original: '原題',
          title_ua: 'Назва',
          title_en: 'Title',
          status: 'finished' as const,
          chapters: 120,
          volumes: 12,
          translated_ua: true,
          score: 7.25,
          scored_by: 321,
          native_scored_by: 11,
          native_score_total: 88,
          image: '/content/full.jpg',
          year: 2011,
          start_date: new Date('2011-01-01T00:00:00Z'),
          end_date: new Date('2012-01-01T00:00:00Z'),
          created: new Date('2020-01-01T00:00:00Z'),
          updated: new Date('2021-01-01T00:00:00Z'),
        };
        const title =
          kind === 'manga'
            ? { manga: await buildManga(t.orm, { ...fields, media_type: 'manhua' }) }
            : { novel: await buildNovel(t.orm, { ...fields, media_type: 'novel' }) };
        await buildReadEntry(t.orm, user, title, { status: 'completed', note: 'private' });

        const res = await getRandom(kind, 'filled', 'completed');

        expect(res.status).toBe(200);
        expect(shapeProblems(res.body, READABLE_SUMMARY, kind)).toEqual([]);
        expect(sortedKeys(res.body)).toEqual(keysOf(READABLE_SUMMARY));
        expect(res.body).toMatchObject({
          data_type: kind,
          slug: `${kind}-full`,
          media_type: kind === 'manga' ? 'manhua' : 'novel',
          image: 'https://cdn.test/content/full.jpg',
          score: 7.25,
        });
        expect(res.body).not.toHaveProperty('read');
      },
    );

    it('picks among entries of that content type and status whose title is live, and nothing else', async () => {
      const user = await buildUser(t.orm, { username: 'mixed' });
      const target = await buildManga(t.orm, { slug: 'target' });
      await buildReadEntry(t.orm, user, { manga: target }, { status: 'planned' });
      await buildReadEntry(
        t.orm,
        user,
        { manga: await buildManga(t.orm, { slug: 'reading' }) },
        { status: 'reading' },
      );
      await buildReadEntry(
        t.orm,
        user,
        { manga: await buildManga(t.orm, { slug: 'gone', deleted: true }) },
        {
          status: 'planned',
        },
      );
      await buildReadEntry(
        t.orm,
        user,
        { novel: await buildNovel(t.orm, { slug: 'novel' }) },
        { status: 'planned' },
      );
      const other = await buildUser(t.orm);
      await buildReadEntry(
        t.orm,
        other,
        { manga: await buildManga(t.orm, { slug: 'theirs' }) },
        { status: 'planned' },
      );

      const seen = new Set<string>();
      for (let n = 0; n < 20; n += 1) seen.add((await getRandom('manga', 'mixed', 'planned')).body.slug);

      expect([...seen]).toEqual(['target']);
      expect((await getRandom('novel', 'mixed', 'planned')).body.slug).toBe('novel');
    });

    it('finds the user whatever the case of the username', async () => {
      await readerWith(1, 'CamelReader');
      for (const username of ['camelreader', 'CAMELREADER', 'CamelReader']) {
        const res = await getRandom('manga', username, 'reading');
        expect(res.status).toBe(200);
        expect(res.body.slug).toBe('m-1');
      }
    });
  });

  describe('randomness', () => {
    it('picks each of 3 entries at least once in 300 calls, roughly uniformly', async () => {
      await readerWith(3);
      const counts = new Map<string, number>();
      for (let n = 0; n < 300; n += 1) {
        const res = await getRandom('manga', 'reader', 'reading');
        expect(res.status).toBe(200);
        counts.set(res.body.slug, (counts.get(res.body.slug) ?? 0) + 1);
      }
      expect([...counts.keys()].sort()).toEqual(['m-1', 'm-2', 'm-3']);
      // Each expected 100 times; below 40 would be a 10-sigma event for a uniform pick.
      for (const count of counts.values()) expect(count).toBeGreaterThan(40);
    });

    it.each([
      [0, 'm-1'],
      [0.34, 'm-2'],
      [0.5, 'm-2'],
      [0.67, 'm-3'],
      [0.9999, 'm-3'],
    ])(
      'maps Math.random() = %p to the entry at that rank in entry reference order (%s)',
      async (value, slug) => {
        await readerWith(3);
        jest.spyOn(Math, 'random').mockReturnValue(value);
        const res = await getRandom('manga', 'reader', 'reading');
        expect(res.body.slug).toBe(slug);
      },
    );

    it('skips deleted titles when ranking', async () => {
      const { user } = await readerWith(2);
      const gone = await buildManga(t.orm, { slug: 'gone', deleted: true });
      await buildReadEntry(
        t.orm,
        user,
        { manga: gone },
        { status: 'reading', reference: orderedReference(0) },
      );
      jest.spyOn(Math, 'random').mockReturnValue(0);
      expect((await getRandom('manga', 'reader', 'reading')).body.slug).toBe('m-1');
    });

    it('does not load the list: a bounded number of statements, the pick limited to one row', async () => {
      await readerWith(1, 'short');
      const { user } = await readerWith(0, 'long');
      for (let n = 1; n <= 40; n += 1) {
        const manga = await buildManga(t.orm);
        await buildReadEntry(t.orm, user, { manga }, { status: 'reading' });
      }
      jest.spyOn(Math, 'random').mockReturnValue(0.5);
      const short = await t.queries.count(() => getRandom('manga', 'short', 'reading'));
      const long = await t.queries.count(async () => {
        const res = await getRandom('manga', 'long', 'reading');
        expect(res.status).toBe(200);
      });
      expect(long).toBe(short);
      // The pick ranks the entries in the statement and returns the one row it picked.
      const pick = t.queries.last.find((sql) => /row_number\(\) over \(order by e\.reference\)/.test(sql));
      expect(pick).toMatch(/\b1 result\]$/);
    });
  });

  describe('errors', () => {
    it('answers 404 user:not_found for an unknown username, in both languages', async () => {
      const res = await getRandom('manga', 'nobody', 'reading');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'User not found', code: 'user:not_found' });
      const uk = await getRandom('manga', 'nobody', 'reading', { language: 'uk' });
      expect(uk.body).toEqual({ message: 'Користувача не знайдено', code: 'user:not_found' });
    });

    it('answers 400 user:deleted for a deleted account, even with entries', async () => {
      const { user } = await readerWith(1, 'ghost');
      await t.orm.em.fork().nativeUpdate('User', { reference: user.reference }, { role: 'deleted' });
      const res = await getRandom('manga', 'ghost', 'reading');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'Deleted', code: 'user:deleted' });
    });

    it('answers 400 read:empty_random when nothing matches', async () => {
      const user = await buildUser(t.orm, { username: 'empty' });
      const none = await getRandom('manga', 'empty', 'reading');
      expect(none.status).toBe(400);
      expect(none.body).toEqual(EMPTY);

      // Other status, other content type, a deleted title: still nothing to pick.
      await buildReadEntry(t.orm, user, { manga: await buildManga(t.orm) }, { status: 'dropped' });
      await buildReadEntry(t.orm, user, { novel: await buildNovel(t.orm) }, { status: 'reading' });
      await buildReadEntry(
        t.orm,
        user,
        { manga: await buildManga(t.orm, { deleted: true }) },
        { status: 'reading' },
      );
      const still = await getRandom('manga', 'empty', 'reading');
      expect(still.status).toBe(400);
      expect(still.body).toEqual(EMPTY);

      const uk = await getRandom('manga', 'empty', 'reading', { language: 'uk' });
      expect(uk.body).toEqual({ message: 'Список читання користувача пустий', code: 'read:empty_random' });
    });

    it.each([
      ['anime', 'reader', 'reading', 'content_type'],
      ['Manga', 'reader', 'reading', 'content_type'],
      ['manga', 'reader', 'watching', 'status'],
      ['manga', 'reader', 'Reading', 'status'],
      ['character', 'nobody', 'bad', 'content_type'],
    ])('/%s/random/%s/%s → 400 Invalid field %s in request path', async (kind, username, status, name) => {
      const res = await getRandom(kind, username, status);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: `Invalid field ${name} in request path`,
        code: 'system:validation_error',
      });
    });

    it('validates the path before looking the user up', async () => {
      const res = await getRandom('manga', 'nobody', 'bad');
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('system:validation_error');
    });
  });

  describe('authentication none', () => {
    it('ignores unknown and deleted-account tokens', async () => {
      await readerWith(1);
      const deleted = await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' }));
      for (const token of ['garbage', deleted]) {
        const res = await getRandom('manga', 'reader', 'reading', { token });
        expect(res.status).toBe(200);
        expect(res.body.slug).toBe('m-1');
      }
    });

    it('never resolves the token: no look-up and no recorded use', async () => {
      const { user } = await readerWith(1);
      const expiration = new Date(Date.now() + 60_000);
      const token = await buildToken(t.orm, user, { expiration });
      await t.queries.count(async () => {
        const res = await getRandom('manga', 'reader', 'reading', { token });
        expect(res.status).toBe(200);
      });
      expect(t.queries.last.some((sql) => /auth_token/.test(sql))).toBe(false);
      const stored = await t.orm.em.fork().findOneOrFail(AuthToken, { user: user.reference });
      expect(stored.used).toBeNull();
      expect(stored.expiration.getTime()).toBe(expiration.getTime());
    });
  });

  describe('REST ≡ GraphQL', () => {
    it.each(['manga', 'novel'] as const)(
      'equals data.randomReadEntry for a %s, with and without a token',
      async (kind) => {
        const user = await buildUser(t.orm, { username: 'Parity' });
        const title: { manga?: Manga; novel?: Novel } =
          kind === 'manga'
            ? { manga: await buildManga(t.orm, { slug: 'p', title_ua: 'Назва', chapters: 5 }) }
            : { novel: await buildNovel(t.orm, { slug: 'p', title_ua: 'Назва', chapters: 5 }) };
        await buildReadEntry(t.orm, user, title, { status: 'on_hold' });
        const token = await buildToken(t.orm, user);
        for (const options of [{}, { token }]) {
          const viaRest = await getRandom(kind, 'parity', 'on_hold', options);
          const viaGraphQL = await gql(
            t.app,
            route.document,
            { content_type: kind, username: 'parity', status: 'on_hold' },
            options,
          );
          expect(viaRest.status).toBe(200);
          expect(viaGraphQL.body.errors).toBeUndefined();
          expect(viaRest.body).toEqual(viaGraphQL.body.data.randomReadEntry);
          expect(viaRest.body.data_type).toBe(kind);
        }
      },
    );

    it('reports the same errors', async () => {
      await buildUser(t.orm, { username: 'empty' });
      for (const [username, code, status] of [
        ['empty', 'read:empty_random', 400],
        ['missing', 'user:not_found', 404],
      ] as const) {
        const viaRest = await getRandom('novel', username, 'planned', { language: 'uk' });
        const viaGraphQL = await gql(
          t.app,
          route.document,
          { content_type: 'novel', username, status: 'planned' },
          { language: 'uk' },
        );
        expect(viaRest.status).toBe(status);
        expect(viaGraphQL.body.errors[0]).toMatchObject({
          message: viaRest.body.message,
          extensions: { code, http: { status } },
        });
      }
    });
  });
});
