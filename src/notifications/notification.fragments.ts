import { type Fragment, fragment } from '../rest/fragments';

/** The notifications' contract resources (src/rest/fragments.ts). */
export const notificationFragments: readonly Fragment[] = [
  /** The contract's Notification. */
  fragment(
    'NotificationFields',
    'Notification',
    '{ reference notification_type created seen initiator_user { ...UserFields } data }',
  ),
];
