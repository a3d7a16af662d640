import { Reference } from '@mikro-orm/core';
import {
  Arg,
  Args,
  Authorized,
  Ctx,
  FieldResolver,
  Mutation,
  Query,
  Resolver,
  Root,
  Subscription,
  type SubscribeResolverData,
} from 'type-graphql';
import { User } from '../accounts/user.entity';
import { PageArgs } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { sql } from '../db/sql';
import { sqlFields, sqlRelation, sqlRoot, sqlRowType, type SqlForm } from '../graphql/sql-plan/fields';
import { Notification } from './notification.entity';
import {
  countUnseen,
  listNotifications,
  markNotificationSeen,
  notificationsQuery,
} from './notifications.service';
import { NotificationCount, NotificationPage } from './notification.types';
import { pathReference } from '../common/validation/uuid';
import { AppError } from '../common/errors/app-error';
import { requireScopes } from '../accounts/session';
import type { NotificationFeed } from './live/notification-feed';

/**
 * A subscription's `subscribe`: the caller (scope read:notification) and their stream from
 * the connection's feed, whose overflow drops the connection.
 */
function subscribeTo<T>(
  open: (feed: NotificationFeed, user: string, onOverflow: () => void) => AsyncIterableIterator<T>,
) {
  return async ({ context }: SubscribeResolverData<unknown, object, RequestContext>) => {
    const viewer = await context.auth.required();
    requireScopes(viewer, ['read:notification']);
    // Over HTTP there is no connection to push to: subscriptions need the WebSocket at /graphql.
    const { live } = context;
    if (!live) throw new AppError('system:validation_error');
    return open(live.feed, viewer.user.reference, () => live.dropSlowConsumer());
  };
}

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
    return markNotificationSeen(ctx.em, viewer, pathReference(reference, 'notification_reference'));
  }

  @Authorized()
  @Subscription(() => Notification, {
    description:
      "The caller's notifications as they are created, in the shape of GET /notifications' list " +
      '(scope read:notification; over the WebSocket at /graphql, graphql-ws protocol).',
    subscribe: subscribeTo((feed, user, onOverflow) => feed.created(user, onOverflow)),
  })
  notificationCreated(@Root() notification: Notification): Notification {
    return notification;
  }

  @Authorized()
  @Subscription(() => NotificationCount, {
    name: 'notificationCount',
    description:
      "The caller's unseen count, as GET /notifications/count: once on subscribing, then after every change " +
      '(scope read:notification; over the WebSocket at /graphql, graphql-ws protocol).',
    subscribe: subscribeTo((feed, user, onOverflow) => feed.counts(user, onOverflow)),
  })
  liveNotificationCount(@Root() count: NotificationCount): NotificationCount {
    return count;
  }

  @FieldResolver(() => User, {
    nullable: true,
    description: 'The user who caused it (a User without is_followed).',
  })
  initiator_user(@Root() notification: Notification): Promise<User | null> | null {
    const user = notification.initiator_user;
    // The services populate it; a notification loaded elsewhere goes through MikroORM's batched reference loader.
    return user ? Reference.create(user).load() : null;
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const notificationSqlForms: readonly SqlForm[] = [
  // GET /notifications/count in one SQL statement (src/graphql/sql-plan): the badge frontends poll.
  sqlRoot('notificationCount', {
    kind: 'one',
    type: NotificationCount,
    authentication: 'required',
    rows: (count, _args, _subject, _table, { viewer }) => ({
      from: `(select count(*)::integer as unseen from notification n
      where n.user_reference = ${viewer} and not n.seen) ${count}`,
    }),
    scopes: ['read:notification'],
  }),
  sqlRowType(NotificationCount),
  // GET /notifications likewise, a page of the caller's own.
  sqlRoot('notifications', {
    kind: 'page',
    item: Notification,
    authentication: 'required',
    query: async (ctx) => notificationsQuery(sql('?', (await ctx.auth.required()).user.reference)),
    scopes: ['read:notification'],
  }),
  sqlFields(Notification, { initiator_user: sqlRelation }),
];
