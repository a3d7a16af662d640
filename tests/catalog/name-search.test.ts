import type { Anime } from '../../src/catalog/anime.entity';
import type { Manga } from '../../src/catalog/manga.entity';
import type { Novel } from '../../src/catalog/novel.entity';
import type { Character } from '../../src/characters/character.entity';
import type { Person } from '../../src/people/person.entity';
import type { RestRoute } from '../../src/rest/route';
import { restRoutes } from '../../src/routes';
import {
  buildAnime,
  buildAppearance,
  buildCharacter,
  buildCredit,
  buildManga,
  buildNovel,
  buildPerson,
  buildRole,
  buildToken,
  buildUser,
  orderedReference,
} from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { CHARACTER, keysOf, PAGINATION, PERSON, shapeProblems, type Shape } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { tokensToIgnore } from '../setup/ignored-tokens';
import { type Json, sortedKeys } from '../setup/json';
import { executedTwin, type Paging } from '../setup/list-route';
import { INVALID_PAGING_QUERIES } from '../setup/paging';

/**
 * POST /people (`people`) and POST /characters (`characters`), pages.md "Catalogs and
 * search": auth none, paged, body `{query?: null or 2..255 characters}` (closed). A query
 * is a typo-tolerant match over the names (substring ignoring case ranks 1, otherwise the
 * trigram word similarity, at least 0.3), ordered by rank desc, then reference desc;
 * without one, the number of linked live titles desc, then slug ("C"). Orphan characters
 * are never listed; people without credits are.
 */
const t = useTestApp();

type Kind = 'people' | 'characters';
const KINDS: readonly Kind[] = ['people', 'characters'];
type TitleKind = 'anime' | 'manga' | 'novel';
type Row = Person | Character;

interface KindSpec {
  path: '/people' | '/characters';
  /** The GraphQL root field (and the REST route's rootField). */
  root: Kind;
  fragment: string;
  item: Shape;
  /** The searched text columns (synonyms are searched too). */
  names: readonly string[];
  /** A text column of the other kind's names, never searched here. */
  foreign: string;
  /** A filled row's columns and the JSON item it answers. */
  full: { row: Record<string, unknown>; json: Json };
  /** A row without any optional value, and its JSON item. */
  bare: { row: Record<string, unknown>; json: Json };
}

const SPECS: Record<Kind, KindSpec> = {
  people: {
    path: '/people',
    root: 'people',
    fragment: '...PersonFields',
    item: PERSON,
    names: ['name_native', 'name_ua', 'name_en'],
    foreign: 'description_ua',
    full: {
      row: {
        slug: 'kentaro-miura',
        name_native: '三浦建太郎',
        name_ua: 'Кентаро Міура',
        name_en: 'Kentaro Miura',
        image: '/people/miura.jpg',
        description_ua: 'Японський манґака.',
        synonyms: ['Miura', 'みうら'],
        comments_count: 7,
      },
      json: {
        data_type: 'person',
        name_native: '三浦建太郎',
        name_ua: 'Кентаро Міура',
        name_en: 'Kentaro Miura',
        image: 'https://cdn.test/people/miura.jpg',
        slug: 'kentaro-miura',
        description_ua: 'Японський манґака.',
        synonyms: ['Miura', 'みうら'],
      },
    },
    bare: {
      row: {
        slug: 'bare',
        name_native: null,
        name_ua: null,
        name_en: null,
        image: 'https://img.example/p.png',
        description_ua: null,
        synonyms: [],
      },
      json: {
        data_type: 'person',
        name_native: null,
        name_ua: null,
        name_en: null,
        image: 'https://img.example/p.png',
        slug: 'bare',
        description_ua: null,
        synonyms: [],
      },
    },
  },
  characters: {
    path: '/characters',
    root: 'characters',
    fragment: '...CharacterFields',
    item: CHARACTER,
    names: ['name_ua', 'name_en', 'name_ja'],
    foreign: 'slug',
    full: {
      row: {
        slug: 'guts',
        name_ua: 'Ґатс',
        name_en: 'Guts',
        name_ja: 'ガッツ',
        image: 'characters/guts.jpg',
        synonyms: ['Black Swordsman', 'Kurono Kenshi'],
        comments_count: 3,
      },
      json: {
        data_type: 'character',
        name_ua: 'Ґатс',
        name_en: 'Guts',
        name_ja: 'ガッツ',
        image: 'https://cdn.test/characters/guts.jpg',
        slug: 'guts',
        synonyms: ['Black Swordsman', 'Kurono Kenshi'],
      },
    },
    bare: {
      row: {
        slug: 'bare',
        name_ua: null,
        name_en: null,
        name_ja: null,
        image: 'https://img.example/c.png',
        synonyms: [],
      },
      json: {
        data_type: 'character',
        name_ua: null,
        name_en: null,
        name_ja: null,
        image: 'https://img.example/c.png',
        slug: 'bare',
        synonyms: [],
      },
    },
  },
};

