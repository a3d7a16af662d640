import { AuthToken } from '../../src/accounts/auth-token.entity';
import { User } from '../../src/accounts/user.entity';
import { Anime } from '../../src/catalog/anime.entity';
import type { Person } from '../../src/people/person.entity';
import { restRoutes } from '../../src/routes';
import { buildComment } from '../comments/helpers';
import {
  buildAnime,
  buildCharacter,
  buildAppearance,
  buildCredit,
  buildManga,
  buildNovel,
  buildPerson,
  buildRole,
  buildToken,
  buildUser,
} from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { keysOf, PERSON_FULL, shapeProblems } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { tokensToIgnore } from '../setup/ignored-tokens';
import { type Json, sortedKeys } from '../setup/json';

/** GET /people/{slug} (pages.md "Person page"): the Person full record, auth none. */
const t = useTestApp();

const route = restRoutes.find((r) => r.path === '/people/{slug}' && r.method === 'GET')!;

/** The route's document with a root `__typename`: never compiled, so the resolvers run. */
const executedDocument = route.document.replace('{', '{ __typename ');

const getPerson = (slug: string, options: CallOptions = {}) =>
  rest(t.app, 'GET', `/people/${slug}`, undefined, options);

const notFound = { message: 'Person not found', code: 'person:not_found' };
const notFoundUk = { message: 'Людину не знайдено', code: 'person:not_found' };

/** Credits of `person` on `anime` new anime, `manga` new manga and `novels` new novels, each with `roles` roles. */
async function credits(
  person: Person,
  counts: { anime?: number; manga?: number; novels?: number; deleted?: boolean },
  roles = 1,
): Promise<void> {
  const held = [];
  for (let r = 0; r < roles; r += 1) held.push(await buildRole(t.orm));
  const deleted = counts.deleted ?? false;
  for (let n = 0; n < (counts.anime ?? 0); n += 1)
    await buildCredit(t.orm, person, { anime: await buildAnime(t.orm, { deleted }) }, held);
  for (let n = 0; n < (counts.manga ?? 0); n += 1)
    await buildCredit(t.orm, person, { manga: await buildManga(t.orm, { deleted }) }, held);
  for (let n = 0; n < (counts.novels ?? 0); n += 1)
    await buildCredit(t.orm, person, { novel: await buildNovel(t.orm, { deleted }) }, held);
}

/** A person with every field filled, 2 anime, 1 manga and 3 novel credits and 17 stored comments. */
async function fullPerson(slug = 'kentaro-miura'): Promise<Person> {
  const person = await buildPerson(t.orm, {
    slug,
    name_native: '三浦建太郎',
    name_ua: 'Кентаро Міура',
    name_en: 'Kentaro Miura',
    image: '/people/miura.jpg',
    description_ua: 'Японський манґака, автор «Берсерка».',
    synonyms: ['Miura', 'みうら'],
    comments_count: 17,
  });
  await credits(person, { anime: 2, manga: 1, novels: 3 });
  return person;
}

const FULL_BODY = {
  data_type: 'person',
  slug: 'kentaro-miura',
  name_native: '三浦建太郎',
  name_ua: 'Кентаро Міура',
  name_en: 'Kentaro Miura',
  image: 'https://cdn.test/people/miura.jpg',
  description_ua: 'Японський манґака, автор «Берсерка».',
  synonyms: ['Miura', 'みうら'],
  anime_count: 2,
  manga_count: 1,
  novel_count: 3,
  characters_count: 0,
  comments_count: 17,
};

