import { catalogRoutes } from '../catalog/catalog.routes';
import { characterRoutes } from '../characters/characters.routes';
import { franchiseRoutes } from '../franchises/franchise.routes';
import type { RestRoute } from './route';

/**
 * The route table: every REST path, the contract's (numbered) and the supporting
 * ones. Each domain declares its rows next to its resolvers; each row runs the
 * GraphQL operation a frontend would send and answers `data[rootField]`.
 */
export const restRoutes: readonly RestRoute[] = [...catalogRoutes, ...characterRoutes, ...franchiseRoutes];
