import type { User } from '../../src/accounts/user.entity';
import type { Anime } from '../../src/catalog/anime.entity';
import type { Manga } from '../../src/catalog/manga.entity';
import type { Novel } from '../../src/catalog/novel.entity';
import type { ListEntry } from '../../src/lists/list-entry.entity';
import type { RestRoute } from '../../src/rest/route';
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
  keysOf,
  PAGINATION,
  READ_ENTRY,
  shapeProblems,
  USER,
  WATCH_ENTRY,
  type Shape,
} from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { type Json, seconds, sortedKeys } from '../setup/json';
import { executedTwin, type Paging } from '../setup/list-route';
import { INVALID_PAGING_QUERIES } from '../setup/paging';

/**
 * Who of the people the caller follows has a title in their list (pages.md "Anime page",
 * "Manga page"): GET /watch/{slug}/following (`followingWatchers`: anime module look-up,
 * scope `read:follow`) and GET /read/{content_type}/{slug}/following (`followingReaders`:
 * content look-up by exact slug, scope `read:user-details`). Both require authentication,
 * are paged and order by entry score desc, entry updated desc, then user reference.
 */
const t = useTestApp();

type Kind = 'anime' | 'manga' | 'novel';
const KINDS: readonly Kind[] = ['anime', 'manga', 'novel'];
type Title = Anime | Manga | Novel;

const routeOf = (path: string): RestRoute => restRoutes.find((r) => r.method === 'GET' && r.path === path)!;
const watchRoute = routeOf('/watch/{slug}/following');
const readRoute = routeOf('/read/{content_type}/{slug}/following');
const routeFor = (kind: Kind) => (kind === 'anime' ? watchRoute : readRoute);
const TWINS = new Map([watchRoute, readRoute].map((r) => [r, executedTwin(r.document)]));
const documentsOf = (kind: Kind): [string, string] => [routeFor(kind).document, TWINS.get(routeFor(kind))!];
const fieldOf = (kind: Kind) => (kind === 'anime' ? 'followingWatchers' : 'followingReaders');
const entryKey = (kind: Kind) => (kind === 'anime' ? 'watch' : 'read');

const ERRORS = {
  animeNotFound: { status: 404, code: 'anime:not_found', message: 'Anime not found' },
  contentNotFound: { status: 404, code: 'read:content_not_found', message: 'Content not found' },
  denied: { status: 403, code: 'permission:denied', message: "You don't have permission for this action" },
  userDeleted: { status: 400, code: 'user:deleted', message: 'Deleted' },
} as const;
type Expected = { status: number; code: string; message?: string };
const notFound = (kind: Kind) => (kind === 'anime' ? ERRORS.animeNotFound : ERRORS.contentNotFound);
/** The scope each route needs, and one a third-party token may hold without it. */
const SCOPE: Record<Kind, string> = {
  anime: 'read:follow',
  manga: 'read:user-details',
  novel: 'read:user-details',
};
const OTHER_SCOPE: Record<Kind, string> = {
  anime: 'read:user-details',
  manga: 'read:follow',
  novel: 'read:follow',
};

const ITEM: Record<Kind, Shape> = {
  anime: { ...USER, watch: { arrayOf: WATCH_ENTRY } },
  manga: { ...USER, read: { arrayOf: READ_ENTRY } },
  novel: { ...USER, read: { arrayOf: READ_ENTRY } },
};
const pageShape = (kind: Kind): Shape => ({
  pagination: { object: PAGINATION },
  list: { arrayOf: ITEM[kind] },
});

// ---------------------------------------------------------------------------
// Callers, titles and entries.

async function member(o: Partial<User> = {}): Promise<{ user: User; as: CallOptions }> {
  const user = await buildUser(t.orm, o);
  return { user, as: { token: await buildToken(t.orm, user) } };
}

const thirdParty = async (user: User, scope: string[]): Promise<CallOptions> => ({
  token: await buildThirdPartyToken(t.orm, user, scope),
});

/** A user with every nullable User field filled, so that shapes can check them all. */
const filledUser = (username: string, o: Partial<User> = {}) =>
  buildUser(t.orm, {
    username,
    description: `About ${username}`,
    cover: '/cover.jpg',
    avatar_path: 'avatars/a.png',
    lists_updated: new Date('2024-02-02T00:00:00Z'),
    ...o,
  } as Partial<User>);

