import type { EntityManager } from '@mikro-orm/postgresql';
import type { Novel } from '../catalog/novel.entity';
import { AppError } from '../common/errors/app-error';
import { type Page, type PageArgs, pageWindow, toPage } from '../common/pagination/pagination';
import { Appearance } from './appearance.entity';
import { Character } from './character.entity';

/** One novel of a character (#8). */
export interface CharacterNovelEntry {
  main: boolean;
  novel: Novel;
}

/** Whether the character appears in at least one live anime, manga or novel. */
async function hasLiveAppearance(em: EntityManager, character: Character): Promise<boolean> {
  const [row] = await em.getConnection().execute<{ linked: boolean }[]>(
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

/**
 * #8: the character's appearances in live novels, by novel score, scored_by and
 * reference, all desc. Two queries (page and count) whatever the page size.
 */
export async function characterNovels(
  em: EntityManager,
  character: Character,
  args: PageArgs,
): Promise<Page<CharacterNovelEntry>> {
  const { offset, limit } = pageWindow(args);
  const [appearances, total] = await em
    .createQueryBuilder(Appearance, 'a')
    .select('a.*')
    .joinAndSelect('a.novel', 'n')
    .where({ character, 'n.deleted': false })
    .orderBy([{ 'n.score': 'desc' }, { 'n.scored_by': 'desc' }, { 'n.reference': 'desc' }])
    .limit(limit)
    .offset(offset)
    .getResultAndCount();
  const list = appearances.map((appearance) => ({ main: appearance.main, novel: appearance.novel! }));
  return toPage(list, total, args);
}
