import { Arg, Args, Ctx, FieldResolver, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { type LinkedNameSearch, linkedNameSearchQuery } from '../catalog/linked-name-search';
import { NameSearchInput } from '../common/name-search.inputs';
import { listPage } from '../common/pagination/paged-query';
import { PageArgs, PagedType } from '../common/pagination/pagination';
import { LiveTitleCountFields, liveTitleCountsSql, type TitleLinks } from '../catalog/title-link-counts';
import type { RequestContext } from '../context';
import { sqlFields, sqlRoot, sqlValue, type SqlForm } from '../graphql/sql-plan/fields';
import { findPersonBySlug } from './person-titles.service';
import { Person } from './person.entity';

const CREDITS: TitleLinks = { table: 'credit', of: 'person' };

/** POST /people: names and synonyms searched; people with no live credit are listed too. */
const PEOPLE_SEARCH: LinkedNameSearch = {
  links: CREDITS,
  names: { texts: ['p.name_native', 'p.name_ua', 'p.name_en'], synonyms: 'p.synonyms' },
  linkedOnly: false,
};

@ObjectType()
export class PersonPage extends PagedType(Person) {}

/** A person's page: the look-up and the counts of its full record. */
@Resolver(() => Person)
export class PersonResolver extends LiveTitleCountFields(Person, CREDITS, 'Credits on') {
  /** GET /people/{slug}: no authentication. */
  @Query(() => Person, { description: 'GET /people/{slug}: a person’s full record.' })
  person(@Arg('slug', () => String) slug: string, @Ctx() ctx: RequestContext): Promise<Person> {
    return findPersonBySlug(ctx.em, slug);
  }

  /** POST /people: no authentication. */
  @Query(() => PersonPage, {
    description: 'POST /people: people by a typo-tolerant name query, or the most credited first.',
  })
  people(
    @Args(() => PageArgs) page: PageArgs,
    @Arg('input', () => NameSearchInput, { nullable: true }) input: NameSearchInput | null | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<PersonPage> {
    return listPage(ctx.em, Person, linkedNameSearchQuery(PEOPLE_SEARCH, input?.query), page);
  }

  @FieldResolver(() => Int, { description: 'Voice roles: always 0, the service stores no voice acting.' })
  characters_count(): number {
    return 0;
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const personSqlForms: readonly SqlForm[] = [
  // findPersonBySlug: the module slug.
  sqlRoot('person', {
    kind: 'one',
    type: Person,
    rows: (person, { slug }) => ({ from: `person ${person}`, where: `${person}.slug = ${slug}` }),
    values: ({ slug }) => ({ slug: String(slug).toLowerCase() }),
    notFound: 'person:not_found',
  }),
  sqlRoot('people', {
    kind: 'page',
    item: Person,
    query: async (_ctx, args) =>
      linkedNameSearchQuery(PEOPLE_SEARCH, (args.input as NameSearchInput | null)?.query),
  }),
  sqlFields(Person, { ...liveTitleCountsSql(CREDITS), characters_count: sqlValue(() => '0', 'integer') }),
];
