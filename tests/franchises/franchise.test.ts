import request from 'supertest';
import { AuthToken } from '../../src/accounts/auth-token.entity';
import type { Franchise } from '../../src/franchises/franchise.entity';
import type { TitleContentType } from '../../src/common/enums';
import {
  buildAnime,
  buildFranchise,
  buildManga,
  buildNovel,
  buildReadEntry,
  buildThirdPartyToken,
  buildToken,
  buildUser,
  buildWatchEntry,
  orderedReference,
} from '../factories';
import { rest } from '../setup/clients';
import {
  ANIME_SUMMARY_WITH_WATCH,
  keysOf,
  READ_ENTRY,
  READABLE_SUMMARY_WITH_READ,
  WATCH_ENTRY,
} from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { seconds, sortedKeys, type Json } from '../setup/json';

/** #13 GET /related/{content_type}/{slug}/franchise: optional authentication. */
const t = useTestApp();

interface FranchiseBody {
  anime: Json[];
  manga: Json[];
  novel: Json[];
}

const getFranchise = (
  contentType: string,
  slug: string,
  options: { token?: string; language?: string } = {},
) => rest(t.app, 'GET', `/related/${contentType}/${slug}/franchise`, undefined, options);

const DAY_MS = 24 * 60 * 60 * 1000;
const slugs = (items: Json[]) => items.map((item) => item.slug);

/**
 * A franchise with three anime, two manga and two novels (plus deleted ones and a
 * title of another franchise), each kind in a known `start_date desc nulls last, reference asc` order.
 */
async function sagaFranchise(): Promise<Franchise> {
  const franchise = await buildFranchise(t.orm);
  const other = await buildFranchise(t.orm);
  // anime: two share a start date (reference decides), one has none (last).
  await buildAnime(t.orm, { slug: 'a-undated', franchise, start_date: null, reference: orderedReference(1) });
  await buildAnime(t.orm, {
    slug: 'a-2010-late-ref',
    franchise,
    start_date: new Date('2010-01-01T00:00:00Z'),
    reference: orderedReference(3),
  });
  await buildAnime(t.orm, {
    slug: 'a-2022',
    franchise,
    start_date: new Date('2022-04-01T00:00:00Z'),
    reference: orderedReference(9),
  });
  await buildAnime(t.orm, {
    slug: 'a-2010-early-ref',
    franchise,
    start_date: new Date('2010-01-01T00:00:00Z'),
    reference: orderedReference(2),
  });
  await buildAnime(t.orm, {
    slug: 'a-deleted',
    franchise,
    start_date: new Date('2030-01-01T00:00:00Z'),
    deleted: true,
  });
  await buildAnime(t.orm, { slug: 'a-other-franchise', franchise: other });
  await buildAnime(t.orm, { slug: 'a-no-franchise' });

  await buildManga(t.orm, { slug: 'm-1999', franchise, start_date: new Date('1999-01-01T00:00:00Z') });
  await buildManga(t.orm, { slug: 'm-undated', franchise, start_date: null });
  await buildManga(t.orm, { slug: 'm-2005', franchise, start_date: new Date('2005-01-01T00:00:00Z') });
  await buildManga(t.orm, { slug: 'm-deleted', franchise, deleted: true });

  await buildNovel(t.orm, { slug: 'n-undated', franchise, start_date: null });
  await buildNovel(t.orm, { slug: 'n-2001', franchise, start_date: new Date('2001-06-01T00:00:00Z') });
  await buildNovel(t.orm, { slug: 'n-deleted', franchise, deleted: true });
  await buildNovel(t.orm, { slug: 'n-other-franchise', franchise: other });
  return franchise;
}

const SAGA = {
  anime: ['a-2022', 'a-2010-early-ref', 'a-2010-late-ref', 'a-undated'],
  manga: ['m-2005', 'm-1999', 'm-undated'],
  novel: ['n-2001', 'n-undated'],
};

