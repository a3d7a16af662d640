import { AuthToken } from '../../src/accounts/auth-token.entity';
import type { Novel } from '../../src/catalog/novel.entity';
import type { ExternalLink } from '../../src/catalog/readable-title.entity';
import type { ReadStatus, ReviewRecommendation } from '../../src/common/enums';
import type { Role } from '../../src/people/role.entity';
import { restRoutes } from '../../src/routes';
import { buildComment, recount } from '../comments/helpers';
import {
  buildAnime,
  buildCredit,
  buildFranchise,
  buildGenre,
  buildMagazine,
  buildManga,
  buildNovel,
  buildPerson,
  buildReadEntry,
  buildRole,
  buildThirdPartyToken,
  buildToken,
  buildUser,
  linkTitle,
} from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { keysOf, NOVEL_FULL, PERSON, shapeProblems } from '../setup/contract-shapes';
import { useTestApp } from '../setup/harness';
import { asList, asObject, type Json, seconds, sortedKeys } from '../setup/json';

/** GET /novel/{slug} (GraphQL `novel(slug)`): the Novel full record, auth none (pages.md). */
const t = useTestApp();

const route = restRoutes.find((r) => r.path === '/novel/{slug}' && r.method === 'GET')!;

/**
 * The route's document with `__typename` added to the operation's root selection set:
 * a document with a root `__typename` is never compiled, so the resolvers answer it.
 */