describe('GET /people/{slug}', () => {
  describe('full record', () => {
    it('returns exactly every Person field plus the five counts, keys equal to PERSON_FULL', async () => {
      await fullPerson();

      const res = await getPerson('kentaro-miura');

      expect(res.status).toBe(200);
      expect(sortedKeys(res.body)).toEqual(keysOf(PERSON_FULL));
      expect(res.body).toEqual(FULL_BODY);
      expect(shapeProblems(res.body, PERSON_FULL, 'person')).toEqual([]);
    });

    it('serves absent values as null, no synonyms as [], and every count as 0 for a person without credits', async () => {
      await buildPerson(t.orm, {
        slug: 'bare',
        name_native: null,
        name_ua: null,
        name_en: null,
        image: null,
        description_ua: null,
        synonyms: [],
      });

      const res = await getPerson('bare');

      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data_type: 'person',
        slug: 'bare',
        name_native: null,
        name_ua: null,
        name_en: null,
        image: null,
        description_ua: null,
        synonyms: [],
        anime_count: 0,
        manga_count: 0,
        novel_count: 0,
        characters_count: 0,
        comments_count: 0,
      });
    });

    it.each([
      [
        'a path without a leading slash gets exactly one slash',
        'people/y.jpg',
        'https://cdn.test/people/y.jpg',
      ],
      ['an absolute URL passes through unchanged', 'https://img.example/z.png', 'https://img.example/z.png'],
    ])('image: %s', async (_name, stored, served) => {
      await buildPerson(t.orm, { slug: 'pictured', image: stored });
      const res = await getPerson('pictured');
      expect(res.status).toBe(200);
      expect(res.body.image).toBe(served);
    });
  });

  describe('counts', () => {
    it('counts credits on live titles of each kind, not deleted titles and not other people’s credits', async () => {
      const person = await buildPerson(t.orm, { slug: 'busy' });
      await credits(person, { anime: 3, manga: 2, novels: 1 });
      await credits(person, { anime: 2, manga: 1, novels: 4, deleted: true });
      const other = await buildPerson(t.orm, { slug: 'other' });
      await credits(other, { anime: 5, manga: 5, novels: 5 });

      const res = await getPerson('busy');

      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ anime_count: 3, manga_count: 2, novel_count: 1 });
      const theirs = await getPerson('other');
      expect(theirs.body).toMatchObject({ anime_count: 5, manga_count: 5, novel_count: 5 });
    });

    it('counts a credit once, however many roles it holds', async () => {
      const person = await buildPerson(t.orm, { slug: 'many-roles' });
      await credits(person, { anime: 1, manga: 2, novels: 1 }, 4);

      const res = await getPerson('many-roles');

      expect(res.body).toMatchObject({ anime_count: 1, manga_count: 2, novel_count: 1 });
    });

    it('is live: deleting a title drops its credit from the count', async () => {
      const person = await buildPerson(t.orm, { slug: 'live' });
      const anime = await buildAnime(t.orm);
      await buildCredit(t.orm, person, { anime }, [await buildRole(t.orm)]);
      await buildCredit(t.orm, person, { anime: await buildAnime(t.orm) }, [await buildRole(t.orm)]);
      expect((await getPerson('live')).body.anime_count).toBe(2);

      await t.orm.em.fork().nativeUpdate(Anime, { reference: anime.reference }, { deleted: true });

      expect((await getPerson('live')).body.anime_count).toBe(1);
    });

    it('keeps characters_count at 0: voice roles are not stored, character appearances are not voice roles', async () => {
      const person = await buildPerson(t.orm, { slug: 'voice', name_en: 'Voice' });
      await credits(person, { anime: 1 });
      const character = await buildCharacter(t.orm, { slug: 'voice' });
      await buildAppearance(t.orm, character, { anime: await buildAnime(t.orm) });

      const res = await getPerson('voice');

      expect(res.status).toBe(200);
      expect(res.body.characters_count).toBe(0);
      expect(res.body.anime_count).toBe(1);
    });

    it('serves comments_count as stored, not counted from the comment rows', async () => {
      const person = await buildPerson(t.orm, { slug: 'discussed', comments_count: 4 });
      const author = await buildUser(t.orm);
      await buildComment(t.orm, author, { type: 'person', reference: person.reference, slug: 'discussed' });

      const res = await getPerson('discussed');

      expect(res.status).toBe(200);
      expect(res.body.comments_count).toBe(4);
    });
  });

  describe('look-up', () => {
    it('lower-cases the slug: an upper-case path finds the lower-case person', async () => {
      await fullPerson();
      const res = await getPerson('Kentaro-MIURA');
      expect(res.status).toBe(200);
      expect(res.body).toEqual(FULL_BODY);
    });

    it('answers 404 person:not_found "Person not found" for an unknown slug', async () => {
      await buildPerson(t.orm, { slug: 'known' });
      const res = await getPerson('unknown');
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
    });

    it('answers the Ukrainian message when Accept-Language prefers uk', async () => {
      const res = await getPerson('unknown', { language: 'uk-UA,uk;q=0.9' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFoundUk);
    });

    it('never finds a title or a character with the same slug', async () => {
      await buildManga(t.orm, { slug: 'shared-slug' });
      await buildAnime(t.orm, { slug: 'shared-slug' });
      const character = await buildCharacter(t.orm, { slug: 'shared-slug' });
      await buildAppearance(t.orm, character, { novel: await buildNovel(t.orm) });
      const res = await getPerson('shared-slug');
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
    });

    it('finds a person without any credit (persons have no orphan rule)', async () => {
      await buildPerson(t.orm, { slug: 'uncredited' });
      const res = await getPerson('uncredited');
      expect(res.status).toBe(200);
      expect(res.body.slug).toBe('uncredited');
    });

    it('ignores query parameters (the route is not paged)', async () => {
      await fullPerson();
      const res = await getPerson('kentaro-miura?page=0&size=abc&foo=bar');
      expect(res.status).toBe(200);
      expect(res.body).toEqual(FULL_BODY);
    });
  });

  describe('authentication none: the token is never resolved', () => {
    beforeEach(() => fullPerson());

    const tokens = tokensToIgnore(t);

    it.each(tokens)('ignores %s, in the header and in the cookie, on both doors', async (_name, make) => {
      const token = await make();
      for (const options of [{ token }, { cookie: token }]) {
        const viaRest = await getPerson('kentaro-miura', options);
        expect(viaRest.status).toBe(200);
        expect(viaRest.body).toEqual(FULL_BODY);
        const viaGraphQL = await gql(t.app, route.document, { slug: 'kentaro-miura' }, options);
        expect(viaGraphQL.body.errors).toBeUndefined();
        expect(viaGraphQL.body.data.person).toEqual(FULL_BODY);
      }
    });

    it('sends no token look-up and has no side effects on a valid token (expiry not slid, use and activity not recorded)', async () => {
      const user = await buildUser(t.orm, { last_active: new Date('2024-01-01T00:00:00Z') });
      const expiration = new Date(Date.now() + 60 * 60 * 1000);
      const token = await buildToken(t.orm, user, { expiration });

      const anonymous = await t.queries.count(async () =>
        expect((await getPerson('kentaro-miura')).status).toBe(200),
      );
      const withToken = await t.queries.count(async () =>
        expect((await getPerson('kentaro-miura', { token })).status).toBe(200),
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
    it('equals data.person for the same slug, compiled and through the resolvers', async () => {
      await fullPerson();
      const other = await buildPerson(t.orm, { slug: 'bare', name_en: null, synonyms: [] });
      await credits(other, { novels: 1, manga: 1, deleted: true });

      for (const slug of ['KENTARO-miura', 'bare']) {
        const viaRest = await getPerson(slug);
        const viaGraphQL = await gql(t.app, route.document, { slug });
        const executed = await gql(t.app, executedDocument, { slug });

        expect(viaRest.status).toBe(200);
        expect(viaGraphQL.status).toBe(200);
        expect(viaGraphQL.body.errors).toBeUndefined();
        expect(viaGraphQL.body.data).toEqual({ person: viaRest.body });
        expect(executed.body.errors).toBeUndefined();
        expect(executed.body.data).toEqual({ __typename: 'Query', person: viaRest.body });
        // Key order is part of the JSON: both doors and both ways of answering agree.
        expect(JSON.stringify(viaGraphQL.body.data.person)).toBe(JSON.stringify(viaRest.body));
        expect(JSON.stringify((executed.body.data as Json).person)).toBe(JSON.stringify(viaRest.body));
      }
      expect((await getPerson('KENTARO-miura')).body).toEqual(FULL_BODY);
    });

    it.each([
      ['en', undefined, notFound],
      ['uk', 'uk', notFoundUk],
    ])(
      'reports the same not-found error (%s), compiled and through the resolvers',
      async (_l, language, body) => {
        await buildManga(t.orm, { slug: 'missing' });
        const options = language ? { language } : {};
        const viaRest = await getPerson('missing', options);
        expect(viaRest.status).toBe(404);
        expect(viaRest.body).toEqual(body);

        for (const document of [route.document, executedDocument]) {
          const viaGraphQL = await gql(t.app, document, { slug: 'missing' }, options);
          expect(viaGraphQL.body.errors).toHaveLength(1);
          expect(viaGraphQL.body.errors[0]).toMatchObject({
            message: body.message,
            path: ['person'],
            extensions: { code: 'person:not_found', http: { status: 404 } },
          });
          expect(viaGraphQL.body.data ?? null).toBeNull();
        }
      },
    );
  });

  describe('bounded SQL', () => {
    it('sends as many statements for 30 credits with 3 roles each (and deleted ones) as for none, on both doors', async () => {
      await buildPerson(t.orm, { slug: 'idle' });
      const busy = await buildPerson(t.orm, { slug: 'busy' });
      await credits(busy, { anime: 10, manga: 10, novels: 10 }, 3);
      await credits(busy, { anime: 3, manga: 3, novels: 3, deleted: true });

      const counted = async (call: (slug: string) => Promise<Json>) => ({
        idle: await t.queries.count(() => call('idle')),
        busy: await t.queries.count(() => call('busy')),
      });
      const viaRest = await counted(async (slug) => {
        const res = await getPerson(slug);
        expect(res.status).toBe(200);
        return res.body;
      });
      const viaGraphQL = await counted(async (slug) => {
        const res = await gql(t.app, route.document, { slug });
        expect(res.body.data.person.slug).toBe(slug);
        return res.body;
      });
      const executed = await counted(async (slug) => {
        const res = await gql(t.app, executedDocument, { slug });
        expect(res.body.data.person.anime_count).toBe(slug === 'busy' ? 10 : 0);
        return res.body;
      });

      for (const counts of [viaRest, viaGraphQL, executed]) {
        expect(counts.idle).toBeGreaterThan(0);
        expect(counts.busy).toBe(counts.idle);
      }
    });
  });
});
