import { randomUUID } from 'node:crypto';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { hashSecret, newTokenSecret } from '../../src/common/auth/secrets';
import type { RestRoute } from '../../src/rest/route';
import { restRoutes } from '../../src/routes';
import { articleBody, buildAttachment } from '../articles/helpers';
import { buildCollection as buildCommentedCollection, buildComment } from '../comments/helpers';
import { animeSlugs, buildCollection, collectionBody } from '../collections/helpers';
import {
  buildAnime,
  buildAppearance,
  buildCharacter,
  buildClient,
  buildCredit,
  buildFranchise,
  buildGenre,
  buildManga,
  buildNovel,
  buildPerson,
  buildReadEntry,
  buildRole,
  buildToken,
  buildUser,
  buildWatchEntry,
  linkTitle,
} from '../factories';
import { buildNotification } from '../notifications/helpers';
import { rest } from '../setup/clients';
import { useTestApp } from '../setup/harness';

/**
 * Real responses of the contract endpoints, validated with ajv against the
 * schemas of the document the app serves at /openapi.json: every 200 body, and a
 * sample of error bodies against the schema given for their status.
 */
const t = useTestApp();

type Operation = { responses: Record<string, unknown> };
type Doc = { paths: Record<string, Record<string, Operation>> };
let document: Doc;
const covered = new Set<number>();

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
/** The id of the served document in `ajv`: response schemas are read in place, `$ref`s resolve within it. */
const DOC_ID = 'openapi.json';

beforeAll(async () => {
  const res = await rest(t.app, 'GET', '/openapi.json');
  expect(res.status).toBe(200);
  document = res.body as Doc;
  ajv.addSchema(document, DOC_ID);
});

const routeOf = (contract: number): RestRoute => {
  const route = restRoutes.find((r) => r.contract === contract);
  if (!route) throw new Error(`no route for contract #${contract}`);
  return route;
};

/** The document's operation of `route`. */
const operationOf = (route: RestRoute): Operation => document.paths[route.path][route.method.toLowerCase()];

/** A JSON pointer into the document, as an ajv reference. */
const pointer = (...segments: string[]) =>
  `${DOC_ID}#/${segments.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')}`;

/** The validator of the JSON body the document gives for `status` on `route`'s operation. */
function validatorOf(route: RestRoute, status = '200'): ValidateFunction {
  const ref = pointer(
    'paths',
    route.path,
    route.method.toLowerCase(),
    'responses',
    status,
    'content',
    'application/json',
    'schema',
  );
  const validate = ajv.getSchema(ref);
  if (!validate) throw new Error(`no schema at ${ref}`);
  return validate;
}

/** Calls a contract endpoint, expects 200 and a body that satisfies the document. */
async function expectValid(contract: number, path: string, body?: unknown, token?: string): Promise<unknown> {
  const route = routeOf(contract);
  const res = await rest(t.app, route.method, path, body, { token });
  expect({ status: res.status, body: res.status === 200 ? 'ok' : res.body }).toEqual({
    status: 200,
    body: 'ok',
  });
  const validate = validatorOf(route);
  const valid = validate(res.body);
  expect({ contract, errors: valid ? [] : validate.errors }).toEqual({ contract, errors: [] });
  covered.add(contract);
  return res.body;
}

/** An error case: the contract endpoint, the path, the expected status and code, the body and token. */
type ErrorCase = [
  contract: number,
  path: string,
  status: number,
  code: string,
  body?: unknown,
  token?: string,
];

/** Calls a contract endpoint, expects the error and a body that satisfies the document for its status. */
async function expectError(...[contract, path, status, code, body, token]: ErrorCase): Promise<void> {
  const route = routeOf(contract);
  const res = await rest(t.app, route.method, path, body, { token });
  expect({ contract, status: res.status, code: (res.body as { code?: unknown }).code }).toEqual({
    contract,
    status,
    code,
  });
  expect({ contract, declared: Object.keys(operationOf(route).responses) }).toEqual({
    contract,
    declared: expect.arrayContaining([String(status)]),
  });
  const validate = validatorOf(route, String(status));
  const valid = validate(res.body);
  expect({ contract, status, errors: valid ? [] : validate.errors }).toEqual({
    contract,
    status,
    errors: [],
  });
  // The document describes errors as `{message, code}`; nothing else is sent.
  expect(Object.keys(res.body as object).sort()).toEqual(['code', 'message']);
}

