import type { RequestListener } from 'node:http';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { GraphQLSchema } from 'graphql';
import pino from 'pino';
import { User } from '../../src/accounts/user.entity';
import { hashSecret, newTokenSecret } from '../../src/common/auth/secrets';
import type { ErrorCode } from '../../src/common/errors/catalog';
import { DEMO_PASSWORD, seedDemoData } from '../../src/import/demo-data';
import { buildAppSchema } from '../../src/schema';
import { Anime } from '../../src/catalog/anime.entity';
import { Manga } from '../../src/catalog/manga.entity';
import { Novel } from '../../src/catalog/novel.entity';
import { Character } from '../../src/characters/character.entity';
import {
  type CommentContentType,
  type FavouriteContentType,
  READ_STATUSES,
  type ReadStatus,
} from '../../src/common/enums';
import { Edit } from '../../src/edits/edit.entity';
import { ReadEntry } from '../../src/lists/read-entry.entity';
import { buildReadEntry, buildToken, buildUser, buildWatchEntry } from '../factories';
import { testClientSecrets } from '../setup/client-secrets';
import { gql } from '../setup/clients';
import { openTestOrm, resetDatabase } from '../setup/db';
import { type HttpTestApp, startHttpApp } from '../http/http-app';
import { emptyItemLists, FieldObservations, fullSelection, type OperationKind } from './full-selection';

/**
 * Every field of the schema resolves from every root that returns its type. For each
 * root field of Query and Mutation, a document generated from the app's own schema
 * selects every field of every type the root reaches (full-selection.ts); it runs on
 * demo data plus a few rows the demo lacks, and the answers must carry no unexpected
 * error, and between them a value for every field they selected (so the data really
 * reached each resolver), and null for every nullable relation.
 */

type Caller = 'owner' | 'admin' | 'newcomer' | 'anonymous';

type RootArguments = Record<string, unknown>;

interface QueryCall {
  /**
   * Values of the root field's arguments (other optional ones keep their defaults); a
   * list makes one call per element, for roots whose answer differs in kind by argument.
   */
  args?: RootArguments | RootArguments[];
  /** Who may see the answer (default: the owner of the seeded lists, clients and notifications). */
  as?: 'owner' | 'admin';
  /** The error an anonymous caller gets, when the root needs a caller. */
  anonymous?: ErrorCode;
}

interface MutationCall {
  as: Caller;
  /** Values of the root field's arguments, possibly from the answers of the mutations before it. */
  args?: (earlier: EarlierAnswers) => RootArguments;
}

/** A text field of a mutation answered earlier in the run. */
type EarlierAnswers = (root: string, field: string) => string;

/** A mutation that cannot run because one it depends on failed (reported as its outcome). */
class MissingEarlierAnswer extends Error {}

/** Names and references of seeded rows the calls use. */
interface Seeded {
  owner: string;
  ownerClient: string;
  anime: string;
  manga: string;
  novel: string;
  /** The status of the owner's only read entry of that kind and status. */
  readStatus: Record<'manga' | 'novel', ReadStatus>;
  person: string;
  character: string;
  /** A title of each kind in one franchise that has all three. */
  franchise: Record<'anime' | 'manga' | 'novel', string>;
  article: string;
  collection: string;
  thread: string;
  /** The slug of a commented item of each commentable kind. */
  commented: Record<CommentContentType, string>;
  /** The `extcat_id`s of the seeded anime and manga (the list imports match titles by them). */
  extcat: Record<'anime' | 'manga', number>;
  /** The slug of the owner's favourite of each kind. */
  favourites: Record<FavouriteContentType, string>;
  followed: string;
  notFollowed: string;
  notification: string;
  spareToken: string;
  activationSecret: string;
}

/**
 * Limits raised far above the defaults: this test is about resolving fields, and a
 * document grows with the schema (today the largest, `collections`, has depth 9 and
 * cost about 7,800 at the default page size, within the defaults).
 */
const GENEROUS_LIMITS = {
  GRAPHQL_MAX_DEPTH: '40',
  GRAPHQL_MAX_COST: '100000000',
  GRAPHQL_MAX_TOKENS: '1000000',
};

/**
 * What the service stores nothing for (pages.md): anime links, videos and soundtracks
 * (the import format has no field for them) and character descriptions. These fields
 * answer `[]` or null by definition, so no answer shows them with a value.
 */
const STORED_NOWHERE = [
  'Anime.external',
  'Anime.videos',
  'Anime.ost',
  'Character.description_ua',
  'FavouriteAnime.external',
  'FavouriteAnime.videos',
  'FavouriteAnime.ost',
  'FavouriteCharacter.description_ua',
];
const ONLY_IN_STORED_NOWHERE = ['AnimeVideo', 'AnimeOst'];
const storedNowhere = (field: string) =>
  STORED_NOWHERE.includes(field) || ONLY_IN_STORED_NOWHERE.includes(field.split('.')[0]);

