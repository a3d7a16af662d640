import type { EntityManager } from '@mikro-orm/postgresql';
import { actionRecordSql } from '../accounts/actions';
import { User } from '../accounts/user.entity';
import { Article } from '../articles/article.entity';
import { Collection } from '../collections/collection.entity';
import { Comment } from '../comments/comment.entity';
import { requirePermissions } from '../common/auth/permissions';
import { requireScopes, type Viewer } from '../accounts/session';
import type { VoteContentType } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import { notifyVote, type VoteNotificationType } from '../notifications/notify';
import { Vote } from './vote.entity';
import { isUuid } from '../common/validation/uuid';
import { entityColumns, mapEntityRow, statementText } from '../db/entity-rows';
import { concatSql, sql } from '../db/sql';

/** A votable item: its reference, author, table and notification payload. */
interface VoteTarget {
  reference: string;
  author: User;
  table: 'collection' | 'comment' | 'article';
  notification: VoteNotificationType;
  data: Record<string, unknown>;
  /** Its `vote_score` as read. */
  voteScore: number;
}

/** The votable items by content type: their entity, how the look-up key matches, and which rows are there to vote on. */
const VOTED: Record<
  VoteContentType,
  { entity: typeof Article | typeof Collection | typeof Comment; key: string; live: string }
> = {
  article: { entity: Article, key: 'i.slug = ?', live: 'not i.deleted' },
  collection: { entity: Collection, key: 'i.reference = ?', live: 'not i.deleted' },
  comment: { entity: Comment, key: 'i.reference = ?', live: 'not i.deleted and not i.hidden' },
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
  const { entity, key, live } = VOTED[kind];
  const statement = statementText(
    em,
    `votes:target:${kind}:${lock}`,
    () => `select ${entityColumns(em, entity, 'i')}, ${entityColumns(em, User, 'u')}
        from "${em.getMetadata().get(entity.name).tableName}" i join "user" u on u.reference = i.author_reference
       where ${key} and ${live}${lock ? ' for no key update of i' : ''}`,
  );
  const [row] = await em.execute<Record<string, unknown>[]>(statement, [
    kind === 'article' ? slug : slug.toLowerCase(),
  ]);
  if (!row) throw notFound();
  const author = mapEntityRow(em, User, row, 'u')!;
  switch (kind) {
    case 'article': {
      const article = mapEntityRow(em, Article, row, 'i')!;
      return {
        reference: article.reference,
        author,
        table: 'article',
        notification: 'article_vote',
        data: { slug: article.slug },
        voteScore: article.vote_score,
      };
    }
    case 'collection': {
      const collection = mapEntityRow(em, Collection, row, 'i')!;
      if (collection.visibility === 'private' && author.reference !== viewer.user.reference) {
        throw notFound();
      }
      return {
        reference: collection.reference,
        author,
        table: 'collection',
        notification: 'collection_vote',
        data: { slug: collection.reference },
        voteScore: collection.vote_score,
      };
    }
    case 'comment': {
      const comment = mapEntityRow(em, Comment, row, 'i')!;
      return {
        reference: comment.reference,
        author,
        table: 'comment',
        notification: 'comment_vote',
        // Comment data (§4); `username`/`avatar` are the voter's, set by notifyVote.
        data: {
          slug: comment.preview.slug,
          content_type: comment.content_type,
          comment_reference: comment.reference,
          comment_depth: comment.depth,
          comment_text: comment.text,
          base_comment_reference: comment.thread_root?.reference ?? comment.reference,
        },
        voteScore: comment.vote_score,
      };
    }
  }
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
           update "${target.table}" set vote_score = (select sum from summed)${
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
