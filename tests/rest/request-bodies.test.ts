import { validationError } from '../../src/common/errors/app-error';
import type { JsonSchema } from '../../src/common/validation/json-schema';
import { validateRouteInput } from '../../src/rest/input-validation';
import type { RestRoute } from '../../src/rest/route';
import { restRoutes } from '../../src/routes';
import { animeSlugs, collectionBody } from '../collections/helpers';
import { buildAnime, buildToken, buildUser, MISSING_REFERENCE } from '../factories';
import { gql, rest } from '../setup/clients';
import { useTestApp } from '../setup/harness';
import { asObject, type Json } from '../setup/json';

/*
 * What real clients send (semantics §1.1.1 "Types are strict", §7.3, §7.4): `null` for
 * fields marked `?`, integers as decimal strings, and empty bodies. The request schemas
 * of the route table are checked directly, then the same requests run end to end
 * through REST and GraphQL.
 */

const routeKey = (route: RestRoute) => `${route.method} ${route.path}`;
const bodyRoutes = restRoutes.filter((route) => route.body);

// Checking reads bodies in place (decimal strings become numbers), so every check gets a copy.
const validBody = (route: RestRoute, body: unknown) =>
  validateRouteInput(route, pathValues(route), {}, structuredClone(body)).body;

/** A valid body of each route that takes one (the fewest fields its schema allows). */
const MINIMAL_BODIES: Record<string, Json> = {
  'PUT /watch/{slug}': { status: 'planned' },
  'PUT /read/{content_type}/{slug}': { status: 'planned' },
  'POST /schedule/anime': {},
  'POST /novel': {},
  'POST /anime': {},
  'POST /manga': {},
  'POST /watch/{username}/list': {},
  'POST /companies': {},
  'POST /people': {},
  'POST /characters': {},
  'POST /user/list': { query: 'abc' },
  'PUT /settings/notifications': { ignored_notifications: [] },
  'POST /settings/import/watch': { overwrite: false, anime: [] },
  'POST /settings/import/read': { overwrite: false, content: [] },
  'PUT /settings/description': {},
  'PUT /settings/username': { username: 'new_name' },
  'PUT /settings/email': { email: 'new@example.com' },
  'PUT /settings/password': { password: 'a long password' },
  'POST /read/{content_type}/{username}/list': {},
  'POST /client': { name: 'My app', description: 'An app', endpoint: 'https://example.com/' },
  'POST /client/all': {},
  'PUT /client/{client_reference}': {},
  'POST /auth/token/request/{client_reference}': { scope: ['read:watchlist'] },
  'POST /auth/token': { request_reference: MISSING_REFERENCE, client_secret: 's' },
  'POST /auth/signup': { email: 'a@example.com', username: 'abcde', password: 'password1' },
  'POST /auth/login': { username: 'abcde', password: 'password1' },
  'POST /auth/activation': { token: 't' },
  'PUT /comments/{content_type}/{slug}': { text: 'Hello' },
  'PUT /comments/{comment_reference}': { text: 'Hello' },
  'POST /collections/create': collectionBody(['a-1']),
  'PUT /collections/{reference}': collectionBody(['a-1']),
  'POST /collections': {},
  'POST /articles/create': { title: 'Title', document: [{ text: 'x' }], tags: [], category: 'original' },
  'PUT /articles/{slug}': { title: 'Title', document: [{ text: 'x' }], tags: [], category: 'original' },
  'POST /articles': {},
  'PUT /vote/{content_type}/{slug}': { score: 1 },
};

/** Routes whose `content` entries have fields marked `?` (a collection entry's `comment?` and `label?`). */
const NESTED_OPTIONAL_FIELDS: Record<string, string[]> = {
  'POST /collections/create': ['content'],
  'PUT /collections/{reference}': ['content'],
};

/** The top-level body fields each route's spec marks `?` (semantics §3, §7.4): null means absent. */
const OPTIONAL_FIELDS: Record<string, string[]> = {
  'PUT /watch/{slug}': ['note', 'start_date', 'end_date'],
  'PUT /read/{content_type}/{slug}': ['note', 'start_date', 'end_date'],
  'POST /client/all': ['query'],
  'PUT /client/{client_reference}': ['name', 'description', 'endpoint'],
  'PUT /comments/{content_type}/{slug}': ['review', 'parent'],
  'PUT /comments/{comment_reference}': ['review'],
  'POST /articles': ['content_type', 'content_slug', 'min_vote_score', 'author', 'query'],
};

