import { Arg, Args, Ctx, Field, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { User } from '../accounts/user.entity';
import { findUserByUsername, userSubject } from '../accounts/users.service';
import { listPage } from '../common/pagination/paged-query';
import { PageArgs, PagedType } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { sql } from '../db/sql';
import { sqlRoot, sqlRowType, type SqlForm } from '../graphql/sql-plan/fields';
import { followListQuery, type FollowDirection, followStatsSql } from './follow-lists.service';

/** A profile's follow figures (pages.md FollowStats). */
@ObjectType()
export class FollowStats {
  @Field(() => Int, { description: 'Users who follow this one.' })
  followers = 0;

  @Field(() => Int, { description: 'Users this one follows.' })
  following = 0;
}

@ObjectType()
export class UserPage extends PagedType(User) {}

const READ_FOLLOW = ['read:follow'];

/**
 * Who follows whom, by profile (pages.md "User profile"): the figures with no
 * authentication; the lists with optional authentication and scope `read:follow`, their
 * users with `is_followed` for the caller. Deleted accounts are never listed or counted.
 */
@Resolver()
export class FollowListsResolver {
  @Query(() => FollowStats, {
    description: 'GET /follow/{username}/stats: followers and following, counted.',
  })
  async followStats(
    @Arg('username', () => String) username: string,
    @Ctx() ctx: RequestContext,
  ): Promise<FollowStats> {
    const user = await findUserByUsername(ctx.em, username);
    const [row] = await ctx.em.execute<FollowStats[]>(followStatsSql('?', '?'), [
      user.reference,
      user.reference,
    ]);
    return row;
  }

  @Query(() => UserPage, {
    description: "GET /follow/{username}/followers: a user's followers, latest first (scope read:follow).",
  })
  followers(
    @Arg('username', () => String) username: string,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<UserPage> {
    return followList(ctx, 'followers', username, page);
  }

  @Query(() => UserPage, {
    description:
      'GET /follow/{username}/following: the users a user follows, latest first (scope read:follow).',
  })
  following(
    @Arg('username', () => String) username: string,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<UserPage> {
    return followList(ctx, 'following', username, page);
  }
}

/** The caller (optional), the user's look-up, the scope, then the page. */
async function followList(ctx: RequestContext, direction: FollowDirection, username: string, page: PageArgs) {
  await ctx.auth.optional();
  const user = await findUserByUsername(ctx.em, username);
  await ctx.auth.optional(READ_FOLLOW);
  return listPage(ctx.em, User, followListQuery(direction, sql('?', user.reference)), page);
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const followListsSqlForms: readonly SqlForm[] = [
  sqlRowType(FollowStats),
  sqlRoot('followStats', {
    kind: 'one',
    type: FollowStats,
    subject: (args) => userSubject(String(args.username)),
    rows: (stats, _args, user) => ({ from: `(${followStatsSql(user, user)}) ${stats}` }),
  }),
  ...(['followers', 'following'] as const).map((direction) =>
    sqlRoot(direction, {
      kind: 'page',
      item: User,
      subject: (args) => userSubject(String(args.username)),
      query: async (_ctx, _args, user) => followListQuery(direction, user),
      scopes: READ_FOLLOW,
    }),
  ),
];
