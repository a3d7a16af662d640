import { Field, InputType, ObjectType } from 'type-graphql';
import { NOTIFICATION_TYPES, type NotificationType } from '../common/enums';
import { NotificationTypeEnum } from '../common/scalars';
import { registerInputSpec } from '../common/validation/input-specs';
import { namedCheck } from '../common/validation/json-schema';
import { emailField, passwordField, usernameField } from './accounts.types';

/** `hikka_update`, the original's name of `system_update`, is accepted in requests (pages.md decision 2). */
const NOTIFICATION_ALIASES: Readonly<Record<string, NotificationType>> = { hikka_update: 'system_update' };

/** A notification type as given, its alias resolved; undefined for an unknown one. */
export const notificationTypeOf = (given: string): NotificationType | undefined =>
  NOTIFICATION_ALIASES[given] ?? NOTIFICATION_TYPES.find((type) => type === given);

/** Distinct notification types (an alias and its type are the same one). */
const distinctNotificationTypes = namedCheck('distinct notification types', (value) => {
  if (!Array.isArray(value)) return false;
  const types = value.map((given) => (typeof given === 'string' ? notificationTypeOf(given) : undefined));
  return types.every((type) => type !== undefined) && new Set(types).size === types.length;
});

/** The caller's notification settings: the types they receive none of. */
@ObjectType()
export class NotificationSettings {
  @Field(() => [NotificationTypeEnum], { description: 'Notification types the caller receives none of.' })
  ignored_notifications!: NotificationType[];
}

@InputType({
  description: 'PUT /settings/notifications: the types to receive none of (`hikka_update` = system_update).',
})
export class NotificationSettingsInput {
  @Field(() => [String])
  ignored_notifications!: string[];
}
export const NOTIFICATION_SETTINGS_SPEC = registerInputSpec(NotificationSettingsInput, {
  properties: {
    ignored_notifications: { type: 'array', items: { type: 'string' }, ...distinctNotificationTypes },
  },
  required: ['ignored_notifications'],
});

@InputType({ description: 'PUT /settings/description: at most 140 characters; null or blank clears it.' })
export class DescriptionInput {
  @Field(() => String, { nullable: true })
  description?: string | null;
}
export const DESCRIPTION_SPEC = registerInputSpec(DescriptionInput, {
  properties: { description: { type: ['string', 'null'], maxLength: 140 } },
});

@InputType({ description: 'PUT /settings/username: a new username, with the signup rules.' })
export class UsernameInput {
  @Field(() => String)
  username!: string;
}
export const USERNAME_SPEC = registerInputSpec(UsernameInput, {
  properties: { username: usernameField },
  required: ['username'],
});

@InputType({
  description: 'PUT /settings/email: a new address, with the signup rules; it takes effect once confirmed.',
})
export class EmailInput {
  @Field(() => String)
  email!: string;
}
export const EMAIL_SPEC = registerInputSpec(EmailInput, {
  properties: { email: emailField },
  required: ['email'],
});

@InputType({ description: 'PUT /settings/password: a new password of 8..256 characters.' })
export class PasswordInput {
  @Field(() => String)
  password!: string;
}
export const PASSWORD_SPEC = registerInputSpec(PasswordInput, {
  properties: { password: passwordField },
  required: ['password'],
});

/** The images a user can clear. */
export const IMAGE_TYPES = ['avatar', 'cover'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];
