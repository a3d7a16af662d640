import type { RestRoute } from '../rest/route';
import { uuidParam } from '../rest/schemas';

/** The caller's notifications (semantics §3.9) and contract #22; authentication required. */
export const notificationRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/notifications',
    summary: 'Your notifications',
    description:
      "The caller's notifications (new followers, replies, mentions, votes, new episodes, app logins, ...), newest first.",
    auth: 'required',
    params: {},
    paged: true,
    rootField: 'notifications',
    document: `query Notifications($page: Int, $size: Int) {
        notifications(page: $page, size: $size) {
          pagination { total pages page }
          list { ...NotificationFields }
        }
      }`,
  },
  {
    method: 'GET',
    path: '/notifications/count',
    summary: 'Your unseen notification count',
    description:
      "How many of the caller's notifications are unseen, as `{unseen}`; the `notificationCount` subscription sends it live.",
    auth: 'required',
    params: {},
    rootField: 'notificationCount',
    document: `query NotificationCount { notificationCount { unseen } }`,
  },
  {
    contract: 22,
    method: 'POST',
    path: '/notifications/{notification_reference}/seen',
    summary: 'Mark notifications as seen',
    description:
      'Marks the notification, and every older unseen one of the caller, as seen. Answers that notification.',
    auth: 'required',
    params: { notification_reference: uuidParam },
    rootField: 'markNotificationSeen',
    document: `mutation MarkNotificationSeen($notification_reference: String!) {
        markNotificationSeen(notification_reference: $notification_reference) { ...NotificationFields }
      }`,
  },
];
