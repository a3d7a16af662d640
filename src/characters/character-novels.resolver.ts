import { Arg, Args, Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import { Novel } from '../catalog/novel.entity';
import { PageArgs, PagedType } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { characterNovels, type CharacterNovelEntry, findCharacterBySlug } from './character-novels.service';

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
    const character = await findCharacterBySlug(ctx.em, slug);
    await ctx.auth.optional(['read:readlist']);
    return characterNovels(ctx.em, character, page);
  }
}
