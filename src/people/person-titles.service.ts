import type { EntityManager } from '@mikro-orm/postgresql';
import type { TitleContentType } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import { type ListQuery, listPage } from '../common/pagination/paged-query';
import type { Page, PageArgs } from '../common/pagination/pagination';
import { concatSql, sql, type SqlFragment } from '../db/sql';
import type { SqlSubject } from '../graphql/sql-plan/fields';
import { Credit } from './credit.entity';
import { Person } from './person.entity';

/** Module look-up of a person (semantics §1.8): the slug is lower-cased first. */
export async function findPersonBySlug(em: EntityManager, slug: string): Promise<Person> {
  const person = await em.findOne(Person, { slug: slug.toLowerCase() });
  if (!person) throw new AppError('person:not_found');
  return person;
}

/** {@link findPersonBySlug} as a compiled list's subject. */
export function personSubject(slug: string): SqlSubject {
  return {
    select: sql('select reference, null::text as refused from person where slug = ?', slug.toLowerCase()),
    notFound: 'person:not_found',
  };
}

/**
 * The person's (`person`: the SQL of its reference) credits on live titles of `kind`
 * (#7 for manga), by title score, scored_by and reference, all desc.
 */
export function personTitlesQuery(kind: TitleContentType, person: SqlFragment): ListQuery {
  return {
    reference: 'c.reference',
    from: `credit c join ${kind} t on t.reference = c.${kind}_reference`,
    where: concatSql('not t.deleted and c.person_reference = ', person),
    orderBy: sql('t.score desc, t.scored_by desc, t.reference desc'),
  };
}

/** A page of {@link personTitlesQuery}, each credit with its title and roles: four queries whatever the size. */
export function personTitles(
  em: EntityManager,
  kind: TitleContentType,
  person: Person,
  args: PageArgs,
): Promise<Page<Credit>> {
  return listPage(em, Credit, personTitlesQuery(kind, sql('?', person.reference)), args, [kind, 'roles']);
}
