import { Arg, Args, Ctx, ObjectType, Query, Resolver } from 'type-graphql';
import { PageArgs, PagedType } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { Novel } from './novel.entity';
import { NovelSearchInput } from './novel-search.inputs';
import { sqlRoot, type SqlForm } from '../graphql/sql-plan/fields';
import { novelSearchQuery, searchNovels } from './novel-search.service';

@ObjectType()
export class NovelSearchPage extends PagedType(Novel) {}

@Resolver()
export class NovelSearchResolver {
  /** #3 POST /novel: optional authentication, scope `read:readlist`. */
  @Query(() => NovelSearchPage, {
    description:
      'Novel search (contract #3): filters, typo-tolerant `query`, sorts; items carry the caller’s `read`.',
  })
  novelSearch(
    @Args(() => PageArgs) page: PageArgs,
    @Arg('input', () => NovelSearchInput, { nullable: true }) input: NovelSearchInput | null | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<NovelSearchPage> {
    return searchNovels(ctx, input ?? {}, page);
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const novelSearchSqlForms: readonly SqlForm[] = [
  // The same page in one SQL statement (src/graphql/sql-plan).
  sqlRoot('novelSearch', {
    kind: 'page',
    item: Novel,
    query: (ctx, args) => novelSearchQuery(ctx, (args.input ?? {}) as NovelSearchInput),
  }),
];
