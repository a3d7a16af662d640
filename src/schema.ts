import { type GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { validateSync } from 'class-validator';
import {
  buildSchema,
  type AuthChecker,
  type ClassType,
  type NonEmptyArray,
  type ValidatorFn,
} from 'type-graphql';
import { ArgumentError } from './common/errors/app-error';
import { inputSpecOf } from './common/validation/input-specs';
import { firstViolation } from './common/validation/json-schema';
import { PageArgs } from './common/pagination/pagination';
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
import { PersonMangaResolver } from './people/person-manga.resolver';
import { CatalogListResolver } from './catalog/catalog-list.resolver';
import { NovelSearchResolver } from './catalog/novel-search.resolver';
import { WatchListResolver } from './lists/watch-list.resolver';
import { articleResolvers } from './articles/resolvers';
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
  ...articleResolvers,
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
 * Checks argument objects with their class-validator rules. Page arguments belong
 * to the REST query, every other input object to the body (semantics §1.1.1).
 */
const validateArguments: ValidatorFn = (value: unknown, type) => {
  if (typeof value !== 'object' || value === null) return;
  const spec = inputSpecOf(type);
  if (spec) {
    // The REST body's own schema: both doors report the same first violation (HTTP 400).
    const violation = firstViolation(spec, { ...value });
    if (violation) throw new ArgumentError('body', violation.name);
    return;
  }
  // Synchronous, so that arguments are checked in declaration order: page and size
  // (the REST query) before the input (the body), as REST does.
  const [first] = validateSync(value, { forbidUnknownValues: false });
  if (first) throw new ArgumentError(type === PageArgs ? 'query' : 'body', first.property);
};

export function buildAppSchema(): Promise<GraphQLSchema> {
  return buildSchema({ resolvers, authChecker, validateFn: validateArguments });
}

/** The committed `schema.graphql`: sorted so that the file only changes when the schema does. */
export function printAppSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