function buildTitle(kind: Kind, o: Partial<Title> = {}): Promise<Title> {
  if (kind === 'anime') return buildAnime(t.orm, o as Partial<Anime>);
  if (kind === 'manga') return buildManga(t.orm, o as Partial<Manga>);
  return buildNovel(t.orm, o as Partial<Novel>);
}

interface EntryData {
  score?: number;
  updated?: string;
  created?: string;
  note?: string;
}

/** `user`'s entry for `title`, every field filled. */
function addEntry(kind: Kind, user: User, title: Title, o: EntryData = {}): Promise<ListEntry> {
  const common = {
    note: o.note ?? `note of ${user.username}`,
    score: o.score ?? 5,
    created: new Date(o.created ?? '2024-01-01T00:00:00Z'),
    updated: new Date(o.updated ?? '2024-01-02T00:00:00Z'),
    status: 'completed',
  };
  if (kind === 'anime') {
    return buildWatchEntry(
      t.orm,
      user,
      title as Anime,
      {
        ...common,
        episodes: 12,
        rewatches: 1,
        duration: 288,
      } as never,
    );
  }
  return buildReadEntry(
    t.orm,
    user,
    kind === 'manga' ? { manga: title as Manga } : { novel: title as Novel },
    {
      ...common,
      chapters: 40,
      volumes: 4,
      rereads: 2,
    } as never,
  );
}

const sql = <T = Json>(text: string, params: unknown[] = []): Promise<T[]> =>
  t.orm.em.getConnection().execute<T[]>(text, params);

/** A follow row written directly (the follow writes are tested in follows.test.ts). */
async function seedFollow(follower: User, followed: User): Promise<void> {
  await sql(
    `insert into follow (reference, follower_reference, followed_reference, created)
     values (gen_random_uuid(), ?, ?, now())`,
    [follower.reference, followed.reference],
  );
}

// ---------------------------------------------------------------------------
// Calls.

function call(kind: string, slug: string, options: CallOptions & Paging = {}) {
  const query = new URLSearchParams();
  if (options.page !== undefined) query.set('page', String(options.page));
  if (options.size !== undefined) query.set('size', String(options.size));
  const qs = query.toString();
  const path = kind === 'anime' ? `/watch/${slug}/following` : `/read/${kind}/${slug}/following`;
  return rest(t.app, 'GET', `${path}${qs ? `?${qs}` : ''}`, undefined, options);
}

/** `kind` names the route (anime: watchers); `contentType` is what the readers' route is sent. */
const callGql = (
  kind: Kind,
  slug: string,
  options: CallOptions & Paging = {},
  document = routeFor(kind).document,
  contentType: string = kind,
) =>
  gql(
    t.app,
    document,
    {
      ...(kind === 'anime' ? {} : { content_type: contentType }),
      slug,
      page: options.page ?? 1,
      size: options.size ?? 15,
    },
    options,
  );

/** The GraphQL error as `{status, code, message}`. */
function graphError(body: Json): Required<Expected> {
  const errors = body.errors as { message: string; extensions: { code: string; http: { status: number } } }[];
  expect(errors).toHaveLength(1);
  const [error] = errors;
  return { status: error.extensions.http.status, code: error.extensions.code, message: error.message };
}

/** The list over REST, compiled /graphql and executed /graphql: one 200 answer; returns it. */
async function expectList(kind: Kind, slug: string, options: CallOptions & Paging): Promise<Json> {
  const viaRest = await call(kind, slug, options);
  const [document, twin] = documentsOf(kind);
  const compiled = await callGql(kind, slug, options, document);
  const executed = await callGql(kind, slug, options, twin);
  expect(viaRest.status).toBe(200);
  expect(compiled.body.errors).toBeUndefined();
  expect(executed.body.errors).toBeUndefined();
  expect(executed.body.data.__typename).toBe('Query');
  expect(compiled.body.data[fieldOf(kind)]).toEqual(viaRest.body);
  expect(executed.body.data[fieldOf(kind)]).toEqual(viaRest.body);
  return viaRest.body as Json;
}

