import type { Anime } from '../../src/catalog/anime.entity';
import { Company } from '../../src/catalog/company.entity';
import type { Genre } from '../../src/catalog/genre.entity';
import type { CompanyRole } from '../../src/common/enums';
import type { RestRoute } from '../../src/rest/route';
import { restRoutes } from '../../src/routes';
import { buildAnime, buildGenre, linkCompany, orderedReference } from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { keysOf, PAGINATION, shapeProblems, type Shape } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { tokensToIgnore } from '../setup/ignored-tokens';
import { type Json, sortedKeys } from '../setup/json';
import { executedTwin, type Paging } from '../setup/list-route';
import { INVALID_PAGING_QUERIES } from '../setup/paging';

/**
 * GET /genres (`genres`) and POST /companies (`companies`), pages.md "Catalogs and
 * search": every genre by Ukrainian name in code-point order (none last), then slug; and
 * studios and producers by a typo-tolerant name query or by how many live anime they
 * are linked to. Both without authentication, both compiled to one statement.
 */
const t = useTestApp();

const routeOf = (method: 'GET' | 'POST', path: string): RestRoute =>
  restRoutes.find((r) => r.method === method && r.path === path)!;
const genresRoute = routeOf('GET', '/genres');
const companiesRoute = routeOf('POST', '/companies');
const genresTwin = executedTwin(genresRoute.document);
const companiesTwin = executedTwin(companiesRoute.document);

const GENRE: Shape = { name_ua: 'string', name_en: 'string', slug: 'string', type: 'string' };
const GENRE_LIST: Shape = { list: { arrayOf: GENRE } };
const COMPANY: Shape = { image: 'string', slug: 'string', name: 'string' };
const COMPANY_PAGE: Shape = { pagination: { object: PAGINATION }, list: { arrayOf: COMPANY } };

type Expected = { status: number; code: string; message: string };
const invalid = (name: string, location = 'body'): Expected => ({
  status: 400,
  code: 'system:validation_error',
  message: `Invalid field ${name} in request ${location}`,
});
const NO_FIELD: Expected = {
  status: 400,
  code: 'system:validation_error',
  message: 'Invalid field in request body',
};

// ---------------------------------------------------------------------------
// Data.

const sql = <T = Json>(text: string, params: unknown[] = []): Promise<T[]> =>
  t.orm.em.getConnection().execute<T[]>(text, params);

const genre = (slug: string, name_ua: string | null, o: Partial<Genre> = {}) =>
  buildGenre(t.orm, { slug, name_ua, name_en: `${slug} en`, ...o });

/** A company without links (reference `n` of {@link orderedReference} when given). */
async function company(slug: string, o: Partial<Company> & { n?: number } = {}): Promise<Company> {
  const { n, ...rest } = o;
  const em = t.orm.em.fork();
  const row = em.create(Company, {
    slug,
    name: slug,
    ...(n === undefined ? {} : { reference: orderedReference(n) }),
    ...rest,
  } as Company);
  await em.flush();
  return row;
}

/** Links `company` to `anime` in `role` (tests/factories linkCompany). */
const link = (anime: Anime, company: Company, role: CompanyRole) =>
  linkCompany(t.orm, anime, company.slug, role);

const anime = (o: Partial<Anime> = {}) => buildAnime(t.orm, o);

/** `count` new anime (deleted when asked), each linked to `company` in `role`. */
async function linkMany(company: Company, role: CompanyRole, count: number, deleted = false) {
  for (let i = 0; i < count; i += 1) await link(await anime({ deleted }), company, role);
}

// ---------------------------------------------------------------------------
// Calls.

const genres = (options: CallOptions = {}, suffix = '') =>
  rest(t.app, 'GET', `/genres${suffix}`, undefined, options);
const genresGql = (options: CallOptions = {}, document = genresRoute.document) =>
  gql(t.app, document, {}, options);

function companies(body: unknown, options: CallOptions & Paging = {}) {
  const query = new URLSearchParams();
  if (options.page !== undefined) query.set('page', String(options.page));
  if (options.size !== undefined) query.set('size', String(options.size));
  const qs = query.toString();
  return rest(t.app, 'POST', `/companies${qs ? `?${qs}` : ''}`, body, options);
}
const companiesGql = (
  input: unknown,
  options: CallOptions & Paging = {},
  document = companiesRoute.document,
) => gql(t.app, document, { page: options.page ?? 1, size: options.size ?? 15, input }, options);

