import { type GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { buildSchema, type AuthChecker, type ClassType, type NonEmptyArray, type PubSub } from 'type-graphql';
import { validateArguments } from './common/validation/arguments';
import { SqlForms, withSqlForms } from './graphql/sql-plan/fields';
import { AccountsResolver } from './accounts/accounts.resolver';
import { AnimeResolver, animeSqlForms } from './catalog/anime.resolver';
import { MangaResolver, mangaSqlForms } from './catalog/manga.resolver';
import { NovelResolver, novelSqlForms } from './catalog/novel.resolver';
import { EditTodoResolver, editTodoSqlForms } from './catalog/edit-todo.resolver';
import { ScheduleResolver, scheduleSqlForms } from './catalog/schedule.resolver';
import { CharactersResolver, charactersSqlForms } from './characters/characters.resolver';
import { CharacterTitlesResolver, characterTitlesSqlForms } from './characters/character-titles.resolver';
import type { RequestContext } from './context';
import { FranchiseResolver, franchiseSqlForms } from './franchises/franchise.resolver';
import { ReadEntryResolver, WatchEntryResolver, listEntrySqlForms } from './lists/list-entry.resolver';
import { RandomEntryResolver, randomEntrySqlForms } from './lists/random-entry.resolver';
import { UserListStatsResolver, userListStatsSqlForms } from './lists/user-list-stats.resolver';
import { ReadResolver, readSqlForms } from './lists/read.resolver';
import { WatchResolver, watchSqlForms } from './lists/watch.resolver';
import { CreditResolver, creditSqlForms } from './people/credit.resolver';
import {
  MangaAuthorsResolver,
  NovelAuthorsResolver,
  titleAuthorsSqlForms,
} from './people/title-authors.resolver';
import {
  AnimeWatchResolver,
  MangaReadResolver,
  NovelReadResolver,
  titleEntriesSqlForms,
} from './lists/title-entries.resolver';
import {
  AnimeStatsResolver,
  MangaStatsResolver,
  NovelStatsResolver,
  titleStatsSqlForms,
} from './lists/title-stats';
import { ProfileResolver, profileSqlForms } from './accounts/profile.resolver';
import { PersonResolver, personSqlForms } from './people/person.resolver';
import { StaffResolver, staffSqlForms } from './people/staff.resolver';
import { CharacterResolver, characterSqlForms } from './characters/character.resolver';
import { reviewStatsResolvers, reviewStatsSqlForms } from './comments/review-stats.resolver';
import { PersonTitlesResolver, personTitlesSqlForms } from './people/person-titles.resolver';
import { CatalogListResolver, catalogListSqlForms } from './catalog/catalog-list.resolver';
import { NovelSearchResolver, novelSearchSqlForms } from './catalog/novel-search.resolver';
import { WatchListResolver, watchListSqlForms } from './lists/watch-list.resolver';
import { ReadListResolver, readListSqlForms } from './lists/read-list.resolver';
import { ListImportResolver } from './lists/list-import.resolver';
import { FavouriteResolver, favouriteSqlForms } from './favourites/favourite.resolver';
import { viewerFavouriteResolvers, viewerFavouriteSqlForms } from './favourites/viewer-favourite.resolver';
import { ActivityResolver, activitySqlForms } from './accounts/activity.resolver';
import { UserSearchResolver } from './accounts/user-search.resolver';
import { ArticleStatsResolver, articleStatsSqlForms } from './articles/article-stats.resolver';
import { SettingsResolver } from './accounts/settings.resolver';
import { GenresResolver, genresSqlForms } from './catalog/genres.resolver';
import { SitemapResolver, sitemapSqlForms } from './catalog/sitemap.resolver';
import { CompaniesResolver, companiesSqlForms } from './catalog/companies.resolver';
import { FollowListsResolver, followListsSqlForms } from './follows/follow-lists.resolver';
import { FollowingEntriesResolver, followingEntriesSqlForms } from './follows/following-entries.resolver';
import { ArticleResolver } from './articles/article.resolver';
import { VoteResolver } from './votes/vote.resolver';
import { clientResolvers } from './clients/resolvers';
import { CommentResolver, commentSqlForms } from './comments/comment.resolver';
import { NotificationResolver, notificationSqlForms } from './notifications/notification.resolver';
import { FollowResolver, UserFollowResolver, followSqlForms } from './follows/follow.resolver';
import { collectionResolvers, collectionSqlForms } from './collections/collection.resolver';
import { paginationSqlForms } from './graphql/sql-plan/compile';
import { userEntitySqlForms } from './accounts/user.entity';
import { animeEntitySqlForms } from './catalog/anime.entity';
import { catalogTitleEntitySqlForms } from './catalog/catalog-title.entity';
import { mangaEntitySqlForms } from './catalog/manga.entity';
import { novelEntitySqlForms } from './catalog/novel.entity';
import { externalLinkSqlForms } from './catalog/title-fields';
import { personEntitySqlForms } from './people/person.entity';
import { characterEntitySqlForms } from './characters/character.entity';
import { collectionEntitySqlForms } from './collections/collection.entity';
import { commentEntitySqlForms } from './comments/comment.entity';

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
  AnimeStatsResolver,
  MangaStatsResolver,
  NovelStatsResolver,
  CreditResolver,
  PersonResolver,
  StaffResolver,
  CharacterResolver,
  CharactersResolver,
  FranchiseResolver,
  WatchEntryResolver,
  ReadEntryResolver,
  WatchResolver,
  ReadResolver,
  ScheduleResolver,
  EditTodoResolver,
  PersonTitlesResolver,
  CharacterTitlesResolver,
  RandomEntryResolver,
  UserListStatsResolver,
  NovelSearchResolver,
  CatalogListResolver,
  WatchListResolver,
  ReadListResolver,
  ListImportResolver,
  ...clientResolvers,
  ArticleResolver,
  VoteResolver,
  AccountsResolver,
  ProfileResolver,
  ActivityResolver,
  UserSearchResolver,
  ArticleStatsResolver,
  SettingsResolver,
  GenresResolver,
  SitemapResolver,
  CompaniesResolver,
  NotificationResolver,
  FollowResolver,
  UserFollowResolver,
  FollowListsResolver,
  FollowingEntriesResolver,
  CommentResolver,
  ...reviewStatsResolvers,
  ...collectionResolvers,
  FavouriteResolver,
  ...viewerFavouriteResolvers,
];

