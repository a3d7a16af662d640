import { UserFields } from '../accounts/accounts.fragments';
import { fragment } from '../rest/fragments';

/** The contract's Notification. */
export const NotificationFields = fragment(
  'NotificationFields',
  'Notification',
  '{ reference notification_type created seen initiator_user { ...UserFields } data }',
  [UserFields],
);