const routeOf = (kind: Kind): RestRoute =>
  restRoutes.find((r) => r.method === 'POST' && r.path === SPECS[kind].path)!;
const documentsOf = (kind: Kind): [string, string] => [
  routeOf(kind).document,
  executedTwin(routeOf(kind).document),
];

// ---------------------------------------------------------------------------
// Rows and their links to titles.

/** How many titles of each kind a row is linked to; `deleted*`: links to deleted titles. */
interface Links {
  anime?: number;
  manga?: number;
  novel?: number;
  deletedAnime?: number;
  deletedManga?: number;
  deletedNovel?: number;
}

async function title(
  kind: TitleKind,
  deleted: boolean,
): Promise<{ anime?: Anime; manga?: Manga; novel?: Novel }> {
  if (kind === 'anime') return { anime: await buildAnime(t.orm, { deleted }) };
  if (kind === 'manga') return { manga: await buildManga(t.orm, { deleted }) };
  return { novel: await buildNovel(t.orm, { deleted }) };
}

/** One link (a credit with a role, or an appearance) of `row` to a new title. */
async function linkTo(kind: Kind, row: Row, titleKind: TitleKind, deleted = false): Promise<void> {
  const linked = await title(titleKind, deleted);
  if (kind === 'people') await buildCredit(t.orm, row as Person, linked, [await buildRole(t.orm)]);
  else await buildAppearance(t.orm, row as Character, linked);
}

async function linkAll(kind: Kind, row: Row, links: Links): Promise<void> {
  const plan: [TitleKind, boolean, number | undefined][] = [
    ['anime', false, links.anime],
    ['manga', false, links.manga],
    ['novel', false, links.novel],
    ['anime', true, links.deletedAnime],
    ['manga', true, links.deletedManga],
    ['novel', true, links.deletedNovel],
  ];
  for (const [titleKind, deleted, count] of plan)
    for (let i = 0; i < (count ?? 0); i += 1) await linkTo(kind, row, titleKind, deleted);
}

/**
 * A person or character with `columns` (every searched name null unless given, so a
 * factory default never matches a query) and `links` (one live anime unless given).
 */
async function make(
  kind: Kind,
  slug: string,
  columns: Record<string, unknown> = {},
  links: Links = { anime: 1 },
): Promise<Row> {
  const names = Object.fromEntries(SPECS[kind].names.map((name) => [name, null]));
  const data = { slug, ...names, synonyms: [], ...columns };
  const row =
    kind === 'people'
      ? await buildPerson(t.orm, data as Partial<Person>)
      : await buildCharacter(t.orm, data as Partial<Character>);
  await linkAll(kind, row, links);
  return row;
}

const execute = (statement: string, params: unknown[] = []) =>
  t.orm.em.fork().getConnection().execute(statement, params);

/** The table of `kind`'s rows. */
const table = (kind: Kind) => (kind === 'people' ? 'person' : 'character');

// ---------------------------------------------------------------------------
// Calls.

function search(kind: Kind, body: unknown, options: CallOptions & Paging = {}) {
  const query = new URLSearchParams();
  if (options.page !== undefined) query.set('page', String(options.page));
  if (options.size !== undefined) query.set('size', String(options.size));
  const qs = query.toString();
  return rest(t.app, 'POST', `${SPECS[kind].path}${qs ? `?${qs}` : ''}`, body, options);
}

const searchGql = (
  kind: Kind,
  input: unknown,
  options: CallOptions & Paging = {},
  document = routeOf(kind).document,
) => gql(t.app, document, { page: options.page ?? 1, size: options.size ?? 15, input }, options);

async function slugs(kind: Kind, body: unknown, options: CallOptions & Paging = {}): Promise<string[]> {
  const res = await search(kind, body, options);
  expect(res.status).toBe(200);
  return (res.body.list as Json[]).map((item) => item.slug as string);
}

/** REST, the compiled document and its executed twin answer the same 200 JSON; returns it. */
async function expectParity(kind: Kind, body: unknown, options: CallOptions & Paging = {}): Promise<Json> {
  const viaRest = await search(kind, body, options);
  expect(viaRest.status).toBe(200);
  const [compiledDocument, executedDocument] = documentsOf(kind);
  const compiled = await searchGql(kind, body, options, compiledDocument);
  expect(compiled.status).toBe(200);
  expect(compiled.body.errors).toBeUndefined();
  expect(compiled.body.data).toEqual({ [kind]: viaRest.body });
  const executed = await searchGql(kind, body, options, executedDocument);
  expect(executed.status).toBe(200);
  expect(executed.body.errors).toBeUndefined();
  expect(executed.body.data).toEqual({ __typename: 'Query', [kind]: viaRest.body });
  // Key order is part of the JSON too.
  expect(JSON.stringify(compiled.body.data[kind])).toBe(JSON.stringify(viaRest.body));
  expect(JSON.stringify(executed.body.data[kind])).toBe(JSON.stringify(viaRest.body));
  return viaRest.body as Json;
}

