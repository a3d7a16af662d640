import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../accounts/user.entity';
import type { NotificationType } from '../common/enums';
import { imageUrl } from '../common/scalars';
import { outboxOf } from '../db/entity-manager';
import { sql, type SqlFragment } from '../db/sql';

/** The anti-spam window of votes and follows (semantics §4). */
export const ANTI_SPAM_MS = 6 * 60 * 60 * 1000;

export const VOTE_NOTIFICATION_TYPES = ['comment_vote', 'collection_vote', 'article_vote'] as const;
export type VoteNotificationType = (typeof VOTE_NOTIFICATION_TYPES)[number];

const ANTI_SPAM_TYPES: ReadonlySet<NotificationType> = new Set<NotificationType>([
  ...VOTE_NOTIFICATION_TYPES,
  'follow',
]);

export interface NotificationRequest {
  /** Who receives it. */
  recipient: User;
  type: NotificationType;
  /** Shown as `initiator_user`: the user who caused it; null for system events and non-positive votes. */
  initiator: User | null;
  /**
   * The user who caused the event when it differs from the shown initiator (the voter
   * of a non-positive vote): the self rule and the anti-spam rule look at this user.
   * Defaults to `initiator`.
   */
  actor?: User | null;
  data: Record<string, unknown>;
  /**
   * Identifies the causing event (e.g. `comment:<reference>`, `follow:<follow reference>`):
   * one event never notifies the same recipient twice with the same type. Give each
   * occurrence of a repeatable event (a vote, a new follow) its own key; the 6-hour
   * anti-spam rule, not this key, limits repeats.
   */
  eventKey: string;
  /** For votes: the voted item (its reference), so that the anti-spam window is per item. */
  subject?: string;
  /** Time of the event, the notification's `created`; default now. */
  at?: Date;
}

/** A notification as written: its row of the `notification` table (`created` in ISO form). */
export interface CreatedNotification {
  reference: string;
  user_reference: string;
  initiator_user_reference: string | null;
  notification_type: NotificationType;
  data: Record<string, unknown>;
  event_key: string;
  subject: string | null;
  created: string;
}

/** A request that passed the rules that need no query. */
interface Candidate {
  request: NotificationRequest;
  at: Date;
  /** The anti-spam key stored in `subject`, for votes and follows. */
  spamKey: string | null;
}

const actorOf = (request: NotificationRequest): User | null =>
  request.actor === undefined ? request.initiator : request.actor;

/** The anti-spam key: who caused it and, for votes, which item (semantics §4). */
function spamKeyOf(request: NotificationRequest): string | null {
  const actor = actorOf(request);
  if (!ANTI_SPAM_TYPES.has(request.type) || !actor) return null;
  return request.subject === undefined ? actor.reference : `${actor.reference}:${request.subject}`;
}

/** One id per recipient, type and key (an event key or an anti-spam key), for the in-memory checks. */
const ruleId = (recipient: string, type: string, key: string) => `${recipient}\u0000${type}\u0000${key}`;

/**
 * Creates notifications in the caller's transaction, skipping every request a rule
 * of semantics §4 refuses: the type is ignored by the recipient; the recipient caused
 * it; the same event already notified them with that type; or (votes and follows) the
 * same user already notified them of that type (and item) within the 6 hours before
 * the event. Requests of one batch are checked against each other too. One look-up
 * per batch whatever its size, and one insert of the batch's notifications (not the
 * unit of work's: a write then has nothing for its flush to write). Returns the created
 * notifications.
 */
export async function notifyAll(
  em: EntityManager,
  requests: readonly NotificationRequest[],
): Promise<CreatedNotification[]> {
  const { created, insert } = await prepareNotifications(em, requests);
  if (insert) await em.execute(insert.sql, insert.params);
  return created;
}

/**
 * {@link notifyAll}'s look-up, and the insert it would send (null when every request
 * was skipped), for a caller that sends the insert with its other statements
 * (`executeInOrder`). The caller must send it in the same transaction: the created
 * notifications are announced to live subscriptions once that transaction commits.
 */
