import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Follow } from '../accounts/follow.entity';
import { User } from '../accounts/user.entity';
import { findUserByUsername } from '../accounts/users.service';
import { requireScopes, type Viewer } from '../accounts/session';
import { AppError } from '../common/errors/app-error';
import { executeInOrder, sql } from '../db/sql';
import { prepareNotifications, userSnapshot } from '../notifications/notify';

const findFollow = (em: EntityManager, follower: User, followed: User) =>
  em.findOne(Follow, { follower: follower.reference, followed: followed.reference });

/** One follow to make: who follows whom, since when. */
export interface NewFollow {
  follower: User;
  followed: User;
  at: Date;
}

/**
 * Follows, in the caller's transaction, each with the `follow` notification of the
 * followed user (§4: its skip and anti-spam rules apply) and the action `follow`; a
 * constant number of statements for any number of follows (the demo seeder makes them
 * all at once): the notifications' look-up, then in one round trip the follows with
 * their action records, and the notifications.
 * A pair that already follows (a concurrent follow included) is left as it is and
 * fails the whole call: 409 `follow:already_following`. Returns the follows' references.
 */
export async function addFollows(tx: EntityManager, follows: readonly NewFollow[]): Promise<string[]> {
  const rows = follows.map(({ follower, followed, at }) => ({
    reference: randomUUID(),
    follower: follower.reference,
    followed: followed.reference,
    at: at.toISOString(),
  }));
  const notifications = await prepareNotifications(
    tx,
    follows.map(({ follower, followed, at }, i) => ({
      recipient: followed,
      type: 'follow' as const,
      initiator: follower,
      data: userSnapshot(follower),
      eventKey: `follow:${rows[i].reference}`,
      at,
    })),
  );
  const [inserted] = await executeInOrder(tx, [
    sql(
      `with inserted as (
         insert into follow (reference, follower_reference, followed_reference, created)
         select reference, follower, followed, at from jsonb_to_recordset(?::jsonb)
           as f(reference uuid, follower uuid, followed uuid, at timestamptz)
         on conflict (follower_reference, followed_reference) do nothing
         returning reference, follower_reference, followed_reference, created
       ),
       recorded as (
         insert into action_record (type, user_reference, target, created)
         select 'follow', follower_reference, followed_reference::text, created from inserted
       )
       select reference from inserted`,
      JSON.stringify(rows),
    ),
    ...(notifications.insert ? [notifications.insert] : []),
  ]);
  // The failure undoes the notifications sent with it.
  if (inserted.length < rows.length) throw new AppError('follow:already_following');
  return rows.map((row) => row.reference);
}

/**
 * Makes `follower` follow `followed` at time `at`, with the rules after the look-up
 * (semantics §3.9): 400 `follow:self`, then 409 `follow:already_following`.
 */
export function createFollow(
  em: EntityManager,
  follower: User,
  followed: User,
  at = new Date(),
): Promise<string> {
  if (follower.reference === followed.reference) throw new AppError('follow:self');
  // No look-up first: the insert itself answers 409 when the pair already follows.
  return em.transactional(async (tx) => {
    const [follow] = await addFollows(tx, [{ follower, followed, at }]);
    return follow;
  });
}

/** PUT /follow/{username}: user look-up → scope `follow` → the follow rules. */
export async function followUser(em: EntityManager, viewer: Viewer, username: string): Promise<void> {
  const followed = await findUserByUsername(em, username);
  requireScopes(viewer, ['follow']);
  await createFollow(em, viewer.user, followed);
}

/** DELETE /follow/{username}: user look-up → scope `unfollow` → 400 `follow:not_following`. */
export async function unfollowUser(em: EntityManager, viewer: Viewer, username: string): Promise<void> {
  const followed = await findUserByUsername(em, username);
  requireScopes(viewer, ['unfollow']);
  const deleted = await em.nativeDelete(Follow, {
    follower: viewer.user.reference,
    followed: followed.reference,
  });
  if (deleted === 0) throw new AppError('follow:not_following');
}

/** GET /follow/{username}: user look-up → scope `read:follow` → whether the caller follows the user. */
export async function isFollowing(em: EntityManager, viewer: Viewer, username: string): Promise<boolean> {
  const followed = await findUserByUsername(em, username);
  requireScopes(viewer, ['read:follow']);
  return (await findFollow(em, viewer.user, followed)) !== null;
}