/** The lists of a root's answer that are empty by definition ({@link STORED_NOWHERE}). */
const emptyByDefinition = (root: string): string[] =>
  root === 'anime' || root === 'randomWatchEntry'
    ? [`${root}.external`, `${root}.videos`, `${root}.ost`]
    : [];

const paragraph = (text: string) => [{ type: 'p', children: [{ text }] }];

/** The calls of each Query root, by root field name: a root without one fails the test. */
function queryCalls(seeded: Seeded): Record<string, QueryCall> {
  const missingToken: ErrorCode = 'auth:missing_token';
  return {
    allClients: { args: { input: {} }, as: 'admin', anonymous: missingToken },
    anime: { args: { slug: seeded.anime } },
    animeCharacters: { args: { slug: seeded.anime } },
    animeList: {},
    animeSchedule: { args: { input: {} } },
    animeStaff: { args: { slug: seeded.anime } },
    article: { args: { slug: seeded.article } },
    articleStats: {},
    character: { args: { slug: seeded.character } },
    characterAnime: { args: { slug: seeded.character } },
    characterManga: { args: { slug: seeded.character } },
    articles: { args: { input: {} } },
    characterNovels: { args: { slug: seeded.character } },
    client: { args: { client_reference: seeded.ownerClient } },
    clientFull: { args: { client_reference: seeded.ownerClient }, anonymous: missingToken },
    clients: { anonymous: missingToken },
    collection: { args: { reference: seeded.collection } },
    collections: {},
    characters: { args: [{ input: {} }, { input: { query: 'an' } }] },
    companies: { args: [{ input: {} }, { input: { type: 'studio' } }] },
    commentThread: { args: { comment_reference: seeded.thread } },
    comments: {},
    contentComments: {
      args: Object.entries(seeded.commented).map(([content_type, slug]) => ({ content_type, slug })),
    },
    editTodo: {
      args: ['anime', 'manga', 'novel'].flatMap((content_type) =>
        ['title_ua', 'synopsis_ua'].map((todo_type) => ({ content_type, todo_type })),
      ),
    },
    favourite: {
      args: Object.entries(seeded.favourites).map(([content_type, slug]) => ({ content_type, slug })),
      anonymous: missingToken,
    },
    favourites: {
      args: Object.keys(seeded.favourites).map((content_type) => ({ content_type, username: seeded.owner })),
    },
    followStatus: { args: { username: seeded.followed }, anonymous: missingToken },
    followStats: { args: { username: seeded.owner } },
    followers: { args: { username: seeded.owner } },
    following: { args: { username: seeded.owner } },
    followingReaders: {
      args: [
        { content_type: 'manga', slug: seeded.manga },
        { content_type: 'novel', slug: seeded.novel },
      ],
      anonymous: missingToken,
    },
    followingWatchers: { args: { slug: seeded.anime }, anonymous: missingToken },
    genres: {},
    franchise: {
      args: [
        { content_type: 'anime', slug: seeded.franchise.anime },
        { content_type: 'manga', slug: seeded.franchise.manga },
        { content_type: 'novel', slug: seeded.franchise.novel },
      ],
    },
    latestComments: {},
    manga: { args: { slug: seeded.manga } },
    mangaCharacters: { args: { slug: seeded.manga } },
    mangaList: {},
    me: { anonymous: missingToken },
    notificationCount: { anonymous: missingToken },
    notifications: { anonymous: missingToken },
    notificationSettings: { anonymous: missingToken },
    novel: { args: { slug: seeded.novel } },
    novelCharacters: { args: { slug: seeded.novel } },
    novelList: {},
    novelSearch: {},
    people: { args: [{ input: {} }] },
    person: { args: { slug: seeded.person } },
    personAnime: { args: { slug: seeded.person } },
    personManga: { args: { slug: seeded.person } },
    personNovel: { args: { slug: seeded.person } },
    randomReadEntry: {
      args: (['manga', 'novel'] as const).map((content_type) => ({
        content_type,
        status: seeded.readStatus[content_type],
        username: seeded.owner,
      })),
    },
    readList: {
      args: (['manga', 'novel'] as const).map((content_type) => ({ content_type, username: seeded.owner })),
    },
    randomWatchEntry: { args: { username: seeded.owner, status: 'completed' } },
    readStats: {
      args: (['manga', 'novel'] as const).map((content_type) => ({ content_type, username: seeded.owner })),
    },
    userActivity: { args: { username: seeded.owner } },
    watchStats: { args: { username: seeded.owner } },
    readEntry: {
      args: [
        { content_type: 'manga', slug: seeded.manga },
        { content_type: 'novel', slug: seeded.novel },
      ],
      anonymous: missingToken,
    },
    sitemap: { args: (['anime', 'manga', 'novel'] as const).map((content_type) => ({ content_type })) },
    thirdPartyTokens: { anonymous: missingToken },
    tokenInfo: { anonymous: missingToken },
    user: { args: { username: seeded.followed } },
    users: { args: { input: { query: 'demo' } } },
    vote: {
      args: [
        { content_type: 'article', slug: seeded.article },
        { content_type: 'collection', slug: seeded.collection },
        { content_type: 'comment', slug: seeded.thread },
      ],
      anonymous: missingToken,
    },
    watchEntry: { args: { slug: seeded.anime }, anonymous: missingToken },
    watchList: { args: { username: seeded.owner } },
  };
}

