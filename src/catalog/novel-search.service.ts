import { type ListQuery, listPage } from '../common/pagination/paged-query';
import type { Page, PageArgs } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { readableFilters } from './catalog-list.inputs';
import { checkListSlugs, titleListQuery } from './catalog-list.service';
import { Novel } from './novel.entity';
import type { NovelSearchInput } from './novel-search.inputs';

/**
 * #3 POST /novel, after validation: the scope of a third-party token (`read:readlist`),
 * then the magazine and genre look-ups (one query, only when given), then the list
 * (semantics §2 #3).
 */
export async function novelSearchQuery(ctx: RequestContext, input: NovelSearchInput): Promise<ListQuery> {
  await ctx.auth.optional(['read:readlist']);
  await checkListSlugs(ctx, 'novel', input);
  return titleListQuery(ctx, 'novel', readableFilters(input), input.sort);
}

export async function searchNovels(
  ctx: RequestContext,
  input: NovelSearchInput,
  args: PageArgs,
): Promise<Page<Novel>> {
  return listPage(ctx.em, Novel, await novelSearchQuery(ctx, input), args);
}
