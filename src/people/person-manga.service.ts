import type { EntityManager } from '@mikro-orm/postgresql';
import type { Manga } from '../catalog/manga.entity';
import { AppError } from '../common/errors/app-error';
import { type ListQuery, listPage } from '../common/pagination/paged-query';
import type { Page, PageArgs } from '../common/pagination/pagination';
import { concatSql, sql, type SqlFragment } from '../db/sql';
import type { SqlSubject } from '../graphql/sql-plan/fields';
import { Credit } from './credit.entity';
import { Person } from './person.entity';
import { compareRoles, type Role } from './role.entity';

/** One manga of a person (#7) and the person's roles on it. */
export interface PersonMangaEntry {
  roles: Role[];
  manga: Manga;
}

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
 * #7: the person's (`person`: the SQL of its reference) author credits on live manga,
 * by manga score, scored_by and reference, all desc.
 */
export function personMangaQuery(person: SqlFragment): ListQuery {
  return {
    reference: 'c.reference',
    from: 'credit c join manga m on m.reference = c.manga_reference',
    where: concatSql('not m.deleted and c.person_reference = ', person),
    orderBy: sql('m.score desc, m.scored_by desc, m.reference desc'),
  };
}

/** A page of {@link personMangaQuery}, roles in {@link compareRoles} order: four queries whatever the size. */
export async function personManga(
  em: EntityManager,
  person: Person,
  args: PageArgs,
): Promise<Page<PersonMangaEntry>> {
  const page = await listPage(em, Credit, personMangaQuery(sql('?', person.reference)), args, [
    'manga',
    'roles',
  ]);
  const list = page.list.map((credit) => ({
    roles: credit.roles.getItems().sort(compareRoles),
    manga: credit.manga!,
  }));
  return { ...page, list };
}