/**
 * The call of each Mutation root, by root field name (a root without one fails the
 * test), in the order they run: later calls use what earlier ones created.
 */
function mutationCalls(seeded: Seeded): Record<string, MutationCall> {
  const article = {
    title: 'Every field, once',
    document: paragraph('A document that every field of an article is read from.'),
    content: { content_type: 'anime', slug: seeded.anime },
    tags: ['огляд', 'guide'],
    draft: false,
    category: 'original',
  };
  const collection = {
    title: 'Every field',
    description: 'A collection that every field is read from.',
    tags: ['classic'],
    visibility: 'public',
    content_type: 'manga',
    labels_order: ['first'],
    spoiler: false,
    nsfw: false,
    content: [{ slug: seeded.manga, order: 1, label: 'first', comment: 'Read it twice.' }],
  };
  return {
    signup: {
      as: 'anonymous',
      args: () => ({
        input: { email: 'every.field@example.com', username: 'every_field', password: 'correct horse' },
      }),
    },
    login: { as: 'anonymous', args: () => ({ input: { username: seeded.owner, password: DEMO_PASSWORD } }) },
    activate: { as: 'anonymous', args: () => ({ input: { token: seeded.activationSecret } }) },
    resendActivation: { as: 'newcomer' },
    createClient: {
      as: 'owner',
      args: () => ({
        input: {
          name: 'Every field',
          description: 'A client for the test',
          endpoint: 'https://example.com/back',
        },
      }),
    },
    updateClient: {
      as: 'owner',
      args: (earlier) => ({
        client_reference: earlier('createClient', 'reference'),
        input: { name: 'Every field, renamed', revoke_secret: true },
      }),
    },
    verifyClient: {
      as: 'admin',
      args: (earlier) => ({ client_reference: earlier('createClient', 'reference') }),
    },
    createTokenRequest: {
      as: 'owner',
      args: (earlier) => ({
        client_reference: earlier('createClient', 'reference'),
        input: { scope: ['readlist'] },
      }),
    },
    exchangeToken: {
      as: 'anonymous',
      args: (earlier) => ({
        input: {
          client_secret: earlier('updateClient', 'secret'),
          request_reference: earlier('createTokenRequest', 'reference'),
        },
      }),
    },
    deleteToken: { as: 'owner', args: () => ({ token_reference: seeded.spareToken }) },
    deleteClient: {
      as: 'owner',
      args: (earlier) => ({ client_reference: earlier('createClient', 'reference') }),
    },
    saveWatchEntry: {
      as: 'owner',
      args: () => ({ slug: seeded.anime, input: { status: 'watching', episodes: 1, note: 'Again.' } }),
    },
    deleteWatchEntry: { as: 'owner', args: () => ({ slug: seeded.anime }) },
    saveReadEntry: {
      as: 'owner',
      args: () => ({ content_type: 'novel', slug: seeded.novel, input: { status: 'reading', chapters: 1 } }),
    },
    deleteReadEntry: { as: 'owner', args: () => ({ content_type: 'novel', slug: seeded.novel }) },
    removeFavourite: { as: 'owner', args: () => ({ content_type: 'anime', slug: seeded.anime }) },
    addFavourite: { as: 'owner', args: () => ({ content_type: 'anime', slug: seeded.anime }) },
    followUser: { as: 'owner', args: () => ({ username: seeded.notFollowed }) },
    unfollowUser: { as: 'owner', args: () => ({ username: seeded.notFollowed }) },
    createArticle: { as: 'owner', args: () => ({ input: article }) },
    updateArticle: {
      as: 'owner',
      args: (earlier) => ({
        slug: earlier('createArticle', 'slug'),
        input: { ...article, title: 'Every field, twice' },
      }),
    },
    writeComment: {
      as: 'owner',
      args: (earlier) => ({
        content_type: 'article',
        slug: earlier('createArticle', 'slug'),
        input: { text: 'A comment that every field is read from.' },
      }),
    },
    editComment: {
      as: 'owner',
      args: (earlier) => ({
        comment_reference: earlier('writeComment', 'reference'),
        input: { text: 'Edited.' },
      }),
    },
    setVote: {
      as: 'owner',
      args: () => ({ content_type: 'article', slug: seeded.article, input: { score: -1 } }),
    },
    hideComment: {
      as: 'owner',
      args: (earlier) => ({ comment_reference: earlier('writeComment', 'reference') }),
    },
    deleteArticle: { as: 'owner', args: (earlier) => ({ slug: earlier('createArticle', 'slug') }) },
    createCollection: { as: 'owner', args: () => ({ input: collection }) },
    updateCollection: {
      as: 'owner',
      args: (earlier) => ({ reference: earlier('createCollection', 'reference'), input: collection }),
    },
    deleteCollection: {
      as: 'owner',
      args: (earlier) => ({ reference: earlier('createCollection', 'reference') }),
    },
    markNotificationSeen: { as: 'owner', args: () => ({ notification_reference: seeded.notification }) },
    importWatchList: {
      as: 'owner',
      args: () => ({
        input: {
          overwrite: true,
          anime: [
            {
              series_animedb_id: String(seeded.extcat.anime),
              my_watched_episodes: '3',
              my_times_watched: '0',
              my_score: '8',
              my_status: 'Watching',
              my_comments: {},
              series_title: 'ignored',
            },
          ],
        },
      }),
    },
    importReadList: {
      as: 'owner',
      args: () => ({
        input: {
          overwrite: false,
          content: [
            {
              manga_mangadb_id: seeded.extcat.manga,
              my_read_chapters: 12,
              my_read_volumes: 2,
              my_score: 7,
              my_status: 'Reading',
              my_comments: 'Imported.',
              my_times_watched: 0,
            },
          ],
        },
      }),
    },
    // The settings last, by the newcomer, whose name and address nothing after them reads.
    updateNotificationSettings: {
      as: 'newcomer',
      args: () => ({ input: { ignored_notifications: ['hikka_update', 'comment_reply'] } }),
    },
    updateDescription: { as: 'newcomer', args: () => ({ input: { description: '\nHello.\n' } }) },
    updateUsername: { as: 'newcomer', args: () => ({ input: { username: 'every_field_renamed' } }) },
    updateEmail: { as: 'newcomer', args: () => ({ input: { email: 'renamed@example.com' } }) },
    updatePassword: { as: 'newcomer', args: () => ({ input: { password: 'another long password' } }) },
    deleteImage: { as: 'newcomer', args: () => ({ image_type: 'cover' }) },
  };
}