export async function prepareNotifications(
  em: EntityManager,
  requests: readonly NotificationRequest[],
): Promise<{ created: CreatedNotification[]; insert: SqlFragment | null }> {
  const candidates: Candidate[] = [];
  for (const request of requests) {
    const { recipient, type } = request;
    if (recipient.ignored_notifications.includes(type)) continue;
    const actor = actorOf(request);
    if (actor && actor.reference === recipient.reference) continue;
    candidates.push({ request, at: request.at ?? new Date(), spamKey: spamKeyOf(request) });
  }
  if (candidates.length === 0) return { created: [], insert: null };

  const recipients = [...new Set(candidates.map((c) => c.request.recipient.reference))];
  const eventKeys = [...new Set(candidates.map((c) => c.request.eventKey))];
  const spamKeys = [...new Set(candidates.flatMap((c) => (c.spamKey ? [c.spamKey] : [])))];
  const spamSince = new Date(Math.min(...candidates.map((c) => c.at.getTime())) - ANTI_SPAM_MS);
  // One look-up for both rules: the recipients' notifications of these events and, for
  // votes and follows, those of the anti-spam keys in the window. Each list is one value,
  // made an array before the scan (`= any(array(...))`): compared with a set-returning
  // function, the planner expects 100 values and scans every notification.
  const list = (values: readonly string[]) => JSON.stringify(values);
  const earlier = await em.execute<
    { user: string; type: string; event_key: string | null; subject: string | null; created: Date | null }[]
  >(
    `with recipient as (select array(select jsonb_array_elements_text(?::jsonb)::uuid) as users)
     select user_reference as "user", notification_type as type, event_key, null as subject, null::timestamptz as created
       from notification where user_reference = any((select users from recipient)::uuid[])
        and event_key = any(array(select jsonb_array_elements_text(?::jsonb)))${
          spamKeys.length === 0
            ? ''
            : `
     union all
     select user_reference, notification_type, null, subject, created
       from notification where user_reference = any((select users from recipient)::uuid[])
        and subject = any(array(select jsonb_array_elements_text(?::jsonb))) and created > ?`
        }`,
    [list(recipients), list(eventKeys), ...(spamKeys.length === 0 ? [] : [list(spamKeys), spamSince])],
  );
  const seenEvents = new Set(
    earlier.flatMap((n) => (n.event_key === null ? [] : [ruleId(n.user, n.type, n.event_key)])),
  );
  /** Times of the earlier notifications per anti-spam id, those of this batch included. */
  const spamTimes = new Map<string, number[]>();
  const addSpamTime = (id: string, at: number) => spamTimes.set(id, [...(spamTimes.get(id) ?? []), at]);
  for (const n of earlier) {
    if (n.subject !== null && n.created !== null)
      addSpamTime(ruleId(n.user, n.type, n.subject), new Date(n.created).getTime());
  }

  const created: CreatedNotification[] = [];
  for (const { request, at, spamKey } of candidates) {
    const { recipient, type, eventKey } = request;
    const event = ruleId(recipient.reference, type, eventKey);
    if (seenEvents.has(event)) continue;
    if (spamKey !== null) {
      const id = ruleId(recipient.reference, type, spamKey);
      const time = at.getTime();
      if ((spamTimes.get(id) ?? []).some((earlier) => earlier > time - ANTI_SPAM_MS && earlier <= time)) {
        continue;
      }
      addSpamTime(id, time);
    }
    seenEvents.add(event);
    created.push({
      reference: randomUUID(),
      user_reference: recipient.reference,
      initiator_user_reference: request.initiator?.reference ?? null,
      notification_type: type,
      data: request.data,
      event_key: eventKey,
      subject: spamKey,
      created: at.toISOString(),
    });
  }
  if (created.length === 0) return { created, insert: null };
  announceCreated(em, created);
  return {
    created,
    insert: sql(
      `insert into notification (reference, user_reference, initiator_user_reference, notification_type, data,
          event_key, subject, seen, created, updated)
       select reference, user_reference, initiator_user_reference, notification_type, data, event_key, subject,
          false, created, created
         from jsonb_to_recordset(?::jsonb) as n(reference uuid, user_reference uuid, initiator_user_reference uuid,
           notification_type text, data jsonb, event_key text, subject text, created timestamptz)`,
      JSON.stringify(created),
    ),
  };
}

/** Announces new notifications to their recipients' live subscriptions, once the work commits. */
function announceCreated(em: EntityManager, created: readonly CreatedNotification[]): void {
  const outbox = outboxOf(em);
  if (!outbox) return;
  const byUser = new Map<string, string[]>();
  for (const notification of created) {
    const user = notification.user_reference;
    byUser.set(user, [...(byUser.get(user) ?? []), notification.reference]);
  }
  for (const [user, references] of byUser) outbox.add({ user, created: references });
}

/**
 * Creates one notification in the caller's transaction unless a skip rule of
 * semantics §4 applies (see `notifyAll`). The one place that creates notifications:
 * every cause calls this (or `notifyAll`, or `notifyVote`). Returns the
 * notification, or null when skipped.
 */
export async function notify(
  em: EntityManager,
  request: NotificationRequest,
): Promise<CreatedNotification | null> {
  const [created] = await notifyAll(em, [request]);
  return created ?? null;
}

/** `username` and `avatar` (as served, an absolute URL) of a user, for notification data. */
export function userSnapshot(user: User): { username: string; avatar: string } {
  return { username: user.username, avatar: imageUrl(user.avatarOrDefault) };
}

export interface VoteEvent {
  type: VoteNotificationType;
  /** The author of the voted item. */
  recipient: User;
  voter: User;
  /** The voted item's reference: the anti-spam window is per item. */
  item: string;
  /** The type's data before the vote fields: comment data, or `{slug}` for collections and articles. */
  data: Record<string, unknown>;
  /** The voter's new vote (−1, 0 or 1). */
  userScore: number;
  /** The item's `vote_score` before and after the vote. */
  oldScore: number;
  newScore: number;
  /** Identifies this vote event; a fresh key by default (each vote is its own event). */
  eventKey?: string;
  at?: Date;
}

/**
 * The notification of a vote (semantics §4): none when the voter's new vote is 0
 * (a vote withdrawn); the voter is shown (`initiator_user`, `username`, `avatar`)
 * only for a positive vote, yet a negative vote still counts as the voter's for the
 * self rule and the 6-hour anti-spam window per item.
 */
export async function notifyVote(em: EntityManager, event: VoteEvent): Promise<CreatedNotification | null> {
  if (event.userScore === 0) return null;
  const positive = event.userScore > 0;
  const shown = positive ? userSnapshot(event.voter) : { username: null, avatar: null };
  return notify(em, {
    recipient: event.recipient,
    type: event.type,
    initiator: positive ? event.voter : null,
    actor: event.voter,
    data: {
      ...event.data,
      user_score: event.userScore,
      old_score: event.oldScore,
      new_score: event.newScore,
      ...shown,
    },
    eventKey: event.eventKey ?? `vote:${event.item}:${event.voter.reference}:${randomUUID()}`,
    subject: event.item,
    at: event.at,
  });
}