/** The list fails alike over REST and both GraphQL documents; the REST body is `{code, message}`. */
async function expectFailure(
  kind: Kind,
  slug: string,
  options: CallOptions & Paging,
  expected: Expected,
): Promise<void> {
  const viaRest = await call(kind, slug, options);
  expect({ status: viaRest.status, code: viaRest.body.code }).toEqual({
    status: expected.status,
    code: expected.code,
  });
  if (expected.message) expect(viaRest.body.message).toBe(expected.message);
  expect(sortedKeys(viaRest.body)).toEqual(['code', 'message']);
  for (const [name, document] of [
    ['/graphql route document', documentsOf(kind)[0]],
    ['/graphql executed twin', documentsOf(kind)[1]],
  ] as const) {
    const viaGql = await callGql(kind, slug, options, document);
    expect({ document: name, ...graphError(viaGql.body) }).toEqual({
      document: name,
      status: viaRest.status,
      code: viaRest.body.code,
      message: viaRest.body.message,
    });
  }
}

const usernamesOf = (body: Json): string[] => (body.list as Json[]).map((u) => u.username as string);

// ---------------------------------------------------------------------------
// The common fixture.

/**
 * The caller follows A, B and C, who have an entry for the title (C scored 9; A and B
 * scored 8, B's updated later), and D, who has none, E, whose entry is for another title,
 * and a deleted account with an entry. Left out as well: a stranger with an entry, a
 * follower of the caller with an entry, and the caller's own entry.
 */
async function fixture(kind: Kind) {
  const viewer = await member({ username: `Viewer_${kind}` });
  const title = await buildTitle(kind, { slug: `followed-${kind}` });
  const otherTitle = await buildTitle(kind);
  const a = await filledUser(`${kind}_a_user`);
  const b = await filledUser(`${kind}_b_user`);
  const c = await filledUser(`${kind}_c_user`);
  const d = await filledUser(`${kind}_d_user`);
  const e = await filledUser(`${kind}_e_user`);
  const gone = await filledUser(`${kind}_gone_user`, { role: 'deleted' });
  const stranger = await filledUser(`${kind}_stranger`);
  const fan = await filledUser(`${kind}_fan_user`);
  for (const user of [a, b, c, d, e, gone]) await seedFollow(viewer.user, user);
  await seedFollow(fan, viewer.user);
  await seedFollow(stranger, a);
  const entries = {
    a: await addEntry(kind, a, title, { score: 8, updated: '2024-03-01T00:00:00.900Z', note: 'A' }),
    b: await addEntry(kind, b, title, { score: 8, updated: '2024-05-01T00:00:00Z', note: 'B' }),
    c: await addEntry(kind, c, title, { score: 9, updated: '2024-01-01T00:00:00Z', note: 'C' }),
  };
  await addEntry(kind, e, otherTitle, { score: 10 });
  await addEntry(kind, gone, title, { score: 10 });
  await addEntry(kind, stranger, title, { score: 10 });
  await addEntry(kind, fan, title, { score: 10 });
  await addEntry(kind, viewer.user, title, { score: 10 });
  // The followed users' entries for the other title do not count either.
  await addEntry(kind, a, otherTitle, { score: 1 });
  return { viewer, title, otherTitle, users: { a, b, c, d, e, gone, stranger, fan }, entries };
}

const EXPECTED = (kind: Kind) => [`${kind}_c_user`, `${kind}_b_user`, `${kind}_a_user`];

// ===========================================================================

describe('routes', () => {
  it('registers both as required-auth paged routes', () => {
    expect([watchRoute.auth, watchRoute.paged, watchRoute.rootField]).toEqual([
      'required',
      true,
      'followingWatchers',
    ]);
    expect([readRoute.auth, readRoute.paged, readRoute.rootField]).toEqual([
      'required',
      true,
      'followingReaders',
    ]);
  });
});

