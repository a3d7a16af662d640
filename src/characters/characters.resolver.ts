import { Arg, Args, Ctx, ObjectType, Query, Resolver } from 'type-graphql';
import { PageArgs, PagedType } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { Appearance } from './appearance.entity';
import { sqlRoot, type SqlForm } from '../graphql/sql-plan/fields';
import { titleSubject } from '../catalog/catalog.service';
import { novelCharacters, novelCharactersQuery } from './characters.service';

@ObjectType()
export class NovelCharacterPage extends PagedType(Appearance) {}

@Resolver()
export class CharactersResolver {
  /** #19 GET /novel/{slug}/characters: no authentication. */
  @Query(() => NovelCharacterPage, { description: 'Characters of a novel (contract #19).' })
  novelCharacters(
    @Arg('slug', () => String) slug: string,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<NovelCharacterPage> {
    return novelCharacters(ctx.em, slug, page);
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const charactersSqlForms: readonly SqlForm[] = [
  // The same page in one SQL statement (src/graphql/sql-plan).
  sqlRoot('novelCharacters', {
    kind: 'page',
    item: Appearance,
    subject: (args) => titleSubject('novel', String(args.slug), 'novel:not_found'),
    query: async (_ctx, _args, novel) => novelCharactersQuery(novel),
  }),
];
