import { AuthToken } from '../../src/accounts/auth-token.entity';
import type { Manga } from '../../src/catalog/manga.entity';
import type { ExternalLink } from '../../src/catalog/readable-title.entity';
import type { ReadStatus } from '../../src/common/enums';
import type { Person } from '../../src/people/person.entity';
import type { Role } from '../../src/people/role.entity';
import {
  buildCredit,
  buildFranchise,
  buildGenre,
  buildMagazine,
  buildManga,
  buildNovel,
  buildPerson,
  buildReadEntry,
  buildRole,
  buildToken,
  buildUser,
  linkTitle,
} from '../factories';
import { rest } from '../setup/clients';
import { keysOf, MANGA_FULL, PERSON } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { asList, asObject, seconds, sortedKeys } from '../setup/json';

/** #16 GET /manga/{slug}: the Manga full record, auth none. */
const t = useTestApp();

const getManga = (slug: string, options: { token?: string; language?: string } = {}) =>
  rest(t.app, 'GET', `/manga/${slug}`, undefined, options);

/** A manga with one author holding `rolesPerAuthor` roles, repeated `authors` times. */
async function mangaWithAuthors(slug: string, authors: number, rolesPerAuthor: number): Promise<Manga> {
  const manga = await buildManga(t.orm, { slug });
  for (let a = 0; a < authors; a += 1) {
    const person = await buildPerson(t.orm, { slug: `${slug}-person-${a}` });
    const roles: Role[] = [];
    for (let r = 0; r < rolesPerAuthor; r += 1) {
      roles.push(await buildRole(t.orm, { slug: `${slug}-role-${a}-${r}`, weight: r * 10 }));
    }
    await buildCredit(t.orm, person, { manga }, roles);
  }
  return manga;
}