/** `count` titles of each kind in one franchise; the first of each kind is `<kind>-0`. */
async function franchiseOfSize(count: number): Promise<void> {
  const franchise = await buildFranchise(t.orm);
  for (let n = 0; n < count; n += 1) {
    const start_date = new Date(Date.UTC(2000 + n, 0, 1));
    await buildAnime(t.orm, { slug: `anime-${count}-${n}`, franchise, start_date });
    await buildManga(t.orm, { slug: `manga-${count}-${n}`, franchise, start_date });
    await buildNovel(t.orm, { slug: `novel-${count}-${n}`, franchise, start_date });
  }
}

describe('GET /related/{content_type}/{slug}/franchise (#13)', () => {
  describe('content', () => {
    it.each([
      ['anime', 'a-undated'],
      ['manga', 'm-1999'],
      ['novel', 'n-2001'],
    ])(
      'from a %s lists every non-deleted title of the franchise, requested one included, in order',
      async (kind, slug) => {
        await sagaFranchise();

        const res = await getFranchise(kind, slug);

        expect(res.status).toBe(200);
        expect(sortedKeys(res.body)).toEqual(['anime', 'manga', 'novel']);
        const body = res.body as FranchiseBody;
        expect(slugs(body.anime)).toEqual(SAGA.anime);
        expect(slugs(body.manga)).toEqual(SAGA.manga);
        expect(slugs(body.novel)).toEqual(SAGA.novel);
      },
    );

    it('answers 200 with the one title of a one-title franchise', async () => {
      const franchise = await buildFranchise(t.orm);
      await buildNovel(t.orm, { slug: 'lonely', franchise });
      const res = await getFranchise('novel', 'lonely');
      expect(res.status).toBe(200);
      expect({ anime: res.body.anime, manga: res.body.manga, novel: slugs(res.body.novel) }).toEqual({
        anime: [],
        manga: [],
        novel: ['lonely'],
      });
    });

    it('serves Anime summaries with watch and Manga/Novel summaries with read, exactly the contract fields', async () => {
      const franchise = await buildFranchise(t.orm);
      await buildAnime(t.orm, {
        slug: 'fma',
        franchise,
        extcat_id: 5114,
        title_ua: 'Сталевий алхімік',
        title_en: 'Fullmetal Alchemist',
        title_ja: '鋼の錬金術師',
        media_type: 'tv',
        status: 'finished',
        season: 'spring',
        source: 'manga',
        rating: 'r',
        episodes_released: 64,
        episodes_total: 64,
        image: '/anime/fma.jpg',
        score: 9.1,
        scored_by: 2000000,
        native_scored_by: 11,
        native_score_total: 88,
        start_date: new Date('2009-04-05T08:00:00.700Z'),
        end_date: null,
        translated_ua: true,
        year: 2009,
      });
      await buildManga(t.orm, {
        slug: 'fma-manga',
        franchise,
        title_original: '鋼の錬金術師',
        chapters: 116,
        volumes: 27,
        image: 'https://img.example/fma.png',
        media_type: 'manga',
        year: 2001,
      });
      await buildNovel(t.orm, { slug: 'fma-novel', franchise, chapters: null, volumes: 10, image: null });

      const res = await getFranchise('manga', 'fma-manga');

      expect(res.status).toBe(200);
      const body = res.body as FranchiseBody;
      expect(sortedKeys(body.anime[0])).toEqual(keysOf(ANIME_SUMMARY_WITH_WATCH));
      expect(body.anime[0]).toMatchObject({
        data_type: 'anime',
        slug: 'fma',
        extcat_id: 5114,
        title_ja: '鋼の錬金術師',
        season: 'spring',
        source: 'manga',
        rating: 'r',
        episodes_released: '64',
        episodes_total: '64',
        image: 'https://cdn.test/anime/fma.jpg',
        start_date: seconds('2009-04-05T08:00:00Z'),
        end_date: null,
        created: seconds('2024-01-01T00:00:00Z'),
        updated: seconds('2024-01-02T00:00:00Z'),
        watch: [],
      });
      expect(sortedKeys(body.manga[0])).toEqual(keysOf(READABLE_SUMMARY_WITH_READ));
      expect(body.manga[0]).toMatchObject({
        data_type: 'manga',
        title_original: '鋼の錬金術師',
        chapters: 116,
        volumes: 27,
        image: 'https://img.example/fma.png',
        read: [],
      });
      expect(sortedKeys(body.novel[0])).toEqual(keysOf(READABLE_SUMMARY_WITH_READ));
      expect(body.novel[0]).toMatchObject({
        data_type: 'novel',
        chapters: null,
        volumes: 10,
        image: null,
        read: [],
      });
    });
  });

  describe('look-up', () => {
    it('answers 404 related:content_not_found "Content not found" for a deleted requested title', async () => {
      await sagaFranchise();
      for (const [kind, slug] of [
        ['anime', 'a-deleted'],
        ['manga', 'm-deleted'],
        ['novel', 'n-deleted'],
      ]) {
        const res = await getFranchise(kind, slug);
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: 'Content not found', code: 'related:content_not_found' });
      }
    });

    it('matches the slug exactly: an upper-case slug is not found', async () => {
      const franchise = await buildFranchise(t.orm);
      await buildManga(t.orm, { slug: 'exact-slug', franchise });
      const res = await getFranchise('manga', 'Exact-Slug');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Content not found', code: 'related:content_not_found' });
      expect((await getFranchise('manga', 'exact-slug')).status).toBe(200);
    });

    it('looks the slug up in the named content type only', async () => {
      const franchise = await buildFranchise(t.orm);
      await buildManga(t.orm, { slug: 'only-manga', franchise });
      const res = await getFranchise('novel', 'only-manga');
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('related:content_not_found');
    });

    it('answers the Ukrainian not-found message when Accept-Language prefers uk', async () => {
      const res = await getFranchise('anime', 'missing', { language: 'uk-UA,uk;q=0.9' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Контент не знайдено', code: 'related:content_not_found' });
    });

    it.each(['character', 'person', 'Anime', 'MANGA', 'collection'])(
      'content_type %s → 400 Invalid field content_type in request path',
      async (contentType) => {
        const franchise = await buildFranchise(t.orm);
        await buildAnime(t.orm, { slug: 'typed', franchise });
        const res = await getFranchise(contentType, 'typed');
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          message: 'Invalid field content_type in request path',
          code: 'system:validation_error',
        });
      },
    );

    it('answers 400 related:no_franchise for a title outside any franchise', async () => {
      await buildAnime(t.orm, { slug: 'standalone' });
      const res = await getFranchise('anime', 'standalone');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: "Content doesn't have franchise", code: 'related:no_franchise' });
    });

    it('answers related:no_franchise in Ukrainian when Accept-Language prefers uk', async () => {
      await buildNovel(t.orm, { slug: 'standalone' });
      const res = await getFranchise('novel', 'standalone', { language: 'uk' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'У цього тайтлу немає франшизи', code: 'related:no_franchise' });
    });
  });

  describe('viewer arrays (optional authentication)', () => {
    /** A franchise of one anime, manga and novel; `viewer` and `stranger` both have entries. */
    async function withEntries() {
      const franchise = await buildFranchise(t.orm);
      const anime = await buildAnime(t.orm, { slug: 'v-anime', franchise, episodes_total: 12 });
      const otherAnime = await buildAnime(t.orm, { slug: 'v-anime-2', franchise });
      const manga = await buildManga(t.orm, { slug: 'v-manga', franchise });
      const novel = await buildNovel(t.orm, { slug: 'v-novel', franchise });
      const viewer = await buildUser(t.orm);
      const stranger = await buildUser(t.orm);
      const watch = await buildWatchEntry(t.orm, viewer, anime, {
        status: 'completed',
        episodes: 12,
        rewatches: 1,
        duration: 576,
        score: 9,
        note: 'great',
      });
      const read = await buildReadEntry(
        t.orm,
        viewer,
        { manga },
        { status: 'reading', chapters: 30, volumes: 3, score: 7 },
      );
      const novelRead = await buildReadEntry(t.orm, viewer, { novel }, { status: 'planned' });
      await buildWatchEntry(t.orm, stranger, anime, { status: 'dropped', score: 2 });
      await buildWatchEntry(t.orm, stranger, otherAnime, { status: 'watching' });
      await buildReadEntry(t.orm, stranger, { manga }, { status: 'completed', score: 10 });
      await buildReadEntry(t.orm, stranger, { novel }, { status: 'dropped' });
      return { viewer, stranger, watch, read, novelRead };
    }

    const bySlug = (items: Json[], slug: string) => items.find((item) => item.slug === slug)!;

    it('gives anonymous callers watch: [] and read: [] even when entries exist', async () => {
      await withEntries();
      const res = await getFranchise('anime', 'v-anime');
      expect(res.status).toBe(200);
      const body = res.body as FranchiseBody;
      expect([...body.anime, ...body.manga, ...body.novel].map((i) => i.watch ?? i.read)).toEqual([
        [],
        [],
        [],
        [],
      ]);
    });

    it("shows only the caller's own entry, never another user's", async () => {
      const { viewer, watch, read, novelRead } = await withEntries();
      const token = await buildToken(t.orm, viewer);

      const res = await getFranchise('novel', 'v-novel', { token });

      expect(res.status).toBe(200);
      const body = res.body as FranchiseBody;
      const watched = bySlug(body.anime, 'v-anime').watch as Json[];
      expect(watched).toEqual([
        {
          reference: watch.reference,
          note: 'great',
          created: seconds(watch.created),
          updated: seconds(watch.updated),
          status: 'completed',
          rewatches: 1,
          duration: 576,
          episodes: 12,
          score: 9,
        },
      ]);
      expect(sortedKeys(watched[0])).toEqual(keysOf(WATCH_ENTRY));
      expect(bySlug(body.anime, 'v-anime-2').watch).toEqual([]);
      const mangaRead = bySlug(body.manga, 'v-manga').read as Json[];
      expect(mangaRead).toEqual([
        {
          reference: read.reference,
          note: null,
          created: seconds(read.created),
          updated: seconds(read.updated),
          status: 'reading',
          chapters: 30,
          volumes: 3,
          rereads: 0,
          score: 7,
        },
      ]);
      expect(sortedKeys(mangaRead[0])).toEqual(keysOf(READ_ENTRY));
      expect(bySlug(body.novel, 'v-novel').read).toEqual([
        expect.objectContaining({ reference: novelRead.reference, status: 'planned' }),
      ]);
    });

    it("shows the other user's entries with the other user's token", async () => {
      const { stranger } = await withEntries();
      const token = await buildToken(t.orm, stranger);
      const res = await getFranchise('manga', 'v-manga', { token });
      const body = res.body as FranchiseBody;
      expect((bySlug(body.anime, 'v-anime').watch as Json[]).map((e) => e.status)).toEqual(['dropped']);
      expect((bySlug(body.anime, 'v-anime-2').watch as Json[]).map((e) => e.status)).toEqual(['watching']);
      expect((bySlug(body.manga, 'v-manga').read as Json[]).map((e) => e.score)).toEqual([10]);
    });

    it('accepts the token from the auth cookie too', async () => {
      const { viewer } = await withEntries();
      const cookie = await buildToken(t.orm, viewer);
      const res = await rest(t.app, 'GET', '/related/anime/v-anime/franchise', undefined, { cookie });
      expect(res.status).toBe(200);
      expect((bySlug(res.body.anime, 'v-anime').watch as Json[]).map((e) => e.status)).toEqual(['completed']);
    });

    it('needs no scope: a third-party token with unrelated scopes still sees its own entries', async () => {
      const { viewer } = await withEntries();
      const token = await buildThirdPartyToken(t.orm, viewer, ['read:vote']);
      const res = await getFranchise('anime', 'v-anime', { token });
      expect(res.status).toBe(200);
      expect((bySlug(res.body.manga, 'v-manga').read as Json[]).map((e) => e.status)).toEqual(['reading']);
    });

    it('treats an unknown, expired or banned-account token as anonymous (200, empty arrays)', async () => {
      const { viewer } = await withEntries();
      const expired = await buildToken(t.orm, viewer, { expiration: new Date(Date.now() - 1000) });
      const banned = await buildToken(t.orm, await buildUser(t.orm, { banned: true }));
      for (const token of ['not-a-real-token', expired, banned]) {
        const res = await getFranchise('anime', 'v-anime', { token });
        expect(res.status).toBe(200);
        expect(bySlug(res.body.anime, 'v-anime').watch).toEqual([]);
        expect(bySlug(res.body.manga, 'v-manga').read).toEqual([]);
      }
    });

    it('answers 400 user:deleted "Deleted" for the token of a deleted account', async () => {
      await withEntries();
      const token = await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' }));
      const res = await getFranchise('anime', 'v-anime', { token });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'Deleted', code: 'user:deleted' });
    });

    it('checks a deleted account before validating the path', async () => {
      const token = await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' }));
      const res = await getFranchise('character', 'whatever', { token });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'Deleted', code: 'user:deleted' });
    });

    it('records the use of a valid token (optional authentication resolves it)', async () => {
      const { viewer } = await withEntries();
      const token = await buildToken(t.orm, viewer, { expiration: new Date(Date.now() + 60_000) });
      const res = await getFranchise('anime', 'v-anime', { token });
      expect(res.status).toBe(200);
      const stored = await t.orm.em.fork().findOneOrFail(AuthToken, { user: viewer.reference });
      expect(stored.used).not.toBeNull();
      expect(stored.expiration.getTime()).toBeGreaterThan(Date.now() + 29 * DAY_MS);
    });

    it('prefers a non-empty auth header over the cookie, and falls back to the cookie when the header is empty', async () => {
      const { viewer, stranger } = await withEntries();
      const viewerToken = await buildToken(t.orm, viewer);
      const strangerToken = await buildToken(t.orm, stranger);
      const statusOf = (body: FranchiseBody) =>
        (bySlug(body.manga, 'v-manga').read as Json[]).map((entry) => entry.status);

      const both = await request(t.app)
        .get('/related/manga/v-manga/franchise')
        .set('auth', viewerToken)
        .set('Cookie', `auth=${strangerToken}`);
      expect(statusOf(both.body)).toEqual(['reading']);

      const emptyHeader = await request(t.app)
        .get('/related/manga/v-manga/franchise')
        .set('auth', '')
        .set('Cookie', `auth=${strangerToken}`);
      expect(statusOf(emptyHeader.body)).toEqual(['completed']);
    });

    it('checks a deleted account before the content look-up', async () => {
      const token = await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' }));
      const res = await getFranchise('anime', 'no-such-anime', { token });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('user:deleted');
    });
  });

  describe('bounded SQL', () => {
    const countFor = (kind: TitleContentType, slug: string, token?: string) =>
      t.queries.count(async () => {
        const res = await getFranchise(kind, slug, { token });
        expect(res.status).toBe(200);
      });

    it('sends as many statements for 12 titles of each kind as for 2 (anonymous)', async () => {
      await franchiseOfSize(2);
      await franchiseOfSize(12);
      for (const kind of ['anime', 'manga', 'novel'] as const) {
        const small = await countFor(kind, `${kind}-2-0`);
        const large = await countFor(kind, `${kind}-12-0`);
        expect(small).toBeGreaterThan(0);
        expect(large).toBe(small);
      }
    });

    it('sends as many statements for 12 titles of each kind as for 2 (viewer with entries)', async () => {
      await franchiseOfSize(2);
      await franchiseOfSize(12);
      const viewer = await buildUser(t.orm);
      // A token far from expiry: no sliding write muddies the counts.
      const token = await buildToken(t.orm, viewer, { expiration: new Date(Date.now() + 30 * DAY_MS) });
      const em = t.orm.em.fork();
      for (const size of [2, 12]) {
        for (let n = 0; n < size; n += 1) {
          const anime = await em.findOneOrFail('Anime', { slug: `anime-${size}-${n}` });
          await buildWatchEntry(t.orm, viewer, anime as Parameters<typeof buildWatchEntry>[2]);
        }
      }
      const small = await countFor('manga', 'manga-2-0', token);
      const large = await countFor('manga', 'manga-12-0', token);
      expect(small).toBeGreaterThan(0);
      expect(large).toBe(small);
    });
  });
});
