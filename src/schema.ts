import { type GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { buildSchema, type AuthChecker, type NonEmptyArray } from 'type-graphql';
import { AnimeResolver } from './catalog/anime.resolver';
import { MangaResolver } from './catalog/manga.resolver';
import { NovelResolver } from './catalog/novel.resolver';
import { CharactersResolver } from './characters/characters.resolver';
import type { RequestContext } from './context';
import { FranchiseResolver } from './franchises/franchise.resolver';
import { CreditResolver } from './people/credit.resolver';

/** Every domain's resolvers; a domain adds its own here. */
const resolvers: NonEmptyArray<Function> = [
  AnimeResolver,
  MangaResolver,
  NovelResolver,
  CreditResolver,
  CharactersResolver,
  FranchiseResolver,
];

/** `@Authorized()` means required authentication; the session throws the catalog's errors. */
const authChecker: AuthChecker<RequestContext> = async ({ context }) => {
  await context.auth.required();
  return true;
};

export function buildAppSchema(): Promise<GraphQLSchema> {
  return buildSchema({
    resolvers,
    authChecker,
    validate: { forbidUnknownValues: false },
  });
}

/** The committed `schema.graphql`: sorted so that the file only changes when the schema does. */
export function printAppSchema(schema: GraphQLSchema): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
