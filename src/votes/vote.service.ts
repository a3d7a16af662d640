import type { EntityManager } from '@mikro-orm/postgresql';
import { recordAction } from '../accounts/actions';
import { User } from '../accounts/user.entity';
import { Article } from '../articles/article.entity';
import { Collection } from '../collections/collection.entity';
import { Comment } from '../comments/comment.entity';
import { requirePermissions } from '../common/auth/permissions';
import { requireScopes, type Viewer } from '../common/auth/session';
import type { VoteContentType } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import { notifyVote, type VoteNotificationType } from '../notifications/notify';
import { Vote } from './vote.entity';
import { isUuid } from '../common/validation/uuid';

/** A votable item: its reference, author, table and notification payload. */
interface VoteTarget {
  reference: string;
  author: User;
  table: 'collection' | 'comment' | 'article';
  notification: VoteNotificationType;
  data: Record<string, unknown>;
}

/**
 * The look-up of §1.8 for votes: a collection by reference (a private one only for
 * its author), a comment by reference (not hidden), an article by exact slug; never
 * deleted. Anything else → 404 `vote:content_not_found`.
 */
async function findTarget(
  em: EntityManager,
  viewer: Viewer,
  kind: VoteContentType,
  slug: string,
): Promise<VoteTarget> {
  const notFound = () => new AppError('vote:content_not_found');
  switch (kind) {
    case 'article': {
      const article = await em.findOne(Article, { slug, deleted: false }, { populate: ['author'] });
      if (!article) throw notFound();
      return {
        reference: article.reference,
        author: article.author,
        table: 'article',
        notification: 'article_vote',
        data: { slug: article.slug },
      };
    }
    case 'collection': {
      if (!isUuid(slug)) throw notFound();
      const collection = await em.findOne(
        Collection,
        { reference: slug.toLowerCase(), deleted: false },
        { populate: ['author'] },
      );
      if (!collection) throw notFound();
      if (collection.visibility === 'private' && collection.author.reference !== viewer.user.reference) {
        throw notFound();
      }
      return {
        reference: collection.reference,
        author: collection.author,
        table: 'collection',
        notification: 'collection_vote',
        data: { slug: collection.reference },
      };
    }
    case 'comment': {
      if (!isUuid(slug)) throw notFound();
      const comment = await em.findOne(
        Comment,
        { reference: slug.toLowerCase(), deleted: false, hidden: false },
        { populate: ['author'] },
      );
      if (!comment) throw notFound();
      return {
        reference: comment.reference,
        author: comment.author,
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
    const target = await findTarget(tx, viewer, kind, slug);
    requirePermissions(viewer.user, ['vote:set']);
    requireScopes(viewer, ['set:vote']);
    // Locks the item: concurrent votes on it run one after another, so the sum is exact
    // (its key stays free: a reply to a voted comment need not wait).
    const [locked] = await tx.execute<{ vote_score: number }[]>(
      `select vote_score from "${target.table}" where reference = ? for no key update`,
      [target.reference],
    );
    const oldScore = locked.vote_score;
    // The caller's vote and the item's new sum in one statement: the sum is the others'
    // votes as committed (the lock above lets no other vote on the item in) plus this one.
    const [{ sum }] = await tx.execute<{ sum: string }[]>(
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
       )
       select sum from summed`,
      [
        viewer.user.reference,
        kind,
        target.reference,
        score,
        kind,
        target.reference,
        viewer.user.reference,
        target.reference,
      ],
    );
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
    recordAction(tx, viewer.user, 'vote_set', target.reference);
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
  const target = await findTarget(em, viewer, kind, slug);
  requireScopes(viewer, ['read:vote']);
  const vote = await em.findOne(Vote, {
    user: viewer.user.reference,
    content_type: kind,
    content_reference: target.reference,
  });
  if (!vote) throw new AppError('vote:not_found');
  return vote.score;
}