/** Integer body fields (semantics §1.1.1): a decimal string of each, and the value it is read as. */
const INTEGER_FIELDS: Record<string, [field: string, given: unknown, read: unknown][]> = {
  'PUT /watch/{slug}': [
    ['episodes', '13', 13],
    ['rewatches', '2', 2],
    ['score', '7', 7],
  ],
  'PUT /read/{content_type}/{slug}': [
    ['chapters', '120', 120],
    ['volumes', '0', 0],
    ['rereads', '1', 1],
    ['score', '10', 10],
  ],
  'POST /schedule/anime': [['airing_season', ['fall', '2024'], ['fall', 2024]]],
  'POST /novel': [
    ['years', ['1990', '2026'], [1990, 2026]],
    ['score', ['5', null], [5, null]],
    ['native_score', [null, '9'], [null, 9]],
  ],
  'POST /manga': [
    ['years', ['1990', '2026'], [1990, 2026]],
    ['score', ['5', null], [5, null]],
    ['native_score', [null, '9'], [null, 9]],
  ],
  'POST /anime': [
    ['years', ['1990', '2026'], [1990, 2026]],
    ['score', ['-0', '10'], [0, 10]],
    ['native_score', ['1', null], [1, null]],
  ],
  'POST /watch/{username}/list': [
    ['years', ['1990', '2026'], [1990, 2026]],
    ['score', ['-0', '10'], [0, 10]],
    ['native_score', ['1', null], [1, null]],
  ],
  'POST /read/{content_type}/{username}/list': [
    ['years', ['1990', '2026'], [1990, 2026]],
    ['score', ['-0', '10'], [0, 10]],
    ['native_score', ['1', null], [1, null]],
  ],
  'POST /articles': [['min_vote_score', '3', 3]],
  // MAL export records carry their numbers as decimal strings; unknown keys stay as given.
  'POST /settings/import/watch': [
    [
      'anime',
      [{ series_animedb_id: '21', my_watched_episodes: '3', my_status: 'Watching', my_comments: {}, x: '1' }],
      [{ series_animedb_id: 21, my_watched_episodes: 3, my_status: 'Watching', my_comments: {}, x: '1' }],
    ],
  ],
  'POST /settings/import/read': [
    [
      'content',
      [
        {
          manga_mangadb_id: '2',
          my_read_chapters: '10',
          my_read_volumes: 1,
          my_score: 7,
          my_status: 'Reading',
          my_comments: '',
          my_times_read: 0,
        },
      ],
      [
        {
          manga_mangadb_id: 2,
          my_read_chapters: 10,
          my_read_volumes: 1,
          my_score: 7,
          my_status: 'Reading',
          my_comments: '',
          my_times_read: 0,
        },
      ],
    ],
  ],
  'POST /collections/create': [['content', [{ slug: 'a-1', order: '1' }], [{ slug: 'a-1', order: 1 }]]],
  'PUT /collections/{reference}': [['content', [{ slug: 'a-1', order: '1' }], [{ slug: 'a-1', order: 1 }]]],
  'PUT /vote/{content_type}/{slug}': [['score', '-1', -1]],
};

/** Top-level body fields whose schema contains `keyword` anywhere inside. */
function fieldsWithKeyword(route: RestRoute, keyword: string): string[] {
  const contains = (schema: unknown): boolean =>
    typeof schema === 'object' &&
    schema !== null &&
    (Object.hasOwn(schema, keyword) || Object.values(schema).some(contains));
  return Object.entries(route.body?.properties ?? {})
    .filter(([, schema]) => contains(schema as JsonSchema))
    .map(([name]) => name);
}

/** Valid values for every path parameter of a route. */
function pathValues(route: RestRoute): Record<string, string> {
  const samples: Record<string, string> = {
    content_type: route.path.startsWith('/read')
      ? 'manga'
      : route.path.startsWith('/vote')
        ? 'comment'
        : 'anime',
  };
  return Object.fromEntries(
    Object.keys(route.params).map((name) => [
      name,
      samples[name] ?? (name.endsWith('reference') ? MISSING_REFERENCE : 'slug'),
    ]),
  );
}

