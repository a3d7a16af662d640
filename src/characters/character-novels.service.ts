import type { EntityManager } from '@mikro-orm/postgresql';
import type { Novel } from '../catalog/novel.entity';
import { AppError } from '../common/errors/app-error';
import { type Page, type PageArgs, pageWindow, toPage } from '../common/pagination/pagination';
import { Appearance } from './appearance.entity';
import { Character } from './character.entity';
import { hasLiveAppearance } from './characters.service';

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