const resolverDocument = route.document.replace(/(query Novel\(\$slug: String!\)\s*\{)/, '$1 __typename');

const getNovel = (slug: string, options: CallOptions = {}) =>
  rest(t.app, 'GET', `/novel/${slug}`, undefined, options);

const link = (type: ExternalLink['type'], text: string): ExternalLink => ({
  type,
  text,
  url: `https://links.example/${text.toLowerCase()}`,
});

/** Links of every type, interleaved, with a `read` Dengeki link that manga would move forward. */
const MIXED_LINKS: ExternalLink[] = [
  link('read', 'MangaDex'),
  link('watch', 'Crunchyroll'),
  link('general', 'Official'),
  link('read', 'Dengeki'),
  link('general', 'Wiki'),
  link('watch', 'Netflix'),
];

const ZERO_STATS = {
  completed: 0,
  reading: 0,
  on_hold: 0,
  dropped: 0,
  planned: 0,
  score_1: 0,
  score_2: 0,
  score_3: 0,
  score_4: 0,
  score_5: 0,
  score_6: 0,
  score_7: 0,
  score_8: 0,
  score_9: 0,
  score_10: 0,
};

const onNovel = (novel: Novel) => ({ type: 'novel' as const, reference: novel.reference, slug: novel.slug });

/** A novel with every field of the full record filled: one author, magazine, genre, link, entry and review each (or more). */
async function filledNovel(): Promise<Novel> {
  const franchise = await buildFranchise(t.orm);
  const novel = await buildNovel(t.orm, {
    slug: 'mushoku-tensei',
    extcat_id: 7,
    title_original: '無職転生',
    title_ua: 'Реінкарнація безробітного',
    title_en: 'Mushoku Tensei: Jobless Reincarnation',
    media_type: 'light_novel',
    status: 'finished',
    chapters: 286,
    volumes: 26,
    translated_ua: true,
    score: 8.61,
    scored_by: 23456,
    // native_score is derived: (20/30)·(170/20) + (10/30)·C, with C = 0 while the baseline is empty.
    native_scored_by: 20,
    native_score_total: 170,
    image: '/novels/mushoku.jpg',
    year: 2014,
    start_date: new Date('2014-01-23T10:20:30.999Z'),
    end_date: new Date('2022-11-25T00:00:00.500Z'),
    created: new Date('2023-05-06T07:08:09.750Z'),
    updated: new Date('2024-02-03T04:05:06.001Z'),
    synopsis_en: 'A 34-year-old NEET is reborn...',
    synopsis_ua: 'Тридцятичотирирічний безробітний перероджується...',
    synonyms: ['Jobless Reincarnation', '無職転生 ～異世界行ったら本気だす～'],
    nsfw: true,
    franchise,
    external: [link('read', 'Dengeki'), link('watch', 'Crunchyroll'), link('general', 'Official')],
  });
  const person = await buildPerson(t.orm, {
    slug: 'rifujin-na-magonote',
    name_native: '理不尽な孫の手',
    name_ua: 'Ріфудзін на Маґоноте',
    name_en: 'Rifujin na Magonote',
    image: '/people/rifujin.jpg',
    description_ua: 'Письменник',
    synonyms: ['Magonote'],
  });
  const story = await buildRole(t.orm, { slug: 'story', name_en: 'Story', name_ua: 'Сюжет', weight: 20 });
  const art = await buildRole(t.orm, { slug: 'art', name_en: 'Art', name_ua: 'Малюнок', weight: 5 });
  await buildCredit(t.orm, person, { novel }, [art, story]);
  await linkTitle(t.orm, novel, {
    magazines: [await buildMagazine(t.orm, { slug: 'mf-books', name_en: 'MF Books' })],
    genres: [
      await buildGenre(t.orm, { slug: 'fantasy', name_en: 'Fantasy', name_ua: 'Фентезі', type: 'genre' }),
      await buildGenre(t.orm, { slug: 'isekai', name_en: 'Isekai', name_ua: 'Ісекай', type: 'theme' }),
    ],
  });
  const reader = await buildUser(t.orm);
  await buildReadEntry(t.orm, reader, { novel }, { status: 'completed', score: 9 });
  await buildReadEntry(t.orm, await buildUser(t.orm), { novel }, { status: 'reading', score: 0 });
  await buildComment(t.orm, reader, onNovel(novel), { review_recommendation: 'yes' });
  await buildComment(t.orm, reader, onNovel(novel), { review_recommendation: 'maybe' });
  await buildComment(t.orm, reader, onNovel(novel));
  await recount(t.orm);
  return novel;
}

/** The exact full record of {@link filledNovel}. */
const FILLED_RECORD = {
  data_type: 'novel',
  slug: 'mushoku-tensei',
  extcat_id: 7,
  title_original: '無職転生',
  title_ua: 'Реінкарнація безробітного',
  title_en: 'Mushoku Tensei: Jobless Reincarnation',
  media_type: 'light_novel',
  status: 'finished',
  chapters: 286,
  volumes: 26,
  translated_ua: true,
  score: 8.61,
  scored_by: 23456,
  native_score: 5.67,
  native_scored_by: 20,
  image: 'https://cdn.test/novels/mushoku.jpg',
  year: 2014,
  start_date: seconds('2014-01-23T10:20:30Z'),
  end_date: seconds('2022-11-25T00:00:00Z'),
  created: seconds('2023-05-06T07:08:09Z'),
  updated: seconds('2024-02-03T04:05:06Z'),
  authors: [
    {
      roles: [
        { name_ua: 'Сюжет', name_en: 'Story', slug: 'story', weight: 20 },
        { name_ua: 'Малюнок', name_en: 'Art', slug: 'art', weight: 5 },
      ],
      person: {
        data_type: 'person',
        name_native: '理不尽な孫の手',
        name_ua: 'Ріфудзін на Маґоноте',
        name_en: 'Rifujin na Magonote',
        image: 'https://cdn.test/people/rifujin.jpg',
        slug: 'rifujin-na-magonote',
        description_ua: 'Письменник',
        synonyms: ['Magonote'],
      },
    },
  ],
  magazines: [{ name_en: 'MF Books', slug: 'mf-books' }],
  external: [link('read', 'Dengeki'), link('watch', 'Crunchyroll'), link('general', 'Official')],
  genres: [
    { name_ua: 'Фентезі', name_en: 'Fantasy', slug: 'fantasy', type: 'genre' },
    { name_ua: 'Ісекай', name_en: 'Isekai', slug: 'isekai', type: 'theme' },
  ],
  stats: { ...ZERO_STATS, completed: 1, reading: 1, score_9: 1 },
  synopsis_en: 'A 34-year-old NEET is reborn...',
  synopsis_ua: 'Тридцятичотирирічний безробітний перероджується...',
  synonyms: ['Jobless Reincarnation', '無職転生 ～異世界行ったら本気だす～'],
  comments_count: 3,
  has_franchise: true,
  nsfw: true,
  review_stats: { yes: 1, no: 0, maybe: 1 },
};

/** A novel with `authors` people holding `rolesPerAuthor` roles each, and as many of every other related row. */
async function crowdedNovel(slug: string, size: number): Promise<Novel> {
  const novel = await buildNovel(t.orm, {
    slug,
    external: Array.from({ length: size }, (_, n) => link(n % 2 ? 'read' : 'watch', `${slug}-link-${n}`)),
  });
  for (let a = 0; a < size; a += 1) {
    const person = await buildPerson(t.orm, { slug: `${slug}-person-${a}` });
    const roles: Role[] = [];
    for (let r = 0; r < 3; r += 1) {
      roles.push(await buildRole(t.orm, { slug: `${slug}-role-${a}-${r}`, weight: r === 0 ? null : r * 10 }));
    }
    await buildCredit(t.orm, person, { novel }, roles);
  }
  const genres = [];
  const magazines = [];
  for (let n = 0; n < size; n += 1) {
    genres.push(await buildGenre(t.orm, { slug: `${slug}-genre-${n}` }));
    magazines.push(await buildMagazine(t.orm, { slug: `${slug}-magazine-${n}` }));
  }
  await linkTitle(t.orm, novel, { genres, magazines });
  const recommendations: ReviewRecommendation[] = ['yes', 'no', 'maybe'];
  for (let n = 0; n < size; n += 1) {
    const user = await buildUser(t.orm);
    await buildReadEntry(t.orm, user, { novel }, { status: 'completed', score: (n % 10) + 1 });
    await buildComment(t.orm, user, onNovel(novel), { review_recommendation: recommendations[n % 3] });
    await buildComment(t.orm, user, onNovel(novel));
  }
  await recount(t.orm);
  return novel;
}

describe('GET /novel/{slug}', () => {
  describe('full record', () => {
    it('returns exactly the contract fields with the stored values, timestamps as integer seconds', async () => {
      await filledNovel();

      const res = await getNovel('mushoku-tensei');

      expect(res.status).toBe(200);
      expect(sortedKeys(res.body)).toEqual(keysOf(NOVEL_FULL));
      expect(shapeProblems(res.body, NOVEL_FULL, 'novel')).toEqual([]);
      expect(res.body).toEqual(FILLED_RECORD);
      for (const key of ['start_date', 'end_date', 'created', 'updated']) {
        expect(Number.isInteger(res.body[key])).toBe(true);
      }
    });

    it('has no viewer-specific `read` key and no `reference`', async () => {
      await buildNovel(t.orm, { slug: 'no-read' });
      const res = await getNovel('no-read');
      expect(res.status).toBe(200);
      expect(res.body).not.toHaveProperty('read');
      expect(res.body).not.toHaveProperty('reference');
    });

    it('serves absent values as null, empty lists as [], zero stats and review_stats, has_franchise/nsfw false', async () => {
      await buildNovel(t.orm, {
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

      const res = await getNovel('bare');

      expect(res.status).toBe(200);
      expect(sortedKeys(res.body)).toEqual(keysOf(NOVEL_FULL));
      expect(res.body).toEqual({
        data_type: 'novel',
        slug: 'bare',
        extcat_id: expect.any(Number),
        title_original: null,
        title_ua: null,
        title_en: null,
        media_type: null,
        status: null,
        chapters: null,
        volumes: null,
        translated_ua: false,
        score: 7,
        scored_by: 100,
        native_score: 0,
        native_scored_by: 0,
        image: null,
        year: null,
        start_date: null,
        end_date: null,
        created: null,
        updated: null,
        authors: [],
        magazines: [],
        external: [],
        genres: [],
        stats: ZERO_STATS,
        synopsis_en: null,
        synopsis_ua: null,
        synonyms: [],
        comments_count: 0,
        has_franchise: false,
        nsfw: false,
        review_stats: { yes: 0, no: 0, maybe: 0 },
      });
    });

    it('serves the media type `novel` and an absolute image URL as stored', async () => {
      await buildNovel(t.orm, {
        slug: 'web-novel',
        media_type: 'novel',
        image: 'https://elsewhere.example/z.png',
      });
      const res = await getNovel('web-novel');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ media_type: 'novel', image: 'https://elsewhere.example/z.png' });
    });
  });

  describe('authors', () => {
    it('orders roles by weight desc (nulls last, then slug) and authors by top role weight desc (nulls last, then person slug)', async () => {
      const novel = await buildNovel(t.orm, { slug: 'credited' });
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
      await buildCredit(t.orm, await person('p-b'), { novel }, [art, assist, story, tieB, tieA]);
      await buildCredit(t.orm, await person('p-a'), { novel }, [extra]);
      // Only null weights: last, although its slug sorts first.
      await buildCredit(t.orm, await person('p-0'), { novel }, [guest, alsoNull]);
      await buildCredit(t.orm, await person('p-z'), { novel }, [lead]);
      // Credits on another novel, a manga or an anime never show.
      await buildCredit(t.orm, await person('p-other-novel'), { novel: await buildNovel(t.orm) }, [lead]);
      await buildCredit(t.orm, await person('p-manga'), { manga: await buildManga(t.orm) }, [lead]);
      await buildCredit(t.orm, await person('p-anime'), { anime: await buildAnime(t.orm) }, [lead]);

      const res = await getNovel('credited');

      expect(res.status).toBe(200);
      const authors = asList(res.body.authors);
      expect(authors.map((a) => asObject(a.person).slug)).toEqual(['p-z', 'p-a', 'p-b', 'p-0']);
      const rolesOf = (index: number) => asList(authors[index].roles).map((r) => r.slug);
      expect(rolesOf(0)).toEqual(['lead']);
      expect(rolesOf(1)).toEqual(['extra']);
      expect(rolesOf(2)).toEqual(['story', 'tie-a', 'tie-b', 'assist', 'art']);
      expect(rolesOf(3)).toEqual(['also-null', 'guest']);
      expect(asList(authors[3].roles)[0]).toEqual({
        name_ua: 'UA also-null',
        name_en: 'EN also-null',
        slug: 'also-null',
        weight: null,
      });
      for (const author of authors) {
        expect(sortedKeys(author)).toEqual(['person', 'roles']);
        expect(sortedKeys(asObject(author.person))).toEqual(keysOf(PERSON));
      }
    });

    it("orders by the highest role weight, not by the sum of the author's weights", async () => {
      const novel = await buildNovel(t.orm, { slug: 'weighed' });
      const many = await Promise.all([15, 15, 15].map((weight) => buildRole(t.orm, { weight })));
      const single = await buildRole(t.orm, { weight: 25 });
      await buildCredit(t.orm, await buildPerson(t.orm, { slug: 'a-many-small' }), { novel }, many);
      await buildCredit(t.orm, await buildPerson(t.orm, { slug: 'b-one-big' }), { novel }, [single]);

      const res = await getNovel('weighed');

      expect(asList(res.body.authors).map((a) => asObject(a.person).slug)).toEqual([
        'b-one-big',
        'a-many-small',
      ]);
    });
  });

  describe('magazines and genres', () => {
    it('lists magazines as {name_en, slug} by slug, only those of this novel', async () => {
      const novel = await buildNovel(t.orm, { slug: 'serialized' });
      const b = await buildMagazine(t.orm, { slug: 'mag-b', name_en: 'Dengeki Bunko' });
      const a = await buildMagazine(t.orm, { slug: 'mag-a', name_en: 'Kadokawa' });
      const c = await buildMagazine(t.orm, { slug: 'mag-c', name_en: 'Another' });
      await linkTitle(t.orm, novel, { magazines: [c, b, a] });
      const other = await buildMagazine(t.orm, { slug: 'mag-0' });
      await linkTitle(t.orm, await buildNovel(t.orm), { magazines: [other] });
      await linkTitle(t.orm, await buildManga(t.orm), { magazines: [other] });

      const res = await getNovel('serialized');

      expect(res.body.magazines).toEqual([
        { name_en: 'Kadokawa', slug: 'mag-a' },
        { name_en: 'Dengeki Bunko', slug: 'mag-b' },
        { name_en: 'Another', slug: 'mag-c' },
      ]);
    });

    it('lists genres as {name_ua, name_en, slug, type} by slug, only those of this novel', async () => {
      const novel = await buildNovel(t.orm, { slug: 'genred' });
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
      const ecchi = await buildGenre(t.orm, {
        slug: 'ecchi',
        name_en: 'Ecchi',
        name_ua: 'Еччі',
        type: 'explicit',
      });
      await linkTitle(t.orm, novel, { genres: [seinen, ecchi, drama, action] });
      const aaa = await buildGenre(t.orm, { slug: 'aaa' });
      await linkTitle(t.orm, await buildNovel(t.orm), { genres: [aaa] });
      await linkTitle(t.orm, await buildManga(t.orm), { genres: [aaa] });

      const res = await getNovel('genred');

      expect(res.body.genres).toEqual([
        { name_ua: 'Екшн', name_en: 'Action', slug: 'action', type: 'genre' },
        { name_ua: 'Драма', name_en: 'Drama', slug: 'drama', type: 'genre' },
        { name_ua: 'Еччі', name_en: 'Ecchi', slug: 'ecchi', type: 'explicit' },
        { name_ua: null, name_en: 'Seinen', slug: 'seinen', type: 'demographic' },
      ]);
    });
  });

  describe('external links', () => {
    it('lists every stored link in stored order, watch links included', async () => {
      await buildNovel(t.orm, { slug: 'linked', external: MIXED_LINKS });

      const res = await getNovel('linked');

      expect(res.status).toBe(200);
      expect(res.body.external).toEqual(MIXED_LINKS);
    });

    it('differs from a manga with the same links, which reorders them and drops watch links', async () => {
      await buildNovel(t.orm, { slug: 'linked-novel', external: MIXED_LINKS });
      await buildManga(t.orm, { slug: 'linked-manga', external: MIXED_LINKS });

      const novel = await getNovel('linked-novel');
      const manga = await rest(t.app, 'GET', '/manga/linked-manga');

      expect(manga.body.external).toEqual([
        link('general', 'Official'),
        link('general', 'Wiki'),
        link('read', 'Dengeki'),
        link('read', 'MangaDex'),
      ]);
      expect(novel.body.external).toEqual(MIXED_LINKS);
    });

    it('keeps a stored order that no rule would give (watch first, general last)', async () => {
      const links = [
        link('watch', 'Zeta'),
        link('read', 'Alpha'),
        link('general', 'Beta'),
        link('watch', 'Alpha'),
      ];
      await buildNovel(t.orm, { slug: 'odd-order', external: links });
      const res = await getNovel('odd-order');
      expect(res.body.external).toEqual(links);
    });
  });

  describe('stats', () => {
    it('counts read entries of this novel by status and by score 1..10, not counting score 0, manga or other novels', async () => {
      const novel = await buildNovel(t.orm, { slug: 'popular' });
      const other = await buildNovel(t.orm);
      const manga = await buildManga(t.orm);
      const entries: [ReadStatus, number][] = [
        ['completed', 10],
        ['completed', 0],
        ['reading', 7],
        ['reading', 7],
        ['reading', 1],
        ['on_hold', 0],
        ['on_hold', 4],
        ['dropped', 3],
        ['planned', 0],
        ['planned', 0],
      ];
      for (const [status, score] of entries) {
        const user = await buildUser(t.orm);
        await buildReadEntry(t.orm, user, { novel }, { status, score });
        await buildReadEntry(t.orm, user, { novel: other }, { status: 'completed', score: 5 });
        await buildReadEntry(t.orm, user, { manga }, { status: 'dropped', score: 2 });
      }

      const res = await getNovel('popular');

      expect(res.status).toBe(200);
      expect(res.body.stats).toEqual({
        completed: 2,
        reading: 3,
        on_hold: 2,
        dropped: 1,
        planned: 2,
        score_1: 1,
        score_2: 0,
        score_3: 1,
        score_4: 1,
        score_5: 0,
        score_6: 0,
        score_7: 2,
        score_8: 0,
        score_9: 0,
        score_10: 1,
      });
    });
  });

  describe('review_stats', () => {
    it('counts the live reviews of this novel by recommendation; hidden, deleted, plain comments and other content not counted', async () => {
      const novel = await buildNovel(t.orm, { slug: 'reviewed' });
      const author = await buildUser(t.orm);
      const review = (
        on: { type: 'novel' | 'manga' | 'anime'; reference: string },
        o: Parameters<typeof buildComment>[3],
      ) => buildComment(t.orm, author, on, o);
      for (const recommendation of ['yes', 'yes', 'no', 'maybe', 'maybe', 'maybe'] as const) {
        await review(onNovel(novel), { review_recommendation: recommendation });
      }
      await review(onNovel(novel), { review_recommendation: 'yes', hidden: true });
      await review(onNovel(novel), { review_recommendation: 'no', deleted: true });
      await review(onNovel(novel), { review_recommendation: 'maybe', hidden: true, deleted: true });
      await review(onNovel(novel), {});
      await review(onNovel(novel), {});
      await review(onNovel(await buildNovel(t.orm)), { review_recommendation: 'no' });
      await review(
        { type: 'manga', reference: (await buildManga(t.orm)).reference },
        { review_recommendation: 'no' },
      );
      await review(
        { type: 'anime', reference: (await buildAnime(t.orm)).reference },
        { review_recommendation: 'no' },
      );
      await recount(t.orm);

      const res = await getNovel('reviewed');

      expect(res.status).toBe(200);
      expect(res.body.review_stats).toEqual({ yes: 2, no: 1, maybe: 3 });
      // comments_count counts every live comment, reviews and plain ones alike.
      expect(res.body.comments_count).toBe(8);
    });

    it('is all zeros for a novel with only plain comments', async () => {
      const novel = await buildNovel(t.orm, { slug: 'chatty' });
      await buildComment(t.orm, await buildUser(t.orm), onNovel(novel));
      await recount(t.orm);

      const res = await getNovel('chatty');

      expect(res.body.review_stats).toEqual({ yes: 0, no: 0, maybe: 0 });
      expect(res.body.comments_count).toBe(1);
    });
  });

  describe('look-up', () => {
    it('lower-cases the slug: an upper-case path finds the lower-case novel', async () => {
      await buildNovel(t.orm, { slug: 'overlord' });
      const res = await getNovel('OverLORD');
      expect(res.status).toBe(200);
      expect(res.body.slug).toBe('overlord');
    });

    it('answers 404 novel:not_found "Novel not found" for a deleted novel', async () => {
      await buildNovel(t.orm, { slug: 'gone', deleted: true });
      const res = await getNovel('gone');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Novel not found', code: 'novel:not_found' });
    });

    it('answers the Ukrainian message when Accept-Language prefers uk', async () => {
      await buildNovel(t.orm, { slug: 'gone', deleted: true });
      for (const language of ['uk', 'uk-UA,uk;q=0.9']) {
        const res = await getNovel('gone', { language });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: 'Ранобе не знайдено', code: 'novel:not_found' });
      }
    });

    it('answers 404 novel:not_found for an unknown slug, in both languages', async () => {
      await buildNovel(t.orm, { slug: 'known' });
      const en = await getNovel('unknown');
      expect(en.status).toBe(404);
      expect(en.body).toEqual({ message: 'Novel not found', code: 'novel:not_found' });
      const uk = await getNovel('unknown', { language: 'uk' });
      expect(uk.status).toBe(404);
      expect(uk.body).toEqual({ message: 'Ранобе не знайдено', code: 'novel:not_found' });
    });

    it('never finds a manga or an anime with the same slug', async () => {
      await buildManga(t.orm, { slug: 'shared-slug' });
      await buildAnime(t.orm, { slug: 'shared-slug' });
      const res = await getNovel('shared-slug');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Novel not found', code: 'novel:not_found' });
    });

    it('ignores query parameters (the route has only its path parameter)', async () => {
      await buildNovel(t.orm, { slug: 'queried' });
      const res = await getNovel('queried?page=0&size=abc&foo=bar');
      expect(res.status).toBe(200);
      expect(res.body.slug).toBe('queried');
    });
  });

  describe('authentication none: the token is never resolved', () => {
    beforeEach(() => buildNovel(t.orm, { slug: 'public' }));

    it('ignores an unknown token', async () => {
      const res = await getNovel('public', { token: 'not-a-token' });
      expect(res.status).toBe(200);
      expect(res.body.slug).toBe('public');
      expect(res.body).not.toHaveProperty('read');
    });

    it('ignores an expired token', async () => {
      const user = await buildUser(t.orm);
      const token = await buildToken(t.orm, user, { expiration: new Date(Date.now() - 60_000) });
      const res = await getNovel('public', { token });
      expect(res.status).toBe(200);
      expect(res.body.slug).toBe('public');
    });

    it("ignores a deleted account's token (no user:deleted)", async () => {
      const user = await buildUser(t.orm, { role: 'deleted' });
      const token = await buildToken(t.orm, user);
      const res = await getNovel('public', { token });
      expect(res.status).toBe(200);
      expect(res.body.slug).toBe('public');
    });

    it('serves a third-party token holding no scope at all', async () => {
      const token = await buildThirdPartyToken(t.orm, await buildUser(t.orm), []);
      const res = await getNovel('public', { token });
      expect(res.status).toBe(200);
      expect(res.body.slug).toBe('public');
    });

    it('answers 404, not an auth error, for an unknown slug with a bad token', async () => {
      const res = await getNovel('missing', { token: 'not-a-token' });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('novel:not_found');
    });

    it('has no side effects on a valid token (expiry not slid, use not recorded)', async () => {
      const user = await buildUser(t.orm);
      const expiration = new Date(Date.now() + 60 * 60 * 1000);
      const token = await buildToken(t.orm, user, { expiration });

      const res = await getNovel('public', { token });

      expect(res.status).toBe(200);
      const stored = await t.orm.em.fork().findOneOrFail(AuthToken, { user: user.reference });
      expect(stored.used).toBeNull();
      expect(stored.expiration.getTime()).toBe(expiration.getTime());
    });
  });

  describe('REST ≡ GraphQL', () => {
    it('REST equals data.novel, from compiled SQL and from the resolvers alike', async () => {
      await filledNovel();
      const token = await buildToken(t.orm, await buildUser(t.orm));

      for (const options of [{}, { token }]) {
        const viaRest = await getNovel('Mushoku-Tensei', options);
        const compiled = await gql(t.app, route.document, { slug: 'Mushoku-Tensei' }, options);
        const resolved = await gql(t.app, resolverDocument, { slug: 'Mushoku-Tensei' }, options);

        expect(viaRest.status).toBe(200);
        expect(viaRest.body).toEqual(FILLED_RECORD);
        expect(compiled.body.errors).toBeUndefined();
        expect(compiled.body.data.novel).toEqual(viaRest.body);
        expect(resolved.body.errors).toBeUndefined();
        expect(resolved.body.data.__typename).toBe('Query');
        expect(resolved.body.data.novel).toEqual(viaRest.body);
      }
    });

    it('gives the same orders (authors, roles, genres, magazines, links) and counts through the resolvers', async () => {
      await crowdedNovel('crowded', 6);
      await buildNovel(t.orm, { slug: 'bare' });

      for (const slug of ['crowded', 'bare']) {
        const viaRest = await getNovel(slug);
        const resolved = await gql(t.app, resolverDocument, { slug });
        expect(viaRest.status).toBe(200);
        expect(resolved.body.errors).toBeUndefined();
        expect(resolved.body.data.novel).toEqual(viaRest.body);
      }
    });

    it.each([
      ['a deleted novel', 'en', 'gone', 'Novel not found'],
      ['a deleted novel', 'uk', 'gone', 'Ранобе не знайдено'],
      ['an unknown slug', 'en', 'missing', 'Novel not found'],
      ['a manga slug', 'uk', 'a-manga', 'Ранобе не знайдено'],
    ])('reports the same not-found error for %s (%s)', async (_name, language, slug, message) => {
      await buildNovel(t.orm, { slug: 'gone', deleted: true });
      await buildManga(t.orm, { slug: 'a-manga' });

      const viaRest = await getNovel(slug, { language });
      expect(viaRest.status).toBe(404);
      expect(viaRest.body).toEqual({ message, code: 'novel:not_found' });

      for (const document of [route.document, resolverDocument]) {
        const viaGraphQL = await gql(t.app, document, { slug }, { language });
        expect(viaGraphQL.body.errors).toHaveLength(1);
        expect(viaGraphQL.body.errors[0]).toMatchObject({
          message,
          path: ['novel'],
          extensions: { code: 'novel:not_found', http: { status: 404 } },
        });
        expect((viaGraphQL.body.data as Json | null)?.novel ?? null).toBeNull();
      }
    });
  });

  describe('bounded SQL', () => {
    it('sends as many statements for a crowded novel (authors, roles, genres, magazines, links, entries, reviews) as for a bare one', async () => {
      await buildNovel(t.orm, { slug: 'bare' });
      await crowdedNovel('crowded', 10);

      const bare = await t.queries.count(async () => {
        const res = await getNovel('bare');
        expect(res.status).toBe(200);
        expect(res.body.authors).toEqual([]);
      });
      const crowded = await t.queries.count(async () => {
        const res = await getNovel('crowded');
        expect(res.status).toBe(200);
        expect(asList(res.body.authors)).toHaveLength(10);
        expect(asList(asList(res.body.authors)[0].roles)).toHaveLength(3);
        expect(asList(res.body.genres)).toHaveLength(10);
        expect(asList(res.body.magazines)).toHaveLength(10);
        expect(asList(res.body.external)).toHaveLength(10);
        expect(asObject(res.body.stats).completed).toBe(10);
        expect(res.body.review_stats).toEqual({ yes: 4, no: 3, maybe: 3 });
      });

      expect(bare).toBeGreaterThan(0);
      expect(crowded).toBe(bare);
    });

    it('the resolvers too: as many statements for the crowded novel as for the bare one', async () => {
      await buildNovel(t.orm, { slug: 'bare' });
      await crowdedNovel('crowded', 10);

      const count = (slug: string) =>
        t.queries.count(async () => {
          const res = await gql(t.app, resolverDocument, { slug });
          expect(res.body.errors).toBeUndefined();
          expect(res.body.data.novel.slug).toBe(slug);
        });
      const bare = await count('bare');
      const crowded = await count('crowded');

      expect(bare).toBeGreaterThan(0);
      expect(crowded).toBe(bare);
    });
  });
});