const pageShape = (kind: Kind): Shape => ({
  pagination: { object: PAGINATION },
  list: { arrayOf: SPECS[kind].item },
});

const invalidBody = (name: string) => ({
  code: 'system:validation_error',
  message: `Invalid field ${name} in request body`,
});
const NO_FIELD = { code: 'system:validation_error', message: 'Invalid field in request body' };

// ---------------------------------------------------------------------------

describe.each(KINDS)('POST /%s', (kind) => {
  const spec = SPECS[kind];

  it('is registered as an auth-none paged POST over the root field, with the contract fragment', () => {
    const route = routeOf(kind);
    expect(route).toBeDefined();
    expect(route.auth).toBe('none');
    expect(route.paged).toBe(true);
    expect(route.rootField).toBe(kind);
    expect(route.document).toContain(spec.fragment);
    expect(route.document).toContain('pagination { total pages page }');
  });

  describe('items and REST ≡ GraphQL', () => {
    it('serves the contract item exactly: filled values, image URLs, nulls and []', async () => {
      await make(kind, spec.full.row.slug as string, spec.full.row, { anime: 2, manga: 1 });
      await make(kind, 'bare', spec.bare.row, { novel: 1 });
      const body = await expectParity(kind, {});
      // The filled item has every field with a value of its contract type.
      const filledPage = { ...body, list: (body.list as Json[]).slice(0, 1) };
      expect(shapeProblems(filledPage, pageShape(kind), 'page')).toEqual([]);
      expect(body).toEqual({
        pagination: { total: 2, pages: 1, page: 1 },
        list: [spec.full.json, spec.bare.json],
      });
      for (const item of body.list as Json[]) expect(sortedKeys(item)).toEqual(keysOf(spec.item));
    });

    it('answers the same JSON on the three ways for many bodies and pages', async () => {
      await make(kind, spec.full.row.slug as string, spec.full.row, { anime: 3 });
      await make(kind, 'levi', { name_en: 'Levi Ackerman', synonyms: ['Captain'] }, { anime: 2 });
      await make(kind, 'mikasa', { name_en: 'Mikasa Ackerman' }, { manga: 1, deletedAnime: 2 });
      await make(kind, 'typo', { name_en: 'Ackermen' }, { novel: 1 });
      await make(kind, 'bare', spec.bare.row, { anime: 1 });
      const bodies = [{}, { query: null }, { query: 'ackerman' }, { query: 'Guts' }, { query: 'zzzz' }];
      const seen = new Set<string>();
      for (const paging of [{}, { page: 2, size: 2 }, { page: 3, size: 2 }, { page: 9, size: 2 }]) {
        for (const body of bodies) {
          const answer = await expectParity(kind, body, paging);
          expect(sortedKeys(answer)).toEqual(['list', 'pagination']);
          expect(sortedKeys(answer.pagination as Json)).toEqual(keysOf(PAGINATION));
          for (const item of answer.list as Json[]) expect(sortedKeys(item)).toEqual(keysOf(spec.item));
          seen.add(JSON.stringify(answer));
        }
      }
      expect(seen.size).toBeGreaterThan(8);
    });

    it('GraphQL without `input` (or with null) answers as REST with {}', async () => {
      await make(kind, 'one', { name_en: 'One' }, { anime: 2 });
      await make(kind, 'two', { name_en: 'Two' }, { anime: 1 });
      const viaRest = await search(kind, {});
      expect(viaRest.status).toBe(200);
      for (const document of documentsOf(kind)) {
        for (const variables of [{ page: 1, size: 15 }, { input: null }, {}]) {
          const res = await gql(t.app, document, variables);
          expect(res.body.errors).toBeUndefined();
          expect(res.body.data[kind]).toEqual(viaRest.body);
        }
      }
      expect(viaRest.body.list.map((item: Json) => item.slug)).toEqual(['one', 'two']);
    });
  });

  describe('without a query', () => {
    it('orders by the number of linked live titles desc, then slug in "C" order', async () => {
      await make(kind, 'b-two', {}, { anime: 1, manga: 1 });
      await make(kind, 'a-one', {}, { novel: 1 });
      await make(kind, 'three', {}, { anime: 1, manga: 1, novel: 1 });
      // Deleted titles are not counted: 1 live title, not 5.
      await make(kind, 'mostly-deleted', {}, { manga: 1, deletedAnime: 2, deletedManga: 1, deletedNovel: 1 });
      // Ties on 2: slugs compared bytewise ('-' < 'a' < 'z'; 'Z' < 'a' in "C").
      await make(kind, 'a-z', {}, { anime: 2 });
      await make(kind, 'ab', {}, { novel: 2 });
      await make(kind, 'Zed', {}, { manga: 2 });
      expect(await slugs(kind, {})).toEqual([
        'three',
        'Zed',
        'a-z',
        'ab',
        'b-two',
        'a-one',
        'mostly-deleted',
      ]);
      expect(await slugs(kind, { query: null })).toEqual(await slugs(kind, {}));
    });

    it('counts live links of every kind together, each row its own', async () => {
      await make(kind, 'busy', {}, { anime: 2, manga: 2, novel: 2 });
      await make(kind, 'five', {}, { anime: 5 });
      await make(kind, 'four', {}, { manga: 4, deletedManga: 3 });
      await make(kind, 'six', {}, { novel: 6, deletedAnime: 1 });
      await make(kind, 'one', {}, { anime: 1 });
      // busy: 6 (2 + 2 + 2), six: 6, five: 5, four: 4 (3 deleted not counted), one: 1.
      expect(await slugs(kind, {})).toEqual(['busy', 'six', 'five', 'four', 'one']);
    });

    it('is live: deleting or restoring a title changes the order at once', async () => {
      await make(kind, 'a', {}, { anime: 1 });
      const b = await make(kind, 'b', {}, {});
      const anime = await buildAnime(t.orm);
      const manga = await buildManga(t.orm);
      if (kind === 'people') {
        await buildCredit(t.orm, b as Person, { anime }, [await buildRole(t.orm)]);
        await buildCredit(t.orm, b as Person, { manga }, [await buildRole(t.orm)]);
      } else {
        await buildAppearance(t.orm, b as Character, { anime });
        await buildAppearance(t.orm, b as Character, { manga });
      }
      expect(await slugs(kind, {})).toEqual(['b', 'a']);
      await execute(`update anime set deleted = true where reference = ?`, [anime.reference]);
      expect(await slugs(kind, {})).toEqual(['a', 'b']);
      await execute(`update manga set deleted = true where reference = ?`, [manga.reference]);
      // `b` is now linked to no live title.
      expect(await slugs(kind, {})).toEqual(kind === 'people' ? ['a', 'b'] : ['a']);
      await execute(`update anime set deleted = false where reference = ?`, [anime.reference]);
      await execute(`update manga set deleted = false where reference = ?`, [manga.reference]);
      expect(await slugs(kind, {})).toEqual(['b', 'a']);
    });

    it('pages exactly: default size 15, totals, a page past the end, an empty list', async () => {
      const empty = await expectParity(kind, {});
      expect(empty).toEqual({ pagination: { total: 0, pages: 0, page: 1 }, list: [] });
      for (let i = 0; i < 17; i += 1) await make(kind, `r${String(i).padStart(2, '0')}`, {}, { anime: 1 });
      const first = await search(kind, {});
      expect(first.body.pagination).toEqual({ total: 17, pages: 2, page: 1 });
      expect(first.body.list).toHaveLength(15);
      const second = await search(kind, {}, { page: 2, size: 5 });
      expect(second.body.pagination).toEqual({ total: 17, pages: 4, page: 2 });
      expect(second.body.list.map((item: Json) => item.slug)).toEqual(['r05', 'r06', 'r07', 'r08', 'r09']);
      const last = await search(kind, {}, { page: 4, size: 5 });
      expect(last.body.list.map((item: Json) => item.slug)).toEqual(['r15', 'r16']);
      const past = await expectParity(kind, {}, { page: 9, size: 5 });
      expect(past).toEqual({ pagination: { total: 17, pages: 4, page: 9 }, list: [] });
      const whole = await search(kind, {}, { size: 100 });
      expect(whole.body.list).toHaveLength(17);
      expect(whole.body.pagination).toEqual({ total: 17, pages: 1, page: 1 });
    });
  });

  describe('links to no live title', () => {
    if (kind === 'people') {
      it('people without credits, or with credits on deleted titles only, are listed (count 0, last)', async () => {
        await make(kind, 'uncredited', {}, {});
        await make(kind, 'deleted-only', {}, { deletedAnime: 1, deletedNovel: 2 });
        await make(kind, 'credited', {}, { manga: 1 });
        const body = await expectParity(kind, {});
        expect((body.list as Json[]).map((item) => item.slug)).toEqual([
          'credited',
          'deleted-only',
          'uncredited',
        ]);
        expect(body.pagination).toEqual({ total: 3, pages: 1, page: 1 });
        await make(kind, 'named', { name_en: 'Kentaro Miura' }, {});
        expect(await slugs(kind, { query: 'miura' })).toEqual(['named']);
      });
    } else {
      it('orphan characters (no appearance, or only in deleted titles) are never listed nor counted', async () => {
        await make(kind, 'no-appearance', { name_en: 'Guts' }, {});
        await make(
          kind,
          'deleted-only',
          { name_en: 'Guts' },
          { deletedAnime: 1, deletedManga: 1, deletedNovel: 1 },
        );
        await make(kind, 'appears', { name_en: 'Guts' }, { novel: 1, deletedAnime: 1 });
        for (const body of [{}, { query: null }, { query: 'Guts' }, { query: 'gutts' }]) {
          const answer = await expectParity(kind, body);
          expect((answer.list as Json[]).map((item) => item.slug)).toEqual(['appears']);
          expect(answer.pagination).toEqual({ total: 1, pages: 1, page: 1 });
        }
        // A page past the end counts without the orphans too.
        const past = await expectParity(kind, { query: 'Guts' }, { page: 2, size: 1 });
        expect(past).toEqual({ pagination: { total: 1, pages: 1, page: 2 }, list: [] });
      });

      it('an appearance in a live manga or novel alone keeps a character listed', async () => {
        await make(kind, 'in-manga', {}, { manga: 1 });
        await make(kind, 'in-novel', {}, { novel: 1 });
        await make(kind, 'orphan', {}, {});
        expect(await slugs(kind, {})).toEqual(['in-manga', 'in-novel']);
      });
    }
  });

  describe('query', () => {
    it.each([...SPECS[kind].names, 'synonyms'])(
      'matches a substring of %s, ignoring case',
      async (column) => {
        const value = column === 'synonyms' ? ['Other', 'The Hawk Leader'] : 'The Hawk Leader';
        await make(kind, 'match', { [column]: value });
        await make(kind, 'other', { name_en: 'Someone Else', synonyms: ['Nobody'] }, { anime: 3 });
        for (const query of ['hawk', 'HAWK LEAD', 'e Hawk L', 'The Hawk Leader'])
          expect(await slugs(kind, { query })).toEqual(['match']);
      },
    );

    it('matches Ukrainian, Japanese and other scripts case-insensitively', async () => {
      await make(kind, 'ua', { name_ua: 'Ґатс Чорний' });
      await make(kind, 'ja', { [kind === 'people' ? 'name_native' : 'name_ja']: 'ベルセルク' });
      await make(kind, 'pl', { synonyms: ['Wiedźmin'] });
      expect(await slugs(kind, { query: 'ґАТС' })).toEqual(['ua']);
      expect(await slugs(kind, { query: 'ЧОРНИЙ' })).toEqual(['ua']);
      expect(await slugs(kind, { query: 'ルセル' })).toEqual(['ja']);
      expect(await slugs(kind, { query: 'WIEDŹMIN' })).toEqual(['pl']);
    });

    it(`does not search ${SPECS[kind].foreign}, the slug or another kind’s names`, async () => {
      const foreign = kind === 'people' ? { description_ua: 'Berserker' } : {};
      await make(kind, 'berserker', { name_en: 'Zed', ...foreign });
      // The other kind's row with the name is not this list's.
      const otherKind: Kind = kind === 'people' ? 'characters' : 'people';
      await make(otherKind, 'elsewhere', { name_en: 'Berserker' });
      expect(await slugs(kind, { query: 'berserker' })).toEqual([]);
      expect(await slugs(kind, { query: 'zed' })).toEqual(['berserker']);
    });

    it('is typo tolerant (word similarity ≥ 0.3), and refuses what is less similar', async () => {
      await make(kind, 'miura', { name_en: 'Kentaro Miura' });
      await make(kind, 'guts', { name_en: 'Guts' });
      // word_similarity('miurra', 'kentaro miura') = 0.625.
      expect(await slugs(kind, { query: 'Miurra' })).toEqual(['miura']);
      // word_similarity('gatsu', 'guts') ≈ 0.17: no match.
      expect(await slugs(kind, { query: 'gatsu' })).toEqual([]);
      expect(await slugs(kind, { query: 'zzzz' })).toEqual([]);
      // Typos in synonyms and other name columns too.
      await make(kind, 'swordsman', { synonyms: ['Black Swordsman'], name_ua: 'Мечник' });
      expect(await slugs(kind, { query: 'sworsdman' })).toEqual(['swordsman']);
    });

    it('orders by rank desc (a substring ranks 1, else the best similarity), not by title count', async () => {
      // Query 'ackerman': word similarity with 'ackermen' 0.67, 'akerman' 0.56, 'ackrman' 0.55.
      await make(kind, 'far', { name_en: 'Ackrman' }, { anime: 5 });
      await make(kind, 'close', { name_en: 'Ackermen' }, { anime: 1 });
      await make(kind, 'middle', { name_en: 'Akerman' }, { anime: 3 });
      await make(kind, 'inside', { name_ua: 'Levi Ackerman' }, { anime: 1 });
      // The best of the names counts: a weak name_en and an exact synonym rank 1.
      await make(
        kind,
        'by-synonym',
        { name_en: 'Ackrman', synonyms: ['Bob', 'Mikasa ACKERMAN'] },
        { anime: 1 },
      );
      await make(kind, 'unrelated', { name_en: 'Guts' }, { anime: 9 });
      const found = await slugs(kind, { query: 'ackerman' });
      expect(found.slice(2)).toEqual(['close', 'middle', 'far']);
      expect(found.slice(0, 2).sort()).toEqual(['by-synonym', 'inside']);
    });

    it('breaks rank ties by reference desc (substring ties and equal similarities)', async () => {
      await make(kind, 'sub-1', { name_en: 'Levi Ackerman', reference: orderedReference(1) }, { anime: 9 });
      await make(kind, 'sub-3', { name_ua: 'ackerman', reference: orderedReference(3) }, { anime: 1 });
      await make(
        kind,
        'sub-2',
        { synonyms: ['Ackerman clan'], reference: orderedReference(2) },
        { anime: 4 },
      );
      // 'akerman' and 'ekkerman' both have word similarity 0.56 with 'ackerman'.
      await make(kind, 'sim-4', { name_en: 'Akerman', reference: orderedReference(4) });
      await make(kind, 'sim-5', { name_en: 'Ekkerman', reference: orderedReference(5) });
      expect(await slugs(kind, { query: 'ackerman' })).toEqual(['sub-3', 'sub-2', 'sub-1', 'sim-5', 'sim-4']);
    });

    it('takes LIKE wildcards and backslashes literally', async () => {
      await make(kind, 'percent', { name_en: '100% Guts' });
      await make(kind, 'hundred', { name_en: '1000 Guts' });
      await make(kind, 'under', { name_en: 'a_b' });
      await make(kind, 'plain', { name_en: 'axb' });
      await make(kind, 'slash', { name_en: 'x\\y' });
      expect(await slugs(kind, { query: '0% G' })).toEqual(['percent']);
      expect(await slugs(kind, { query: 'a_b' })).toEqual(['under']);
      expect(await slugs(kind, { query: 'x\\y' })).toEqual(['slash']);
      expect(await slugs(kind, { query: '%%' })).toEqual([]);
    });

    it('tests each synonym on its own: a substring across two synonyms does not match', async () => {
      // Joined, the synonyms read 'ab cd'; 'b c' is in neither (and similarity 0.25 < 0.3).
      await make(kind, 'split', { name_en: 'Zed', synonyms: ['Ab', 'Cd'] });
      expect(await slugs(kind, { query: 'b c' })).toEqual([]);
      expect(await slugs(kind, { query: 'ab' })).toEqual(['split']);
      expect(await slugs(kind, { query: 'CD' })).toEqual(['split']);
    });

    it('counts totals exactly and pages the ranked matches', async () => {
      for (let i = 1; i <= 5; i += 1)
        await make(kind, `levi-${i}`, { name_en: `Levi ${i}`, reference: orderedReference(i) }, { anime: i });
      await make(kind, 'guts', { name_en: 'Guts' }, { anime: 9 });
      const first = await expectParity(kind, { query: 'levi' }, { page: 1, size: 2 });
      expect(first.pagination).toEqual({ total: 5, pages: 3, page: 1 });
      expect((first.list as Json[]).map((item) => item.slug)).toEqual(['levi-5', 'levi-4']);
      const third = await expectParity(kind, { query: 'levi' }, { page: 3, size: 2 });
      expect((third.list as Json[]).map((item) => item.slug)).toEqual(['levi-1']);
      const past = await expectParity(kind, { query: 'levi' }, { page: 4, size: 2 });
      expect(past).toEqual({ pagination: { total: 5, pages: 3, page: 4 }, list: [] });
      const none = await expectParity(kind, { query: 'zzzz' });
      expect(none).toEqual({ pagination: { total: 0, pages: 0, page: 1 }, list: [] });
    });

    it('sees renames at once', async () => {
      await make(kind, 'renamed', { name_en: 'Griffith' });
      expect(await slugs(kind, { query: 'griffith' })).toEqual(['renamed']);
      await execute(`update "${table(kind)}" set name_en = 'Femto' where slug = 'renamed'`);
      expect(await slugs(kind, { query: 'griffith' })).toEqual([]);
      expect(await slugs(kind, { query: 'femto' })).toEqual(['renamed']);
      await execute(`update "${table(kind)}" set synonyms = '{"White Hawk"}' where slug = 'renamed'`);
      expect(await slugs(kind, { query: 'white hawk' })).toEqual(['renamed']);
    });

    it('accepts queries of 2 and of 255 characters (code points, not UTF-16 units)', async () => {
      await make(kind, 'ab', { name_en: 'Ab' });
      await make(kind, 'long', { name_en: 'x'.repeat(300) });
      await make(kind, 'emoji', { name_en: '😀😀 face' });
      expect(await slugs(kind, { query: 'AB' })).toEqual(['ab']);
      expect(await slugs(kind, { query: 'x'.repeat(255) })).toEqual(['long']);
      expect(await slugs(kind, { query: '😀😀' })).toEqual(['emoji']);
      expect((await search(kind, { query: '😀'.repeat(255) })).status).toBe(200);
      for (const document of documentsOf(kind)) {
        const res = await searchGql(kind, { query: '😀😀' }, {}, document);
        expect(res.body.errors).toBeUndefined();
        expect(res.body.data[kind].list.map((item: Json) => item.slug)).toEqual(['emoji']);
      }
    });
  });

  describe('validation (400 system:validation_error)', () => {
    const invalid: [unknown, string][] = [
      [{ query: 'a' }, 'query'],
      [{ query: '' }, 'query'],
      [{ query: '😀' }, 'query'],
      [{ query: 'x'.repeat(256) }, 'query'],
      [{ query: '😀'.repeat(256) }, 'query'],
      [{ query: 12 }, 'query'],
      [{ query: true }, 'query'],
      [{ query: ['ab'] }, 'query'],
      [{ query: { text: 'ab' } }, 'query'],
      [{ surprise: 1 }, 'surprise'],
      [{ type: 'studio' }, 'type'],
      [{ page: 2 }, 'page'],
      [{ query: 'ab', sort: ['name:asc'] }, 'sort'],
      // The listed field first, unknown keys last.
      [{ surprise: 1, query: 'a' }, 'query'],
    ];

    it.each(invalid)(
      '%j → Invalid field %s in request body, through REST and both documents',
      async (body, name) => {
        const res = await search(kind, body);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(invalidBody(name));
        for (const document of documentsOf(kind)) {
          const graph = await searchGql(kind, body, {}, document);
          expect(graph.status).toBe(400);
          expect(graph.body.errors).toHaveLength(1);
          const [error] = graph.body.errors;
          expect(error.extensions.code).toBe('system:validation_error');
          // Unknown keys and values GraphQL cannot coerce fail in graphql-js (its own message
          // naming the input); everything else is named exactly as in REST.
          if (error.message !== res.body.message) expect(error.message).toMatch(/\$input|input/);
          else expect(error.extensions.http.status).toBe(400);
        }
      },
    );

    it('a length violation has the same message on both doors, in English and Ukrainian', async () => {
      for (const [language, message] of [
        ['en', 'Invalid field query in request body'],
        ['uk-UA,uk;q=0.9', 'Некоректне поле query у запиті body'],
      ]) {
        const res = await search(kind, { query: 'a' }, { language });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ code: 'system:validation_error', message });
        for (const document of documentsOf(kind)) {
          const graph = await searchGql(kind, { query: 'a' }, { language }, document);
          expect(graph.body.errors).toHaveLength(1);
          expect({
            message: graph.body.errors[0].message,
            code: graph.body.errors[0].extensions.code,
            status: graph.body.errors[0].extensions.http.status,
          }).toEqual({ message, code: 'system:validation_error', status: 400 });
        }
      }
    });

    it.each([
      ['missing', undefined],
      ['an array', []],
      ['null', null],
      ['a string', 'query'],
      ['a number', 5],
    ])('a body that is %s is `Invalid field in request body`', async (_name, body) => {
      const res =
        body === undefined
          ? await rest(t.app, 'POST', spec.path)
          : await rest(t.app, 'POST', spec.path)
              .set('Content-Type', 'application/json')
              .send(JSON.stringify(body));
      expect(res.status).toBe(400);
      expect(res.body).toEqual(NO_FIELD);
    });

    it('a body without a JSON content type or with malformed JSON is `Invalid field in request body`', async () => {
      const text = await rest(t.app, 'POST', spec.path)
        .set('Content-Type', 'text/plain')
        .send('{"query":"ab"}');
      expect(text.status).toBe(400);
      expect(text.body).toEqual(NO_FIELD);
      const broken = await rest(t.app, 'POST', spec.path)
        .set('Content-Type', 'application/json')
        .send('{"query":');
      expect(broken.status).toBe(400);
      expect(broken.body).toEqual(NO_FIELD);
    });

    it.each(INVALID_PAGING_QUERIES)(
      'query %s → Invalid field %s in request query (before the body)',
      async (qs, name) => {
        const res = await rest(t.app, 'POST', `${spec.path}?${qs}`, { query: 'a' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          code: 'system:validation_error',
          message: `Invalid field ${name} in request query`,
        });
      },
    );

    it('unknown query parameters are ignored', async () => {
      await make(kind, 'one', { name_en: 'One' });
      const res = await rest(t.app, 'POST', `${spec.path}?query=zz&sort=bad&foo=1`, {});
      expect(res.status).toBe(200);
      expect(res.body.list.map((item: Json) => item.slug)).toEqual(['one']);
    });

    it('GraphQL page 0, page 10001, size 0 and size 101 are refused with HTTP 400 on both documents', async () => {
      for (const document of documentsOf(kind)) {
        for (const [args, name] of [
          [{ page: 0 }, 'page'],
          [{ page: 10001 }, 'page'],
          [{ size: 0 }, 'size'],
          [{ size: 101 }, 'size'],
        ] as const) {
          const res = await gql(t.app, document, { ...args, input: {} });
          expect(res.status).toBe(400);
          expect(res.body.errors[0].message).toBe(`Invalid field ${name} in request query`);
          expect(res.body.errors[0].extensions.code).toBe('system:validation_error');
        }
      }
    });
  });

  describe('authentication none: tokens are never resolved', () => {
    const tokens = tokensToIgnore(t);

    it.each(tokens)(
      'ignores %s, in the header and in the cookie, on both doors',
      async (_name, makeToken) => {
        await make(kind, spec.full.row.slug as string, spec.full.row, { anime: 2 });
        await make(kind, 'bare', spec.bare.row, { anime: 1 });
        const anonymous = await expectParity(kind, { query: null });
        const token = await makeToken();
        for (const options of [{ token }, { cookie: token }]) {
          expect(await expectParity(kind, { query: null }, options)).toEqual(anonymous);
          const invalid = await search(kind, { query: 'a' }, options);
          expect(invalid.status).toBe(400);
          expect(invalid.body).toEqual(invalidBody('query'));
        }
        expect(anonymous.list).toEqual([spec.full.json, spec.bare.json]);
      },
    );

    it('sends no token look-up and writes nothing for a valid token', async () => {
      await make(kind, 'one', { name_en: 'One' });
      const user = await buildUser(t.orm, { last_active: new Date('2024-01-01T00:00:00Z') });
      const expiration = new Date(Date.now() + 60 * 60 * 1000);
      const token = await buildToken(t.orm, user, { expiration });
      const anonymous = await t.queries.count(async () => expect((await search(kind, {})).status).toBe(200));
      const withToken = await t.queries.count(async () =>
        expect((await search(kind, {}, { token })).status).toBe(200),
      );
      expect(withToken).toBe(anonymous);
      expect(t.queries.last.filter((statement) => /auth_token|"user"/.test(statement))).toEqual([]);
      const [stored] = (await execute(`select used, expiration from auth_token where user_reference = ?`, [
        user.reference,
      ])) as { used: Date | null; expiration: Date }[];
      expect(stored.used).toBeNull();
      expect(new Date(stored.expiration).getTime()).toBe(expiration.getTime());
    });
  });

  describe('SQL statements per request', () => {
    it('REST and the compiled document send 1 statement, the executed twin a bounded number, whatever the page size', async () => {
      for (let i = 0; i < 30; i += 1)
        await make(
          kind,
          `levi-${String(i).padStart(2, '0')}`,
          { name_en: `Levi ${i}`, synonyms: [`Captain ${i}`] },
          { anime: 1 + (i % 3), deletedManga: i % 2 },
        );
      await make(kind, 'orphan', { name_en: 'Levi Orphan' }, { deletedNovel: 1 });
      const expected = kind === 'people' ? 31 : 30;
      const counts = async (body: Json, size: number) => {
        const result: number[] = [];
        result.push(
          await t.queries.count(async () => {
            const res = await search(kind, body, { size });
            expect(res.status).toBe(200);
            expect(res.body.list).toHaveLength(Math.min(size, expected));
          }),
        );
        for (const document of documentsOf(kind)) {
          result.push(
            await t.queries.count(async () => {
              const res = await searchGql(kind, body, { size }, document);
              expect(res.body.errors).toBeUndefined();
              expect(res.body.data[kind].list).toHaveLength(Math.min(size, expected));
            }),
          );
        }
        return result;
      };
      for (const body of [{}, { query: 'levi' }]) {
        const small = await counts(body, 1);
        const large = await counts(body, 100);
        expect(large).toEqual(small);
        expect(small.slice(0, 2)).toEqual([1, 1]);
        expect(small[2]).toBeGreaterThanOrEqual(1);
        expect(small[2]).toBeLessThanOrEqual(3);
        // A page past the end (its total has no row to ride on) is one statement on REST too.
        const past = await t.queries.count(async () => {
          const res = await search(kind, body, { page: 99, size: 100 });
          expect(res.body).toEqual({ pagination: { total: expected, pages: 1, page: 99 }, list: [] });
        });
        expect(past).toBe(1);
      }
    });
  });
});
