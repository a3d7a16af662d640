import { Arg, Args, Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import { Novel } from '../catalog/novel.entity';
import { PageArgs, PagedType } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { sqlFields, sqlRoot, sqlRows, sqlValue, type SqlForm } from '../graphql/sql-plan/fields';
import { Appearance } from './appearance.entity';
import {
  characterNovels,
  characterNovelsQuery,
  type CharacterNovelEntry,
  characterSubject,
  findCharacterBySlug,
} from './character-novels.service';

const READ_SCOPES = ['read:readlist'];

@ObjectType({ description: 'A novel a character appears in.' })
export class CharacterNovelItem implements CharacterNovelEntry {
  @Field(() => Boolean, { description: 'Whether the character is a main character of the novel.' })
  main!: boolean;

  @Field(() => Novel)
  novel!: Novel;
}

@ObjectType()
export class CharacterNovelPage extends PagedType(CharacterNovelItem) {}

@Resolver()
export class CharacterNovelsResolver {
  /** #8 GET /characters/{slug}/novel: optional authentication, scope `read:readlist`. */
  @Query(() => CharacterNovelPage, {
    description: 'Novels of a character (contract #8), by novel score, scored_by and reference, all desc.',
  })
  async characterNovels(
    @Arg('slug', () => String) slug: string,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<CharacterNovelPage> {
    await ctx.auth.optional();
    const character = await findCharacterBySlug(ctx.em, slug);
    await ctx.auth.optional(READ_SCOPES);
    return characterNovels(ctx.em, character, page);
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const characterNovelsSqlForms: readonly SqlForm[] = [
  // The same page in one SQL statement (src/graphql/sql-plan): an item is a view of an appearance row.
  sqlRoot('characterNovels', {
    kind: 'page',
    item: Appearance,
    view: CharacterNovelItem,
    subject: (args) => characterSubject(String(args.slug)),
    query: async (_ctx, _args, character) => characterNovelsQuery(character),
    scopes: READ_SCOPES,
  }),
  sqlFields(CharacterNovelItem, {
    main: sqlValue((appearance) => `${appearance}.main`),
    novel: sqlRows((appearance, novel) => ({
      from: `novel ${novel}`,
      where: `${novel}.reference = ${appearance}.novel_reference`,
    })),
  }),
];
