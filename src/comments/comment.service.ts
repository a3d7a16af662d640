import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { actionRecordSql, recordAction } from '../accounts/actions';
import { User } from '../accounts/user.entity';
import { requirePermissions } from '../common/auth/permissions';
import { requireScopes, type Viewer } from '../accounts/session';
import type { CommentContentType, ReviewRecommendation } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import { counterMoveSql } from '../db/counters';
import { entityColumns, mapEntityRow, statementText } from '../db/entity-rows';
import { executeInOrder, sql, type SqlFragment, withEffects } from '../db/sql';
import { type NotificationRequest, prepareNotifications, userSnapshot } from '../notifications/notify';
import { type CommentContent, COUNTED_TABLES, findCommentContent, PRIVATE_SQL } from './comment-content';
import { isUuid } from '../common/validation/uuid';
import { Comment, CommentVersion } from './comment.entity';
import { cleanCommentText, type EditCommentInput, type WriteCommentInput } from './comment.types';
import { clockHour } from '../common/hourly-window';

const MAX_DEPTH = 5;
const COMMENT_HOURLY_LIMIT = 100;
export const MAX_VERSIONS = 500;
const REVIEWABLE = new Set<CommentContentType>(['anime', 'manga', 'novel']);
const MENTION = /@([A-Za-z0-9_]+)/g;
const MAX_MENTIONS = 10;

/**
 * The statements that add `delta` to `total_replies` of every ancestor of `comment`,
 * locking the comment itself (unchanged here) and its ancestors in key order first
 * (src/db/counters.ts): writes in one thread then take their row locks in one order.
 */
function repliesAboveMoveSql(comment: string, delta: number): SqlFragment[] {
  return counterMoveSql('comment', 'total_replies', {
    sql: `with recursive up (reference, parent_reference, delta) as (
            select reference, parent_reference, 0 from comment where reference = ?
            union all
            select c.reference, c.parent_reference, ?::integer from comment c join up on c.reference = up.parent_reference
          )
          select reference, delta from up`,
    params: [comment, delta],
  });
}

/** The statement that adds `delta` to the content's `comments_count` (§6.4); none for content without one. */
function commentsCountSql(type: CommentContentType, reference: string, delta: number): SqlFragment | null {
  const table = COUNTED_TABLES[type];
  return table
    ? sql(`update "${table}" set comments_count = comments_count + ? where reference = ?`, delta, reference)
    : null;
}

/** The caller's list score for a title (0 when it has no entry), kept by a review. */
async function listScore(em: EntityManager, user: string, type: CommentContentType, reference: string) {
  const [row] =
    type === 'anime'
      ? await em.execute<{ score: number }[]>(
          `select score from watch_entry where user_reference = ? and anime_reference = ?`,
          [user, reference],
        )
      : await em.execute<{ score: number }[]>(
          `select score from read_entry where user_reference = ? and ${type}_reference = ?`,
          [user, reference],
        );
  return row?.score ?? 0;
}

/** Whether the user already has a review on the content (other than `except`). */
async function hasReview(
  em: EntityManager,
  user: string,
  type: CommentContentType,
  reference: string,
  except?: string,
): Promise<boolean> {
  const count = await em.count(Comment, {
    author: user,
    content_type: type,
    content_reference: reference,
    deleted: false,
    review_recommendation: { $ne: null },
    ...(except ? { reference: { $ne: except } } : {}),
  });
  return count > 0;
}

/**
 * A comment by reference that is not deleted, with its author, in one statement that
 * also tells whether it is private and who owns the collection it is on: mapped as a
 * find with the author populated maps them.
 */
async function findComment(em: EntityManager, reference: string): Promise<FoundComment | null> {
  const { sql: text, params } = commentLookUp(em, reference);
  const [row] = await em.execute<Record<string, unknown>[]>(text, params);
  return row ? mapFoundComment(em, row) : null;
}

interface FoundComment {
  comment: Comment;
  private: boolean;
  owner: string | null;
}

