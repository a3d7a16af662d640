/**
 * Rows for the compiled reads' tests (src/graphql/sql-plan): data chosen to reach every
 * conversion, order and look-up rule the compiled statements re-state in SQL, so that
 * comparing them with their resolvers means something. Each seed takes the test app's
 * ORM; the random documents (random-documents.ts) name the rows seeded here.
 */
import type { RequestListener } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import { Follow } from '../../src/accounts/follow.entity';
import { User } from '../../src/accounts/user.entity';
import { Anime } from '../../src/catalog/anime.entity';
import { Manga } from '../../src/catalog/manga.entity';
import type { Character } from '../../src/characters/character.entity';
import { Person } from '../../src/people/person.entity';
import { Novel } from '../../src/catalog/novel.entity';
import { buildArticle } from '../articles/helpers';
import { buildCollection as buildCollectionOf, buildCollectionVote } from '../collections/helpers';
import { buildCollection, buildComment, recount } from '../comments/helpers';
import {
  buildAiringEpisode,
  buildAnime,
  buildAppearance,
  buildCharacter,
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
  buildWatchEntry,
  linkCompany,
  linkTitle,
} from '../factories';
import { rest } from '../setup/clients';

/** Manga and novels with every kind of value the compiled statements convert or order. */
export async function seedReadables(
  orm: MikroORM,
): Promise<{ manga: Manga; novels: Novel[]; reader: User; token: string }> {
  const reader = await buildUser(orm, { username: 'reader' });
  const others = await Promise.all([buildUser(orm), buildUser(orm), buildUser(orm)]);
  const token = await buildToken(orm, reader);
  const manga = await buildManga(orm, {
    slug: 'edge-manga',
    title_original: 'ベルセルク "quoted" \\ back\nline 😀',
    title_en: null,
    media_type: 'manga',
    status: 'ongoing',
    chapters: null,
    score: 0.1 + 0.2,
    scored_by: 2147483647,
    native_scored_by: 3,
    native_score_total: 25,
    image: '//double/slash.png',
    start_date: new Date('1950-06-01T12:00:00.250Z'),
    end_date: new Date('1969-12-31T23:59:59.500Z'),
    synonyms: ['one "two"', 'три', ''],
    synopsis_ua: 'Ґ\u2028separator',
    franchise: await buildFranchise(orm),
    external: [
      { url: 'https://r1.example', text: 'Reader', type: 'read' },
      { url: 'https://w.example', text: 'Watch', type: 'watch' },
      { url: 'https://g1.example', text: 'Home', type: 'general' },
      { url: 'https://r2.example', text: 'Dengeki', type: 'read' },
      { url: 'https://g2.example', text: 'Wiki', type: 'general' },
    ],
  });
  const heavy = await buildRole(orm, { slug: 'story', weight: 100 });
  const light = await buildRole(orm, { slug: 'art', weight: 50 });
  const unweighted = await buildRole(orm, { slug: 'assist', weight: null });
  const alsoUnweighted = await buildRole(orm, { slug: 'ASSIST-2', weight: null });
  // Code-point order of slugs, weight ties broken by the person, null weights last.
  const people = await Promise.all(
    ['b-author', 'a-author', 'Z-author', 'c-author'].map((slug, i) =>
      buildPerson(orm, { slug, image: i % 2 === 0 ? 'https://abs.example/p.png' : `/people/${slug}.jpg` }),
    ),
  );
  await buildCredit(orm, people[0], { manga }, [light, heavy]);
  await buildCredit(orm, people[1], { manga }, [heavy]);
  await buildCredit(orm, people[2], { manga }, [unweighted, alsoUnweighted]);
  await buildCredit(orm, people[3], { manga }, []);
  const genres = await Promise.all(
    ['b-genre', 'A-genre', 'a-genre'].map((slug) => buildGenre(orm, { slug })),
  );
  const magazines = await Promise.all(['mag-b', 'mag-a'].map((slug) => buildMagazine(orm, { slug })));
  await linkTitle(orm, manga, { genres, magazines });
  const statuses = ['completed', 'reading', 'on_hold'] as const;
  for (const [i, user] of [reader, ...others].entries()) {
    await buildReadEntry(orm, user, { manga }, { status: statuses[i % 3], score: [0, 10, 7, 7][i] });
  }

  const nsfw = await buildGenre(orm, { slug: 'hentai' });
  const novels: Novel[] = [];
  for (let i = 0; i < 7; i += 1) {
    novels.push(
      await buildNovel(orm, {
        slug: `novel-${i}`,
        // Equal scores: the reference breaks the tie.
        score: i < 3 ? 8 : 6.5,
        scored_by: 10,
        image: i % 2 === 0 ? null : `novel/${i}.png`,
        year: 2000 + i,
        start_date: i === 0 ? null : new Date(Date.UTC(1990 + i, 0, 1, 0, 0, 0, 999)),
      }),
    );
  }
  await linkTitle(orm, novels[4], { genres: [nsfw] });
  await buildReadEntry(orm, reader, { novel: novels[1] }, { status: 'planned', note: 'later', score: 4 });
  await buildReadEntry(orm, others[0], { novel: novels[2] }, { status: 'dropped' });
  return { manga, novels, reader, token };
}