describe('GET /manga/{slug} (#16)', () => {
  describe('full record', () => {
    it('returns exactly the contract fields with the stored scalar values, timestamps as integer seconds', async () => {
      const franchise = await buildFranchise(t.orm);
      await buildManga(t.orm, {
        slug: 'berserk',
        extcat_id: 2,
        title_original: 'ベルセルク',
        title_ua: 'Берсерк',
        title_en: 'Berserk',
        media_type: 'manga',
        status: 'ongoing',
        chapters: 374,
        volumes: 41,
        translated_ua: true,
        score: 9.47,
        scored_by: 345678,
        // native_score is derived: (12/22)·9 + (10/22)·C, with C = 0 while no list scores exist.
        native_scored_by: 12,
        native_score_total: 108,
        image: '/content/x.jpg',
        year: 1989,
        start_date: new Date('1989-08-25T10:20:30.999Z'),
        end_date: new Date('2021-09-10T00:00:00.500Z'),
        created: new Date('2023-05-06T07:08:09.750Z'),
        updated: new Date('2024-02-03T04:05:06.001Z'),
        synopsis_en: 'Guts, a former mercenary...',
        synopsis_ua: 'Ґатс, колишній найманець...',
        synonyms: ['Berserk: The Prototype', 'ベルセルク'],
        comments_count: 17,
        nsfw: true,
        franchise,
      });

      const res = await getManga('berserk');

      expect(res.status).toBe(200);
      expect(sortedKeys(res.body)).toEqual(keysOf(MANGA_FULL));
      expect(res.body).toMatchObject({
        data_type: 'manga',
        slug: 'berserk',
        extcat_id: 2,
        title_original: 'ベルセルク',
        title_ua: 'Берсерк',
        title_en: 'Berserk',
        media_type: 'manga',
        status: 'ongoing',
        chapters: 374,
        volumes: 41,
        translated_ua: true,
        score: 9.47,
        scored_by: 345678,
        native_score: 4.91,
        native_scored_by: 12,
        image: 'https://cdn.test/content/x.jpg',
        year: 1989,
        start_date: seconds('1989-08-25T10:20:30Z'),
        end_date: seconds('2021-09-10T00:00:00Z'),
        created: seconds('2023-05-06T07:08:09Z'),
        updated: seconds('2024-02-03T04:05:06Z'),
        synopsis_en: 'Guts, a former mercenary...',
        synopsis_ua: 'Ґатс, колишній найманець...',
        synonyms: ['Berserk: The Prototype', 'ベルセルク'],
        comments_count: 17,
        has_franchise: true,
        nsfw: true,
      });
      for (const key of ['start_date', 'end_date', 'created', 'updated']) {
        expect(Number.isInteger(res.body[key])).toBe(true);
      }
    });

    it('has no viewer-specific `read` key', async () => {
      await buildManga(t.orm, { slug: 'no-read' });
      const res = await getManga('no-read');
      expect(res.status).toBe(200);
      expect(res.body).not.toHaveProperty('read');
    });

    it('serves absent values as null, empty lists as [], zero stats and has_franchise/nsfw false', async () => {
      await buildManga(t.orm, {
        slug: 'bare',
        title_en: null,
        image: null,
        year: null,
        chapters: null,
        volumes: null,
        status: null,
        media_type: null,
        start_date: null,
        end_date: null,
        created: null,
        updated: null,
      });

      const res = await getManga('bare');

      expect(res.status).toBe(200);
      expect(sortedKeys(res.body)).toEqual(keysOf(MANGA_FULL));
      expect(res.body).toMatchObject({
        title_en: null,
        title_ua: null,
        title_original: null,
        image: null,
        year: null,
        chapters: null,
        volumes: null,
        status: null,
        media_type: null,
        start_date: null,
        end_date: null,
        created: null,
        updated: null,
        synopsis_en: null,
        synopsis_ua: null,
        synonyms: [],
        authors: [],
        magazines: [],
        external: [],
        genres: [],
        comments_count: 0,
        has_franchise: false,
        nsfw: false,
        translated_ua: false,
      });
      expect(Object.values(asObject(res.body.stats))).toEqual(Array(15).fill(0));
    });
  });

  describe('images', () => {
    it.each([
      ['a stored path is joined to IMAGE_BASE_URL', '/content/x.jpg', 'https://cdn.test/content/x.jpg'],
      [
        'a path without a leading slash gets exactly one slash',
        'content/y.jpg',
        'https://cdn.test/content/y.jpg',
      ],
      [
        'an absolute URL passes through unchanged',
        'https://elsewhere.example/z.png',
        'https://elsewhere.example/z.png',
      ],
      ['no image stays null', null, null],
    ])('%s', async (_name, stored, served) => {
      await buildManga(t.orm, { slug: 'pictured', image: stored });
      const res = await getManga('pictured');
      expect(res.status).toBe(200);
      expect(res.body.image).toBe(served);
    });
  });

  describe('authors', () => {
    it('orders roles by weight desc (nulls last, then slug) and authors by top role weight desc (nulls last, then person slug)', async () => {
      const manga = await buildManga(t.orm, { slug: 'credited' });
      const role = (slug: string, weight: number | null) =>
        buildRole(t.orm, { slug, weight, name_en: `EN ${slug}`, name_ua: `UA ${slug}` });
      const story = await role('story', 20);
      const art = await role('art', null);
      const assist = await role('assist', 5);
      const tieB = await role('tie-b', 10);
      const tieA = await role('tie-a', 10);
      const lead = await role('lead', 30);
      const extra = await role('extra', 20);
      const guest = await role('guest', null);
      const alsoNull = await role('also-null', null);

      const person = (slug: string) => buildPerson(t.orm, { slug, name_en: `Name ${slug}` });
      // p-b and p-a tie on their top weight (20): person slug decides.
      await buildCredit(t.orm, await person('p-b'), { manga }, [art, assist, story, tieB, tieA]);
      await buildCredit(t.orm, await person('p-a'), { manga }, [extra]);
      // Only null weights: last, although its slug sorts first.
      await buildCredit(t.orm, await person('p-0'), { manga }, [guest, alsoNull]);
      await buildCredit(t.orm, await person('p-z'), { manga }, [lead]);
      // A credit on another title never shows.
      await buildCredit(t.orm, await person('p-other'), { manga: await buildManga(t.orm) }, [lead]);

      const res = await getManga('credited');

      expect(res.status).toBe(200);
      const authors = asList(res.body.authors);
      expect(authors.map((a) => asObject(a.person).slug)).toEqual(['p-z', 'p-a', 'p-b', 'p-0']);
      const rolesOf = (index: number) => asList(authors[index].roles).map((r) => r.slug);
      expect(rolesOf(2)).toEqual(['story', 'tie-a', 'tie-b', 'assist', 'art']);
      expect(rolesOf(3)).toEqual(['also-null', 'guest']);
      expect(asList(authors[0].roles)).toEqual([
        { name_ua: 'UA lead', name_en: 'EN lead', slug: 'lead', weight: 30 },
      ]);
      expect(asList(authors[3].roles)[0]).toEqual({
        name_ua: 'UA also-null',
        name_en: 'EN also-null',
        slug: 'also-null',
        weight: null,
      });
      for (const author of authors) expect(sortedKeys(author)).toEqual(['person', 'roles']);
    });

    it('serves each author as a contract Person', async () => {
      const manga = await buildManga(t.orm, { slug: 'with-person' });
      const person: Person = await buildPerson(t.orm, {
        slug: 'kentaro-miura',
        name_native: '三浦建太郎',
        name_ua: 'Кентаро Міура',
        name_en: 'Kentaro Miura',
        image: '/people/miura.jpg',
        description_ua: 'Манґака',
        synonyms: ['Miura'],
      });
      await buildCredit(t.orm, person, { manga }, [await buildRole(t.orm, { slug: 'story-and-art' })]);

      const res = await getManga('with-person');

      const [author] = asList(res.body.authors);
      expect(sortedKeys(asObject(author.person))).toEqual(keysOf(PERSON));
      expect(author.person).toEqual({
        data_type: 'person',
        name_native: '三浦建太郎',
        name_ua: 'Кентаро Міура',
        name_en: 'Kentaro Miura',
        image: 'https://cdn.test/people/miura.jpg',
        slug: 'kentaro-miura',
        description_ua: 'Манґака',
        synonyms: ['Miura'],
      });
    });
  });

  describe('magazines, genres and external links', () => {
    it('lists magazines as {name_en, slug} by slug', async () => {
      const manga = await buildManga(t.orm, { slug: 'serialized' });
      const b = await buildMagazine(t.orm, { slug: 'mag-b', name_en: 'Young Animal' });
      const a = await buildMagazine(t.orm, { slug: 'mag-a', name_en: 'Animal House' });
      const c = await buildMagazine(t.orm, { slug: 'mag-c', name_en: 'Jump' });
      await linkTitle(t.orm, manga, { magazines: [c, b, a] });
      await linkTitle(t.orm, await buildManga(t.orm), {
        magazines: [await buildMagazine(t.orm, { slug: 'mag-0' })],
      });

      const res = await getManga('serialized');

      expect(res.body.magazines).toEqual([
        { name_en: 'Animal House', slug: 'mag-a' },
        { name_en: 'Young Animal', slug: 'mag-b' },
        { name_en: 'Jump', slug: 'mag-c' },
      ]);
    });

    it('lists genres as {name_ua, name_en, slug, type} by slug', async () => {
      const manga = await buildManga(t.orm, { slug: 'genred' });
      const drama = await buildGenre(t.orm, {
        slug: 'drama',
        name_en: 'Drama',
        name_ua: 'Драма',
        type: 'genre',
      });
      const seinen = await buildGenre(t.orm, {
        slug: 'seinen',
        name_en: 'Seinen',
        name_ua: null,
        type: 'demographic',
      });
      const action = await buildGenre(t.orm, {
        slug: 'action',
        name_en: 'Action',
        name_ua: 'Екшн',
        type: 'genre',
      });
      const gore = await buildGenre(t.orm, {
        slug: 'gore',
        name_en: 'Gore',
        name_ua: 'Жорстокість',
        type: 'theme',
      });
      await linkTitle(t.orm, manga, { genres: [seinen, gore, drama, action] });
      await linkTitle(t.orm, await buildManga(t.orm), { genres: [await buildGenre(t.orm, { slug: 'aaa' })] });

      const res = await getManga('genred');

      expect(res.body.genres).toEqual([
        { name_ua: 'Екшн', name_en: 'Action', slug: 'action', type: 'genre' },
        { name_ua: 'Драма', name_en: 'Drama', slug: 'drama', type: 'genre' },
        { name_ua: 'Жорстокість', name_en: 'Gore', slug: 'gore', type: 'theme' },
        { name_ua: null, name_en: 'Seinen', slug: 'seinen', type: 'demographic' },
      ]);
    });

    it('shows general links in stored order, then read links with Dengeki first, and omits other types', async () => {
      const link = (type: ExternalLink['type'], text: string): ExternalLink => ({
        type,
        text,
        url: `https://links.example/${text.toLowerCase()}`,
      });
      await buildManga(t.orm, {
        slug: 'linked',
        external: [
          link('read', 'MangaDex'),
          link('general', 'Official'),
          link('watch', 'Crunchyroll'),
          link('read', 'Dengeki'),
          link('general', 'Wiki'),
          link('read', 'Other'),
          link('watch', 'Netflix'),
          link('general', 'Twitter'),
        ],
      });

      const res = await getManga('linked');

      expect(res.body.external).toEqual([
        link('general', 'Official'),
        link('general', 'Wiki'),
        link('general', 'Twitter'),
        link('read', 'Dengeki'),
        link('read', 'MangaDex'),
        link('read', 'Other'),
      ]);
    });
  });

  describe('stats', () => {
    it('counts read entries by status and by score 1..10, not counting score 0 or other titles', async () => {
      const manga = await buildManga(t.orm, { slug: 'popular' });
      const other = await buildManga(t.orm);
      const novel = await buildNovel(t.orm);
      const entries: [ReadStatus, number][] = [
        ['completed', 10],
        ['completed', 0],
        ['reading', 7],
        ['reading', 7],
        ['reading', 1],
        ['on_hold', 0],
        ['dropped', 3],
        ['planned', 0],
        ['planned', 0],
      ];
      for (const [status, score] of entries) {
        const user = await buildUser(t.orm);
        await buildReadEntry(t.orm, user, { manga }, { status, score });
        await buildReadEntry(t.orm, user, { manga: other }, { status: 'completed', score: 5 });
        await buildReadEntry(t.orm, user, { novel }, { status: 'dropped', score: 2 });
      }

      const res = await getManga('popular');

      expect(res.status).toBe(200);
      expect(res.body.stats).toEqual({
        completed: 2,
        reading: 3,
        on_hold: 1,
        dropped: 1,
        planned: 2,
        score_1: 1,
        score_2: 0,
        score_3: 1,
        score_4: 0,
        score_5: 0,
        score_6: 0,
        score_7: 2,
        score_8: 0,
        score_9: 0,
        score_10: 1,
      });
    });
  });

  describe('look-up', () => {
    it('lower-cases the slug: an upper-case path finds the lower-case manga', async () => {
      await buildManga(t.orm, { slug: 'one-piece' });
      const res = await getManga('ONE-Piece');
      expect(res.status).toBe(200);
      expect(res.body.slug).toBe('one-piece');
    });

    it('answers 404 manga:not_found "Manga not found" for a deleted manga', async () => {
      await buildManga(t.orm, { slug: 'gone', deleted: true });
      const res = await getManga('gone');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Manga not found', code: 'manga:not_found' });
    });

    it('answers the Ukrainian message when Accept-Language prefers uk', async () => {
      await buildManga(t.orm, { slug: 'gone', deleted: true });
      const res = await getManga('gone', { language: 'uk-UA,uk;q=0.9' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Манґа не знайдена', code: 'manga:not_found' });
    });

    it('answers 404 manga:not_found for an unknown slug', async () => {
      await buildManga(t.orm, { slug: 'known' });
      const res = await getManga('unknown');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Manga not found', code: 'manga:not_found' });
    });

    it('ignores query parameters (the route is not paged)', async () => {
      await buildManga(t.orm, { slug: 'queried' });
      const res = await getManga('queried?page=0&size=abc&foo=bar');
      expect(res.status).toBe(200);
      expect(res.body.slug).toBe('queried');
    });

    it('never finds a novel with the same slug', async () => {
      await buildNovel(t.orm, { slug: 'shared-slug' });
      const res = await getManga('shared-slug');
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('manga:not_found');
    });
  });

  describe('authentication none: the token is never resolved', () => {
    beforeEach(() => buildManga(t.orm, { slug: 'public' }));

    it('ignores an unknown token', async () => {
      const res = await getManga('public', { token: 'not-a-token' });
      expect(res.status).toBe(200);
      expect(res.body).not.toHaveProperty('read');
    });

    it('ignores an expired token', async () => {
      const user = await buildUser(t.orm);
      const token = await buildToken(t.orm, user, { expiration: new Date(Date.now() - 60_000) });
      const res = await getManga('public', { token });
      expect(res.status).toBe(200);
    });

    it("ignores a deleted account's token (no user:deleted)", async () => {
      const user = await buildUser(t.orm, { role: 'deleted' });
      const token = await buildToken(t.orm, user);
      const res = await getManga('public', { token });
      expect(res.status).toBe(200);
      expect(res.body.slug).toBe('public');
    });

    it('has no side effects on a valid token (expiry not slid, use not recorded)', async () => {
      const user = await buildUser(t.orm);
      const expiration = new Date(Date.now() + 60 * 60 * 1000);
      const token = await buildToken(t.orm, user, { expiration });

      const res = await getManga('public', { token });

      expect(res.status).toBe(200);
      const stored = await t.orm.em.fork().findOneOrFail(AuthToken, { user: user.reference });
      expect(stored.used).toBeNull();
      expect(stored.expiration.getTime()).toBe(expiration.getTime());
    });
  });

  describe('bounded SQL', () => {
    it('sends as many statements for 10 authors with 3 roles each as for 1 author with 1 role', async () => {
      await mangaWithAuthors('small', 1, 1);
      await mangaWithAuthors('large', 10, 3);
      const tags = await Promise.all([1, 2, 3].map((n) => buildGenre(t.orm, { slug: `tag-${n}` })));
      const manga = await t.orm.em.fork().findOneOrFail('Manga', { slug: 'large' });
      await linkTitle(t.orm, manga as Manga, { genres: tags });

      const small = await t.queries.count(async () => expect((await getManga('small')).status).toBe(200));
      const large = await t.queries.count(async () => {
        const res = await getManga('large');
        expect(res.status).toBe(200);
        expect(asList(res.body.authors)).toHaveLength(10);
      });

      expect(small).toBeGreaterThan(0);
      expect(large).toBe(small);
    });
  });
});
