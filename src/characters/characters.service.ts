import type { EntityManager } from '@mikro-orm/postgresql';
import { findTitleBySlug } from '../catalog/catalog.service';
import type { TitleContentType } from '../common/enums';
import { type ListQuery, listPage } from '../common/pagination/paged-query';
import type { Page, PageArgs } from '../common/pagination/pagination';
import { concatSql, sql, type SqlFragment } from '../db/sql';
import { Appearance } from './appearance.entity';
import type { Character } from './character.entity';

/**
 * The characters of a title of `kind` (`title`: the SQL of its reference; #19 for
 * novels), main ones first, then by English name (C collation, nulls last), then
 * character reference.
 */
export function titleCharactersQuery(kind: TitleContentType, title: SqlFragment): ListQuery {
  return {
    reference: 'a.reference',
    from: 'appearance a join character c on c.reference = a.character_reference',
    where: concatSql(`a.${kind}_reference = `, title),
    orderBy: sql('a.main desc, c.name_en collate "C" asc nulls last, c.reference asc'),
  };
}

/** A page of {@link titleCharactersQuery} with each character, the title found by its module slug. */
export async function titleCharacters(
  em: EntityManager,
  kind: TitleContentType,
  slug: string,
  args: PageArgs,
): Promise<Page<Appearance>> {
  const title = await findTitleBySlug(em, kind, slug, `${kind}:not_found`);
  return listPage(em, Appearance, titleCharactersQuery(kind, sql('?', title.reference)), args, ['character']);
}

/** SQL: whether the character (`character`: the SQL of its reference) appears in at least one live anime, manga or novel. */
export const liveAppearanceSql = (character: string): string =>
  `exists (
     select 1 from appearance a
       left join anime on anime.reference = a.anime_reference
       left join manga on manga.reference = a.manga_reference
       left join novel on novel.reference = a.novel_reference
      where a.character_reference = ${character} and not coalesce(anime.deleted, manga.deleted, novel.deleted)
   )`;

/**
 * Whether the character appears in at least one live title. Through the entity manager,
 * so that inside a mutation (a comment write) it runs on the request's transaction
 * instead of waiting for a second pooled connection.
 */
export async function hasLiveAppearance(
  em: EntityManager,
  character: Pick<Character, 'reference'>,
): Promise<boolean> {
  const [row] = await em.execute<{ linked: boolean }[]>(`select ${liveAppearanceSql('?')} as linked`, [
    character.reference,
  ]);
  return row?.linked === true;
}