/** The statement of {@link findComment}; `onContent` keeps it to one content (a reply's parent). */
function commentLookUp(em: EntityManager, reference: string, onContent?: CommentContent): SqlFragment {
  const lookUp = statementText(
    em,
    `comments:find:${onContent ? 'on-content' : 'any'}`,
    () => `select ${entityColumns(em, User, 'u')}, ${entityColumns(em, Comment, 'c')},
        ${PRIVATE_SQL} as private,
        (select author_reference from collection where reference = c.content_reference) as owner
      from comment c join "user" u on u.reference = c.author_reference
      where c.reference = ? and not c.deleted${onContent ? ' and c.content_type = ? and c.content_reference = ?' : ''}`,
  );
  return sql(lookUp, reference.toLowerCase(), ...(onContent ? [onContent.type, onContent.reference] : []));
}

/** A row of {@link commentLookUp}, mapped as a find with the author populated maps it. */
function mapFoundComment(em: EntityManager, row: Record<string, unknown>): FoundComment {
  // The author first: the comment's reference to it is then the loaded user.
  mapEntityRow(em, User, row, 'u');
  const comment = mapEntityRow(em, Comment, row, 'c')!;
  return { comment, private: row.private === true, owner: (row.owner as string | null) ?? null };
}

/** A comment by reference that is not deleted and that the caller may see (else 404), author loaded. */
export async function findVisibleComment(
  em: EntityManager,
  reference: string,
  viewer: string | null,
): Promise<Comment> {
  if (!isUuid(reference)) throw new AppError('comment:not_found');
  const found = await findComment(em, reference);
  // A private comment (on a private collection) is visible only to the collection's author.
  if (!found || (found.private && (viewer === null || found.owner !== viewer))) {
    throw new AppError('comment:not_found');
  }
  return found.comment;
}

/** A comment about to be written: its values known before the insert (the notifications name them). */
interface CommentDraft {
  reference: string;
  depth: number;
  text: string;
  threadRoot: string;
  created: Date;
}

/** What a new comment notifies (semantics §4): mentioned users, and the parent's author or the content's owner. */
async function commentNotifications(
  em: EntityManager,
  author: User,
  comment: CommentDraft,
  content: CommentContent,
  parent: Comment | null,
): Promise<NotificationRequest[]> {
  const data = {
    slug: content.slug,
    content_type: content.type,
    comment_reference: comment.reference,
    comment_depth: comment.depth,
    comment_text: comment.text,
    base_comment_reference: comment.threadRoot,
    ...userSnapshot(author),
  };
  const eventKey = `comment:${comment.reference}`;
  const requests: NotificationRequest[] = [];
  const push = (recipient: User, type: NotificationRequest['type']) =>
    requests.push({ recipient, type, initiator: author, data, eventKey, at: comment.created });

  const names = [
    ...new Set([...comment.text.matchAll(MENTION)].map((match) => match[1].toLowerCase())),
  ].slice(0, MAX_MENTIONS);
  if (names.length > 0) {
    const users = await em
      .createQueryBuilder(User, 'u')
      .where({ role: { $ne: 'deleted' } })
      .andWhere(`lower(u.username) in (${names.map(() => '?').join(', ')})`, names)
      .getResultList();
    users.forEach((user) => push(user, 'comment_tag'));
  }
  if (parent) push(parent.author, 'comment_reply');
  else if (content.owner) {
    const owner = await em.findOne(User, { reference: content.owner });
    const type =
      content.type === 'collection'
        ? 'collection_comment'
        : content.type === 'article'
          ? 'article_comment'
          : content.type === 'edit'
            ? 'edit_comment'
            : null;
    if (owner && type) push(owner, type);
  }
  return requests;
}

/**
 * PUT /comments/{content_type}/{slug}: writes a comment or a reply (semantics §3.5).
 * Everything the write decides is read first (the content; the hourly count with a
 * reply's parent; the notifications' look-up); the writes then go in one round trip
 * just before the commit, so the counters' row locks are held for as short a time as
 * possible: the comment (with a top-level comment's `comments_count`), a reply's counts
 * after the replies above it (as a hide moves them: every comment write takes the
 * counters' locks in one order, comments then the content), the notifications, and
 * the action record last, by a statement of its own: in the comment's statement it let
 * replies and hides in one thread deadlock (tests/concurrency/simultaneous-hides.test.ts
 * failed 3 times in 5 with it there).
 */
