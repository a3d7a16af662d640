import { type GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { buildSchema, type AuthChecker, type ClassType, type NonEmptyArray, type PubSub } from 'type-graphql';
import { validateArguments } from './common/validation/arguments';
import { AccountsResolver } from './accounts/accounts.resolver';
import { AnimeResolver } from './catalog/anime.resolver';
import { MangaResolver } from './catalog/manga.resolver';
import { NovelResolver } from './catalog/novel.resolver';
import { EditTodoResolver } from './catalog/edit-todo.resolver';
import { ScheduleResolver } from './catalog/schedule.resolver';
import { CharactersResolver } from './characters/characters.resolver';
import { CharacterNovelsResolver } from './characters/character-novels.resolver';
import type { RequestContext } from './context';
import { FranchiseResolver } from './franchises/franchise.resolver';
import { ReadEntryResolver, WatchEntryResolver } from './lists/list-entry.resolver';
import { RandomReadResolver } from './lists/random-read.resolver';
import { ReadResolver } from './lists/read.resolver';
import { WatchResolver } from './lists/watch.resolver';
import { CreditResolver } from './people/credit.resolver';
import { MangaAuthorsResolver, NovelAuthorsResolver } from './people/title-authors.resolver';
import { AnimeWatchResolver, MangaReadResolver, NovelReadResolver } from './lists/title-entries.resolver';
import { MangaStatsResolver } from './lists/manga-stats';
import { PersonMangaResolver } from './people/person-manga.resolver';
import { CatalogListResolver } from './catalog/catalog-list.resolver';
import { NovelSearchResolver } from './catalog/novel-search.resolver';
import { WatchListResolver } from './lists/watch-list.resolver';
import { ArticleResolver } from './articles/article.resolver';
import { VoteResolver } from './votes/vote.resolver';
import { clientResolvers } from './clients/resolvers';
import { CommentResolver } from './comments/comment.resolver';
import { NotificationResolver } from './notifications/notification.resolver';
import { FollowResolver, UserFollowResolver } from './follows/follow.resolver';
import { collectionResolvers } from './collections/collection.resolver';

/** Every domain's resolvers; a domain adds its own here. */
const resolvers: NonEmptyArray<ClassType> = [
  AnimeResolver,
  MangaResolver,
  NovelResolver,
  MangaAuthorsResolver,
  NovelAuthorsResolver,
  AnimeWatchResolver,
  MangaReadResolver,
  NovelReadResolver,
  MangaStatsResolver,
  CreditResolver,
  CharactersResolver,
  FranchiseResolver,
  WatchEntryResolver,
  ReadEntryResolver,
  WatchResolver,
  ReadResolver,
  ScheduleResolver,
  EditTodoResolver,
  PersonMangaResolver,
  CharacterNovelsResolver,
  RandomReadResolver,
  NovelSearchResolver,
  CatalogListResolver,
  WatchListResolver,
  ...clientResolvers,
  ArticleResolver,
  VoteResolver,
  AccountsResolver,
  NotificationResolver,
  FollowResolver,
  UserFollowResolver,
  CommentResolver,
  ...collectionResolvers,
];

/** `@Authorized()` means required authentication; the session throws the catalog's errors. */
const authChecker: AuthChecker<RequestContext> = async ({ context }) => {
  await context.auth.required();
  return true;
};

/**
 * type-graphql asks for a PubSub as soon as the schema has subscriptions, even when each
 * brings its own `subscribe`, as ours do (they read the connection's NotificationFeed,
 * src/notifications/live). It is never called.
 */
const noPubSub: PubSub = {
  publish() {
    throw new Error('subscriptions read the NotificationFeed; nothing publishes through type-graphql');
  },
  subscribe() {
    throw new Error('every subscription of this schema brings its own subscribe function');
  },
};

export function buildAppSchema(): Promise<GraphQLSchema> {
  return buildSchema({ resolvers, authChecker, validateFn: validateArguments, pubSub: noPubSub });
}

/** The committed `schema.graphql`: sorted so that the file only changes when the schema does. */
export function printAppSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