const dates = {
  start_date: new Date('2015-03-04T05:06:07Z'),
  end_date: new Date('2019-08-09T10:11:12Z'),
};

function readable(n: number) {
  return {
    title_original: `原題 ${n}`,
    title_ua: `Назва ${n}`,
    status: 'finished' as const,
    chapters: 10,
    volumes: 2,
    image: `/content/${n}.jpg`,
    year: 2015,
    synopsis_en: 'Synopsis',
    synonyms: ['Alias'],
    ...dates,
  };
}

/** One of everything: titles of each kind in a franchise, people, characters, lists. */
async function world() {
  const franchise = await buildFranchise(t.orm);
  const viewer = await buildUser(t.orm);
  const token = await buildToken(t.orm, viewer);
  const anime = await buildAnime(t.orm, {
    slug: 'w-anime',
    franchise,
    title_ua: 'Аніме',
    title_ja: 'アニメ',
    season: 'fall',
    source: 'manga',
    rating: 'pg_13',
    status: 'ongoing',
    episodes_released: 3,
    episodes_total: 12,
    image: '/anime/1.jpg',
    year: 2015,
    ...dates,
  });
  const bare = await buildAnime(t.orm, { slug: 'w-anime-bare', franchise });
  const manga = await buildManga(t.orm, { slug: 'w-manga', franchise, media_type: 'manhwa', ...readable(1) });
  const novel = await buildNovel(t.orm, { slug: 'w-novel', franchise, ...readable(2) });
  await buildNovel(t.orm, { slug: 'w-novel-bare', franchise });
  const person = await buildPerson(t.orm, { slug: 'w-person', name_ua: 'Автор', image: '/p/1.jpg' });
  const role = await buildRole(t.orm, { slug: 'story' });
  await buildCredit(t.orm, person, { manga }, [role]);
  const genre = await buildGenre(t.orm, { slug: 'drama' });
  await linkTitle(t.orm, manga, { genres: [genre] });
  for (const n of [1, 2]) {
    const character = await buildCharacter(t.orm, {
      slug: `w-character-${n}`,
      name_ua: `Герой ${n}`,
      image: n === 1 ? '/c/1.jpg' : undefined,
      synonyms: ['H'],
    });
    await buildAppearance(t.orm, character, { novel }, n === 1);
  }
  await buildWatchEntry(t.orm, viewer, anime, { status: 'watching', episodes: 2, score: 8, note: 'note' });
  await buildWatchEntry(t.orm, viewer, bare, { status: 'planned' });
  await buildReadEntry(t.orm, viewer, { manga }, { status: 'reading', chapters: 3, score: 7, note: 'n' });
  await buildReadEntry(t.orm, viewer, { novel }, { status: 'reading' });
  return { viewer, token, anime, manga, novel, person };
}