/** What a call answered: the catalog codes of its errors, whether its root field has data, its empty item lists. */
interface Outcome {
  /** The root field and its arguments. */
  call: string;
  root: string;
  codes: string[];
  data: boolean;
  empty: string[];
}

type Reference = { reference: string };

interface GraphQLAnswer {
  data?: Record<string, unknown> | null;
  errors?: { extensions?: { code?: string } }[];
}

describe('every field of every root', () => {
  let orm: MikroORM;
  let service: HttpTestApp;
  let schema: GraphQLSchema;
  let seeded: Seeded;
  const tokens = new Map<Caller, string>();
  let seen: FieldObservations;
  const selected = new Set<string>();
  const outcomes: Record<'query' | 'anonymous' | 'mutation', Outcome[]> = {
    query: [],
    anonymous: [],
    mutation: [],
  };

  /** Runs one root's generated document and records what it answered. */
  async function run(
    operation: OperationKind,
    root: string,
    args: RootArguments,
    caller: Caller,
  ): Promise<{ outcome: Outcome; answer: unknown }> {
    const selection = fullSelection(schema, operation, root, Object.keys(args));
    selection.selected.forEach((field) => selected.add(field));
    const response = await gql(service.app, selection.document, args, { token: tokens.get(caller) });
    const body = response.body as GraphQLAnswer;
    const answer = body.data?.[root] ?? null;
    if (answer !== null) seen.observeRoot(operation, root, answer);
    const codes = (body.errors ?? []).map((error) => error.extensions?.code ?? 'no code');
    const empty = emptyItemLists(schema, root, answer);
    return {
      outcome: { call: `${root} ${JSON.stringify(args)}`, root, codes, data: answer !== null, empty },
      answer,
    };
  }

  beforeAll(async () => {
    orm = await openTestOrm();
    await resetDatabase(orm);
    service = await startHttpApp(orm, GENEROUS_LIMITS);
    schema = await buildAppSchema();
    seen = new FieldObservations(schema);
    seeded = await seed(orm, service.app, tokens);

    for (const [root, call] of Object.entries(queryCalls(seeded))) {
      for (const args of Array.isArray(call.args) ? call.args : [call.args ?? {}]) {
        outcomes.query.push((await run('query', root, args, call.as ?? 'owner')).outcome);
        outcomes.anonymous.push((await run('query', root, args, 'anonymous')).outcome);
      }
    }
    const answers = new Map<string, unknown>();
    const earlier: EarlierAnswers = (root, field) => {
      const value = (answers.get(root) as Record<string, unknown> | undefined)?.[field];
      if (typeof value !== 'string') throw new MissingEarlierAnswer(`not run: ${root} answered no ${field}`);
      return value;
    };
    for (const [root, call] of Object.entries(mutationCalls(seeded))) {
      let args: RootArguments;
      try {
        args = call.args?.(earlier) ?? {};
      } catch (error) {
        if (!(error instanceof MissingEarlierAnswer)) throw error;
        outcomes.mutation.push({ call: root, root, codes: [error.message], data: false, empty: [] });
        continue;
      }
      const { outcome, answer } = await run('mutation', root, args, call.as);
      outcomes.mutation.push(outcome);
      answers.set(root, answer);
    }
  }, 120_000);
  afterAll(async () => {
    await service?.stop();
    await orm?.close();
  });

  it('has a call for every root field, and none for a root that is gone', () => {
    const names = (type: 'query' | 'mutation') =>
      Object.keys((type === 'query' ? schema.getQueryType() : schema.getMutationType())!.getFields()).sort();
    expect(Object.keys(queryCalls(seeded)).sort()).toEqual(names('query'));
    expect(Object.keys(mutationCalls(seeded)).sort()).toEqual(names('mutation'));
  });

  it('answers every Query root with data to a caller who may see it', () => {
    expect(outcomes.query).toEqual(
      outcomes.query.map(({ call, root }) => ({
        call,
        root,
        codes: [],
        data: true,
        empty: emptyByDefinition(root),
      })),
    );
  });

  it('answers every Query root to an anonymous caller with data or the expected refusal', () => {
    const queries = queryCalls(seeded);
    expect(outcomes.anonymous).toEqual(
      outcomes.anonymous.map(({ call, root }) => {
        const refusal = queries[root].anonymous;
        // An anonymous caller's own lists (`read`, `watch`) are empty by definition.
        return { call, root, codes: refusal ? [refusal] : [], data: !refusal, empty: expect.any(Array) };
      }),
    );
  });

  it('answers every Mutation root with its whole result', () => {
    // What a mutation creates starts with empty lists (a new comment's replies).
    expect(outcomes.mutation).toEqual(
      outcomes.mutation.map(({ call, root }) => ({
        call,
        root,
        codes: [],
        data: true,
        empty: expect.any(Array),
      })),
    );
  });

  it('reached every selected field with a value, and every nullable relation with null', () => {
    const neverValued = seen.neverValued(selected);
    expect(neverValued.filter(storedNowhere)).toEqual([...selected].filter(storedNowhere).sort());
    expect({
      neverValued: neverValued.filter((field) => !storedNowhere(field)),
      neverNull: seen.neverNull(selected),
    }).toEqual({
      neverValued: [],
      neverNull: [],
    });
  });
});

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the seeding steps share: the database, the app, and the tokens of the callers. */
interface Seeding {
  orm: MikroORM;
  em: EntityManager;
  app: RequestListener;
  tokens: Map<Caller, string>;
  /** The `value` column of the first row of a query, which must have one. */
  one(query: string, params?: unknown[]): Promise<string>;
  /** A mutation sent as a frontend would, which must succeed; answers its root field. */
  mutate(document: string, variables: RootArguments, token: string | undefined): Promise<Reference>;
}