describe.each(KINDS)('%s', (kind) => {
  const path = kind === 'anime' ? 'GET /watch/{slug}/following' : `GET /read/${kind}/{slug}/following`;

  describe(path, () => {
    it('lists the followed users who have an entry, best scored first; REST ≡ compiled ≡ executed GraphQL', async () => {
      const { viewer, title } = await fixture(kind);
      const body = await expectList(kind, title.slug, viewer.as);
      expect(shapeProblems(body, pageShape(kind), 'page')).toEqual([]);
      expect(body.pagination).toEqual({ total: 3, pages: 1, page: 1 });
      expect(usernamesOf(body)).toEqual(EXPECTED(kind));
      for (const item of body.list as Json[]) {
        // The User fields (no is_followed) and the entry: nothing else.
        expect(sortedKeys(item)).toEqual(keysOf(ITEM[kind]));
      }
    });

    it("each item carries exactly one entry: that user's entry for this title", async () => {
      const { viewer, title, users, entries } = await fixture(kind);
      const body = await expectList(kind, title.slug, viewer.as);
      const byUser = Object.fromEntries(
        (body.list as Json[]).map((item) => [item.reference, item[entryKey(kind)] as Json[]]),
      );
      for (const [user, entry, note] of [
        [users.a, entries.a, 'A'],
        [users.b, entries.b, 'B'],
        [users.c, entries.c, 'C'],
      ] as const) {
        expect(byUser[user.reference]).toHaveLength(1);
        const [served] = byUser[user.reference];
        const counts =
          kind === 'anime'
            ? { episodes: 12, rewatches: 1, duration: 288 }
            : { chapters: 40, volumes: 4, rereads: 2 };
        expect(served).toEqual({
          reference: entry.reference,
          note,
          score: entry.score,
          status: 'completed',
          created: seconds(entry.created),
          updated: seconds(entry.updated),
          ...counts,
        });
      }
    });

    it('serves each User field exactly: image URLs, updated, active, role', async () => {
      const viewer = await member();
      const title = await buildTitle(kind);
      const full = await buildUser(t.orm, {
        username: 'Full_Fields',
        description: 'About me',
        cover: '/cover.jpg',
        avatar_path: 'avatars/a.png',
        role: 'moderator',
        created: new Date('2023-04-05T06:07:08.900Z'),
        lists_updated: new Date('2024-02-03T04:05:06.700Z'),
        last_active: new Date(),
      } as Partial<User>);
      const bare = await buildUser(t.orm, {
        username: 'Bare_Fields',
        created: new Date('2022-01-01T00:00:00Z'),
        last_active: new Date('2022-01-01T00:00:00Z'),
      } as Partial<User>);
      await seedFollow(viewer.user, full);
      await seedFollow(viewer.user, bare);
      // Full_Fields follows the caller back: still no is_followed in the item.
      await seedFollow(full, viewer.user);
      await addEntry(kind, full, title, { score: 7 });
      await addEntry(kind, bare, title, { score: 6 });
      const body = await expectList(kind, title.slug, viewer.as);
      const users = (body.list as Json[]).map(({ [entryKey(kind)]: _entry, ...user }) => user);
      expect(users).toEqual([
        {
          reference: full.reference,
          created: seconds('2023-04-05T06:07:08Z'),
          updated: seconds('2024-02-03T04:05:06Z'),
          description: 'About me',
          username: 'Full_Fields',
          avatar: 'https://cdn.test/avatars/a.png',
          cover: 'https://cdn.test/cover.jpg',
          active: true,
          role: 'moderator',
        },
        {
          reference: bare.reference,
          created: seconds('2022-01-01T00:00:00Z'),
          updated: null,
          description: null,
          username: 'Bare_Fields',
          avatar: 'https://cdn.test/avatar.jpg',
          cover: null,
          active: false,
          role: 'user',
        },
      ]);
    });

    it('lists banned and not activated followed users (only deleted ones are left out)', async () => {
      const viewer = await member();
      const title = await buildTitle(kind);
      const banned = await buildUser(t.orm, { banned: true });
      const inactive = await buildUser(t.orm, { role: 'not_activated' });
      for (const [i, user] of [banned, inactive].entries()) {
        await seedFollow(viewer.user, user);
        await addEntry(kind, user, title, { score: 9 - i });
      }
      const body = await expectList(kind, title.slug, viewer.as);
      expect(usernamesOf(body)).toEqual([banned.username, inactive.username]);
    });

    it('empty when the caller follows nobody with an entry: total 0, pages 0', async () => {
      const { users, title } = await fixture(kind);
      const lonely = await member();
      expect(await expectList(kind, title.slug, lonely.as)).toEqual({
        pagination: { total: 0, pages: 0, page: 1 },
        list: [],
      });
      // D is followed by the viewer but has no entry; as a caller D follows nobody.
      const asD = { token: await buildToken(t.orm, users.d) };
      expect((await expectList(kind, title.slug, asD)).list).toEqual([]);
    });

    it('depends on the caller: another caller sees the users they follow', async () => {
      const { title, users } = await fixture(kind);
      const other = await member();
      await seedFollow(other.user, users.b);
      await seedFollow(other.user, users.stranger);
      await seedFollow(other.user, users.e);
      const body = await expectList(kind, title.slug, other.as);
      expect(usernamesOf(body)).toEqual([users.stranger.username, users.b.username]);
    });

    it('a follow or an entry removed takes the user out; a deleted account too', async () => {
      const { viewer, title, users } = await fixture(kind);
      await sql(`delete from follow where follower_reference = ? and followed_reference = ?`, [
        viewer.user.reference,
        users.c.reference,
      ]);
      await sql(`update "user" set role = 'deleted' where reference = ?`, [users.b.reference]);
      const body = await expectList(kind, title.slug, viewer.as);
      expect(body.pagination).toEqual({ total: 1, pages: 1, page: 1 });
      expect(usernamesOf(body)).toEqual([users.a.username]);
      const table = kind === 'anime' ? 'watch_entry' : 'read_entry';
      await sql(`delete from ${table} where user_reference = ?`, [users.a.reference]);
      expect(await expectList(kind, title.slug, viewer.as)).toEqual({
        pagination: { total: 0, pages: 0, page: 1 },
        list: [],
      });
    });

    describe('order and paging', () => {
      /**
       * Six followed users with entries: score desc, then updated desc, then user
       * reference asc (their entries' references run the other way).
       */
      async function ordered() {
        const viewer = await member();
        const title = await buildTitle(kind);
        const plan: [name: string, score: number, updated: string, ref: number][] = [
          ['ord_p', 7, '2024-01-01T00:00:00Z', 6],
          ['ord_q', 7, '2024-01-01T00:00:00Z', 2],
          ['ord_r', 9, '2023-01-01T00:00:00Z', 5],
          ['ord_s', 7, '2024-06-01T00:00:00Z', 4],
          ['ord_t', 0, '2025-01-01T00:00:00Z', 1],
          ['ord_u', 7, '2024-01-01T00:00:00Z', 3],
        ];
        for (const [name, score, updated, ref] of plan) {
          const user = await buildUser(t.orm, { username: name, reference: orderedReference(ref) });
          await seedFollow(viewer.user, user);
          await addEntry(kind, user, title, { score, updated });
          // Make the entry's reference run opposite to the user's.
          const table = kind === 'anime' ? 'watch_entry' : 'read_entry';
          await sql(`update ${table} set reference = ? where user_reference = ?`, [
            orderedReference(100 - ref),
            user.reference,
          ]);
        }
        return { viewer, title };
      }
      const ORDER = ['ord_r', 'ord_s', 'ord_q', 'ord_u', 'ord_p', 'ord_t'];

      it('entry score desc, then entry updated desc, then user reference asc', async () => {
        const { viewer, title } = await ordered();
        expect(usernamesOf(await expectList(kind, title.slug, { ...viewer.as, size: 20 }))).toEqual(ORDER);
      });

      it('pages exactly; a page past the end is empty with the true total', async () => {
        const { viewer, title } = await ordered();
        const seen: string[] = [];
        for (const page of [1, 2, 3]) {
          const body = await expectList(kind, title.slug, { ...viewer.as, page, size: 2 });
          expect(body.pagination).toEqual({ total: 6, pages: 3, page });
          seen.push(...usernamesOf(body));
        }
        expect(seen).toEqual(ORDER);
        expect(await expectList(kind, title.slug, { ...viewer.as, page: 4, size: 2 })).toEqual({
          pagination: { total: 6, pages: 3, page: 4 },
          list: [],
        });
        expect(await expectList(kind, title.slug, { ...viewer.as, page: 10000, size: 100 })).toEqual({
          pagination: { total: 6, pages: 1, page: 10000 },
          list: [],
        });
      });

      it('serves 15 users by default', async () => {
        const viewer = await member();
        const title = await buildTitle(kind);
        for (let i = 0; i < 16; i += 1) {
          const user = await buildUser(t.orm);
          await seedFollow(viewer.user, user);
          await addEntry(kind, user, title, { score: i % 10 });
        }
        const first = await call(kind, title.slug, viewer.as);
        expect(first.status).toBe(200);
        expect(first.body.list).toHaveLength(15);
        expect(first.body.pagination).toEqual({ total: 16, pages: 2, page: 1 });
        const all = await expectList(kind, title.slug, { ...viewer.as, size: 100 });
        expect(all.list).toHaveLength(16);
      });

      it.each(INVALID_PAGING_QUERIES)(
        'query %s → 400 Invalid field %s in request query',
        async (qs, field) => {
          const { as } = await member();
          const title = await buildTitle(kind);
          const at =
            kind === 'anime' ? `/watch/${title.slug}/following` : `/read/${kind}/${title.slug}/following`;
          const res = await rest(t.app, 'GET', `${at}?${qs}`, undefined, as);
          expect(res.status).toBe(400);
          expect(res.body).toEqual({
            code: 'system:validation_error',
            message: `Invalid field ${field} in request query`,
          });
        },
      );

      it('GraphQL page 0 and size 101 are 400 on both documents', async () => {
        const { as } = await member();
        const title = await buildTitle(kind);
        for (const document of documentsOf(kind)) {
          for (const [paging, field] of [
            [{ page: 0 }, 'page'],
            [{ size: 101 }, 'size'],
          ] as const) {
            const res = await callGql(kind, title.slug, { ...as, ...paging }, document);
            expect(res.status).toBe(400);
            expect(res.body.errors[0].message).toBe(`Invalid field ${field} in request query`);
          }
        }
      });

      it('paging is validated before the title look-up', async () => {
        const { as } = await member();
        const res = await call(kind, 'no-such-title', { ...as, page: 0 });
        expect(res.status).toBe(400);
        expect(res.body.message).toBe('Invalid field page in request query');
      });
    });

    describe('the title look-up', () => {
      it(`a missing or deleted title is 404 ${notFound(kind).code}, in both languages`, async () => {
        const { as } = await member();
        const dead = await buildTitle(kind, { deleted: true } as Partial<Title>);
        for (const language of ['en', 'uk']) {
          const uk = language === 'uk';
          const message =
            kind === 'anime'
              ? uk
                ? 'Аніме не знайдено'
                : 'Anime not found'
              : uk
                ? 'Контент не знайдено'
                : 'Content not found';
          for (const slug of ['no-such-title', dead.slug]) {
            await expectFailure(kind, slug, { ...as, language }, { ...notFound(kind), message });
          }
        }
      });

      it('a deleted title is not found even by a caller who follows users with entries', async () => {
        const { viewer, title } = await fixture(kind);
        await sql(`update ${kind} set deleted = true where reference = ?`, [title.reference]);
        await expectFailure(kind, title.slug, viewer.as, notFound(kind));
      });

      it('the path names its own table: another kind’s slug is not found', async () => {
        const { as } = await member();
        for (const other of KINDS.filter((k) => k !== kind)) {
          const title = await buildTitle(other, { slug: `only-${other}` });
          await expectFailure(kind, title.slug, as, notFound(kind));
        }
      });

      it('entries for a title of another kind with the same slug are not listed', async () => {
        const { viewer, title, users } = await fixture(kind);
        for (const other of KINDS.filter((k) => k !== kind)) {
          const twin = await buildTitle(other, { slug: title.slug });
          await addEntry(other, users.d, twin, { score: 10 });
        }
        expect(usernamesOf(await expectList(kind, title.slug, viewer.as))).toEqual(EXPECTED(kind));
      });
    });

    describe('authentication (required) and scope', () => {
      it('401 for a missing, bad or expired token, before validation and the look-up', async () => {
        const { user } = await member();
        const title = await buildTitle(kind);
        const expired = await buildToken(t.orm, user, { expiration: new Date(Date.now() - 1000) });
        for (const slug of [title.slug, 'no-such-title', 'a%00b']) {
          for (const [options, code] of [
            [{}, 'auth:missing_token'],
            [{ token: 'not-a-token' }, 'auth:invalid_token'],
            [{ token: expired }, 'auth:token_expired'],
          ] as const) {
            const res = await call(kind, slug, { ...options, page: 0 });
            expect([slug, res.status, res.body.code]).toEqual([slug, 401, code]);
          }
        }
        for (const [options, code] of [
          [{}, 'auth:missing_token'],
          [{ token: 'not-a-token' }, 'auth:invalid_token'],
          [{ token: expired }, 'auth:token_expired'],
        ] as const) {
          await expectFailure(kind, title.slug, options, { status: 401, code });
        }
      });

      it("a deleted account's token is 400 user:deleted; a banned account's is 403 auth:banned", async () => {
        const { title, users } = await fixture(kind);
        const gone = await member({ role: 'deleted' });
        const banned = await member({ banned: true });
        await seedFollow(banned.user, users.a);
        await expectFailure(kind, title.slug, gone.as, ERRORS.userDeleted);
        await expectFailure(kind, title.slug, banned.as, { status: 403, code: 'auth:banned' });
        // Authentication comes before the look-up.
        await expectFailure(kind, 'no-such-title', gone.as, ERRORS.userDeleted);
        await expectFailure(kind, 'no-such-title', banned.as, { status: 403, code: 'auth:banned' });
      });

      it(`a third-party token needs ${SCOPE[kind]}; ${OTHER_SCOPE[kind]} is not enough`, async () => {
        const { viewer, title } = await fixture(kind);
        const without = await thirdParty(viewer.user, [OTHER_SCOPE[kind], 'watchlist', 'readlist', 'follow']);
        await expectFailure(kind, title.slug, without, ERRORS.denied);
        const firstParty = await expectList(kind, title.slug, viewer.as);
        const group = kind === 'anime' ? 'follow-full' : 'user-details';
        for (const scope of [[SCOPE[kind]], [group], ['all']]) {
          expect(await expectList(kind, title.slug, await thirdParty(viewer.user, scope))).toEqual(
            firstParty,
          );
        }
      });

      it('the title look-up comes before the scope: a missing title with a scopeless token is 404', async () => {
        const { user } = await member();
        const without = await thirdParty(user, ['read:watchlist']);
        const dead = await buildTitle(kind, { deleted: true } as Partial<Title>);
        await expectFailure(kind, 'no-such-title', without, notFound(kind));
        await expectFailure(kind, dead.slug, without, notFound(kind));
      });

      it('the auth cookie works as the header does', async () => {
        const { viewer, title } = await fixture(kind);
        const viaHeader = await expectList(kind, title.slug, viewer.as);
        const viaCookie = await call(kind, title.slug, { cookie: viewer.as.token });
        expect(viaCookie.status).toBe(200);
        expect(viaCookie.body).toEqual(viaHeader);
      });
    });

    describe('validation', () => {
      it('a slug holding U+0000 is 400 Invalid field slug in request path', async () => {
        const { as } = await member();
        const res = await call(kind, 'a%00b', as);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          code: 'system:validation_error',
          message: 'Invalid field slug in request path',
        });
        for (const document of documentsOf(kind)) {
          const graph = await callGql(kind, 'a\u0000b', as, document);
          expect(graph.status).toBe(400);
          expect(graph.body.errors[0].extensions.code).toBe('system:validation_error');
        }
      });
    });

    describe('bounded SQL', () => {
      it('as many statements for 20 users as for 1, on REST, compiled and executed GraphQL', async () => {
        const viewer = await member();
        const title = await buildTitle(kind);
        const addUser = async (i: number) => {
          const user = await buildUser(t.orm);
          await seedFollow(viewer.user, user);
          await addEntry(kind, user, title, { score: i % 10 });
        };
        await addUser(0);
        await call(kind, title.slug, viewer.as); // the token's first use slides it

        const count = async (expected: number) => {
          const counts: number[] = [];
          counts.push(
            await t.queries.count(async () => {
              const res = await call(kind, title.slug, { ...viewer.as, size: 20 });
              expect(res.status).toBe(200);
              expect(res.body.list).toHaveLength(expected);
            }),
          );
          for (const document of documentsOf(kind)) {
            counts.push(
              await t.queries.count(async () => {
                const res = await callGql(kind, title.slug, { ...viewer.as, size: 20 }, document);
                expect(res.body.errors).toBeUndefined();
                expect(res.body.data[fieldOf(kind)].list).toHaveLength(expected);
              }),
            );
          }
          return counts;
        };
        const one = await count(1);
        for (let i = 1; i < 20; i += 1) await addUser(i);
        const twenty = await count(20);
        expect(twenty).toEqual(one);
        // REST and the route's document over /graphql: the token, then one compiled statement.
        expect(one.slice(0, 2)).toEqual([2, 2]);
      });
    });
  });
});

