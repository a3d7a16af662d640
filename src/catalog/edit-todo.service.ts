import type { EntityClass } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TitleContentType } from '../common/enums';
import { type ListQuery, listPage } from '../common/pagination/paged-query';
import type { Page, PageArgs } from '../common/pagination/pagination';
import { sql } from '../db/sql';
import type { CatalogTitle } from './catalog-title.entity';
import { titleEntity, type TitleOf } from './catalog.service';

/** The translation fields #6 can ask for. */
export const EDIT_TODO_TYPES = ['title_ua', 'synopsis_ua'] as const;
export type EditTodoType = (typeof EDIT_TODO_TYPES)[number];

/**
 * #6: live titles of one kind whose `todo` field is null (an empty string counts as
 * translated), music videos excepted, by score, scored_by and reference, all desc.
 */
export function editTodoQuery(kind: TitleContentType, todo: EditTodoType): ListQuery {
  // Names written into the statement: only the known ones.
  if (!EDIT_TODO_TYPES.includes(todo)) throw new Error(`unknown todo type ${String(todo)}`);
  // A null media type is not `music`: `<> 'music'` alone would drop it.
  const notMusic = kind === 'anime' ? " and (t.media_type is null or t.media_type <> 'music')" : '';
  return {
    reference: 't.reference',
    from: `${kind} t`,
    where: sql(`t.${todo} is null and not t.deleted${notMusic}`),
    orderBy: sql('t.score desc, t.scored_by desc, t.reference desc'),
  };
}

/** A page of {@link editTodoQuery}: two queries whatever the page size. */
export function editTodo<K extends TitleContentType>(
  em: EntityManager,
  kind: K,
  todo: EditTodoType,
  args: PageArgs,
): Promise<Page<TitleOf[K]>> {
  return listPage(
    em,
    titleEntity(kind) as EntityClass<CatalogTitle>,
    editTodoQuery(kind, todo),
    args,
  ) as Promise<Page<TitleOf[K]>>;
}
