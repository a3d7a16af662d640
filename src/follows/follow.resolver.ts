import { Arg, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { User } from '../accounts/user.entity';
import type { RequestContext } from '../context';
import { sqlFields, sqlValue, type SqlForm } from '../graphql/sql-plan/fields';
import { viewerFollows } from './follow.loaders';
import { followUser, isFollowing, unfollowUser } from './follow.service';
import { FollowState } from './follow.types';

/**
 * Follows (semantics §3.9). `@Authorized()` authenticates before anything else; the
 * user look-up comes before the scope check, as the check order wants.
 */
@Resolver()
export class FollowResolver {
  @Authorized()
  @Mutation(() => FollowState, { description: 'PUT /follow/{username}: follow a user (scope follow).' })
  async followUser(
    @Arg('username', () => String) username: string,
    @Ctx() ctx: RequestContext,
  ): Promise<FollowState> {
    await followUser(ctx.em, await ctx.auth.required(), username);
    return new FollowState(true);
  }

  @Authorized()
  @Mutation(() => FollowState, { description: 'DELETE /follow/{username}: stop following (scope unfollow).' })
  async unfollowUser(
    @Arg('username', () => String) username: string,
    @Ctx() ctx: RequestContext,
  ): Promise<FollowState> {
    await unfollowUser(ctx.em, await ctx.auth.required(), username);
    return new FollowState(false);
  }

  @Authorized()
  @Query(() => FollowState, {
    description: 'GET /follow/{username}: whether the caller follows the user (scope read:follow).',
  })
  async followStatus(
    @Arg('username', () => String) username: string,
    @Ctx() ctx: RequestContext,
  ): Promise<FollowState> {
    return new FollowState(await isFollowing(ctx.em, await ctx.auth.required(), username));
  }
}

/** The viewer-specific `is_followed` of every User (semantics §1.6, §7.11), batched per request. */
@Resolver(() => User)
export class UserFollowResolver {
  @FieldResolver(() => Boolean, {
    description:
      'Whether the caller follows this user: false when anonymous and on the caller’s own profile. ' +
      'Selected only where the contract shows a User with is_followed (article and collection authors).',
  })
  is_followed(@Root() user: User, @Ctx() ctx: RequestContext): Promise<boolean> {
    return viewerFollows(ctx).load(user.reference);
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const followSqlForms: readonly SqlForm[] = [
  // The same in SQL (src/graphql/sql-plan): false when anonymous and on the caller's own profile.
  sqlFields(User, {
    is_followed: sqlValue(
      (user, { viewer }) => `(${user}.reference <> ${viewer} and exists (select 1 from follow f
      where f.follower_reference = ${viewer} and f.followed_reference = ${user}.reference))`,
    ),
  }),
];
