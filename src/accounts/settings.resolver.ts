import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { valueListType } from '../common/scalars/value-list';
import type { RequestContext } from '../context';
import {
  deleteImage,
  notificationSettings,
  updateDescription,
  updateEmail,
  updateNotificationSettings,
  updatePassword,
  updateUsername,
} from './settings.service';
import {
  DescriptionInput,
  EmailInput,
  IMAGE_TYPES,
  type ImageType,
  NotificationSettings,
  NotificationSettingsInput,
  PasswordInput,
  UsernameInput,
} from './settings.types';
import { User } from './user.entity';

export const ImageTypeEnum = valueListType('ImageType', IMAGE_TYPES);

/**
 * The caller's settings (pages.md "Settings"): required authentication and no permission;
 * each write checks its scope, then its rules, and answers the caller's User.
 */
@Resolver()
export class SettingsResolver {
  @Authorized()
  @Query(() => NotificationSettings, {
    description:
      'GET /settings/notifications: the notification types the caller ignores (scope read:user-details).',
  })
  async notificationSettings(@Ctx() ctx: RequestContext): Promise<NotificationSettings> {
    return notificationSettings(await ctx.auth.required());
  }

  @Authorized()
  @Mutation(() => NotificationSettings, {
    description:
      'PUT /settings/notifications: replaces the ignored notification types (scope update:user-details).',
  })
  async updateNotificationSettings(
    @Arg('input', () => NotificationSettingsInput) input: NotificationSettingsInput,
    @Ctx() ctx: RequestContext,
  ): Promise<NotificationSettings> {
    return updateNotificationSettings(ctx.em, await ctx.auth.required(), input.ignored_notifications);
  }

  @Authorized()
  @Mutation(() => User, {
    description: 'PUT /settings/description: the profile text (scope update:user-details:description).',
  })
  async updateDescription(
    @Arg('input', () => DescriptionInput) input: DescriptionInput,
    @Ctx() ctx: RequestContext,
  ): Promise<User> {
    return updateDescription(ctx.em, await ctx.auth.required(), input.description);
  }

  @Authorized()
  @Mutation(() => User, {
    description: 'PUT /settings/username: a new username, once an hour (scope update:user-details:username).',
  })
  async updateUsername(
    @Arg('input', () => UsernameInput) input: UsernameInput,
    @Ctx() ctx: RequestContext,
  ): Promise<User> {
    return updateUsername(ctx, await ctx.auth.required(), input.username);
  }

  @Authorized()
  @Mutation(() => User, {
    description:
      'PUT /settings/email: a new address, once a day; it takes effect when its activation link is opened (scope update:user-details:email).',
  })
  async updateEmail(
    @Arg('input', () => EmailInput) input: EmailInput,
    @Ctx() ctx: RequestContext,
  ): Promise<User> {
    return updateEmail(ctx, await ctx.auth.required(), input.email);
  }

  @Authorized()
  @Mutation(() => User, {
    description: 'PUT /settings/password: a new password (scope update:user-details:password).',
  })
  async updatePassword(
    @Arg('input', () => PasswordInput) input: PasswordInput,
    @Ctx() ctx: RequestContext,
  ): Promise<User> {
    return updatePassword(ctx.em, await ctx.auth.required(), input.password);
  }

  @Authorized()
  @Mutation(() => User, {
    description:
      'DELETE /settings/image/{image_type}: clears the avatar (back to the default) or the cover (scopes delete:user-details:image and delete:user-details:cover).',
  })
  async deleteImage(
    @Arg('image_type', () => ImageTypeEnum) type: ImageType,
    @Ctx() ctx: RequestContext,
  ): Promise<User> {
    return deleteImage(ctx.em, await ctx.auth.required(), type);
  }
}
