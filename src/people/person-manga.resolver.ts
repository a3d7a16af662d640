import { Arg, Args, Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import { Manga } from '../catalog/manga.entity';
import { PageArgs, PagedType } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { sqlFields, sqlRoot, sqlRows, type SqlForm } from '../graphql/sql-plan/fields';
import { Credit } from './credit.entity';
import { creditRolesSql } from './credit.resolver';
import {
  findPersonBySlug,
  personManga,
  type PersonMangaEntry,
  personMangaQuery,
  personSubject,
} from './person-manga.service';
import { Role } from './role.entity';

const READ_SCOPES = ['read:readlist'];

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
    await ctx.auth.optional();
    const person = await findPersonBySlug(ctx.em, slug);
    await ctx.auth.optional(READ_SCOPES);
    return personManga(ctx.em, person, page);
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const personMangaSqlForms: readonly SqlForm[] = [
  // The same page in one SQL statement (src/graphql/sql-plan): an item is a view of a credit row.
  sqlRoot('personManga', {
    kind: 'page',
    item: Credit,
    view: PersonMangaItem,
    subject: (args) => personSubject(String(args.slug)),
    query: async (_ctx, _args, person) => personMangaQuery(person),
    scopes: READ_SCOPES,
  }),
  sqlFields(PersonMangaItem, {
    roles: creditRolesSql,
    manga: sqlRows((credit, manga) => ({
      from: `manga ${manga}`,
      where: `${manga}.reference = ${credit}.manga_reference`,
    })),
  }),
];