/** REST, the compiled document and its executed twin: one 200 answer, identical JSON (key order too). */
async function expectGenres(options: CallOptions = {}): Promise<Json> {
  const viaRest = await genres(options);
  const compiled = await genresGql(options);
  const executed = await genresGql(options, genresTwin);
  expect(viaRest.status).toBe(200);
  expect(compiled.status).toBe(200);
  expect(compiled.body.errors).toBeUndefined();
  expect(executed.body.errors).toBeUndefined();
  expect(compiled.body.data).toEqual({ genres: viaRest.body });
  expect(executed.body.data).toEqual({ __typename: 'Query', genres: viaRest.body });
  expect(JSON.stringify(compiled.body.data.genres)).toBe(JSON.stringify(viaRest.body));
  expect(JSON.stringify(executed.body.data.genres)).toBe(JSON.stringify(viaRest.body));
  return viaRest.body as Json;
}

/** The same on POST /companies; returns the REST body. */
async function expectCompanies(body: Json, options: CallOptions & Paging = {}): Promise<Json> {
  const viaRest = await companies(body, options);
  const compiled = await companiesGql(body, options);
  const executed = await companiesGql(body, options, companiesTwin);
  expect({ status: viaRest.status, body: viaRest.body }).toEqual({ status: 200, body: expect.any(Object) });
  expect(compiled.status).toBe(200);
  expect(compiled.body.errors).toBeUndefined();
  expect(executed.body.errors).toBeUndefined();
  expect(compiled.body.data).toEqual({ companies: viaRest.body });
  expect(executed.body.data).toEqual({ __typename: 'Query', companies: viaRest.body });
  expect(JSON.stringify(compiled.body.data.companies)).toBe(JSON.stringify(viaRest.body));
  expect(JSON.stringify(executed.body.data.companies)).toBe(JSON.stringify(viaRest.body));
  return viaRest.body as Json;
}

/** The slugs a successful POST /companies lists (checked on every door). */
const slugsOf = async (body: Json, options: CallOptions & Paging = {}): Promise<string[]> =>
  ((await expectCompanies(body, options)).list as Json[]).map((c) => c.slug as string);

/** POST /companies fails alike on REST and both GraphQL documents (status, code and message). */
async function expectCompaniesFailure(
  body: unknown,
  expected: Expected,
  options: CallOptions & Paging = {},
): Promise<void> {
  const viaRest = await companies(body, options);
  expect({ status: viaRest.status, body: viaRest.body }).toEqual({
    status: expected.status,
    body: { code: expected.code, message: expected.message },
  });
  for (const [name, document] of [
    ['/graphql route document', companiesRoute.document],
    ['/graphql executed twin', companiesTwin],
  ] as const) {
    const viaGql = await companiesGql(body, options, document);
    const errors = viaGql.body.errors as { message: string; extensions: Json }[];
    expect({ name, count: errors?.length }).toEqual({ name, count: 1 });
    expect({
      name,
      code: errors[0].extensions.code,
      message: errors[0].message,
      status: (errors[0].extensions.http as Json).status,
    }).toEqual({ name, code: expected.code, message: expected.message, status: expected.status });
  }
}

// ===========================================================================

describe('routes', () => {
  it('registers GET /genres and POST /companies without authentication; only the companies are paged', () => {
    expect([genresRoute.auth, Boolean(genresRoute.paged), genresRoute.rootField]).toEqual([
      'none',
      false,
      'genres',
    ]);
    expect([companiesRoute.auth, companiesRoute.paged, companiesRoute.rootField]).toEqual([
      'none',
      true,
      'companies',
    ]);
  });

  it('answers other methods with 405 and an Allow header', async () => {
    const post = await rest(t.app, 'POST', '/genres', {});
    expect([post.status, post.body.code, post.headers.allow]).toEqual([
      405,
      'system:method_not_allowed',
      expect.stringContaining('GET'),
    ]);
    const get = await rest(t.app, 'GET', '/companies');
    expect([get.status, get.body.code, get.headers.allow]).toEqual([
      405,
      'system:method_not_allowed',
      expect.stringContaining('POST'),
    ]);
  });
});