// ===========================================================================

describe('the anime module look-up (GET /watch/{slug}/following)', () => {
  it('lower-cases the slug: any case of a stored slug finds the anime', async () => {
    const { viewer, title } = await fixture('anime');
    const exact = await expectList('anime', title.slug, viewer.as);
    expect(exact.pagination).toEqual({ total: 3, pages: 1, page: 1 });
    for (const slug of ['FOLLOWED-ANIME', 'Followed-Anime', 'followed-ANIME']) {
      expect(await expectList('anime', slug, viewer.as)).toEqual(exact);
    }
  });

  it('matches nothing but the whole slug', async () => {
    const { viewer } = await fixture('anime');
    for (const slug of ['followed', 'followed-anime-', 'followed-anime%20', 'followed_anime']) {
      await expectFailure('anime', slug, viewer.as, ERRORS.animeNotFound);
    }
  });
});

describe.each(['manga', 'novel'] as const)('the %s content look-up (exact slug)', (kind) => {
  it('is case-sensitive: only the stored spelling finds the title', async () => {
    const viewer = await member();
    const title = await buildTitle(kind, { slug: 'Mixed-Case-Title' });
    const user = await buildUser(t.orm);
    await seedFollow(viewer.user, user);
    await addEntry(kind, user, title, { score: 3 });
    const body = await expectList(kind, 'Mixed-Case-Title', viewer.as);
    expect(usernamesOf(body)).toEqual([user.username]);
    for (const slug of ['mixed-case-title', 'MIXED-CASE-TITLE', 'Mixed-Case', 'Mixed-Case-Title-']) {
      await expectFailure(kind, slug, viewer.as, ERRORS.contentNotFound);
    }
  });

  it('the message in Ukrainian', async () => {
    const { as } = await member();
    const res = await call(kind, 'no-such-title', { ...as, language: 'uk' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'read:content_not_found', message: 'Контент не знайдено' });
  });
});

