import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { RestRoute } from '../../src/rest/route';
import { restRoutes } from '../../src/rest/routes';
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
 * Real responses of the contract endpoints, validated with ajv against the 200
 * schemas of the document the app serves at /openapi.json.
 */
const t = useTestApp();

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { content: never }> }>> };
let document: Doc;
const validators = new Map<string, ValidateFunction>();
const covered = new Set<number>();

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

beforeAll(async () => {
  const res = await rest(t.app, 'GET', '/openapi.json');
  expect(res.status).toBe(200);
  document = res.body as Doc;
});

const routeOf = (contract: number): RestRoute => {
  const route = restRoutes.find((r) => r.contract === contract);
  if (!route) throw new Error(`no route for contract #${contract}`);
  return route;
};

function validatorOf(route: RestRoute): ValidateFunction {
  const key = `${route.method} ${route.path}`;
  let validate = validators.get(key);
  if (!validate) {
    const response = document.paths[route.path][route.method.toLowerCase()].responses['200'] as {
      content: { 'application/json': { schema: object } };
    };
    validate = ajv.compile(response.content['application/json'].schema);
    validators.set(key, validate);
  }
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

  afterAll(() => {
    // The endpoints the tests above reached with a 200 body checked against the document.
    expect([...covered].sort((a, b) => a - b)).toEqual(
      expect.arrayContaining([2, 3, 6, 7, 8, 9, 10, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 11, 12]),
    );
  });
});
