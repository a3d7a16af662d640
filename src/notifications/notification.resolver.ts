import { wrap } from '@mikro-orm/core';
import DataLoader from 'dataloader';
import { Arg, Args, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { User } from '../accounts/user.entity';
import { ArgumentError } from '../common/errors/app-error';
import { PageArgs } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { Notification } from './notification.entity';
import { countUnseen, listNotifications, markNotificationSeen } from './notifications.service';
import { NotificationCount, NotificationPage } from './notification.types';
import { isUuid } from '../common/validation/uuid';

/**
 * The caller's notifications (semantics §3.9, §2 #22). `@Authorized()` authenticates
 * before the arguments are checked, as the REST door does.
 */
@Resolver(() => Notification)
export class NotificationResolver {
  @Authorized()
  @Query(() => NotificationPage, {
    description: "GET /notifications: the caller's notifications, newest first (scope read:notification).",
  })
  async notifications(
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<NotificationPage> {
    return listNotifications(ctx.em, await ctx.auth.required(), page);
  }

  @Authorized()
  @Query(() => NotificationCount, {
    description: "GET /notifications/count: the caller's unseen notifications (scope read:notification).",
  })
  async notificationCount(@Ctx() ctx: RequestContext): Promise<NotificationCount> {
    return new NotificationCount(await countUnseen(ctx.em, await ctx.auth.required()));
  }

  @Authorized()
  @Mutation(() => Notification, {
    description:
      'POST /notifications/{notification_reference}/seen (contract #22): marks the notification and every ' +
      'older unseen one of the caller as seen (scope seen:notification; owner only).',
  })
  async markNotificationSeen(
    @Arg('notification_reference', () => String) reference: string,
    @Ctx() ctx: RequestContext,
  ): Promise<Notification> {
    const viewer = await ctx.auth.required();
    // The REST path check, here after authentication as there (HTTP 400 either way).
    if (!isUuid(reference)) throw new ArgumentError('path', 'notification_reference');
    return markNotificationSeen(ctx.em, viewer, reference);
  }

  @FieldResolver(() => User, {
    nullable: true,
    description: 'The user who caused it (a User without is_followed).',
  })
  initiator_user(
    @Root() notification: Notification,
    @Ctx() ctx: RequestContext,
  ): Promise<User | null> | User | null {
    const user = notification.initiator_user;
    // The services populate it; a notification loaded elsewhere is completed in one batch.
    if (!user || wrap(user).isInitialized()) return user;
    return usersByReference(ctx).load(user.reference);
  }
}

/** Users by reference, batched per request (null for a user that no longer exists). */
function usersByReference(ctx: RequestContext): DataLoader<string, User | null> {
  return ctx.loader(
    'notifications:users',
    () =>
      new DataLoader<string, User | null>(async (references) => {
        const users = await ctx.em.find(User, { reference: { $in: [...references] } });
        const byReference = new Map(users.map((user) => [user.reference, user]));
        return references.map((reference) => byReference.get(reference) ?? null);
      }),
  );
}
