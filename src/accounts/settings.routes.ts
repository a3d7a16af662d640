import type { RestRoute } from '../rest/route';
import { oneOf } from '../rest/schemas';
import {
  DESCRIPTION_SPEC,
  EMAIL_SPEC,
  IMAGE_TYPES,
  NOTIFICATION_SETTINGS_SPEC,
  PASSWORD_SPEC,
  USERNAME_SPEC,
} from './settings.types';

/** A settings write that answers the caller's User. */
const userWrite = (
  field: 'description' | 'username' | 'email' | 'password',
  root: string,
  input: string,
  body: RestRoute['body'],
  summary: string,
  description: string,
  errors?: RestRoute['errors'],
): RestRoute => ({
  method: 'PUT',
  path: `/settings/${field}`,
  summary,
  description,
  auth: 'required',
  ...(errors ? { errors } : {}),
  params: {},
  body,
  rootField: root,
  document: `mutation ${root[0].toUpperCase()}${root.slice(1)}($input: ${input}!) { ${root}(input: $input) { ...UserFields } }`,
});

/** The settings pages (pages.md "Settings"). */
export const settingsRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/settings/notifications',
    summary: 'The notification types you ignore',
    description: 'The notification types the caller receives none of.',
    auth: 'required',
    params: {},
    rootField: 'notificationSettings',
    document: `query NotificationSettings { notificationSettings { ignored_notifications } }`,
  },
  {
    method: 'PUT',
    path: '/settings/notifications',
    summary: 'Choose the notification types you ignore',
    description:
      'Replaces the notification types the caller receives none of: distinct types (`hikka_update` stands for `system_update`). Answers the stored list.',
    auth: 'required',
    params: {},
    body: NOTIFICATION_SETTINGS_SPEC,
    rootField: 'updateNotificationSettings',
    document: `mutation UpdateNotificationSettings($input: NotificationSettingsInput!) {
        updateNotificationSettings(input: $input) { ignored_notifications }
      }`,
  },
  userWrite(
    'description',
    'updateDescription',
    'DescriptionInput',
    DESCRIPTION_SPEC,
    'Change your profile text',
    'Sets the profile text (at most 140 characters, leading and trailing newlines removed); null or blank clears it.',
  ),
  userWrite(
    'username',
    'updateUsername',
    'UsernameInput',
    USERNAME_SPEC,
    'Change your username',
    'A new username with the signup rules, at most once an hour (429 `settings:username_cooldown`); a reserved name is refused, and one another account has answers 409.',
    [409],
  ),
  userWrite(
    'email',
    'updateEmail',
    'EmailInput',
    EMAIL_SPEC,
    'Change your email',
    'A new address with the signup rules, at most once a day (429 `settings:email_cooldown`); one any account uses answers 409. It is sent an activation link (3 hours) and replaces the email once the link is opened.',
    [409],
  ),
  userWrite(
    'password',
    'updatePassword',
    'PasswordInput',
    PASSWORD_SPEC,
    'Change your password',
    'A new password of 8..256 characters; the current tokens stay valid.',
  ),
  {
    method: 'DELETE',
    path: '/settings/image/{image_type}',
    summary: 'Remove your avatar or cover',
    description: 'Clears the avatar (the default one shows again) or the cover.',
    auth: 'required',
    params: { image_type: oneOf(IMAGE_TYPES) },
    rootField: 'deleteImage',
    document: `mutation DeleteImage($image_type: ImageType!) { deleteImage(image_type: $image_type) { ...UserFields } }`,
  },
];