/**
 * Every domain's SQL forms (src/graphql/sql-plan): how its fields and root fields read in
 * SQL, for the reads compiled to one statement. A domain adds its own here, next to its
 * resolvers; the schema carries them (`withSqlForms`).
 */
const sqlForms = new SqlForms([
  ...paginationSqlForms,
  ...userEntitySqlForms,
  ...profileSqlForms,
  ...activitySqlForms,
  ...genresSqlForms,
  ...sitemapSqlForms,
  ...articleStatsSqlForms,
  ...companiesSqlForms,
  ...animeEntitySqlForms,
  ...animeSqlForms,
  ...catalogTitleEntitySqlForms,
  ...editTodoSqlForms,
  ...mangaEntitySqlForms,
  ...mangaSqlForms,
  ...novelSearchSqlForms,
  ...catalogListSqlForms,
  ...novelEntitySqlForms,
  ...novelSqlForms,
  ...scheduleSqlForms,
  ...externalLinkSqlForms,
  ...creditSqlForms,
  ...personTitlesSqlForms,
  ...personEntitySqlForms,
  ...personSqlForms,
  ...staffSqlForms,
  ...titleAuthorsSqlForms,
  ...characterTitlesSqlForms,
  ...characterEntitySqlForms,
  ...charactersSqlForms,
  ...characterSqlForms,
  ...franchiseSqlForms,
  ...listEntrySqlForms,
  ...titleStatsSqlForms,
  ...randomEntrySqlForms,
  ...userListStatsSqlForms,
  ...readSqlForms,
  ...titleEntriesSqlForms,
  ...watchListSqlForms,
  ...readListSqlForms,
  ...watchSqlForms,
  ...notificationSqlForms,
  ...followSqlForms,
  ...followListsSqlForms,
  ...followingEntriesSqlForms,
  ...collectionEntitySqlForms,
  ...collectionSqlForms,
  ...commentEntitySqlForms,
  ...commentSqlForms,
  ...reviewStatsSqlForms,
  ...favouriteSqlForms,
  ...viewerFavouriteSqlForms,
]);

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

export async function buildAppSchema(): Promise<GraphQLSchema> {
  const schema = await buildSchema({
    resolvers,
    authChecker,
    validateFn: validateArguments,
    pubSub: noPubSub,
  });
  return withSqlForms(schema, sqlForms);
}

/** The committed `schema.graphql`: sorted so that the file only changes when the schema does. */
export function printAppSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
