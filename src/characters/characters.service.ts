import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findTitleBySlug } from '../catalog/catalog.service';
import { type Page, type PageArgs, pageWindow, toPage } from '../common/pagination/pagination';
import { Appearance } from './appearance.entity';
import type { Character } from './character.entity';

/**
 * #19: the characters of a novel, main ones first, then by English name (C collation,
 * nulls last), then reference. Three queries whatever the page size.
 */
export async function novelCharacters(
  em: EntityManager,
  slug: string,
  args: PageArgs,
): Promise<Page<Appearance>> {
  const novel = await findTitleBySlug(em, 'novel', slug, 'novel:not_found');
  const { offset, limit } = pageWindow(args);
  const [list, total] = await em
    .createQueryBuilder(Appearance, 'a')
    .select('a.*')
    .joinAndSelect('a.character', 'c')
    .where({ novel })
    .orderBy([
      { main: 'desc' },
      { [raw('c.name_en collate "C"')]: 'asc nulls last' },
      { character: { reference: 'asc' } },
    ])
    .limit(limit)
    .offset(offset)
    .getResultAndCount();
  return toPage(list, total, args);
}

/**
 * Whether the character appears in at least one live anime, manga or novel. Through the
 * entity manager, so that inside a mutation (a comment write) it runs on the request's
 * transaction instead of waiting for a second pooled connection.
 */
export async function hasLiveAppearance(
  em: EntityManager,
  character: Pick<Character, 'reference'>,
): Promise<boolean> {
  const [row] = await em.execute<{ linked: boolean }[]>(
    `select exists (
       select 1 from appearance a
         left join anime on anime.reference = a.anime_reference
         left join manga on manga.reference = a.manga_reference
         left join novel on novel.reference = a.novel_reference
        where a.character_reference = ? and not coalesce(anime.deleted, manga.deleted, novel.deleted)
     ) as linked`,
    [character.reference],
  );
  return row?.linked === true;
}