/** The user `watcher`'s watch list: six anime of two media types, null counts and seasons, one deleted. */
export async function seedWatchList(orm: MikroORM): Promise<{ owner: User; anime: Anime[] }> {
  const owner = await buildUser(orm, { username: 'watcher' });
  const anime: Anime[] = [];
  for (let i = 0; i < 6; i += 1) {
    const title = await buildAnime(orm, {
      slug: `anime-${i}`,
      media_type: i % 2 === 0 ? 'tv' : 'movie',
      episodes_released: i === 0 ? null : i * 3,
      episodes_total: i === 1 ? null : 24,
      season: i % 2 === 0 ? 'spring' : null,
      year: 2010 + i,
      image: i === 2 ? 'HTTPS://upper.example/x.png' : '/a.png',
      deleted: i === 5,
    });
    anime.push(title);
    await buildWatchEntry(orm, owner, title, {
      status: i % 2 === 0 ? 'completed' : 'watching',
      score: i,
      episodes: i,
      note: i === 3 ? 'note "quoted"' : null,
    });
  }
  return { owner, anime };
}

/** A person credited on manga: equal scores, a deleted manga, weighted, unweighted and no roles; and one with no credits. */
export async function seedPersonManga(orm: MikroORM): Promise<{ manga: Manga[]; token: string }> {
  const { manga: edge, token } = await seedReadables(orm);
  const writer = await buildPerson(orm, { slug: 'writer' });
  await buildPerson(orm, { slug: 'idle' });
  const story = await buildRole(orm, { slug: 'w-story', weight: 10 });
  const art = await buildRole(orm, { slug: 'w-art', weight: 10 });
  const helper = await buildRole(orm, { slug: 'w-help', weight: null });
  const manga = [edge];
  for (let i = 0; i < 4; i += 1)
    manga.push(await buildManga(orm, { slug: `writer-manga-${i}`, score: i < 2 ? 7 : 5, deleted: i === 3 }));
  const roleSets = [[helper, art, story], [story], [], [art], [story]];
  for (const [i, title] of manga.entries()) await buildCredit(orm, writer, { manga: title }, roleSets[i]);
  return { manga, token };
}

/**
 * The watch list's anime (one deleted) and two of the novels (one with the reader's
 * entry) join the edge manga's franchise ({@link seedReadables} first).
 */
export async function joinFranchise(orm: MikroORM): Promise<{ owner: User; anime: Anime[] }> {
  const { owner, anime } = await seedWatchList(orm);
  const connection = orm.em.getConnection();
  const franchise = `(select franchise_reference from manga where slug = 'edge-manga')`;
  await connection.execute(`update anime set franchise_reference = ${franchise}`);
  await connection.execute(
    `update novel set franchise_reference = ${franchise} where slug in ('novel-1', 'novel-2')`,
  );
  return { owner, anime };
}

/**
 * Airing episodes around `now`: fractions of a second either side (time_left truncates
 * toward zero), the 6-hour edge, an older one, equal times, NSFW and deleted anime,
 * and the anime of the watch list ({@link seedWatchList}).
 */