/** Demo data at a small scale, plus what the demo lacks; returns the rows the calls use. */
async function seed(orm: MikroORM, app: RequestListener, tokens: Map<Caller, string>): Promise<Seeded> {
  await seedDemoData(orm, pino({ level: 'silent' }), testClientSecrets(), { scale: 0.1 });
  const em = orm.em.fork();
  const seeding: Seeding = {
    orm,
    em,
    app,
    tokens,
    async one(query, params = []) {
      const [row] = await em.getConnection().execute<{ value: string }[]>(query, params);
      if (!row) throw new Error(`the seed has no row for: ${query}`);
      return row.value;
    },
    async mutate(document, variables, token) {
      const body = (await gql(app, document, variables, { token })).body as GraphQLAnswer;
      const answer = Object.values(body.data ?? {})[0];
      if (body.errors || !answer) throw new Error(`seeding failed: ${JSON.stringify(body.errors)}`);
      return answer as Reference;
    },
  };
  const accounts = await seedAccounts(seeding);
  const titles = await pickTitles(seeding, accounts.owner);
  const readStatus = await seedListEntries(seeding, accounts.owner, titles);
  const community = await seedCommunity(seeding, accounts.reviewerToken, titles);
  const { one } = seeding;
  const owner = accounts.owner.reference;
  const followed = await one(
    `select u.username as value from follow f join "user" u on u.reference = f.followed_reference
      where f.follower_reference = ? order by u.username limit 1`,
    [owner],
  );
  await seedFollowedEntries(seeding, followed, titles);
  return {
    owner: accounts.owner.username,
    ownerClient: await one(`select reference as value from client where user_reference = ?`, [owner]),
    anime: titles.anime.slug,
    manga: titles.manga.slug,
    novel: titles.novel.slug,
    extcat: { anime: titles.anime.extcat_id, manga: titles.manga.extcat_id },
    readStatus,
    person: titles.person,
    character: titles.character,
    franchise: titles.franchise,
    article: titles.article,
    ...community,
    followed,
    notFollowed: await one(
      `select username as value from "user" u where role = 'user' and reference <> ?
          and not exists (select 1 from follow f where f.follower_reference = ? and f.followed_reference = u.reference)
        order by username limit 1`,
      [owner, owner],
    ),
    notification: await one(
      `select reference as value from notification where user_reference = ? order by created limit 1`,
      [owner],
    ),
    spareToken: accounts.spareToken,
    activationSecret: accounts.activationSecret,
  };
}

