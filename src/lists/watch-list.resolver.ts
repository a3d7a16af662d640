import { Arg, Args, Ctx, ObjectType, Query, Resolver } from 'type-graphql';
import { PageArgs, PagedType } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { WatchEntry } from './watch-entry.entity';
import { WatchListInput } from './watch-list.inputs';
import { sqlRoot, type SqlForm } from '../graphql/sql-plan/fields';
import { userSubject } from '../accounts/users.service';
import { watchList, watchListQuery } from './watch-list.service';

@ObjectType()
export class WatchListPage extends PagedType(WatchEntry) {}

@Resolver()
export class WatchListResolver {
  /** #21 POST /watch/{username}/list: no authentication (the token is never resolved). */
  @Query(() => WatchListPage, {
    description: "A user's watch list (contract #21): entries with their anime, filtered and sorted.",
  })
  watchList(
    @Arg('username', () => String) username: string,
    @Args(() => PageArgs) page: PageArgs,
    @Arg('input', () => WatchListInput, { nullable: true }) input: WatchListInput | null | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<WatchListPage> {
    return watchList(ctx.em, username, input ?? {}, page);
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const watchListSqlForms: readonly SqlForm[] = [
  // The same page in one SQL statement (src/graphql/sql-plan).
  sqlRoot('watchList', {
    kind: 'page',
    item: WatchEntry,
    subject: (args) => userSubject(String(args.username)),
    query: async (_ctx, args, user) => watchListQuery(user, (args.input ?? {}) as WatchListInput),
  }),
];
