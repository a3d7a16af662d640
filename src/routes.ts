import { accountRoutes } from './accounts/accounts.routes';
import { catalogRoutes } from './catalog/catalog.routes';
import { editTodoRoutes } from './catalog/edit-todo.routes';
import { scheduleRoutes } from './catalog/schedule.routes';
import { characterNovelRoutes } from './characters/character-novels.routes';
import { characterRoutes } from './characters/characters.routes';
import { franchiseRoutes } from './franchises/franchise.routes';
import { listRoutes } from './lists/lists.routes';
import { randomReadRoutes } from './lists/random-read.routes';
import { peopleRoutes } from './people/people.routes';
import { searchRoutes } from './catalog/search.routes';
import { watchListRoutes } from './lists/watch-list.routes';
import { followRoutes } from './follows/follow.routes';
import { notificationRoutes } from './notifications/notification.routes';
import { clientRoutes } from './clients/clients.routes';
import { collectionRoutes } from './collections/collections.routes';
import { articleAndVoteRoutes } from './articles/article.routes';
import { commentRoutes } from './comments/comment.routes';
import type { RestRoute } from './rest/route';

/**
 * The route table: every REST path, the contract's (numbered) and the supporting
 * ones. Each domain declares its rows next to its resolvers; each row runs the
 * GraphQL operation a frontend would send and answers `data[rootField]`.
 */
export const restRoutes: readonly RestRoute[] = [
  ...catalogRoutes,
  ...characterRoutes,
  ...franchiseRoutes,
  ...listRoutes,
  ...scheduleRoutes,
  ...editTodoRoutes,
  ...peopleRoutes,
  ...characterNovelRoutes,
  ...randomReadRoutes,
  ...searchRoutes,
  ...watchListRoutes,
  ...clientRoutes,
  ...accountRoutes,
  ...notificationRoutes,
  ...followRoutes,
  ...commentRoutes,
  ...collectionRoutes,
  ...articleAndVoteRoutes,
];
