import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../accounts/user.entity';
import type { NotificationType } from '../common/enums';
import { Notification } from './notification.entity';

const ANTI_SPAM_MS = 6 * 60 * 60 * 1000;
const ANTI_SPAM_TYPES: ReadonlySet<NotificationType> = new Set([
  'comment_vote',
  'collection_vote',
  'article_vote',
  'follow',
]);

export interface NotificationRequest {
  /** Who receives it. */
  recipient: User;
  type: NotificationType;
  /** The user who caused it; null for system events and non-positive votes. */
  initiator: User | null;
  data: Record<string, unknown>;
  /**
   * Identifies the causing event (e.g. `comment:<reference>`, `vote:<content>:<voter>`):
   * one event never notifies the same recipient twice with the same type.
   */
  eventKey: string;
  /** For votes: the voted item, so that the anti-spam window is per item. */
  subject?: string;
}

/**
 * Creates a notification in the caller's transaction, unless a skip rule of
 * semantics §4 applies: the type is ignored by the recipient, the recipient caused
 * it, the same event already notified them, or (votes and follows) the same
 * initiator already notified them of the same kind (and item) in the last 6 hours.
 * Returns the notification, or null when skipped.
 */
export async function notify(em: EntityManager, request: NotificationRequest): Promise<Notification | null> {
  const { recipient, type, initiator, data, eventKey, subject = null } = request;
  if (recipient.ignored_notifications.includes(type)) return null;
  if (initiator && initiator.reference === recipient.reference) return null;
  const duplicate = await em.count(Notification, {
    user: recipient.reference,
    notification_type: type,
    event_key: eventKey,
  });
  if (duplicate > 0) return null;
  if (ANTI_SPAM_TYPES.has(type) && initiator) {
    const recent = await em.count(Notification, {
      user: recipient.reference,
      notification_type: type,
      initiator_user: initiator.reference,
      created: { $gt: new Date(Date.now() - ANTI_SPAM_MS) },
      ...(subject === null ? {} : { subject }),
    });
    if (recent > 0) return null;
  }
  return em.create(Notification, {
    user: em.getReference(User, recipient.reference),
    initiator_user: initiator ? em.getReference(User, initiator.reference) : null,
    notification_type: type,
    data,
    event_key: eventKey,
    subject,
    seen: false,
    created: new Date(),
    updated: new Date(),
  });
}
