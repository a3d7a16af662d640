import type { EntityClass } from '@mikro-orm/core';
import type { TitleContentType } from '../common/enums';
import { type ListQuery, listPage } from '../common/pagination/paged-query';
import type { Page, PageArgs } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { joinSql, sql } from '../db/sql';
import { titleEntity, type TitleOf } from './catalog.service';
import { titleConditions, titleOrder, type TitleFilters } from './title-filters';
import { SEARCH, titleSearchJoin } from './title-search';

/**
 * Non-deleted titles of one kind matching `filters`, ordered as §1.10 says: with a text
 * query and no `sort`, by match rank (best first, then reference desc); otherwise by
 * the sort entries.
 */
export async function titleListQuery(
  ctx: RequestContext,
  kind: TitleContentType,
  filters: TitleFilters,
  sort: readonly string[] | undefined,
): Promise<ListQuery> {
  const query = filters.query || undefined;
  return {
    reference: 't.reference',
    from: `${kind} t`,
    join: query === undefined ? undefined : await titleSearchJoin(ctx, kind, 't', query),
    where: joinSql(titleConditions(kind, 't', filters)),
    orderBy:
      query !== undefined && sort === undefined
        ? sql(`${SEARCH}.position, t.reference desc`)
        : titleOrder(kind, 't', sort),
  };
}

/** A page of {@link titleListQuery}: its look-ups, then two queries whatever the page size. */
export async function listTitles<K extends TitleContentType>(
  ctx: RequestContext,
  kind: K,
  filters: TitleFilters,
  sort: readonly string[] | undefined,
  args: PageArgs,
): Promise<Page<TitleOf[K]>> {
  return listPage(
    ctx.em,
    titleEntity(kind) as EntityClass<TitleOf[K]>,
    await titleListQuery(ctx, kind, filters, sort),
    args,
  );
}