describe('real responses satisfy /openapi.json', () => {
  it('catalog reads: #3, #6, #7, #8, #13, #16, #19 (anonymous and with a token)', async () => {
    const { token } = await world();
    for (const viewer of [undefined, token]) {
      await expectValid(3, '/novel', {}, viewer);
      await expectValid(16, '/manga/w-manga', undefined, viewer);
      await expectValid(19, '/novel/w-novel/characters', undefined, viewer);
      await expectValid(19, '/novel/w-novel/characters?page=2&size=1', undefined, viewer);
      await expectValid(13, '/related/anime/w-anime/franchise', undefined, viewer);
      await expectValid(13, '/related/novel/w-novel/franchise', undefined, viewer);
      await expectValid(7, '/people/w-person/manga', undefined, viewer);
      await expectValid(8, '/characters/w-character-1/novel', undefined, viewer);
      await expectValid(6, '/edit/todo/manga/title_ua', undefined, viewer);
      await expectValid(6, '/edit/todo/anime/synopsis_ua', undefined, viewer);
    }
  });

  it('the schemas are strict: an extra field, a missing one or a wrong type fails', async () => {
    await world();
    const body = (await expectValid(16, '/manga/w-manga')) as Record<string, unknown>;
    const validate = validatorOf(routeOf(16));
    expect(validate({ ...body, extra: 1 })).toBe(false);
    const withoutSlug = { ...body };
    delete withoutSlug.slug;
    expect(validate(withoutSlug)).toBe(false);
    expect(validate({ ...body, nsfw: 'yes' })).toBe(false);
    expect(validate({ ...body, media_type: 'not-a-type' })).toBe(false);
  });

  it('schedule and lists: #2, #18, #21', async () => {
    const { viewer, token } = await world();
    await expectValid(2, '/schedule/anime', {});
    await expectValid(2, '/schedule/anime', {}, token);
    await expectValid(21, `/watch/${viewer.username}/list`, {});
    await expectValid(21, `/watch/${viewer.username}/list`, {}, token);
    await expectValid(18, `/read/manga/random/${viewer.username}/reading`);
    await expectValid(18, `/read/novel/random/${viewer.username}/reading`, undefined, token);
  });

  it('comments: #9, #10, #17, #20', async () => {
    const { viewer, token, manga } = await world();
    const root = await buildComment(t.orm, viewer, {
      type: 'manga',
      reference: manga.reference,
      slug: 'w-manga',
    });
    await buildComment(
      t.orm,
      viewer,
      { type: 'manga', reference: manga.reference, slug: 'w-manga' },
      { parent: root },
    );
    for (const viewerToken of [undefined, token]) {
      await expectValid(9, '/comments/manga/w-manga/list', undefined, viewerToken);
      await expectValid(17, `/comments/thread/${root.reference}`, undefined, viewerToken);
      await expectValid(20, '/comments/latest', undefined, viewerToken);
    }
    await expectValid(10, '/comments/list', undefined, token);
  });

  it('collections: #14, #15', async () => {
    const author = await buildUser(t.orm);
    const token = await buildToken(t.orm, author);
    const slugs = await animeSlugs(t.orm, 2);
    const collection = await buildCollection(t.orm, author, collectionBody(slugs));
    const anime = await buildAnime(t.orm);
    await buildCommentedCollection(t.orm, author, anime);
    await expectValid(14, `/collections/${collection.reference}`);
    await expectValid(14, `/collections/${collection.reference}`, undefined, token);
    await expectValid(15, '/collections', {});
    await expectValid(15, '/collections', {}, token);
  });

  it('authenticated writes: #11, #12, #22', async () => {
    const user = await buildUser(t.orm, { description: 'd', cover: '/c.jpg', lists_updated: new Date() });
    const token = await buildToken(t.orm, user);
    const client = await buildClient(t.orm, user, { name: 'Original' });
    await expectValid(12, `/client/${client.reference}`, { name: 'Renamed', description: null }, token);
    await expectValid(11, `/client/${client.reference}`, undefined, token);
    const notification = await buildNotification(t.orm, user);
    await expectValid(22, `/notifications/${notification.reference}/seen`, undefined, token);
  });

  it('account: #1 for not-activated accounts (a bare profile, and a full one whose link expired)', async () => {
    const bare = await buildUser(t.orm, { role: 'not_activated', email_confirmed: false });
    expect(
      await expectValid(1, '/auth/activation/resend', undefined, await buildToken(t.orm, bare)),
    ).toMatchObject({ description: null, cover: null, updated: null, role: 'not_activated' });
    const full = await buildUser(t.orm, {
      role: 'not_activated',
      email_confirmed: false,
      description: 'About me',
      avatar_path: '/avatars/1.jpg',
      cover: '/covers/1.jpg',
      lists_updated: new Date(),
      activation_token_hash: hashSecret(newTokenSecret()),
      activation_expires: new Date(Date.now() - 60 * 60 * 1000),
    });
    expect(
      await expectValid(1, '/auth/activation/resend', undefined, await buildToken(t.orm, full)),
    ).toMatchObject({ description: 'About me', cover: expect.any(String), updated: expect.any(Number) });
  });

  it('articles: #5 for each shape of the Article (content null or of each kind, draft or published, trusted)', async () => {
    const member = await buildUser(t.orm);
    const memberToken = await buildToken(t.orm, member);
    const admin = await buildUser(t.orm, { role: 'admin', description: 'Staff', cover: '/covers/a.jpg' });
    const adminToken = await buildToken(t.orm, admin);
    await buildAnime(t.orm, { slug: 'a-anime' });
    await buildManga(t.orm, {
      slug: 'a-manga',
      title_original: 'ベルセルク',
      title_ua: 'Берсерк',
      image: '/m.jpg',
    });
    await buildNovel(t.orm, { slug: 'a-novel', title_original: '小説', image: '/n.jpg' });

    // Defaults: a draft without content.
    expect(await expectValid(5, '/articles/create', articleBody(), memberToken)).toMatchObject({
      content: null,
      draft: true,
      trusted: false,
    });
    // Published, no tags, an image (a free attachment each) in the document, content of each kind.
    for (const content_type of ['anime', 'manga', 'novel']) {
      const { url } = await buildAttachment(t.orm, member);
      const body = articleBody({
        draft: false,
        tags: [],
        category: 'reviews',
        document: [{ type: 'image_group', children: [{ type: 'image', url, children: [] }] }],
        content: { content_type, slug: `a-${content_type}` },
      });
      expect(await expectValid(5, '/articles/create', body, memberToken)).toMatchObject({
        draft: false,
        tags: [],
        content: { data_type: content_type, slug: `a-${content_type}` },
      });
    }
    // Trusted, in the admins' category, by an author with a full profile.
    expect(
      await expectValid(
        5,
        '/articles/create',
        articleBody({ trusted: true, category: 'system', tags: ['one', 'two', 'three'] }),
        adminToken,
      ),
    ).toMatchObject({ trusted: true, category: 'system' });
  });

  it('articles: #4 publishing, detaching content, and an admin editing (followed author, own vote)', async () => {
    const author = await buildUser(t.orm, { description: 'Writer', lists_updated: new Date() });
    const authorToken = await buildToken(t.orm, author);
    const admin = await buildUser(t.orm, { role: 'admin' });
    const adminToken = await buildToken(t.orm, admin);
    await buildManga(t.orm, { slug: 'u-manga', image: '/m.jpg' });
    await buildAnime(t.orm, { slug: 'u-anime' });

    const draft = (await expectValid(5, '/articles/create', articleBody(), authorToken)) as { slug: string };
    // A draft stays a draft and gains content.
    expect(
      await expectValid(
        4,
        `/articles/${draft.slug}`,
        articleBody({ content: { content_type: 'manga', slug: 'u-manga' } }),
        authorToken,
      ),
    ).toMatchObject({ draft: true, content: { data_type: 'manga' } });
    // Published, content detached.
    expect(
      await expectValid(
        4,
        `/articles/${draft.slug}`,
        articleBody({ draft: false, content: null }),
        authorToken,
      ),
    ).toMatchObject({ draft: false, content: null });

    // An admin who follows the author and voted edits it: is_followed, my_score, trusted.
    expect(
      (await rest(t.app, 'PUT', `/follow/${author.username}`, undefined, { token: adminToken })).status,
    ).toBe(200);
    expect(
      (await rest(t.app, 'PUT', `/vote/article/${draft.slug}`, { score: 1 }, { token: adminToken })).status,
    ).toBe(200);
    expect(
      await expectValid(
        4,
        `/articles/${draft.slug}`,
        articleBody({ draft: false, trusted: true, content: { content_type: 'anime', slug: 'u-anime' } }),
        adminToken,
      ),
    ).toMatchObject({
      author: { username: author.username, is_followed: true },
      my_score: 1,
      vote_score: 1,
      trusted: true,
      content: { data_type: 'anime', image: null },
    });
  });

  afterAll(() => {
    // Every contract endpoint of the route table was reached with a 200 body checked against
    // the document: a new contract row without a case here fails the suite.
    const contracts = [...new Set(restRoutes.flatMap((r) => (r.contract === undefined ? [] : [r.contract])))];
    expect([...covered].sort((a, b) => a - b)).toEqual(contracts.sort((a, b) => a - b));
  });
});

