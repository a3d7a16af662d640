import { AuthToken } from '../../src/accounts/auth-token.entity';
import { User } from '../../src/accounts/user.entity';
import { Manga } from '../../src/catalog/manga.entity';
import { Novel } from '../../src/catalog/novel.entity';
import { Appearance } from '../../src/characters/appearance.entity';
import type { Character } from '../../src/characters/character.entity';
import { restRoutes } from '../../src/routes';
import { buildComment } from '../comments/helpers';
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
} from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { CHARACTER_FULL, keysOf, shapeProblems } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { tokensToIgnore } from '../setup/ignored-tokens';
import { type Json, sortedKeys } from '../setup/json';

/** GET /characters/{slug} (pages.md "Character page"): the Character full record, auth none. */
const t = useTestApp();

const route = restRoutes.find((r) => r.path === '/characters/{slug}' && r.method === 'GET')!;

/** The route's document with a root `__typename`: never compiled, so the resolvers run. */
const executedDocument = route.document.replace('{', '{ __typename ');

const getCharacter = (slug: string, options: CallOptions = {}) =>
  rest(t.app, 'GET', `/characters/${slug}`, undefined, options);

const notFound = { message: 'Character not found', code: 'character:not_found' };
const notFoundUk = { message: 'Персонажа не знайдено', code: 'character:not_found' };

type Kind = 'anime' | 'manga' | 'novel';

/** A new title of `kind`, as the `title` argument of buildAppearance. */
async function titleOf(kind: Kind, deleted = false) {
  if (kind === 'anime') return { anime: await buildAnime(t.orm, { deleted }) };
  if (kind === 'manga') return { manga: await buildManga(t.orm, { deleted }) };
  return { novel: await buildNovel(t.orm, { deleted }) };
}

/** Appearances of `character` in `anime` new anime, `manga` new manga and `novels` new novels, main every other one. */
async function appearances(
  character: Character,
  counts: { anime?: number; manga?: number; novels?: number; deleted?: boolean },
): Promise<void> {
  const deleted = counts.deleted ?? false;
  const kinds: [Kind, number][] = [
    ['anime', counts.anime ?? 0],
    ['manga', counts.manga ?? 0],
    ['novel', counts.novels ?? 0],
  ];
  for (const [kind, count] of kinds)
    for (let n = 0; n < count; n += 1)
      await buildAppearance(t.orm, character, await titleOf(kind, deleted), n % 2 === 0);
}

/** A character with every field filled, in 2 anime, 3 manga and 1 novel, with 9 stored comments. */
async function fullCharacter(slug = 'guts'): Promise<Character> {
  const character = await buildCharacter(t.orm, {
    slug,
    name_ua: 'Ґатс',
    name_en: 'Guts',
    name_ja: 'ガッツ',
    image: '/characters/guts.jpg',
    synonyms: ['Black Swordsman', '黒い剣士'],
    comments_count: 9,
  });
  await appearances(character, { anime: 2, manga: 3, novels: 1 });
  return character;
}

const FULL_BODY = {
  data_type: 'character',
  slug: 'guts',
  name_ua: 'Ґатс',
  name_en: 'Guts',
  name_ja: 'ガッツ',
  image: 'https://cdn.test/characters/guts.jpg',
  synonyms: ['Black Swordsman', '黒い剣士'],
  description_ua: null,
  anime_count: 2,
  manga_count: 3,
  novel_count: 1,
  voices_count: 0,
  comments_count: 9,
};