export async function seedSchedule(orm: MikroORM, now: number, anime: Anime[]): Promise<void> {
  const HOUR = 60 * 60 * 1000;
  const at = (ms: number) => new Date(now + ms);
  const others = await Promise.all([
    buildAnime(orm, { slug: 'sched-a', rating: 'pg_13', status: 'ongoing', season: 'spring' }),
    buildAnime(orm, { slug: 'sched-nsfw', nsfw: true }),
    buildAnime(orm, { slug: 'sched-b', rating: 'r', status: 'announced', start_date: at(0) }),
  ]);
  const episodes: [Anime, number][] = [
    [anime[0], 1500],
    [anime[1], -1500],
    [anime[2], -6 * HOUR],
    [anime[3], -6 * HOUR - 1000],
    [anime[4], 3 * HOUR + 999],
    [anime[5], HOUR],
    [others[0], 1500],
    [others[1], HOUR],
    [others[2], 24 * HOUR + 1],
  ];
  for (const [i, [title, offset]] of episodes.entries())
    await buildAiringEpisode(orm, title, i + 1, at(offset));
}

/**
 * What the info pages show beyond the rows above: studios and producers of `anime-0`
 * (ties broken by slug, a company without image), genres; stored-order links of
 * `novel-1` and a review of it; `writer`'s anime and novel credits (one on a deleted
 * anime); `member`'s anime and manga appearances (one in a deleted manga).
 */
export async function seedInfoPages(orm: MikroORM, member: Character): Promise<void> {
  const em = orm.em.fork();
  const anime = await em.findOneOrFail(Anime, { slug: 'anime-0' });
  await linkCompany(orm, anime, 'z-studio', 'studio', { image: '/studio.png' });
  await linkCompany(orm, anime, 'b-producer', 'producer');
  await linkCompany(orm, anime, 'a-producer', 'producer', { image: 'https://abs.example/c.png' });
  await linkTitle(orm, anime, { genres: [await buildGenre(orm, { slug: 'anime-genre', name_ua: null })] });
  const novel = await em.findOneOrFail(Novel, { slug: 'novel-1' });
  await em.nativeUpdate(
    Novel,
    { reference: novel.reference },
    {
      external: [
        { url: 'https://r.example', text: 'Reader', type: 'read' },
        { url: 'https://w.example', text: 'Watch', type: 'watch' },
        { url: 'https://g.example', text: 'Home', type: 'general' },
      ],
    },
  );
  const reviewer = await buildUser(orm);
  await buildComment(
    orm,
    reviewer,
    { type: 'novel', reference: novel.reference, slug: 'novel-1' },
    {
      review_recommendation: 'maybe',
    },
  );
  const writer = await em.findOneOrFail(Person, { slug: 'writer' });
  const role = await buildRole(orm, { slug: 'w-direction', weight: 5 });
  await buildCredit(orm, writer, { anime }, [role]);
  await buildCredit(orm, writer, { anime: await buildAnime(orm, { deleted: true }) }, [role]);
  await buildCredit(orm, writer, { novel }, []);
  // Staff without weights: after the weighted, by English name.
  for (const slug of ['a-author', 'b-author'])
    await buildCredit(orm, await em.findOneOrFail(Person, { slug }), { anime }, []);
  await buildAppearance(orm, member, { anime }, true);
  await buildAppearance(orm, member, { manga: await em.findOneOrFail(Manga, { slug: 'edge-manga' }) });
  await buildAppearance(orm, member, { manga: await buildManga(orm, { deleted: true }) });
}

/** The user `reader` (made if no seeding made it yet) and a new token of theirs. */
export async function readerWithToken(orm: MikroORM): Promise<{ reader: User; token: string }> {
  const reader =
    (await orm.em.fork().findOne(User, { username: 'reader' })) ??
    (await buildUser(orm, { username: 'reader' }));
  return { reader, token: await buildToken(orm, reader) };
}

/** Comments the drift generator's documents name by reference. */
export const THREAD_TOP = '0c000000-0000-4000-8000-000000000001';
export const THREAD_MIDDLE = '0c000000-0000-4000-8000-000000000002';

/**
 * Comments reaching every rule the compiled comment reads re-state: reply trees five
 * deep, with placeholders (hidden, with visible replies) and nodes left out (hidden
 * without visible replies, deleted); reviews; votes of `reader` (created if missing); a
 * comment with 500 earlier versions; authors and previews with images and without; a
 * private collection's comments; comments on an article, a person and a deleted title.
 */