describe('error responses satisfy /openapi.json', () => {
  const run = async (cases: ErrorCase[]) => {
    for (const errorCase of cases) await expectError(...errorCase);
  };

  it('404 on a missing slug or reference', async () => {
    const token = await buildToken(t.orm, await buildUser(t.orm));
    const missingContent = articleBody({ content: { content_type: 'anime', slug: 'missing' } });
    await run([
      [16, '/manga/missing', 404, 'manga:not_found'],
      [19, '/novel/missing/characters', 404, 'novel:not_found'],
      [7, '/people/missing/manga', 404, 'person:not_found', undefined, token],
      [4, '/articles/missing', 404, 'articles:not_found', articleBody(), token],
      [5, '/articles/create', 404, 'content:not_found', missingContent, token],
      [22, `/notifications/${randomUUID()}/seen`, 404, 'notification:not_found', undefined, token],
    ]);
  });

  it('400 on validation (path, query, body) and on a business rule', async () => {
    const user = await buildUser(t.orm);
    const token = await buildToken(t.orm, user);
    const invalid = 'system:validation_error';
    await run([
      [5, '/articles/create', 400, invalid, articleBody({ title: 'ab' }), token],
      [3, '/novel', 400, invalid, { extra: 1 }],
      [21, `/watch/${user.username}/list?page=0`, 400, invalid, {}],
      [6, '/edit/todo/person/title_ua', 400, invalid],
      [11, '/client/not-a-uuid', 400, invalid, undefined, token],
      [1, '/auth/activation/resend', 400, 'auth:already_activated', undefined, token],
    ]);
  });

  it('401 and 403 on required-auth routes', async () => {
    const user = await buildUser(t.orm);
    const expired = await buildToken(t.orm, user, { expiration: new Date(Date.now() - 1000) });
    const waiting = await buildUser(t.orm, { role: 'not_activated', email_confirmed: false });
    await run([
      [1, '/auth/activation/resend', 401, 'auth:missing_token'],
      [5, '/articles/create', 401, 'auth:invalid_token', articleBody(), 'garbage'],
      [22, `/notifications/${randomUUID()}/seen`, 401, 'auth:token_expired', undefined, expired],
      [
        5,
        '/articles/create',
        403,
        'permission:confirm_email',
        articleBody(),
        await buildToken(t.orm, waiting),
      ],
    ]);
  });

  it('413 on a body over 1 MB', async () => {
    const token = await buildToken(t.orm, await buildUser(t.orm));
    const huge = articleBody({ title: 'x'.repeat(1024 * 1024 + 1) });
    await expectError(5, '/articles/create', 413, 'system:payload_too_large', huge, token);
  });

  it('403 for third-party tokens without the scope on optional-auth routes, 409 on a conflicting write', async () => {
    const { viewer, manga } = await world();
    const token = await buildToken(t.orm, viewer);
    // A third-party token without any scope, on every optional-auth route that has one.
    const unscoped = await buildToken(t.orm, viewer, { client: await buildClient(t.orm, viewer), scope: [] });
    const comment = await buildComment(t.orm, viewer, {
      type: 'manga',
      reference: manga.reference,
      slug: 'w-manga',
    });
    const collection = await buildCollection(t.orm, viewer, collectionBody(await animeSlugs(t.orm, 2)));
    const denied = 'permission:denied';
    await run([
      [2, '/schedule/anime', 403, denied, {}, unscoped],
      [3, '/novel', 403, denied, {}, unscoped],
      [6, '/edit/todo/manga/title_ua', 403, denied, undefined, unscoped],
      [7, '/people/w-person/manga', 403, denied, undefined, unscoped],
      [8, '/characters/w-character-1/novel', 403, denied, undefined, unscoped],
      [9, '/comments/manga/w-manga/list', 403, denied, undefined, unscoped],
      [10, '/comments/list', 403, denied, undefined, unscoped],
      [14, `/collections/${collection.reference}`, 403, denied, undefined, unscoped],
      [15, '/collections', 403, denied, {}, unscoped],
      [17, `/comments/thread/${comment.reference}`, 403, denied, undefined, unscoped],
    ]);
    // #13 is optional-auth without a scope: the same token reads it.
    await expectValid(13, '/related/manga/w-manga/franchise', undefined, unscoped);

    const client = await buildClient(t.orm, viewer, { name: 'First' });
    await buildClient(t.orm, viewer, { name: 'Second' });
    await expectError(
      12,
      `/client/${client.reference}`,
      409,
      'client:already_exists',
      { name: 'second' },
      token,
    );
  });

  it('the Error schema is the one of the document: exactly two fields, both strings', () => {
    const validate = validatorOf(routeOf(16), '404');
    expect(validate({ message: 'Not found', code: 'manga:not_found' })).toBe(true);
    expect(validate({ message: 'Not found' })).toBe(false);
    expect(validate({ code: 'manga:not_found', message: 1 })).toBe(false);
    expect(validate({ message: 'Not found', code: 'manga:not_found', extra: 1 })).toBe(false);
  });
});