describe('GET /characters/{slug}', () => {
  describe('full record', () => {
    it('returns exactly every Character field, description_ua null and the five counts, keys equal to CHARACTER_FULL', async () => {
      await fullCharacter();

      const res = await getCharacter('guts');

      expect(res.status).toBe(200);
      expect(sortedKeys(res.body)).toEqual(keysOf(CHARACTER_FULL));
      expect(res.body).toEqual(FULL_BODY);
      // description_ua is the one null the record always has (checked above); the rest is filled and typed.
      expect(shapeProblems({ ...res.body, description_ua: 'null' }, CHARACTER_FULL, 'character')).toEqual([]);
    });

    it('serves absent values as null, no synonyms as [], and zero counts where nothing applies', async () => {
      const character = await buildCharacter(t.orm, {
        slug: 'bare',
        name_ua: null,
        name_en: null,
        name_ja: null,
        image: null,
        synonyms: [],
      });
      await buildAppearance(t.orm, character, { manga: await buildManga(t.orm) });

      const res = await getCharacter('bare');

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data_type: 'character',
        slug: 'bare',
        name_ua: null,
        name_en: null,
        name_ja: null,
        image: null,
        synonyms: [],
        description_ua: null,
        anime_count: 0,
        manga_count: 1,
        novel_count: 0,
        voices_count: 0,
        comments_count: 0,
      });
    });

    it.each([
      [
        'a path without a leading slash gets exactly one slash',
        'characters/y.jpg',
        'https://cdn.test/characters/y.jpg',
      ],
      ['an absolute URL passes through unchanged', 'https://img.example/z.png', 'https://img.example/z.png'],
    ])('image: %s', async (_name, stored, served) => {
      const character = await buildCharacter(t.orm, { slug: 'pictured', image: stored });
      await appearances(character, { anime: 1 });
      const res = await getCharacter('pictured');
      expect(res.status).toBe(200);
      expect(res.body.image).toBe(served);
    });
  });

  describe('counts', () => {
    it('counts appearances in live titles of each kind, not deleted titles and not other characters’ appearances', async () => {
      const character = await buildCharacter(t.orm, { slug: 'busy' });
      await appearances(character, { anime: 1, manga: 4, novels: 2 });
      await appearances(character, { anime: 3, manga: 1, novels: 2, deleted: true });
      const other = await buildCharacter(t.orm, { slug: 'other' });
      await appearances(other, { anime: 5, manga: 5, novels: 5 });

      const res = await getCharacter('busy');

      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ anime_count: 1, manga_count: 4, novel_count: 2 });
      const theirs = await getCharacter('other');
      expect(theirs.body).toMatchObject({ anime_count: 5, manga_count: 5, novel_count: 5 });
    });

    it('counts main and supporting appearances alike', async () => {
      const character = await buildCharacter(t.orm, { slug: 'cast' });
      await buildAppearance(t.orm, character, { anime: await buildAnime(t.orm) }, true);
      await buildAppearance(t.orm, character, { anime: await buildAnime(t.orm) }, false);
      await buildAppearance(t.orm, character, { novel: await buildNovel(t.orm) }, false);

      const res = await getCharacter('cast');

      expect(res.body).toMatchObject({ anime_count: 2, manga_count: 0, novel_count: 1 });
    });

    it('is live: deleting a title drops its appearance from the count', async () => {
      const character = await buildCharacter(t.orm, { slug: 'live' });
      const manga = await buildManga(t.orm);
      await buildAppearance(t.orm, character, { manga });
      await buildAppearance(t.orm, character, { manga: await buildManga(t.orm) });
      expect((await getCharacter('live')).body.manga_count).toBe(2);

      await t.orm.em.fork().nativeUpdate(Manga, { reference: manga.reference }, { deleted: true });

      expect((await getCharacter('live')).body.manga_count).toBe(1);
    });

    it('keeps voices_count at 0: voice acting is not stored, staff credits are not voices', async () => {
      const character = await buildCharacter(t.orm, { slug: 'voiced' });
      const anime = await buildAnime(t.orm);
      await buildAppearance(t.orm, character, { anime });
      await buildCredit(t.orm, await buildPerson(t.orm), { anime }, [await buildRole(t.orm)]);

      const res = await getCharacter('voiced');

      expect(res.status).toBe(200);
      expect(res.body.voices_count).toBe(0);
      expect(res.body.anime_count).toBe(1);
    });

    it('serves comments_count as stored, not counted from the comment rows', async () => {
      const character = await buildCharacter(t.orm, { slug: 'discussed', comments_count: 6 });
      await appearances(character, { novels: 1 });
      await buildComment(t.orm, await buildUser(t.orm), {
        type: 'character',
        reference: character.reference,
        slug: 'discussed',
      });

      const res = await getCharacter('discussed');

      expect(res.status).toBe(200);
      expect(res.body.comments_count).toBe(6);
    });
  });

  describe('look-up', () => {
    it('lower-cases the slug: an upper-case path finds the lower-case character', async () => {
      await fullCharacter();
      const res = await getCharacter('GUTS');
      expect(res.status).toBe(200);
      expect(res.body).toEqual(FULL_BODY);
    });

    it('answers 404 character:not_found "Character not found" for an unknown slug', async () => {
      await fullCharacter();
      const res = await getCharacter('griffith');
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
    });

    it('answers 404 for an orphan character (no appearance at all), in both languages', async () => {
      await buildCharacter(t.orm, { slug: 'orphan', name_en: 'Orphan' });

      const res = await getCharacter('orphan');
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);

      const uk = await getCharacter('orphan', { language: 'uk-UA,uk;q=0.9' });
      expect(uk.status).toBe(404);
      expect(uk.body).toEqual(notFoundUk);
    });

    it('answers 404 for a character appearing only in deleted titles, in both languages', async () => {
      const character = await buildCharacter(t.orm, { slug: 'forgotten' });
      await appearances(character, { anime: 1, manga: 1, novels: 1, deleted: true });

      const res = await getCharacter('forgotten');
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);

      const uk = await getCharacter('forgotten', { language: 'uk' });
      expect(uk.status).toBe(404);
      expect(uk.body).toEqual(notFoundUk);
    });

    it.each(['anime', 'manga', 'novel'] as const)(
      'finds a character appearing in one live %s only (and deleted titles of the other kinds)',
      async (kind) => {
        const character = await buildCharacter(t.orm, { slug: `in-${kind}` });
        await buildAppearance(t.orm, character, await titleOf(kind));
        for (const gone of ['anime', 'manga', 'novel'] as const)
          if (gone !== kind) await buildAppearance(t.orm, character, await titleOf(gone, true));

        const res = await getCharacter(`in-${kind}`);

        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({
          slug: `in-${kind}`,
          anime_count: kind === 'anime' ? 1 : 0,
          manga_count: kind === 'manga' ? 1 : 0,
          novel_count: kind === 'novel' ? 1 : 0,
        });
      },
    );

    it('becomes not found when its last live title is deleted, and found again when it is restored', async () => {
      const character = await buildCharacter(t.orm, { slug: 'fragile' });
      const { novel } = (await titleOf('novel')) as { novel: Novel };
      await buildAppearance(t.orm, character, { novel });
      expect((await getCharacter('fragile')).status).toBe(200);

      const em = t.orm.em.fork();
      await em.nativeUpdate(Novel, { reference: novel.reference }, { deleted: true });
      const gone = await getCharacter('fragile');
      expect(gone.status).toBe(404);
      expect(gone.body).toEqual(notFound);

      await em.nativeUpdate(Novel, { reference: novel.reference }, { deleted: false });
      expect((await getCharacter('fragile')).status).toBe(200);
    });

    it('becomes an orphan when its appearances are removed', async () => {
      const character = await buildCharacter(t.orm, { slug: 'unlinked' });
      await appearances(character, { anime: 1 });
      expect((await getCharacter('unlinked')).status).toBe(200);

      await t.orm.em.fork().nativeDelete(Appearance, { character: character.reference });

      expect((await getCharacter('unlinked')).body).toEqual(notFound);
    });

    it('never finds a person or a title with the same slug', async () => {
      await buildPerson(t.orm, { slug: 'shared-slug' });
      await buildAnime(t.orm, { slug: 'shared-slug' });
      await buildNovel(t.orm, { slug: 'shared-slug' });
      const res = await getCharacter('shared-slug');
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
    });

    it('ignores query parameters (the route is not paged)', async () => {
      await fullCharacter();
      const res = await getCharacter('guts?page=0&size=abc&foo=bar');
      expect(res.status).toBe(200);
      expect(res.body).toEqual(FULL_BODY);
    });
  });

  describe('authentication none: the token is never resolved', () => {
    beforeEach(() => fullCharacter());

    const tokens = tokensToIgnore(t);

    it.each(tokens)('ignores %s, in the header and in the cookie, on both doors', async (_name, make) => {
      const token = await make();
      for (const options of [{ token }, { cookie: token }]) {
        const viaRest = await getCharacter('guts', options);
        expect(viaRest.status).toBe(200);
        expect(viaRest.body).toEqual(FULL_BODY);
        const viaGraphQL = await gql(t.app, route.document, { slug: 'guts' }, options);
        expect(viaGraphQL.body.errors).toBeUndefined();
        expect(viaGraphQL.body.data.character).toEqual(FULL_BODY);
      }
    });

    it('a token does not change the not-found answer', async () => {
      await buildCharacter(t.orm, { slug: 'orphan' });
      const token = await buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' }));
      const res = await getCharacter('orphan', { token });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
    });

    it('sends no token look-up and has no side effects on a valid token (expiry not slid, use and activity not recorded)', async () => {
      const user = await buildUser(t.orm, { last_active: new Date('2024-01-01T00:00:00Z') });
      const expiration = new Date(Date.now() + 60 * 60 * 1000);
      const token = await buildToken(t.orm, user, { expiration });

      const anonymous = await t.queries.count(async () =>
        expect((await getCharacter('guts')).status).toBe(200),
      );
      const withToken = await t.queries.count(async () =>
        expect((await getCharacter('guts', { token })).status).toBe(200),
      );

      expect(t.queries.last.filter((statement) => /auth_token/.test(statement))).toEqual([]);
      expect(withToken).toBe(anonymous);
      const em = t.orm.em.fork();
      const stored = await em.findOneOrFail(AuthToken, { user: user.reference });
      expect(stored.used).toBeNull();
      expect(stored.expiration.getTime()).toBe(expiration.getTime());
      const account = await em.findOneOrFail(User, { reference: user.reference });
      expect(account.last_active.toISOString()).toBe('2024-01-01T00:00:00.000Z');
    });
  });

  describe('REST ≡ GraphQL', () => {
    it('equals data.character for the same slug, compiled and through the resolvers', async () => {
      await fullCharacter();
      const bare = await buildCharacter(t.orm, { slug: 'bare', name_en: null, name_ja: null, synonyms: [] });
      await appearances(bare, { anime: 1 });
      await appearances(bare, { manga: 2, deleted: true });

      for (const slug of ['Guts', 'bare']) {
        const viaRest = await getCharacter(slug);
        const viaGraphQL = await gql(t.app, route.document, { slug });
        const executed = await gql(t.app, executedDocument, { slug });

        expect(viaRest.status).toBe(200);
        expect(viaGraphQL.status).toBe(200);
        expect(viaGraphQL.body.errors).toBeUndefined();
        expect(viaGraphQL.body.data).toEqual({ character: viaRest.body });
        expect(executed.body.errors).toBeUndefined();
        expect(executed.body.data).toEqual({ __typename: 'Query', character: viaRest.body });
        // Key order is part of the JSON: both doors and both ways of answering agree.
        expect(JSON.stringify(viaGraphQL.body.data.character)).toBe(JSON.stringify(viaRest.body));
        expect(JSON.stringify((executed.body.data as Json).character)).toBe(JSON.stringify(viaRest.body));
      }
      expect((await getCharacter('Guts')).body).toEqual(FULL_BODY);
    });

    it.each([
      ['unknown, en', 'missing', undefined, notFound],
      ['orphan, en', 'orphan', undefined, notFound],
      ['only in deleted titles, uk', 'forgotten', 'uk', notFoundUk],
      ['orphan, uk', 'ORPHAN', 'uk', notFoundUk],
    ])(
      'reports the same not-found error (%s), compiled and through the resolvers',
      async (_name, slug, language, body) => {
        await buildCharacter(t.orm, { slug: 'orphan' });
        await appearances(await buildCharacter(t.orm, { slug: 'forgotten' }), { manga: 1, deleted: true });
        const options = language ? { language } : {};
        const viaRest = await getCharacter(slug, options);
        expect(viaRest.status).toBe(404);
        expect(viaRest.body).toEqual(body);

        for (const document of [route.document, executedDocument]) {
          const viaGraphQL = await gql(t.app, document, { slug }, options);
          expect(viaGraphQL.body.errors).toHaveLength(1);
          expect(viaGraphQL.body.errors[0]).toMatchObject({
            message: body.message,
            path: ['character'],
            extensions: { code: 'character:not_found', http: { status: 404 } },
          });
          expect(viaGraphQL.body.data ?? null).toBeNull();
        }
      },
    );
  });

  describe('bounded SQL', () => {
    it('sends as many statements for 30 appearances (and deleted ones) as for one, on both doors', async () => {
      await appearances(await buildCharacter(t.orm, { slug: 'minor' }), { novels: 1 });
      const star = await buildCharacter(t.orm, { slug: 'star' });
      await appearances(star, { anime: 10, manga: 10, novels: 10 });
      await appearances(star, { anime: 3, manga: 3, novels: 3, deleted: true });
      // Refusing an orphan costs the same whether it has no appearance or many in deleted titles.
      await buildCharacter(t.orm, { slug: 'orphan' });
      await appearances(await buildCharacter(t.orm, { slug: 'forgotten' }), {
        anime: 10,
        manga: 10,
        novels: 10,
        deleted: true,
      });

      const refused = (slug: string) => slug === 'orphan' || slug === 'forgotten';
      const counted = async (call: (slug: string) => Promise<unknown>) => ({
        minor: await t.queries.count(() => call('minor')),
        star: await t.queries.count(() => call('star')),
        orphan: await t.queries.count(() => call('orphan')),
        forgotten: await t.queries.count(() => call('forgotten')),
      });
      const viaRest = await counted(async (slug) => {
        const res = await getCharacter(slug);
        expect(res.status).toBe(refused(slug) ? 404 : 200);
      });
      const viaGraphQL = await counted(async (slug) => {
        const res = await gql(t.app, route.document, { slug });
        expect(res.body.data?.character?.slug ?? res.body.errors[0].extensions.code).toBe(
          refused(slug) ? 'character:not_found' : slug,
        );
      });
      const executed = await counted(async (slug) => {
        const res = await gql(t.app, executedDocument, { slug });
        expect(res.body.data?.character?.anime_count ?? res.body.errors[0].extensions.code).toBe(
          refused(slug) ? 'character:not_found' : slug === 'star' ? 10 : 0,
        );
      });

      for (const counts of [viaRest, viaGraphQL, executed]) {
        expect(counts.minor).toBeGreaterThan(0);
        expect(counts.star).toBe(counts.minor);
        expect(counts.orphan).toBeGreaterThan(0);
        expect(counts.forgotten).toBe(counts.orphan);
      }
    });
  });
});