describe('GET /read/{content_type}/{slug}/following: content_type', () => {
  it.each(['anime', 'Manga', 'NOVEL', 'character', 'light_novel', 'collection'])(
    'content_type %s → 400 Invalid field content_type in request path, after authentication, before the slug',
    async (contentType) => {
      const { as } = await member();
      const manga = await buildManga(t.orm, { slug: 'valid-manga' });
      for (const slug of [manga.slug, 'a%00b']) {
        const res = await rest(t.app, 'GET', `/read/${contentType}/${slug}/following?page=0`, undefined, as);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          code: 'system:validation_error',
          message: 'Invalid field content_type in request path',
        });
      }
      const unauthenticated = await rest(t.app, 'GET', `/read/${contentType}/${manga.slug}/following`);
      expect([unauthenticated.status, unauthenticated.body.code]).toEqual([401, 'auth:missing_token']);
      for (const document of documentsOf('manga')) {
        const graph = await callGql('manga', manga.slug, as, document, contentType);
        expect(graph.status).toBe(400);
        expect(graph.body.errors[0].extensions.code).toBe('system:validation_error');
        expect(graph.body.data).toBeUndefined();
      }
    },
  );

  it('the content_type message in Ukrainian', async () => {
    const { as } = await member();
    const res = await rest(t.app, 'GET', '/read/person/x/following', undefined, { ...as, language: 'uk' });
    expect(res.body).toEqual({
      code: 'system:validation_error',
      message: 'Некоректне поле content_type у запиті path',
    });
  });

  it('manga and novel entries stay apart on a shared slug', async () => {
    const viewer = await member();
    const manga = await buildManga(t.orm, { slug: 'shared-slug' });
    const novel = await buildNovel(t.orm, { slug: 'shared-slug' });
    const reader = await buildUser(t.orm, { username: 'manga_reader' });
    const novelist = await buildUser(t.orm, { username: 'novel_reader' });
    for (const user of [reader, novelist]) await seedFollow(viewer.user, user);
    await addEntry('manga', reader, manga, { score: 4, note: 'manga entry' });
    await addEntry('novel', novelist, novel, { score: 6, note: 'novel entry' });
    const mangaBody = await expectList('manga', 'shared-slug', viewer.as);
    const novelBody = await expectList('novel', 'shared-slug', viewer.as);
    expect(usernamesOf(mangaBody)).toEqual(['manga_reader']);
    expect(usernamesOf(novelBody)).toEqual(['novel_reader']);
    expect(((mangaBody.list as Json[])[0].read as Json[]).map((r) => r.note)).toEqual(['manga entry']);
    expect(((novelBody.list as Json[])[0].read as Json[]).map((r) => r.note)).toEqual(['novel entry']);
  });
});