/**
 * The callers' tokens: the owner of the demo's client, third-party token and
 * notifications (with a cover and an ignored notification type, which no demo account has), an admin, an account whose
 * activation link has expired; and a reviewer, a spare token of the owner, and an
 * account waiting with a valid activation link.
 */
async function seedAccounts({ orm, em, tokens, one }: Seeding) {
  const owner = await em.findOneOrFail(User, { username: 'demo_user' });
  const admin = await em.findOneOrFail(User, { username: 'demo_admin' });
  // A notification type the run never sends, so that ignoring it hides nothing the test reads.
  await em.nativeUpdate(
    User,
    { reference: owner.reference },
    { cover: '/covers/owner.jpg', ignored_notifications: ['thirdparty_login'] },
  );
  tokens.set('owner', await buildToken(orm, owner));
  tokens.set('admin', await buildToken(orm, admin));
  const waiting = (activationSecret: string, expires: Date) =>
    buildUser(orm, {
      role: 'not_activated',
      email_confirmed: false,
      activation_token_hash: hashSecret(activationSecret),
      activation_expires: expires,
    });
  const newcomer = await waiting(newTokenSecret(), new Date(Date.now() - 1000));
  tokens.set('newcomer', await buildToken(orm, newcomer));
  const activationSecret = newTokenSecret();
  await waiting(activationSecret, new Date(Date.now() + DAY_MS));
  const spare = await buildToken(orm, owner);
  return {
    owner,
    reviewerToken: await buildToken(orm, await buildUser(orm)),
    spareToken: await one(`select reference as value from auth_token where secret_hash = ?`, [
      hashSecret(spare),
    ]),
    activationSecret,
  };
}

/**
 * Titles with every relation, not yet on the owner's lists (the demo draws lists at
 * random); a character of the novel, given synonyms (no demo character has any); a
 * person with manga; a franchise with every kind; an article with tags and content.
 */
async function pickTitles({ em, one }: Seeding, owner: User) {
  const anime = await em.findOneOrFail(
    Anime,
    await one(
      `select a.reference as value from anime a where not a.deleted
          and exists (select 1 from anime_company c where c.anime_reference = a.reference)
          and exists (select 1 from airing_episode e where e.anime_reference = a.reference)
          and exists (select 1 from credit c where c.anime_reference = a.reference)
          and exists (select 1 from appearance x where x.anime_reference = a.reference)
          and not exists (select 1 from watch_entry w where w.anime_reference = a.reference and w.user_reference = ?)
        order by a.slug limit 1`,
      [owner.reference],
    ),
  );
  const readable = async (kind: 'manga' | 'novel') =>
    one(
      `select t.reference as value from ${kind} t where not t.deleted
          and exists (select 1 from credit c where c.${kind}_reference = t.reference)
          and exists (select 1 from ${kind}_magazines x where x.${kind}_reference = t.reference)
          and exists (select 1 from appearance a where a.${kind}_reference = t.reference)
          and not exists (select 1 from read_entry r where r.${kind}_reference = t.reference and r.user_reference = ?)
        order by t.slug limit 1`,
      [owner.reference],
    );
  const manga = await em.findOneOrFail(Manga, await readable('manga'));
  const novel = await em.findOneOrFail(Novel, await readable('novel'));
  const character = await one(
    `select c.slug as value from character c join appearance a on a.character_reference = c.reference
      where a.novel_reference = ? order by c.slug limit 1`,
    [novel.reference],
  );
  await em.nativeUpdate(Character, { slug: character }, { synonyms: ['Another name'] });
  // The character and the person of the pages, in every kind of title.
  const characterReference = await one(`select reference as value from character where slug = ?`, [
    character,
  ]);
  await em.getConnection().execute(
    `insert into appearance (reference, character_reference, anime_reference, manga_reference, main)
      values (gen_random_uuid(), ?, ?, null, true), (gen_random_uuid(), ?, null, ?, false)`,
    [characterReference, anime.reference, characterReference, manga.reference],
  );
  const franchise = await one(
    `select f.reference as value from franchise f
      where exists (select 1 from anime a where a.franchise_reference = f.reference and not a.deleted)
        and exists (select 1 from manga m where m.franchise_reference = f.reference and not m.deleted)
        and exists (select 1 from novel n where n.franchise_reference = f.reference and not n.deleted)
      order by f.key limit 1`,
  );
  const member = (kind: string) =>
    one(
      `select slug as value from ${kind} where franchise_reference = ? and not deleted order by slug limit 1`,
      [franchise],
    );
  return {
    anime,
    manga,
    novel,
    character,
    person: await creditedEverywhere({ em, one }, anime, novel),
    franchise: { anime: await member('anime'), manga: await member('manga'), novel: await member('novel') },
    article: await one(
      `select a.slug as value from article a where not a.draft and not a.deleted and a.content_reference is not null
          and exists (select 1 from article_tag t where t.article_reference = a.reference)
        order by a.slug limit 1`,
    ),
  };
}

