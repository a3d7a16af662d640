import { documentOf } from '../rest/fragments';
import type { RestRoute } from '../rest/route';
import { uuidParam } from '../rest/schemas';
import { NotificationFields } from './notification.fragments';

/** The caller's notifications (semantics §3.9) and contract #22; authentication required. */
export const notificationRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/notifications',
    auth: 'required',
    params: {},
    paged: true,
    rootField: 'notifications',
    document: documentOf(
      `query Notifications($page: Int, $size: Int) {
        notifications(page: $page, size: $size) {
          pagination { total pages page }
          list { ...NotificationFields }
        }
      }`,
      NotificationFields,
    ),
  },
  {
    method: 'GET',
    path: '/notifications/count',
    auth: 'required',
    params: {},
    rootField: 'notificationCount',
    document: `query NotificationCount { notificationCount { unseen } }`,
  },
  {
    contract: 22,
    method: 'POST',
    path: '/notifications/{notification_reference}/seen',
    auth: 'required',
    params: { notification_reference: uuidParam },
    rootField: 'markNotificationSeen',
    document: documentOf(
      `mutation MarkNotificationSeen($notification_reference: String!) {
        markNotificationSeen(notification_reference: $notification_reference) { ...NotificationFields }
      }`,
      NotificationFields,
    ),
  },
];