export function writeComment(
  em: EntityManager,
  viewer: Viewer,
  type: CommentContentType,
  slug: string,
  input: WriteCommentInput,
): Promise<Comment> {
  return em.transactional(async (tx) => {
    const user = viewer.user.reference;
    const content = await findCommentContent(tx, type, slug, user);
    if (!content) throw new AppError('comment:content_not_found');
    requirePermissions(viewer.user, ['comment:write']);
    requireScopes(viewer, ['create:comment']);

    const parentReference = input.parent ?? null;
    const [[{ recent }], [parentRow] = []] = await executeInOrder(tx, [
      sql(
        'select count(*) as recent from comment where author_reference = ? and not deleted and created >= ?',
        user,
        clockHour(),
      ),
      ...(parentReference !== null && isUuid(parentReference)
        ? [commentLookUp(tx, parentReference, content)]
        : []),
    ]);
    if (Number(recent) >= COMMENT_HOURLY_LIMIT) throw new AppError('comment:rate_limit');

    let parent: Comment | null = null;
    if (parentReference !== null) {
      if (!parentRow) throw new AppError('comment:parent_not_found');
      parent = mapFoundComment(tx, parentRow).comment;
      if (parent.depth >= MAX_DEPTH) throw new AppError('comment:max_depth');
    }

    let review: ReviewRecommendation | null = null;
    if (input.review) {
      if (!REVIEWABLE.has(type)) throw new AppError('review:non_reviewable_content');
      if (parent) throw new AppError('review:no_parent');
      if (await hasReview(tx, user, type, content.reference)) throw new AppError('review:has_review');
      review = input.review.recommended;
    }

    const reference = randomUUID();
    const draft: CommentDraft = {
      reference,
      depth: parent ? parent.depth + 1 : 1,
      text: cleanCommentText(input.text),
      // A top-level comment is its own thread's root from the start.
      threadRoot: parent ? (parent.thread_root?.reference ?? parent.reference) : reference,
      created: new Date(),
    };
    const notifications = await prepareNotifications(
      tx,
      await commentNotifications(tx, viewer.user, draft, content, parent),
    );
    const reviewScore = review ? await listScore(tx, user, type, content.reference) : null;
    const contentCount = parent ? commentsCountSql(type, content.reference, 1) : null;
    const [[row]] = await executeInOrder(tx, [
      commentInsertSql(tx, viewer, content, parent, draft, {
        review_recommendation: review,
        review_score: reviewScore,
      }),
      ...(parent ? repliesAboveMoveSql(draft.reference, 1) : []),
      ...(contentCount ? [contentCount] : []),
      ...(notifications.insert ? [notifications.insert] : []),
      actionRecordSql(user, 'comment_write', draft.reference),
    ]);
    return mapEntityRow(tx, Comment, row, 'c')!;
  });
}

/** The insert of `draft` on `content` (a reply to `parent`), with a top-level comment's `comments_count` beside it. */
function commentInsertSql(
  tx: EntityManager,
  viewer: Viewer,
  content: CommentContent,
  parent: Comment | null,
  draft: CommentDraft,
  review: Pick<Comment, 'review_recommendation' | 'review_score'>,
): SqlFragment {
  const insert = statementText(
    tx,
    'comments:insert',
    () => `insert into comment as c (reference, author_reference, content_type, content_reference,
        parent_reference, thread_root_reference, depth, text, hidden, hidden_by_reference, deleted, private,
        total_replies, vote_score, review_recommendation, review_score, preview, created, updated)
      values (?, ?, ?, ?, ?, ?, ?, ?, false, null, false, ?, 0, 0, ?, ?, ?, ?, ?)
      returning ${entityColumns(tx, Comment, 'c')}`,
  );
  const count = parent ? null : commentsCountSql(content.type, content.reference, 1);
  return withEffects(
    sql(
      insert,
      draft.reference,
      viewer.user.reference,
      content.type,
      content.reference,
      parent?.reference ?? null,
      draft.threadRoot,
      draft.depth,
      draft.text,
      content.private,
      review.review_recommendation,
      review.review_score,
      JSON.stringify(content.preview),
      draft.created,
      draft.created,
    ),
    count ? [count] : [],
  );
}