/** A person with manga credits, given credits on `anime` and `novel` (with the roles of one of theirs). */
async function creditedEverywhere({ em, one }: Pick<Seeding, 'em' | 'one'>, anime: Anime, novel: Novel) {
  const person = await one(
    `select p.reference as value from person p
      where exists (select 1 from credit c where c.person_reference = p.reference and c.manga_reference is not null)
      order by p.slug limit 1`,
  );
  const role = await one(`select role_reference as value from credit_roles limit 1`);
  await em.getConnection().execute(
    `with credits as (
       insert into credit (reference, person_reference, anime_reference, novel_reference)
       values (gen_random_uuid(), ?, ?, null), (gen_random_uuid(), ?, null, ?) returning reference
     )
     insert into credit_roles (credit_reference, role_reference) select reference, ? from credits`,
    [person, anime.reference, person, novel.reference, role],
  );
  return one(`select slug as value from person where reference = ?`, [person]);
}

type Titles = Awaited<ReturnType<typeof pickTitles>>;

/**
 * The owner's entries on the titles, with what the demo never gives: a finished watch
 * entry, a note and dates on a read entry. Each read entry is the only one of its kind
 * and status on the owner's list, so that `randomReadEntry` draws it; returns the statuses.
 */
async function seedListEntries({ orm, em }: Seeding, owner: User, titles: Titles) {
  await buildWatchEntry(orm, owner, titles.anime, {
    status: 'completed',
    start_date: new Date('2024-01-01T00:00:00Z'),
    end_date: new Date('2024-02-01T00:00:00Z'),
  });
  const unusedStatus = async (content_type: 'manga' | 'novel'): Promise<ReadStatus> => {
    const entries = await em.find(ReadEntry, { user: owner.reference, content_type });
    const status = READ_STATUSES.find((candidate) => !entries.some((entry) => entry.status === candidate));
    if (!status) throw new Error(`the owner has ${content_type} of every read status`);
    return status;
  };
  const readStatus = { manga: await unusedStatus('manga'), novel: await unusedStatus('novel') };
  await buildReadEntry(
    orm,
    owner,
    { manga: titles.manga },
    {
      status: readStatus.manga,
      note: 'Slow start.',
      start_date: new Date('2024-01-01T00:00:00Z'),
      end_date: new Date('2024-03-01T00:00:00Z'),
    },
  );
  await buildReadEntry(orm, owner, { novel: titles.novel }, { status: readStatus.novel });
  return readStatus;
}

/** Entries of a user the owner follows for the seeded titles, which `followingWatchers` and `followingReaders` show. */
async function seedFollowedEntries({ orm, em }: Seeding, username: string, titles: Titles) {
  const user = await em.findOneOrFail(User, { username });
  await em.nativeUpdate(User, { reference: user.reference }, { cover: '/covers/followed.jpg' });
  const references = [titles.anime.reference, titles.manga.reference, titles.novel.reference];
  await em.getConnection().execute(
    `delete from watch_entry where user_reference = ? and anime_reference in (?);
     delete from read_entry where user_reference = ? and (manga_reference in (?) or novel_reference in (?))`,
    [user.reference, references, user.reference, references, references],
  );
  await buildWatchEntry(orm, user, titles.anime, { status: 'watching', score: 8, note: 'Great.' });
  await buildReadEntry(orm, user, { manga: titles.manga }, { status: 'reading', score: 7 });
  await buildReadEntry(orm, user, { novel: titles.novel }, { status: 'completed', score: 9 });
}

