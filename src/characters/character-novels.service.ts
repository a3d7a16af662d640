import type { EntityManager } from '@mikro-orm/postgresql';
import type { Novel } from '../catalog/novel.entity';
import { AppError } from '../common/errors/app-error';
import { type ListQuery, listPage } from '../common/pagination/paged-query';
import type { Page, PageArgs } from '../common/pagination/pagination';
import { concatSql, sql, type SqlFragment } from '../db/sql';
import type { SqlSubject } from '../graphql/sql-plan/fields';
import { Appearance } from './appearance.entity';
import { Character } from './character.entity';
import { hasLiveAppearance, liveAppearanceSql } from './characters.service';

/** One novel of a character (#8). */
export interface CharacterNovelEntry {
  main: boolean;
  novel: Novel;
}

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
 * #8: the character's (`character`: the SQL of its reference) appearances in live
 * novels, by novel score, scored_by and reference, all desc.
 */
export function characterNovelsQuery(character: SqlFragment): ListQuery {
  return {
    reference: 'a.reference',
    from: 'appearance a join novel n on n.reference = a.novel_reference',
    where: concatSql('not n.deleted and a.character_reference = ', character),
    orderBy: sql('n.score desc, n.scored_by desc, n.reference desc'),
  };
}

/** A page of {@link characterNovelsQuery}: three queries whatever the page size. */
export async function characterNovels(
  em: EntityManager,
  character: Character,
  args: PageArgs,
): Promise<Page<CharacterNovelEntry>> {
  const page = await listPage(em, Appearance, characterNovelsQuery(sql('?', character.reference)), args, [
    'novel',
  ]);
  return {
    ...page,
    list: page.list.map((appearance) => ({ main: appearance.main, novel: appearance.novel! })),
  };
}