export async function seedComments(orm: MikroORM) {
  const { reader, token } = await readerWithToken(orm);
  const author = await buildUser(orm, {
    avatar_path: '/me.png',
    cover: 'https://cdn.example/cover.png',
    description: 'writes "a lot"',
  });
  const other = await buildUser(orm);
  const anime = await buildAnime(orm, { slug: 'talked' });
  const on = { type: 'anime' as const, reference: anime.reference, slug: 'talked' };
  const withImage = { title: 'Talked', image: '/talked.png', slug: 'talked' };
  const top = await buildComment(orm, author, on, {
    reference: THREAD_TOP,
    review_recommendation: 'yes',
    review_score: 8,
    preview: withImage,
  });
  const middle = await buildComment(orm, other, on, { parent: top, reference: THREAD_MIDDLE });
  const hiddenWithReply = await buildComment(orm, author, on, {
    parent: middle,
    hidden: true,
    text: 'secret',
  });
  const deep = await buildComment(orm, reader, on, { parent: hiddenWithReply });
  await buildComment(orm, author, on, { parent: deep });
  await buildComment(orm, author, on, { parent: middle, hidden: true });
  await buildComment(orm, author, on, { parent: top, deleted: true });
  const sibling = await buildComment(orm, other, on, { parent: top });
  const critique = await buildComment(orm, other, on, { review_recommendation: 'no', review_score: null });
  const placeholder = await buildComment(orm, author, on, { hidden: true, text: 'gone' });
  await buildComment(orm, other, on, { parent: placeholder });
  const lonelyHidden = await buildComment(orm, author, on, { hidden: true });
  const edited = await buildComment(orm, reader, on, { preview: withImage });
  for (let i = 0; i < 3; i += 1) await buildComment(orm, other, on);
  const vote = (comment: { reference: string }, score: number) =>
    orm.em.getConnection().execute(
      `insert into vote (reference, user_reference, content_type, content_reference, score, created, updated)
         values (gen_random_uuid(), ?, 'comment', ?, ?, now(), now())`,
      [reader.reference, comment.reference, score],
    );
  for (const [comment, score] of [
    [top, 1],
    [middle, -1],
    [deep, 1],
    [critique, 1],
  ] as const)
    await vote(comment, score);
  await orm.em.getConnection().execute(
    `insert into comment_version (reference, comment_reference, text, created)
       select gen_random_uuid(), ?, 'before', now() from generate_series(1, 500)`,
    [edited.reference],
  );
  // A private collection's comments, seen by its author only.
  const collectionAuthor = await buildUser(orm);
  const collection = await buildCollection(orm, collectionAuthor, anime, { visibility: 'private' });
  const onCollection = {
    type: 'collection' as const,
    reference: collection.reference,
    slug: collection.reference,
  };
  const privateComment = await buildComment(orm, other, onCollection, { private: true });
  await buildComment(orm, collectionAuthor, onCollection, { parent: privateComment, private: true });
  const article = await buildArticle(orm, author, { slug: 'news' });
  await buildComment(orm, other, { type: 'article', reference: article.reference, slug: 'news' });
  const person = await buildPerson(orm, { slug: 'voice' });
  // The latest public comment, voted on: #20 answers my_score 0 all the same.
  const latest = await buildComment(orm, other, {
    type: 'person',
    reference: person.reference,
    slug: 'voice',
  });
  await vote(latest, 1);
  const gone = await buildAnime(orm, { slug: 'gone-anime', deleted: true });
  const onGone = await buildComment(orm, other, {
    type: 'anime',
    reference: gone.reference,
    slug: 'gone-anime',
  });
  await recount(orm);
  return {
    token,
    collectionToken: await buildToken(orm, collectionAuthor),
    scopeless: await buildThirdPartyToken(orm, reader, ['read:watchlist']),
    collection: collection.reference,
    privateComment: privateComment.reference,
    deep: deep.reference,
    hiddenWithReply: hiddenWithReply.reference,
    placeholder: placeholder.reference,
    lonelyHidden: lonelyHidden.reference,
    sibling: sibling.reference,
    onGone: onGone.reference,
  };
}

/** A collection the drift generator's documents name by reference. */
export const LABELLED_COLLECTION = '0c000000-0000-4000-8000-0000000000c1';

/**
 * Collections reaching every rule #14 and #15 re-state: items of every content kind
 * (anime with `reader`'s watch entry, manga and novels with read entries, characters,
 * people), more than a preview's 6, labels and comments or none, a deleted title among
 * the items, every visibility, votes and follows of `reader` (created if missing).
 */
