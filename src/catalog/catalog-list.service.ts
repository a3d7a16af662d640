import type { EntityClass } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TitleContentType } from '../common/enums';
import { type ListQuery, listPage } from '../common/pagination/paged-query';
import type { Page, PageArgs } from '../common/pagination/pagination';
import { joinSql } from '../db/sql';
import { titleEntity, type TitleOf } from './catalog.service';
import { titleConditions, titleOrder, type TitleFilters } from './title-filters';

/** Non-deleted titles of one kind matching `filters`, ordered as §1.10 says (see `titleOrder`). */
export function titleListQuery(
  kind: TitleContentType,
  filters: TitleFilters,
  sort: readonly string[] | undefined,
): ListQuery {
  return {
    reference: 't.reference',
    from: `${kind} t`,
    where: joinSql(titleConditions(kind, 't', filters)),
    orderBy: titleOrder(kind, 't', sort, filters.query),
  };
}

/** A page of {@link titleListQuery}: two queries whatever the page size. */
export function listTitles<K extends TitleContentType>(
  em: EntityManager,
  kind: K,
  filters: TitleFilters,
  sort: readonly string[] | undefined,
  args: PageArgs,
): Promise<Page<TitleOf[K]>> {
  return listPage(
    em,
    titleEntity(kind) as EntityClass<TitleOf[K]>,
    titleListQuery(kind, filters, sort),
    args,
  );
}
