import { Arg, Ctx, FieldResolver, Int, Query, Resolver } from 'type-graphql';
import { LiveTitleCountFields, liveTitleCountsSql, type TitleLinks } from '../catalog/title-link-counts';
import type { RequestContext } from '../context';
import { sqlFields, sqlRoot, sqlValue, type SqlForm } from '../graphql/sql-plan/fields';
import { findPersonBySlug } from './person-titles.service';
import { Person } from './person.entity';

const CREDITS: TitleLinks = { table: 'credit', of: 'person' };

/** A person's page: the look-up and the counts of its full record. */
@Resolver(() => Person)
export class PersonResolver extends LiveTitleCountFields(Person, CREDITS, 'Credits on') {
  /** GET /people/{slug}: no authentication. */
  @Query(() => Person, { description: 'GET /people/{slug}: a person’s full record.' })
  person(@Arg('slug', () => String) slug: string, @Ctx() ctx: RequestContext): Promise<Person> {
    return findPersonBySlug(ctx.em, slug);
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
  sqlFields(Person, { ...liveTitleCountsSql(CREDITS), characters_count: sqlValue(() => '0', 'integer') }),
];
