import type { EntityManager } from '@mikro-orm/postgresql';
import { actionRecordSql } from '../accounts/actions';
import { User } from '../accounts/user.entity';
import { requirePermissions } from '../common/auth/permissions';
import { requireScopes, type Viewer } from '../accounts/session';
import type { VoteContentType } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import { notifyVote, type VoteNotificationType } from '../notifications/notify';
import { Vote } from './vote.entity';
import { isUuid } from '../common/validation/uuid';
import { entityColumns, mapEntityRow, statementText } from '../db/entity-rows';
import { concatSql, sql } from '../db/sql';

/** A votable item: its reference, author and notification payload. */
interface VoteTarget {
  reference: string;
  author: User;
  notification: VoteNotificationType;
  data: Record<string, unknown>;
  /** Its `vote_score` as read. */
  voteScore: number;
}

/**
 * The votable items by content type, in SQL: how the look-up key matches, which rows
 * are there to vote on, whether the caller may see a row as its author only, and the
 * payload of the notification a vote sends. Votes sit below the domains of the items
 * (which show the caller's vote), so they read the items' tables without their entities.
 */
const VOTED: Record<
  VoteContentType,
  { key: string; live: string; authorOnly: string; notification: VoteNotificationType; data: string }
> = {
  article: {
    key: 'i.slug = ?',
    live: 'not i.deleted',
    authorOnly: 'false',
    notification: 'article_vote',
    data: "json_build_object('slug', i.slug)",
  },
  collection: {
    key: 'i.reference = ?',
    live: 'not i.deleted',
    authorOnly: "i.visibility = 'private'",
    notification: 'collection_vote',
    data: "json_build_object('slug', i.reference)",
  },
  comment: {
    key: 'i.reference = ?',
    live: 'not i.deleted and not i.hidden',
    authorOnly: 'false',
    notification: 'comment_vote',
    // Comment data (§4); `username`/`avatar` are the voter's, set by notifyVote.
    data: `json_build_object('slug', i.preview->>'slug', 'content_type', i.content_type,
      'comment_reference', i.reference, 'comment_depth', i.depth, 'comment_text', i.text,
      'base_comment_reference', coalesce(i.thread_root_reference, i.reference))`,
  },
};

/**
 * The look-up of §1.8 for votes: a collection by reference (a private one only for
 * its author), a comment by reference (not hidden), an article by exact slug; never
 * deleted. Anything else → 404 `vote:content_not_found`. With `lock`, the item's row
 * is locked in the same statement (concurrent votes on it then run one after another,
 * and its key stays free: a reply to a voted comment need not wait); it answers the
 * item as it stands once the lock is granted.
 */
async function findTarget(
  em: EntityManager,
  viewer: Viewer,
  kind: VoteContentType,
  slug: string,
  { lock }: { lock: boolean },
): Promise<VoteTarget> {
  const notFound = () => new AppError('vote:content_not_found');
  if (kind !== 'article' && !isUuid(slug)) throw notFound();
  const { key, live, authorOnly, notification, data } = VOTED[kind];
  const statement = statementText(
    em,
    `votes:target:${kind}:${lock}`,
    () => `select i.reference, i.vote_score, ${data} as data, ${authorOnly} as author_only,
        ${entityColumns(em, User, 'u')}
        from "${kind}" i join "user" u on u.reference = i.author_reference
       where ${key} and ${live}${lock ? ' for no key update of i' : ''}`,
  );
  const [row] = await em.execute<Record<string, unknown>[]>(statement, [
    kind === 'article' ? slug : slug.toLowerCase(),
  ]);
  if (!row) throw notFound();
  const author = mapEntityRow(em, User, row, 'u')!;
  if (row.author_only && author.reference !== viewer.user.reference) throw notFound();
  return {
    reference: row.reference as string,
    author,
    notification,
    data: row.data as Record<string, unknown>,
    voteScore: row.vote_score as number,
  };
}

/**
 * PUT /vote/{content_type}/{slug}: look-up → permission `vote:set` and scope
 * `set:vote`; upserts the caller's vote and sets the item's `vote_score` (and a
 * collection's `system_ranking`) to the sum of its votes, in one transaction with
 * the notification and the `vote_set` action.
 */
export function setVote(
  em: EntityManager,
  viewer: Viewer,
  kind: VoteContentType,
  slug: string,
  score: number,
): Promise<number> {
  return em.transactional(async (tx) => {
    const target = await findTarget(tx, viewer, kind, slug, { lock: true });
    requirePermissions(viewer.user, ['vote:set']);
    requireScopes(viewer, ['set:vote']);
    const oldScore = target.voteScore;
    // The caller's vote, the item's new sum and the action record in one statement: the
    // sum is the others' votes as committed (the lock lets no other vote on the item in)
    // plus this one.
    const statement = concatSql(
      sql(
        `with voted as (
           insert into vote (reference, user_reference, content_type, content_reference, score, created, updated)
           values (gen_random_uuid(), ?, ?, ?, ?, now(), now())
           on conflict (user_reference, content_type, content_reference)
           do update set score = excluded.score, updated = excluded.updated
           returning score
         ),
         summed as (
           select (select score from voted) + coalesce(sum(score), 0) as sum from vote
            where content_type = ? and content_reference = ? and user_reference <> ?
         ),
         stored as (
           update "${kind}" set vote_score = (select sum from summed)${
             kind === 'collection' ? ', system_ranking = (select sum from summed)' : ''
           } where reference = ?
         ),
         recorded as (`,
        viewer.user.reference,
        kind,
        target.reference,
        score,
        kind,
        target.reference,
        viewer.user.reference,
        target.reference,
      ),
      actionRecordSql(viewer.user.reference, 'vote_set', target.reference),
      ') select sum from summed',
    );
    const [{ sum }] = await tx.execute<{ sum: string }[]>(statement.sql, statement.params);
    const newScore = Number(sum);
    await notifyVote(tx, {
      type: target.notification,
      recipient: target.author,
      voter: viewer.user,
      item: target.reference,
      data: target.data,
      userScore: score,
      oldScore,
      newScore,
    });
    return score;
  });
}

/** GET /vote/{content_type}/{slug}: look-up → scope `read:vote` → the caller's vote or 404 `vote:not_found`. */
export async function getVote(
  em: EntityManager,
  viewer: Viewer,
  kind: VoteContentType,
  slug: string,
): Promise<number> {
  const target = await findTarget(em, viewer, kind, slug, { lock: false });
  requireScopes(viewer, ['read:vote']);
  const vote = await em.findOne(Vote, {
    user: viewer.user.reference,
    content_type: kind,
    content_reference: target.reference,
  });
  if (!vote) throw new AppError('vote:not_found');
  return vote.score;
}
