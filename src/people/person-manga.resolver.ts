import { Arg, Args, Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import { Manga } from '../catalog/manga.entity';
import { PageArgs, PagedType } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { findPersonBySlug, personManga, type PersonMangaEntry } from './person-manga.service';
import { Role } from './role.entity';

@ObjectType({ description: 'A manga of a person and the person’s roles on it.' })
export class PersonMangaItem implements PersonMangaEntry {
  @Field(() => [Role], { description: 'By weight desc (null weights last), then slug.' })
  roles!: Role[];

  @Field(() => Manga)
  manga!: Manga;
}

@ObjectType()
export class PersonMangaPage extends PagedType(PersonMangaItem) {}

@Resolver()
export class PersonMangaResolver {
  /** #7 GET /people/{slug}/manga: optional authentication, scope `read:readlist`. */
  @Query(() => PersonMangaPage, {
    description: 'Manga of a person (contract #7), by manga score, scored_by and reference, all desc.',
  })
  async personManga(
    @Arg('slug', () => String) slug: string,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<PersonMangaPage> {
    const person = await findPersonBySlug(ctx.em, slug);
    await ctx.auth.optional(['read:readlist']);
    return personManga(ctx.em, person, page);
  }
}