/** The content's look-up data from a comment's stored target (for recomputing its preview). */
async function contentOfComment(em: EntityManager, comment: Comment): Promise<CommentContent | null> {
  const type = comment.content_type;
  let slug: string | undefined;
  if (type === 'collection') slug = comment.content_reference;
  else if (type === 'edit') slug = String(Number(comment.content_reference.slice(24)));
  else {
    const [row] = await em.execute<{ slug: string }[]>(`select slug from "${type}" where reference = ?`, [
      comment.content_reference,
    ]);
    slug = row?.slug;
  }
  if (slug === undefined) return null;
  const owner =
    type === 'collection'
      ? ((
          await em.execute<{ author_reference: string }[]>(
            `select author_reference from collection where reference = ?`,
            [comment.content_reference],
          )
        )[0]?.author_reference ?? null)
      : null;
  return findCommentContent(em, type, slug, owner);
}

/** PUT /comments/{comment_reference}: edits the caller's comment, keeping its history (§3.5). */
export function editComment(
  em: EntityManager,
  viewer: Viewer,
  reference: string,
  input: EditCommentInput,
): Promise<Comment> {
  return em.transactional(async (tx) => {
    const user = viewer.user.reference;
    const comment = await findVisibleComment(tx, reference, user);
    requirePermissions(viewer.user, ['comment:edit']);
    requireScopes(viewer, ['update:comment']);
    if (comment.author.reference !== user) throw new AppError('comment:not_owner');
    if (comment.hidden) throw new AppError('comment:hidden');
    const versions = await tx.count(CommentVersion, { comment: comment.reference });
    if (versions >= MAX_VERSIONS) throw new AppError('comment:not_editable');
    if (input.review) {
      if (!REVIEWABLE.has(comment.content_type)) throw new AppError('review:non_reviewable_content');
      if (comment.parent !== null) throw new AppError('review:no_parent');
      if (await hasReview(tx, user, comment.content_type, comment.content_reference, comment.reference)) {
        throw new AppError('review:has_review');
      }
    }

    const at = new Date();
    tx.create(CommentVersion, { comment, text: comment.text, created: comment.updated });
    comment.text = cleanCommentText(input.text);
    if (input.review) {
      if (comment.review_recommendation === null) {
        comment.review_score = await listScore(tx, user, comment.content_type, comment.content_reference);
      }
      comment.review_recommendation = input.review.recommended;
    } else {
      comment.review_recommendation = null;
      comment.review_score = null;
    }
    const content = await contentOfComment(tx, comment);
    if (content) comment.preview = content.preview;
    comment.updated = at;
    recordAction(tx, viewer.user, 'comment_edit', comment.reference);
    await tx.flush();
    return comment;
  });
}

/** DELETE /comments/{comment_reference}: hides a comment (own, or anyone's for admins) (§3.5). */
export function hideComment(em: EntityManager, viewer: Viewer, reference: string): Promise<void> {
  return em.transactional(async (tx) => {
    const user = viewer.user.reference;
    const comment = await findVisibleComment(tx, reference, user);
    requirePermissions(viewer.user, [
      comment.author.reference === user ? 'comment:hide' : 'comment:hide_admin',
    ]);
    requireScopes(viewer, ['delete:comment']);
    if (comment.hidden) throw new AppError('comment:already_hidden');

    // Before the comment's own row changes: it is locked with its ancestors, in one order.
    // A hide of the same comment that held the lock first has hidden it meanwhile (its
    // counts must move once): this one's update then finds it hidden and refuses, which
    // undoes its move (its transaction, or its savepoint among several root fields).
    // All in one round trip; the refusal undoes the statements after the update too.
    const moves = comment.parent ? repliesAboveMoveSql(comment.reference, -1) : [];
    const contentCount = commentsCountSql(comment.content_type, comment.content_reference, -1);
    const results = await executeInOrder(tx, [
      ...moves,
      sql(
        statementText(
          tx,
          'comments:hide',
          () => `update comment as c set hidden = true, hidden_by_reference = ?, review_recommendation = null,
              review_score = null, updated = ? where c.reference = ? and not c.hidden
            returning ${entityColumns(tx, Comment, 'c')}`,
        ),
        user,
        new Date(),
        comment.reference,
      ),
      ...(contentCount ? [contentCount] : []),
      actionRecordSql(user, 'comment_hide', comment.reference),
    ]);
    const [hidden] = results[moves.length];
    if (!hidden) throw new AppError('comment:already_hidden');
    mapEntityRow(tx, Comment, hidden, 'c');
  });
}