/**
 * Written through the API, as a frontend would: a labelled collection of characters
 * with a comment on an item (the demo's are random); a review thread on the anime with
 * one reply visible and one hidden (served as a placeholder); a comment on every other
 * kind of commentable content, an edit included; the owner's votes.
 */
async function seedCommunity(seeding: Seeding, reviewerToken: string, titles: Titles) {
  const { em, tokens, mutate } = seeding;
  const owner = tokens.get('owner');
  const characters = await em.find(Character, {}, { orderBy: { slug: 'asc' }, limit: 3 });
  const collection = await mutate(
    'mutation($input: CollectionInput!) { createCollection(input: $input) { reference } }',
    {
      input: {
        title: 'Favourite characters',
        description: 'The characters every field is read from.',
        tags: ['classic'],
        visibility: 'public',
        content_type: 'character',
        labels_order: ['lead', 'support'],
        spoiler: false,
        nsfw: false,
        content: characters.map(({ slug }, i) => ({
          slug,
          order: i + 1,
          label: i === 0 ? 'lead' : 'support',
          ...(i === 0 ? { comment: 'The heart of it.' } : {}),
        })),
      },
    },
    owner,
  );

  const write = (content_type: string, slug: string, input: RootArguments, token: string | undefined) =>
    mutate(
      `mutation($content_type: CommentContentType!, $slug: String!, $input: WriteCommentInput!) {
        writeComment(content_type: $content_type, slug: $slug, input: $input) { reference } }`,
      { content_type, slug, input },
      token,
    );
  const review = { text: 'Worth every episode.', review: { recommended: 'yes' } };
  const thread = await write('anime', titles.anime.slug, review, reviewerToken);
  const reply = { text: 'Agreed.', parent: thread.reference };
  await write('anime', titles.anime.slug, reply, owner);
  const hidden = await write('anime', titles.anime.slug, reply, reviewerToken);
  await mutate(
    'mutation($reference: String!) { hideComment(comment_reference: $reference) { success } }',
    { reference: hidden.reference },
    tokens.get('admin'),
  );

  // No endpoint creates edits (src/edits/edit.entity.ts).
  const edit = new Edit();
  Object.assign(edit, {
    author: await em.findOneOrFail(User, { username: 'demo_admin' }),
    content_type: 'anime',
    content_reference: titles.anime.reference,
  });
  await em.persistAndFlush(edit);
  const commented: Record<CommentContentType, string> = {
    anime: titles.anime.slug,
    manga: titles.manga.slug,
    novel: titles.novel.slug,
    character: titles.character,
    person: titles.person,
    collection: collection.reference,
    article: titles.article,
    edit: String(edit.edit_id),
  };
  for (const [content_type, slug] of Object.entries(commented)) {
    if (content_type !== 'anime') await write(content_type, slug, { text: 'Noted.' }, reviewerToken);
  }

  // The owner's votes, which `vote` reads back.
  const votes = { article: titles.article, collection: collection.reference, comment: thread.reference };
  for (const [content_type, slug] of Object.entries(votes)) {
    await mutate(
      `mutation($content_type: VoteContentType!, $slug: String!) {
        setVote(content_type: $content_type, slug: $slug, input: { score: 1 }) { score } }`,
      { content_type, slug },
      owner,
    );
  }
  // The owner's favourites, which `favourite` and `favourites` read back: one of each kind
  // added as a client would, and a dozen more titles and characters, so that each
  // optional field is set on some listed item.
  const ownerReference = (await em.findOneOrFail(User, { username: 'demo_user' })).reference;
  await em.getConnection().execute('delete from favourite where user_reference = ?', [ownerReference]);
  const favourites = {
    anime: titles.anime.slug,
    manga: titles.manga.slug,
    novel: titles.novel.slug,
    character: titles.character,
    collection: collection.reference,
  };
  for (const [content_type, slug] of Object.entries(favourites)) {
    await mutate(
      `mutation($content_type: FavouriteContentType!, $slug: String!) {
        addFavourite(content_type: $content_type, slug: $slug) { reference } }`,
      { content_type, slug },
      owner,
    );
  }
  const listable = {
    anime: 'not deleted',
    manga: 'not deleted',
    novel: 'not deleted',
    character: 'reference in (select character_reference from appearance)',
  };
  for (const [table, condition] of Object.entries(listable)) {
    await em.getConnection().execute(
      `insert into favourite (reference, user_reference, content_type, content_reference, created)
       select gen_random_uuid(), ?, ?, reference, now() - interval '1 day' * row_number() over (order by reference)
         from "${table}" where ${condition} order by reference limit 12
       on conflict do nothing`,
      [ownerReference, table],
    );
  }
  return { collection: collection.reference, thread: thread.reference, commented, favourites };
}