describe('request schemas of the route table', () => {
  it('has a sample body for every route that takes one', () => {
    expect(Object.keys(MINIMAL_BODIES).sort()).toEqual(bodyRoutes.map(routeKey).sort());
    for (const route of bodyRoutes) expect(validBody(route, MINIMAL_BODIES[routeKey(route)])).toBeDefined();
  });

  describe.each(bodyRoutes.map((route) => [routeKey(route), route] as const))('%s', (key, route) => {
    const minimal = MINIMAL_BODIES[key];

    it('reads null as absent for exactly the fields marked `?`', () => {
      expect(fieldsWithKeyword(route, 'x-absent-if-null').sort()).toEqual(
        [...(OPTIONAL_FIELDS[key] ?? []), ...(NESTED_OPTIONAL_FIELDS[key] ?? [])].sort(),
      );
      for (const field of OPTIONAL_FIELDS[key] ?? []) {
        expect(validBody(route, { ...minimal, [field]: null })).toEqual(validBody(route, minimal));
      }
    });

    it('reads a decimal string as its integer in every integer field, and only there', () => {
      expect(fieldsWithKeyword(route, 'x-integer').sort()).toEqual(
        [...new Set((INTEGER_FIELDS[key] ?? []).map(([field]) => field))].sort(),
      );
      for (const [field, given, read] of INTEGER_FIELDS[key] ?? []) {
        expect(validBody(route, { ...minimal, [field]: given })).toEqual({
          ...validBody(route, minimal),
          [field]: read,
        });
      }
    });

    it('refuses booleans, fractions, empty strings and other strings where an integer is expected', () => {
      for (const [field, given] of INTEGER_FIELDS[key] ?? []) {
        for (const bad of [true, '1.5', '', ' 1', '1e3', '0x1', 1.5]) {
          // The bad value where the given decimal string was, at any depth.
          const swapped = JSON.parse(JSON.stringify(given).replace(/"-?[0-9]+"/, JSON.stringify(bad)));
          expect(() => validBody(route, { ...minimal, [field]: swapped })).toThrow(
            validationError('body', field).message,
          );
        }
      }
    });

    it('refuses a missing or empty body without naming a field', () => {
      expect(() => validBody(route, undefined)).toThrow('Invalid field in request body');
    });
  });

  it('still refuses null for fields with a default but no `?` (a watch entry’s episodes, score, rewatches)', () => {
    const watch = bodyRoutes.find((route) => routeKey(route) === 'PUT /watch/{slug}')!;
    for (const field of ['episodes', 'score', 'rewatches']) {
      expect(() => validBody(watch, { status: 'planned', [field]: null })).toThrow(
        `Invalid field ${field} in request body`,
      );
    }
  });

  it('reads the nulls of a collection entry’s `comment?` and `label?` as absent', () => {
    const create = bodyRoutes.find((route) => routeKey(route) === 'POST /collections/create')!;
    const body = collectionBody(['a-1'], {
      content: [{ slug: 'a-1', order: 1, comment: null, label: null }],
    });
    expect(asObject(validBody(create, body)).content).toEqual([{ slug: 'a-1', order: 1 }]);
  });
});

