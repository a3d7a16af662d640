import { Arg, Authorized, Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import type { NotificationType } from '../common/enums';
import { NotificationTypeEnum } from '../common/scalars';
import type { RequestContext } from '../context';
import { sqlRoot, type SqlForm } from '../graphql/sql-plan/fields';
import { requireScopes } from './session';
import { User } from './user.entity';
import { findUserByUsername, userSubject } from './users.service';

const READ_USER_DETAILS = ['read:user-details'];
const READ_FOLLOW = ['read:follow'];

/**
 * The caller's own account: a view of the caller's User row that also shows what only
 * its owner sees. The `me` resolver answers the User entity itself; these fields read
 * its properties of the same names.
 */
@ObjectType('UserWithEmail', {
  description: 'The caller’s own account: every User field, its email and the notification types it ignores.',
})
export class OwnAccount extends User {
  @Field(() => String)
  declare email: string;

  @Field(() => [NotificationTypeEnum], { description: 'Notification types the caller receives none of.' })
  declare ignored_notifications: NotificationType[];
}

@Resolver()
export class ProfileResolver {
  /** GET /user/me: required authentication, scope `read:user-details`. */
  @Authorized()
  @Query(() => OwnAccount, { description: 'GET /user/me: the signed-in account (scope read:user-details).' })
  async me(@Ctx() ctx: RequestContext): Promise<User> {
    const viewer = await ctx.auth.required();
    requireScopes(viewer, READ_USER_DETAILS);
    return viewer.user;
  }

  /** GET /user/{username}: optional authentication, scope `read:follow` (for `is_followed`). */
  @Query(() => User, {
    description:
      'GET /user/{username}: a profile, found by username ignoring case; select is_followed for the caller.',
  })
  async user(@Arg('username', () => String) username: string, @Ctx() ctx: RequestContext): Promise<User> {
    await ctx.auth.optional();
    const user = await findUserByUsername(ctx.em, username);
    await ctx.auth.optional(READ_FOLLOW);
    return user;
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const profileSqlForms: readonly SqlForm[] = [
  // The caller's own row; the caller is resolved (and refused) before the statement runs.
  sqlRoot('me', {
    kind: 'one',
    type: OwnAccount,
    authentication: 'required',
    rows: (user, _args, _subject, table, { viewer }) => ({
      from: `${table} ${user}`,
      where: `${user}.reference = ${viewer}`,
    }),
    scopes: READ_USER_DETAILS,
  }),
  // findUserByUsername: ignoring case, a deleted account refused once found.
  sqlRoot('user', {
    kind: 'one',
    type: User,
    subject: (args) => userSubject(String(args.username)),
    rows: (user, _args, subject, table) => ({
      from: `${table} ${user}`,
      where: `${user}.reference = ${subject}`,
    }),
    scopes: READ_FOLLOW,
  }),
];