describe('GET /genres', () => {
  it('answers {list: []} when there is no genre', async () => {
    expect(await expectGenres()).toEqual({ list: [] });
  });

  it('answers every genre with exactly {name_ua, name_en, slug, type}, of every type', async () => {
    await genre('action', 'Екшн', { name_en: 'Action', type: 'genre' });
    await genre('school', 'Школа', { name_en: 'School', type: 'theme' });
    await genre('shounen', 'Сьонен', { name_en: 'Shounen', type: 'demographic' });
    await genre('hentai', 'Хентай', { name_en: 'Hentai', type: 'explicit' });
    const body = await expectGenres();
    expect(shapeProblems(body, GENRE_LIST, 'genres')).toEqual([]);
    expect(sortedKeys(body)).toEqual(['list']);
    for (const item of body.list as Json[]) expect(sortedKeys(item)).toEqual(keysOf(GENRE));
    expect(body.list).toEqual([
      { name_ua: 'Екшн', name_en: 'Action', slug: 'action', type: 'genre' },
      { name_ua: 'Сьонен', name_en: 'Shounen', slug: 'shounen', type: 'demographic' },
      { name_ua: 'Хентай', name_en: 'Hentai', slug: 'hentai', type: 'explicit' },
      { name_ua: 'Школа', name_en: 'School', slug: 'school', type: 'theme' },
    ]);
  });

  it('orders by name_ua in code-point order ("C"), not by a language’s collation', async () => {
    // Ukrainian order would be А, б, Ґ, Є, І; English would ignore case.
    await genre('g-a', 'Аніме');
    await genre('g-b', 'бойовик');
    await genre('g-g', 'Ґеймінг');
    await genre('g-ye', 'Єдиноборства');
    await genre('g-i', 'Історичне');
    await genre('g-latin-lower', 'action');
    await genre('g-latin-upper', 'Zombie');
    expect(((await expectGenres()).list as Json[]).map((g) => g.name_ua)).toEqual([
      'Zombie', // U+005A
      'action', // U+0061
      'Єдиноборства', // U+0404
      'Історичне', // U+0406
      'Аніме', // U+0410
      'бойовик', // U+0431
      'Ґеймінг', // U+0490
    ]);
  });

  it('puts genres without name_ua last; equal names (and the nameless) follow slug in code-point order', async () => {
    await genre('z-nameless', null);
    await genre('drama-2', 'Драма');
    await genre('a-nameless', null);
    await genre('drama-10', 'Драма');
    await genre('drama_1', 'Драма');
    await genre('comedy', 'Комедія');
    await genre('A-nameless', null);
    const body = await expectGenres();
    expect((body.list as Json[]).map((g) => [g.slug, g.name_ua])).toEqual([
      ['drama-10', 'Драма'],
      ['drama-2', 'Драма'],
      ['drama_1', 'Драма'],
      ['comedy', 'Комедія'],
      ['A-nameless', null],
      ['a-nameless', null],
      ['z-nameless', null],
    ]);
    // A null name_ua is served as null (the field is nullable), never omitted.
    expect((body.list as Json[]).at(-1)).toEqual({
      name_ua: null,
      name_en: 'z-nameless en',
      slug: 'z-nameless',
      type: 'genre',
    });
  });

  it('orders characters beyond the Basic Multilingual Plane by code point on every door', async () => {
    // U+FF33 (fullwidth S) < U+1F680 (a rocket): UTF-16 code units would order them the other way.
    await genre('rocket', '🚀 Космос');
    await genre('fullwidth', 'ＳＦ');
    await genre('plain', 'Фантастика');
    const body = await expectGenres();
    expect((body.list as Json[]).map((g) => g.slug)).toEqual(['plain', 'fullwidth', 'rocket']);
  });

  it('is not paged: page and size in the query string (even invalid) and a body are ignored', async () => {
    for (let i = 0; i < 20; i += 1) await genre(`genre-${String(i).padStart(2, '0')}`, `Жанр ${i}`);
    const all = await expectGenres();
    expect(all.list).toHaveLength(20);
    for (const suffix of ['?page=2&size=1', '?page=0&size=abc', '?size=101', '?anything=1']) {
      const res = await genres({}, suffix);
      expect({ suffix, status: res.status, body: res.body }).toEqual({ suffix, status: 200, body: all });
    }
    const withBody = await rest(t.app, 'GET', '/genres').set('Content-Type', 'application/json').send('{bad');
    expect(withBody.status).toBe(200);
    expect(withBody.body).toEqual(all);
  });

  describe('authentication none: tokens are never resolved', () => {
    it.each(tokensToIgnore(t))(
      'ignores %s, in the header and in the cookie, on every door',
      async (_n, make) => {
        await genre('drama', 'Драма');
        const anonymous = await expectGenres();
        const token = await make();
        for (const options of [{ token }, { cookie: token }])
          expect(await expectGenres(options)).toEqual(anonymous);
      },
    );
  });

  describe('bounded SQL', () => {
    it('REST, the compiled document and its executed twin send one statement each, for 1 genre or 60', async () => {
      await genre('first', 'Перший');
      const count = async (expected: number) => {
        const counts: number[] = [];
        counts.push(
          await t.queries.count(async () => {
            const res = await genres({ token: 'not-a-token' });
            expect(res.body.list).toHaveLength(expected);
          }),
        );
        for (const document of [genresRoute.document, genresTwin]) {
          counts.push(
            await t.queries.count(async () => {
              const res = await genresGql({}, document);
              expect(res.body.data.genres.list).toHaveLength(expected);
            }),
          );
        }
        return counts;
      };
      const one = await count(1);
      for (let i = 0; i < 59; i += 1) await genre(`more-${i}`, i % 3 === 0 ? null : `Ще ${i}`);
      expect(await count(60)).toEqual(one);
      expect(one).toEqual([1, 1, 1]);
    });
  });
});