describe('real clients end to end', () => {
  const t = useTestApp();

  async function caller() {
    const user = await buildUser(t.orm);
    return { user, token: await buildToken(t.orm, user) };
  }

  it('creates a collection from the frontend’s body (comment: null, label: null) and #14 shows them as null', async () => {
    const { token } = await caller();
    const slugs = await animeSlugs(t.orm, 2);
    const content = slugs.map((slug, i) => ({ slug, order: i + 1, comment: null, label: null }));
    const created = await rest(t.app, 'POST', '/collections/create', collectionBody(slugs, { content }), {
      token,
    });
    expect(created.status).toBe(200);
    const read = await rest(t.app, 'GET', `/collections/${created.body.reference}`);
    expect(read.status).toBe(200);
    expect(read.body.collection.map((item: Json) => [item.order, item.comment, item.label])).toEqual([
      [1, null, null],
      [2, null, null],
    ]);

    const updated = await rest(
      t.app,
      'PUT',
      `/collections/${created.body.reference}`,
      collectionBody(slugs, {
        content: [...content].reverse().map((entry, i) => ({ ...entry, order: i + 1 })),
      }),
      { token },
    );
    expect(updated.status).toBe(200);

    const viaGraphQL = await gql(
      t.app,
      `mutation ($input: CollectionInput!) { createCollection(input: $input) { collection { order comment label } } }`,
      { input: collectionBody(slugs, { content }) },
      { token },
    );
    expect(viaGraphQL.body.errors).toBeUndefined();
    expect(viaGraphQL.body.data.createCollection.collection).toEqual([
      { order: 1, comment: null, label: null },
      { order: 2, comment: null, label: null },
    ]);
  });

  it('writes a comment with "parent": null and "review": null', async () => {
    const { token } = await caller();
    await buildAnime(t.orm, { slug: 'frieren' });
    const res = await rest(
      t.app,
      'PUT',
      '/comments/anime/frieren',
      { text: 'Great', parent: null, review: null },
      { token },
    );
    expect(res.status).toBe(200);
    expect(res.body.depth).toBe(1);
  });

  it('reads a completed button’s "episodes": "13" as 13, on REST and GraphQL alike', async () => {
    const { token } = await caller();
    await buildAnime(t.orm, { slug: 'frieren', episodes_total: 28 });
    const viaRest = await rest(
      t.app,
      'PUT',
      '/watch/frieren',
      { status: 'completed', episodes: '13' },
      { token },
    );
    expect(viaRest.status).toBe(200);
    expect(viaRest.body.episodes).toBe(13);
    const viaGraphQL = await gql(
      t.app,
      `mutation ($slug: String!, $input: WatchEntryInput!) { saveWatchEntry(slug: $slug, input: $input) { episodes score } }`,
      { slug: 'frieren', input: { status: 'completed', episodes: '14', score: '8' } },
      { token },
    );
    expect(viaGraphQL.body.errors).toBeUndefined();
    expect(viaGraphQL.body.data.saveWatchEntry).toEqual({ episodes: 14, score: 8 });
    const tooMany = await rest(
      t.app,
      'PUT',
      '/watch/frieren',
      { status: 'completed', episodes: '29' },
      { token },
    );
    expect(tooMany.body.code).toBe('watch:bad_episodes');
    const nullEpisodes = await rest(
      t.app,
      'PUT',
      '/watch/frieren',
      { status: 'completed', episodes: null },
      { token },
    );
    expect(nullEpisodes.body).toEqual({
      message: 'Invalid field episodes in request body',
      code: 'system:validation_error',
    });
  });

  it('filters #3 and #21 by the frontend’s string years exactly as by integers', async () => {
    const { user } = await caller();
    const novelsByNumbers = await rest(t.app, 'POST', '/novel', { years: [1990, 2026] });
    const novelsByStrings = await rest(t.app, 'POST', '/novel', { years: ['1990', '2026'] });
    expect(novelsByStrings.status).toBe(200);
    expect(novelsByStrings.body).toEqual(novelsByNumbers.body);
    const list = `/watch/${user.username}/list`;
    const watchByStrings = await rest(t.app, 'POST', list, { years: ['1990', '2026'] });
    expect(watchByStrings.status).toBe(200);
    expect(watchByStrings.body).toEqual((await rest(t.app, 'POST', list, { years: [1990, 2026] })).body);
    const viaGraphQL = await gql(
      t.app,
      `query ($input: NovelSearchInput!) { novelSearch(input: $input) { pagination { total } } }`,
      { input: { years: ['1990', '2026'], score: ['1', null] } },
    );
    expect(viaGraphQL.body.errors).toBeUndefined();
  });
});

describe('empty bodies (semantics §7.3)', () => {
  const t = useTestApp();

  it.each(bodyRoutes.map((route) => [routeKey(route), route] as const))(
    '%s: an empty or whitespace-only body is refused, `{}` is not',
    async (_key, route) => {
      const user = await buildUser(t.orm, { role: 'admin' });
      const token = await buildToken(t.orm, user);
      const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => pathValues(route)[name]);
      for (const empty of ['', '   \n\t ']) {
        const res = await rest(t.app, route.method, path, undefined, { token })
          .set('Content-Type', 'application/json')
          .send(empty);
        expect({ status: res.status, body: res.body }).toEqual({
          status: 400,
          body: { message: 'Invalid field in request body', code: 'system:validation_error' },
        });
      }
      const braces = await rest(t.app, route.method, path, {}, { token });
      expect(braces.body.message).not.toBe('Invalid field in request body');
    },
  );
});
