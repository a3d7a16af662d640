import { type EntityClass, type FilterQuery, QueryOrder } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TitleContentType } from '../common/enums';
import { type Page, type PageArgs, pageWindow, toPage } from '../common/pagination/pagination';
import type { Anime } from './anime.entity';
import type { CatalogTitle } from './catalog-title.entity';
import { titleEntity, type TitleOf } from './catalog.service';

/** The translation fields #6 can ask for. */
export const EDIT_TODO_TYPES = ['title_ua', 'synopsis_ua'] as const;
export type EditTodoType = (typeof EDIT_TODO_TYPES)[number];

/**
 * #6: live titles of one kind whose `todo` field is null (an empty string counts as
 * translated), music videos excepted, by score, scored_by and reference, all desc.
 * Two queries (page and count) whatever the page size.
 */
export async function editTodo<K extends TitleContentType>(
  em: EntityManager,
  kind: K,
  todo: EditTodoType,
  args: PageArgs,
): Promise<Page<TitleOf[K]>> {
  const { offset, limit } = pageWindow(args);
  const where: FilterQuery<CatalogTitle> = { [todo]: null, deleted: false };
  // A null media type is not `music`: `<> 'music'` alone would drop it.
  const notMusic: FilterQuery<Anime> = { $or: [{ media_type: null }, { media_type: { $ne: 'music' } }] };
  const [list, total] = await em.findAndCount(
    titleEntity(kind) as EntityClass<CatalogTitle>,
    kind === 'anime' ? { $and: [where, notMusic as FilterQuery<CatalogTitle>] } : where,
    {
      orderBy: [{ score: QueryOrder.DESC }, { scored_by: QueryOrder.DESC }, { reference: QueryOrder.DESC }],
      limit,
      offset,
    },
  );
  return toPage(list as TitleOf[K][], total, args);
}
