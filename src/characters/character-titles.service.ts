import type { EntityManager } from '@mikro-orm/postgresql';
import type { TitleContentType } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import { type ListQuery, listPage } from '../common/pagination/paged-query';
import type { Page, PageArgs } from '../common/pagination/pagination';
import { concatSql, sql, type SqlFragment } from '../db/sql';
import type { SqlSubject } from '../graphql/sql-plan/fields';
import { Appearance } from './appearance.entity';
import { Character } from './character.entity';
import { hasLiveAppearance, liveAppearanceSql } from './characters.service';

/**
 * Module look-up of a character (semantics §1.8): the slug is lower-cased first, and
 * orphans are not found. An orphan is linked to no catalog item; deleted titles are
 * treated as gone everywhere, so links only to deleted titles leave a character orphan.
 */
export async function findCharacterBySlug(em: EntityManager, slug: string): Promise<Character> {
  const character = await em.findOne(Character, { slug: slug.toLowerCase() });
  if (!character || !(await hasLiveAppearance(em, character))) throw new AppError('character:not_found');
  return character;
}

/** {@link findCharacterBySlug} as a compiled list's subject. */
export function characterSubject(slug: string): SqlSubject {
  return {
    select: sql(
      `select c.reference, null::text as refused from character c
        where c.slug = ? and ${liveAppearanceSql('c.reference')}`,
      slug.toLowerCase(),
    ),
    notFound: 'character:not_found',
  };
}

/**
 * The character's (`character`: the SQL of its reference) appearances in live titles of
 * `kind` (#8 for novels), by title score, scored_by and reference, all desc.
 */
export function characterTitlesQuery(kind: TitleContentType, character: SqlFragment): ListQuery {
  return {
    reference: 'a.reference',
    from: `appearance a join ${kind} t on t.reference = a.${kind}_reference`,
    where: concatSql('not t.deleted and a.character_reference = ', character),
    orderBy: sql('t.score desc, t.scored_by desc, t.reference desc'),
  };
}

/** A page of {@link characterTitlesQuery}, each appearance with its title: three queries whatever the page size. */
export function characterTitles(
  em: EntityManager,
  kind: TitleContentType,
  character: Character,
  args: PageArgs,
): Promise<Page<Appearance>> {
  return listPage(em, Appearance, characterTitlesQuery(kind, sql('?', character.reference)), args, [kind]);
}
