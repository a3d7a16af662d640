import { accountRoutes } from './accounts/accounts.routes';
import { settingsRoutes } from './accounts/settings.routes';
import { catalogRoutes } from './catalog/catalog.routes';
import { editTodoRoutes } from './catalog/edit-todo.routes';
import { scheduleRoutes } from './catalog/schedule.routes';
import { characterTitleRoutes } from './characters/character-titles.routes';
import { characterRoutes } from './characters/characters.routes';
import { franchiseRoutes } from './franchises/franchise.routes';
import { listRoutes } from './lists/lists.routes';
import { randomEntryRoutes } from './lists/random-entry.routes';
import { userListStatsRoutes } from './lists/user-list-stats.routes';
import { peopleRoutes } from './people/people.routes';
import { searchRoutes } from './catalog/search.routes';
import { watchListRoutes } from './lists/watch-list.routes';
import { readListRoutes } from './lists/read-list.routes';
import { listImportRoutes } from './lists/list-import.routes';
import { followRoutes } from './follows/follow.routes';
import { followListRoutes } from './follows/follow-lists.routes';
import { followFragments } from './follows/follow.fragments';
import { notificationRoutes } from './notifications/notification.routes';
import { clientRoutes } from './clients/clients.routes';
import { collectionRoutes } from './collections/collections.routes';
import { articleRoutes } from './articles/article.routes';
import { voteRoutes } from './votes/vote.routes';
import { commentRoutes } from './comments/comment.routes';
import { favouriteRoutes } from './favourites/favourite.routes';
import { accountFragments } from './accounts/accounts.fragments';
import { articleFragments } from './articles/article.fragments';
import { catalogFragments } from './catalog/catalog.fragments';
import { characterFragments } from './characters/characters.fragments';
import { clientFragments } from './clients/clients.fragments';
import { collectionFragments } from './collections/collections.fragments';
import { commentFragments } from './comments/comment.fragments';
import { listFragments } from './lists/list.fragments';
import { notificationFragments } from './notifications/notification.fragments';
import { peopleFragments } from './people/people.fragments';
import { favouriteFragments } from './favourites/favourites.fragments';
import { FragmentLibrary } from './rest/fragments';
import type { RestRoute } from './rest/route';

/** Every domain's contract resources, which the routes' documents spread by name. */
export const restFragments = new FragmentLibrary([
  ...accountFragments,
  ...catalogFragments,
  ...listFragments,
  ...peopleFragments,
  ...characterFragments,
  ...notificationFragments,
  ...clientFragments,
  ...collectionFragments,
  ...articleFragments,
  ...commentFragments,
  ...favouriteFragments,
  ...followFragments,
]);

/**
 * The route table: every REST path, the contract's (numbered) and the supporting
 * ones. Each domain declares its rows next to its resolvers; each row runs the
 * GraphQL operation a frontend would send and answers `data[rootField]`, its
 * document completed with the fragments it spreads.
 */
export const restRoutes: readonly RestRoute[] = [
  ...catalogRoutes,
  ...characterRoutes,
  ...franchiseRoutes,
  ...listRoutes,
  ...scheduleRoutes,
  ...editTodoRoutes,
  ...peopleRoutes,
  ...characterTitleRoutes,
  ...randomEntryRoutes,
  ...userListStatsRoutes,
  ...searchRoutes,
  ...watchListRoutes,
  ...readListRoutes,
  ...listImportRoutes,
  ...clientRoutes,
  ...accountRoutes,
  ...settingsRoutes,
  ...notificationRoutes,
  ...followRoutes,
  ...followListRoutes,
  ...commentRoutes,
  ...collectionRoutes,
  ...articleRoutes,
  ...voteRoutes,
  ...favouriteRoutes,
].map((route) => ({ ...route, document: restFragments.complete(route.document) }));