describe('POST /companies', () => {
  describe('items and shape', () => {
    it('answers {pagination, list} of exactly {image, slug, name}; a path image gets the image base URL', async () => {
      const studio = await company('madhouse', { name: 'Madhouse', image: '/companies/madhouse.png' });
      const producer = await company('aniplex', { name: 'Aniplex', image: 'https://img.example/a.png' });
      await link(await anime(), studio, 'studio');
      await link(await anime(), producer, 'producer');
      await link(await anime(), producer, 'producer');
      const body = await expectCompanies({});
      expect(shapeProblems(body, COMPANY_PAGE, 'companies')).toEqual([]);
      expect(body).toEqual({
        pagination: { total: 2, pages: 1, page: 1 },
        list: [
          { image: 'https://img.example/a.png', slug: 'aniplex', name: 'Aniplex' },
          { image: 'https://cdn.test/companies/madhouse.png', slug: 'madhouse', name: 'Madhouse' },
        ],
      });
    });

    it('serves a company without an image as image: null', async () => {
      await company('no-image', { name: 'No Image' });
      expect((await expectCompanies({})).list).toEqual([{ image: null, slug: 'no-image', name: 'No Image' }]);
    });

    it('answers an empty page when there is no company', async () => {
      expect(await expectCompanies({})).toEqual({ pagination: { total: 0, pages: 0, page: 1 }, list: [] });
      expect(await expectCompanies({ query: 'sunrise', type: 'studio' })).toEqual({
        pagination: { total: 0, pages: 0, page: 1 },
        list: [],
      });
    });
  });

  describe('without query: by linked live anime desc, then slug', () => {
    it('counts distinct live anime in any role; deleted anime do not count; companies without anime come last', async () => {
      const a = await anime();
      const both = await company('both-roles');
      // One anime in two roles counts once.
      await link(a, both, 'studio');
      await link(a, both, 'producer');
      const two = await company('two-anime');
      await linkMany(two, 'producer', 2);
      const three = await company('three-anime');
      await linkMany(three, 'studio', 1);
      await linkMany(three, 'producer', 2);
      const deadOnly = await company('dead-only');
      await linkMany(deadOnly, 'studio', 4, true);
      const mostlyDead = await company('mostly-dead');
      await linkMany(mostlyDead, 'studio', 5, true);
      await linkMany(mostlyDead, 'producer', 1);
      await company('unlinked');
      expect(await slugsOf({})).toEqual([
        'three-anime', // 3
        'two-anime', // 2
        'both-roles', // 1
        'mostly-dead', // 1 (5 deleted anime not counted)
        'dead-only', // 0
        'unlinked', // 0
      ]);
    });

    it('breaks count ties by slug in code-point order', async () => {
      for (const slug of ['studio1', 'studio-2', 'studio-10', 'Studio-9', 'studio_3']) {
        await linkMany(await company(slug), 'studio', 1);
      }
      expect(await slugsOf({})).toEqual(['Studio-9', 'studio-10', 'studio-2', 'studio1', 'studio_3']);
      expect(await slugsOf({ query: null, type: null })).toEqual([
        'Studio-9',
        'studio-10',
        'studio-2',
        'studio1',
        'studio_3',
      ]);
    });

    it('follows the live count: deleting an anime moves its company down, restoring it moves it back', async () => {
      const first = await company('first');
      const second = await company('second');
      const firstAnime = [await anime(), await anime()];
      for (const a of firstAnime) await link(a, first, 'studio');
      await linkMany(second, 'studio', 1);
      expect(await slugsOf({})).toEqual(['first', 'second']);
      await sql(
        `update anime set deleted = true where reference in (?, ?)`,
        firstAnime.map((a) => a.reference),
      );
      expect(await slugsOf({})).toEqual(['second', 'first']);
      await sql(`update anime set deleted = false where reference = ?`, [firstAnime[0].reference]);
      expect(await slugsOf({})).toEqual(['first', 'second']);
    });
  });

  describe('type', () => {
    async function roles() {
      const studioOnly = await company('studio-only');
      await linkMany(studioOnly, 'studio', 1);
      const producerOnly = await company('producer-only');
      await linkMany(producerOnly, 'producer', 3);
      const mixed = await company('mixed');
      await linkMany(mixed, 'studio', 2);
      await linkMany(mixed, 'producer', 1);
      // A studio only of deleted anime, and a producer of a live one.
      const deadStudio = await company('dead-studio');
      await linkMany(deadStudio, 'studio', 6, true);
      await linkMany(deadStudio, 'producer', 1);
      await company('unlinked');
    }

    it('studio keeps companies that are the studio of a live anime, ordered by their live studio anime', async () => {
      await roles();
      expect(await slugsOf({ type: 'studio' })).toEqual(['mixed', 'studio-only']);
    });

    it('producer keeps companies that are the producer of a live anime, ordered by their live producer anime', async () => {
      await roles();
      // producer-only 3, then dead-studio and mixed (1 each) by slug.
      expect(await slugsOf({ type: 'producer' })).toEqual(['producer-only', 'dead-studio', 'mixed']);
    });

    it('counts only the role asked for: many anime in the other role do not lift a company', async () => {
      const busyProducer = await company('a-busy-producer');
      await linkMany(busyProducer, 'producer', 5);
      await linkMany(busyProducer, 'studio', 1);
      const studio = await company('z-studio');
      await linkMany(studio, 'studio', 2);
      expect(await slugsOf({ type: 'studio' })).toEqual(['z-studio', 'a-busy-producer']);
      expect(await slugsOf({})).toEqual(['a-busy-producer', 'z-studio']);
    });

    it('totals count only the kept companies', async () => {
      await roles();
      const body = await expectCompanies({ type: 'studio' }, { size: 1 });
      expect(body.pagination).toEqual({ total: 2, pages: 2, page: 1 });
      expect((await expectCompanies({}, { size: 1 })).pagination).toEqual({ total: 5, pages: 5, page: 1 });
    });
  });

  describe('query', () => {
    /** Names with known word similarities to "sunrise" (threshold 0.3). */
    async function names() {
      // Linked anime counts deliberately contrary to the rank: the rank alone orders.
      await company('sunrise', { n: 1, name: 'Sunrise' });
      await company('studio-sunrises', { n: 2, name: 'Studio Sunrises' }); // substring
      await linkMany(await company('sunrize', { n: 3, name: 'Sunrize Pictures' }), 'studio', 1); // 0.625
      await linkMany(await company('sun-rise', { n: 4, name: 'Sun Rise' }), 'studio', 2); // 0.545
      await linkMany(await company('sunshine', { n: 5, name: 'Sunshine' }), 'studio', 3); // 0.375
      await linkMany(await company('sugar', { n: 6, name: 'Sugar' }), 'studio', 4); // 0.25: no match
      await linkMany(await company('bones', { n: 7, name: 'Bones' }), 'studio', 5); // 0
    }

    it('matches on name ignoring case, typo tolerant; by rank desc, substrings (rank 1) by reference desc', async () => {
      await names();
      const expected = ['studio-sunrises', 'sunrise', 'sunrize', 'sun-rise', 'sunshine'];
      expect(await slugsOf({ query: 'sunrise' })).toEqual(expected);
      expect(await slugsOf({ query: 'SUNRISE' })).toEqual(expected);
      expect((await expectCompanies({ query: 'sunrise' })).pagination).toEqual({
        total: 5,
        pages: 1,
        page: 1,
      });
    });

    it('breaks equal ranks by reference desc, whatever the slug or the anime count', async () => {
      await linkMany(await company('z-kyoto', { n: 1, name: 'Kyoto Animation' }), 'studio', 3);
      await company('a-kyoto', { n: 3, name: 'Kyoto Animation Do' });
      await company('m-kyoto', { n: 2, name: 'The Kyoto Studio' });
      expect(await slugsOf({ query: 'kyoto' })).toEqual(['a-kyoto', 'm-kyoto', 'z-kyoto']);
    });

    it('matches the name only, not the slug', async () => {
      await company('madhouse', { name: 'Studio M' });
      await company('other', { name: 'Madhouse Inc.' });
      expect(await slugsOf({ query: 'madhouse' })).toEqual(['other']);
    });

    it('takes LIKE wildcards literally: % and _ match only themselves', async () => {
      await company('percent', { name: '100% Studio' });
      await company('hundred', { name: '1000 Studio' });
      await company('under', { name: 'A_B Works' });
      await company('axb', { name: 'AXB Works' });
      expect(await slugsOf({ query: '0%' })).toEqual(['percent']);
      expect(await slugsOf({ query: '_b' })).toEqual(['under']);
      expect(await slugsOf({ query: '%%' })).toEqual([]);
    });

    it('a two-character query (the shortest allowed) finds substrings and words starting alike', async () => {
      await company('trigger', { n: 1, name: 'Trigger' });
      await company('bones', { n: 2, name: 'Bones' });
      await company('gainax', { n: 3, name: 'Gainax' });
      expect(await slugsOf({ query: 'ON' })).toEqual(['bones']);
      // "gg" is inside Trigger (rank 1) and shares the word start "g" with Gainax (1/3 ≥ 0.3).
      expect(await slugsOf({ query: 'gg' })).toEqual(['trigger', 'gainax']);
    });

    it('combines with type: only matching companies in that role, still by rank', async () => {
      await names();
      await link(
        await anime(),
        await t.orm.em.fork().findOneOrFail(Company, { slug: 'sunrise' }),
        'producer',
      );
      expect(await slugsOf({ query: 'sunrise', type: 'studio' })).toEqual([
        'sunrize',
        'sun-rise',
        'sunshine',
      ]);
      expect(await slugsOf({ query: 'sunrise', type: 'producer' })).toEqual(['sunrise']);
    });

    it('a role held only through deleted anime does not pass type, even with a matching name', async () => {
      await linkMany(await company('sunrise', { name: 'Sunrise' }), 'studio', 2, true);
      expect(await slugsOf({ query: 'sunrise' })).toEqual(['sunrise']);
      expect(await slugsOf({ query: 'sunrise', type: 'studio' })).toEqual([]);
    });

    it('pages ranked results exactly', async () => {
      await names();
      const first = await expectCompanies({ query: 'sunrise' }, { size: 2 });
      const second = await expectCompanies({ query: 'sunrise' }, { size: 2, page: 2 });
      const third = await expectCompanies({ query: 'sunrise' }, { size: 2, page: 3 });
      const past = await expectCompanies({ query: 'sunrise' }, { size: 2, page: 4 });
      expect([first, second, third, past].map((b) => b.pagination)).toEqual([
        { total: 5, pages: 3, page: 1 },
        { total: 5, pages: 3, page: 2 },
        { total: 5, pages: 3, page: 3 },
        { total: 5, pages: 3, page: 4 },
      ]);
      expect([first, second, third, past].flatMap((b) => (b.list as Json[]).map((c) => c.slug))).toEqual([
        'studio-sunrises',
        'sunrise',
        'sunrize',
        'sun-rise',
        'sunshine',
      ]);
    });
  });

  describe('paging', () => {
    it('defaults to page 1 of 15, pages exactly, and a page past the end is empty', async () => {
      for (let i = 0; i < 16; i += 1) await company(`company-${String(i).padStart(2, '0')}`);
      const first = await expectCompanies({});
      expect(first.pagination).toEqual({ total: 16, pages: 2, page: 1 });
      expect(first.list).toHaveLength(15);
      const viaRest = await companies({});
      expect(viaRest.body).toEqual(first);
      const second = await expectCompanies({}, { page: 2 });
      expect((second.list as Json[]).map((c) => c.slug)).toEqual(['company-15']);
      expect(await expectCompanies({}, { page: 3, size: 10 })).toEqual({
        pagination: { total: 16, pages: 2, page: 3 },
        list: [],
      });
      const all = await expectCompanies({}, { size: 100, page: 1 });
      expect(all.pagination).toEqual({ total: 16, pages: 1, page: 1 });
      expect(all.list).toHaveLength(16);
      expect((await expectCompanies({}, { page: 10000 })).list).toEqual([]);
    });

    it.each(INVALID_PAGING_QUERIES)(
      'query %s → 400 Invalid field %s in request query, before the body',
      async (qs, field) => {
        for (const body of [{}, { query: 'a' }, undefined]) {
          const res = await rest(t.app, 'POST', `/companies?${qs}`, body);
          expect(res.status).toBe(400);
          expect(res.body).toEqual({
            code: 'system:validation_error',
            message: `Invalid field ${field} in request query`,
          });
        }
      },
    );

    it('GraphQL page 0 and size 101 are refused with HTTP 400 on both documents', async () => {
      for (const document of [companiesRoute.document, companiesTwin]) {
        for (const [paging, name] of [
          [{ page: 0 }, 'page'],
          [{ size: 101 }, 'size'],
          [{ page: 10001 }, 'page'],
          [{ size: 0 }, 'size'],
        ] as const) {
          const res = await companiesGql({}, paging, document);
          expect(res.status).toBe(400);
          expect(res.body.errors[0].message).toBe(`Invalid field ${name} in request query`);
          expect(res.body.errors[0].extensions.code).toBe('system:validation_error');
        }
      }
    });
  });

  describe('validation (400 system:validation_error)', () => {
    it.each([
      [{ query: 'a' }, 'query'],
      [{ query: '' }, 'query'],
      [{ query: '😀' }, 'query'],
      [{ query: 'x'.repeat(256) }, 'query'],
      [{ query: 'ab', type: 'publisher' }, 'type'],
      [{ type: 'Studio' }, 'type'],
      [{ type: '' }, 'type'],
      [{ query: 'a', type: 'bad' }, 'query'],
      [{ type: 'bad', query: 'a' }, 'query'],
    ])('%j → Invalid field %s in request body, alike on every door', async (body, name) => {
      await expectCompaniesFailure(body, invalid(name));
    });

    it.each([
      [{ query: 12 }, 'query'],
      [{ query: ['ab'] }, 'query'],
      [{ query: true }, 'query'],
      [{ type: 1 }, 'type'],
      [{ type: ['studio'] }, 'type'],
      [{ surprise: 1 }, 'surprise'],
      [{ page: 1 }, 'page'],
      [{ type: 'bad', surprise: 1 }, 'type'],
      [{ surprise: 1, query: 'a' }, 'query'],
      [{ query: 'ab', Type: 'studio' }, 'Type'],
    ])(
      '%j → Invalid field %s in request body; GraphQL refuses the input while coercing it',
      async (body, name) => {
        const res = await companies(body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          code: 'system:validation_error',
          message: `Invalid field ${name} in request body`,
        });
        for (const document of [companiesRoute.document, companiesTwin]) {
          const graph = await companiesGql(body, {}, document);
          expect(graph.body.errors?.[0]?.extensions?.code).toBe('system:validation_error');
          expect(graph.body.data?.companies ?? null).toBeNull();
        }
      },
    );

    it('accepts the bounds: 2 and 255 characters, null query and null type', async () => {
      await company('ab', { name: 'AB Studio' });
      expect(await slugsOf({ query: 'ab' })).toEqual(['ab']);
      expect(await slugsOf({ query: 'x'.repeat(255) })).toEqual([]);
      expect(await slugsOf({ query: null })).toEqual(['ab']);
      expect(await slugsOf({ type: null })).toEqual(['ab']);
    });

    it('a missing, empty or non-object body, or one without a JSON content type, is `Invalid field in request body`', async () => {
      await company('ab');
      expect((await companies(undefined)).body).toEqual({ code: NO_FIELD.code, message: NO_FIELD.message });
      for (const body of [[], [{}], 'text', 12, null]) {
        const res = await rest(t.app, 'POST', '/companies')
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(body));
        expect({ body, status: res.status, answer: res.body }).toEqual({
          body,
          status: 400,
          answer: { code: NO_FIELD.code, message: NO_FIELD.message },
        });
      }
      const malformed = await rest(t.app, 'POST', '/companies')
        .set('Content-Type', 'application/json')
        .send('{');
      expect([malformed.status, malformed.body.message]).toEqual([400, NO_FIELD.message]);
      const plain = await rest(t.app, 'POST', '/companies').set('Content-Type', 'text/plain').send('{}');
      expect([plain.status, plain.body.message]).toEqual([400, NO_FIELD.message]);
    });

    it('answers validation errors in Ukrainian on request', async () => {
      const res = await companies({ query: 'a' }, { language: 'uk' });
      expect(res.body).toEqual({
        code: 'system:validation_error',
        message: 'Некоректне поле query у запиті body',
      });
      for (const document of [companiesRoute.document, companiesTwin]) {
        const graph = await companiesGql({ query: 'a' }, { language: 'uk' }, document);
        expect(graph.body.errors[0].message).toBe('Некоректне поле query у запиті body');
      }
    });
  });

  describe('authentication none: tokens are never resolved', () => {
    it.each(tokensToIgnore(t))(
      'ignores %s, in the header and in the cookie, on every door',
      async (_n, make) => {
        await linkMany(await company('madhouse', { name: 'Madhouse' }), 'studio', 1);
        await company('bones', { name: 'Bones' });
        const anonymous = await expectCompanies({ type: 'studio' });
        expect((anonymous.list as Json[]).map((c) => c.slug)).toEqual(['madhouse']);
        const token = await make();
        for (const options of [{ token }, { cookie: token }]) {
          expect(await expectCompanies({ type: 'studio' }, options)).toEqual(anonymous);
        }
      },
    );

    it('a token does not change validation errors', async () => {
      const gone = await rest(t.app, 'POST', '/companies', { query: 'a' }, { token: 'not-a-token' });
      expect(gone.status).toBe(400);
      expect(gone.body.message).toBe('Invalid field query in request body');
    });
  });

  describe('bounded SQL', () => {
    it('REST and the compiled document send one statement; the executed twin a fixed number, for 1 or 30 companies', async () => {
      const add = async (i: number) => {
        const c = await company(`studio-${String(i).padStart(2, '0')}`, {
          name: `Sunrise ${i}`,
          image: '/c.png',
        });
        await linkMany(c, 'studio', 1);
        await linkMany(c, 'producer', 1);
      };
      await add(0);
      const count = async (expected: number) => {
        const counts: number[] = [];
        for (const body of [{}, { type: 'studio' }, { query: 'sunrise', type: 'producer' }] as Json[]) {
          counts.push(
            await t.queries.count(async () => {
              const res = await companies(body, { size: 30 });
              expect(res.body.list).toHaveLength(expected);
            }),
          );
          for (const document of [companiesRoute.document, companiesTwin]) {
            counts.push(
              await t.queries.count(async () => {
                const res = await companiesGql(body, { size: 30 }, document);
                expect(res.body.errors).toBeUndefined();
                expect(res.body.data.companies.list).toHaveLength(expected);
              }),
            );
          }
        }
        return counts;
      };
      const one = await count(1);
      for (let i = 1; i < 30; i += 1) await add(i);
      expect(await count(30)).toEqual(one);
      // [rest, compiled, executed] per body.
      expect([one[0], one[1], one[3], one[4], one[6], one[7]]).toEqual([1, 1, 1, 1, 1, 1]);
      expect(one[2]).toBeGreaterThanOrEqual(1);
    });
  });
});
