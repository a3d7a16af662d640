import type { EntityManager } from '@mikro-orm/postgresql';
import type { Manga } from '../catalog/manga.entity';
import { AppError } from '../common/errors/app-error';
import { type Page, type PageArgs, pageWindow, toPage } from '../common/pagination/pagination';
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

/**
 * #7: the person's author credits on live manga, by manga score, scored_by and
 * reference, all desc; roles by weight desc (null weights last), then slug.
 * Three queries (page, count, roles) whatever the page size.
 */
export async function personManga(
  em: EntityManager,
  person: Person,
  args: PageArgs,
): Promise<Page<PersonMangaEntry>> {
  const { offset, limit } = pageWindow(args);
  const [credits, total] = await em
    .createQueryBuilder(Credit, 'c')
    .select('c.*')
    .joinAndSelect('c.manga', 'm')
    .where({ person, 'm.deleted': false })
    .orderBy([{ 'm.score': 'desc' }, { 'm.scored_by': 'desc' }, { 'm.reference': 'desc' }])
    .limit(limit)
    .offset(offset)
    .getResultAndCount();
  await em.populate(credits, ['roles']);
  const list = credits.map((credit) => ({
    roles: credit.roles.getItems().sort(compareRoles),
    manga: credit.manga!,
  }));
  return toPage(list, total, args);
}