export async function seedCollections(orm: MikroORM) {
  const { reader, token } = await readerWithToken(orm);
  const author = await buildUser(orm, { avatar_path: 'https://cdn.example/a.png' });
  const unfollowed = await buildUser(orm);
  await orm.em.getConnection().execute(
    `insert into follow (reference, follower_reference, followed_reference, created)
       values (gen_random_uuid(), ?, ?, now())`,
    [reader.reference, author.reference],
  );
  const anime = [];
  for (let i = 0; i < 8; i += 1) anime.push(await buildAnime(orm, { slug: `listed-${i}` }));
  await buildWatchEntry(orm, reader, anime[1], { score: 7 });
  const manga = await buildManga(orm, { slug: 'listed-manga' });
  await buildReadEntry(orm, reader, { manga });
  const novel = await buildNovel(orm, { slug: 'listed-novel' });
  const character = await buildCharacter(orm, { slug: 'listed-character' });
  await buildAppearance(orm, character, { novel });
  await buildPerson(orm, { slug: 'listed-person' });
  const body = (content_type: string, slugs: string[], o: Record<string, unknown> = {}) => ({
    title: `Best ${content_type}`,
    description: 'A list of favourites',
    tags: ['best'],
    visibility: 'public',
    content_type,
    labels_order: [],
    spoiler: false,
    nsfw: false,
    content: slugs.map((slug, i) => ({ slug, order: i + 1 })),
    ...o,
  });
  const labelled = await buildCollectionOf(
    orm,
    author,
    body(
      'anime',
      anime.map((each) => each.slug),
      {
        labels_order: ['good', 'great'],
        tags: ['best', 'long'],
        content: anime.map((each, i) => ({
          slug: each.slug,
          order: i + 1,
          label: i < 3 ? 'good' : 'great',
          ...(i % 2 === 0 ? { comment: `item ${i} "quoted"` } : {}),
        })),
      },
    ),
  );
  // The reference the drift generator's documents name (the items follow: on update cascade).
  await orm.em
    .getConnection()
    .execute(`update collection set reference = ? where reference = ?`, [
      LABELLED_COLLECTION,
      labelled.reference,
    ]);
  labelled.reference = LABELLED_COLLECTION;
  await orm.em.getConnection().execute(`update anime set deleted = true where slug = 'listed-2'`);
  const others = [
    await buildCollectionOf(orm, unfollowed, body('manga', ['listed-manga'], { tags: ['long'] })),
    await buildCollectionOf(orm, author, body('novel', ['listed-novel'], { visibility: 'unlisted' })),
    await buildCollectionOf(orm, reader, body('character', ['listed-character'], { spoiler: true })),
    await buildCollectionOf(orm, reader, body('person', ['listed-person'], { visibility: 'private' })),
  ];
  await buildCollectionVote(orm, reader, labelled, 1);
  await buildCollectionVote(orm, reader, others[0], -1);
  return {
    token,
    authorToken: await buildToken(orm, author),
    scopeless: await buildThirdPartyToken(orm, reader, ['read:watchlist']),
    labelled: labelled.reference,
    unlisted: others[1].reference,
    own: others[2].reference,
    privateOwn: others[3].reference,
  };
}

/**
 * Favourites of `reader`, added a minute apart, of every kind: anime with and without the
 * reader's entry and a deleted one, a manga and novels, characters, and collections (an
 * unlisted one and the reader's own private one). Seed after {@link seedCollections}.
 */
export async function seedFavourites(orm: MikroORM): Promise<void> {
  const { reader } = await readerWithToken(orm);
  const items: [kind: string, table: string, key: string][] = [
    ['anime', 'anime', "slug in ('listed-0', 'listed-1', 'listed-2', 'anime-0')"],
    ['manga', 'manga', "slug in ('listed-manga', 'edge-manga')"],
    ['novel', 'novel', "slug in ('listed-novel', 'novel-1', 'member-2')"],
    ['character', 'character', "slug in ('listed-character', 'cast-member')"],
    ['collection', 'collection', 'true'],
  ];
  for (const [kind, table, key] of items) {
    await orm.em.getConnection().execute(
      `insert into favourite (reference, user_reference, content_type, content_reference, created)
       select gen_random_uuid(), ?, ?, reference, now() - interval '1 minute' * row_number() over (order by reference)
         from "${table}" where ${key}`,
      [reader.reference, kind],
    );
  }
}

/**
 * What the profile roots read of `reader`: entries of the users `reader` follows for
 * `listed-1`, `listed-manga` and `novel-1` (the following lists), and actions of several
 * kinds over a few days (the activity). Seed after {@link seedCollections}.
 */
export async function seedProfiles(orm: MikroORM): Promise<void> {
  const { reader } = await readerWithToken(orm);
  const em = orm.em.fork();
  const followed = await em.find(User, {
    reference: {
      $in: (await em.find(Follow, { follower: reader.reference })).map((f) => f.followed.reference),
    },
  });
  const anime = await em.findOneOrFail(Anime, { slug: 'listed-1' });
  const manga = await em.findOneOrFail(Manga, { slug: 'listed-manga' });
  const novel = await em.findOneOrFail(Novel, { slug: 'novel-1' });
  for (const [i, user] of followed.entries()) {
    await buildWatchEntry(orm, user, anime, { score: 5 + i, note: i === 0 ? 'seen' : null });
    await buildReadEntry(orm, user, { manga }, { status: 'reading', score: i });
    await buildReadEntry(orm, user, { novel }, { status: 'completed', score: 9 });
  }
  const day = 24 * 60 * 60 * 1000;
  const actions: [type: string, target: string | null, daysAgo: number][] = [
    ['comment_write', null, 0],
    ['watch_create', anime.reference, 0],
    ['follow', 'someone', 0],
    ['follow', 'someone', 0],
    ['favourite_add', manga.reference, 3],
    ['login', null, 3],
    ['read_update', manga.reference, 400],
  ];
  for (const [type, target, daysAgo] of actions) {
    await em
      .getConnection()
      .execute('insert into action_record (type, user_reference, target, created) values (?, ?, ?, ?)', [
        type,
        reader.reference,
        target,
        new Date(Date.now() - daysAgo * day),
      ]);
  }
}

/** A system notification of `user`: no initiator, a payload with nested values and keys out of order. */
export async function seedSystemNotification(orm: MikroORM, user: User): Promise<void> {
  await orm.em.getConnection().execute(
    `insert into notification (reference, user_reference, notification_type, data, seen, created, updated)
       values (gen_random_uuid(), ?, 'system_update', ?::jsonb, false, now(), now())`,
    [
      user.reference,
      JSON.stringify({ title: 'Ünïcode "quoted"', link: null, nested: { b: 1, a: [1, 2.5] } }),
    ],
  );
}

/**
 * Rows for every root of the random documents (random-documents.ts `roots`): a person's
 * manga, a franchise, a schedule around `now`, a novel `cast` with characters and a
 * character `cast-member` in novels with and without the caller's read entries and in a
 * deleted one, comments, collections, and the caller's notifications (a system one and
 * a follow's, with its initiator: the follow goes through `app`). Returns the token of
 * `reader`, the caller of the documents that need one.
 */
export async function seedEveryCompiledRoot(
  orm: MikroORM,
  app: RequestListener,
  now: number,
): Promise<{ token: string }> {
  const { token } = await seedPersonManga(orm);
  const { anime } = await joinFranchise(orm);
  await seedSchedule(orm, now, anime);
  const novel = await buildNovel(orm, { slug: 'cast' });
  for (let i = 0; i < 4; i += 1)
    await buildAppearance(orm, await buildCharacter(orm, i === 0 ? { image: null } : {}), { novel });
  const member = await buildCharacter(orm, { slug: 'cast-member' });
  const novels = await Promise.all(
    [0, 1, 2].map((i) => buildNovel(orm, { slug: `member-${i}`, deleted: i === 2 })),
  );
  const withRead = await orm.em.fork().findOneOrFail(Novel, { slug: 'novel-1' });
  for (const [i, each] of [novel, withRead, ...novels].entries())
    await buildAppearance(orm, member, { novel: each }, i === 0);
  await seedComments(orm);
  await seedCollections(orm);
  await seedFavourites(orm);
  await seedProfiles(orm);
  await seedInfoPages(orm, member);
  await seedSystemNotification(orm, await orm.em.fork().findOneOrFail(User, { username: 'reader' }));
  const follower = await buildToken(orm, await buildUser(orm, { avatar_path: '/f.png' }));
  expect((await rest(app, 'PUT', '/follow/reader', undefined, { token: follower })).status).toBe(200);
  return { token };
}
