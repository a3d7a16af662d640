import type { EntityManager } from '@mikro-orm/postgresql';
import type { CommentContentType, ReviewRecommendation } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import { type Page, type PageArgs, pageWindow, toPage } from '../common/pagination/pagination';
import { CONTENT_LIVE_SQL, findCommentContent, PRIVATE_SQL } from './comment-content';
import { Comment } from './comment.entity';
import type { CommentListType } from './comment.types';
import { findVisibleComment } from './comment.service';

/** Listable: not deleted, and not hidden unless it has visible descendants (shared rules). */
const listable = (comment: Comment): boolean =>
  !comment.deleted && (!comment.hidden || comment.total_replies > 0);

const byCreatedAsc = (a: Comment, b: Comment): number =>
  a.created.getTime() - b.created.getTime() ||
  (a.reference < b.reference ? -1 : a.reference > b.reference ? 1 : 0);

/**
 * Reply trees as one read serves them: every node, roots included, and the replies of
 * each node by its reference. The trees belong to the read, not to the comments: the
 * same comment may be served flat (`replies: []`) by another read of the request.
 */
export interface CommentTrees {
  nodes: Comment[];
  replies: ReadonlyMap<string, Comment[]>;
}

/**
 * Nests the listable `descendants` under `roots` (ordered created asc, reference asc
 * at every level); a reply whose parent is not in the tree is left out.
 */
function buildTrees(roots: Comment[], descendants: Comment[]): CommentTrees {
  const children = new Map<string, Comment[]>();
  for (const comment of descendants.filter(listable).sort(byCreatedAsc)) {
    const parent = comment.parent?.reference;
    if (!parent) continue;
    children.set(parent, [...(children.get(parent) ?? []), comment]);
  }
  const nodes: Comment[] = [];
  const replies = new Map<string, Comment[]>();
  const attach = (node: Comment) => {
    nodes.push(node);
    const below = children.get(node.reference) ?? [];
    replies.set(node.reference, below);
    below.forEach(attach);
  };
  roots.forEach(attach);
  return { nodes, replies };
}

/** Every non-deleted descendant of the given threads deeper than `minDepth`, authors joined: one query. */
function loadDescendants(em: EntityManager, threadRoots: string[], minDepth: number): Promise<Comment[]> {
  if (threadRoots.length === 0) return Promise.resolve([]);
  return em.find(
    Comment,
    { thread_root: { $in: threadRoots }, depth: { $gt: minDepth }, deleted: false },
    { populate: ['author'] },
  );
}

export interface ContentCommentsFilter {
  comment_type?: CommentListType;
  recommended?: ReviewRecommendation | null;
}

/**
 * #9: the listable top-level comments of a content item, newest first, each with its
 * reply tree. A fixed number of queries whatever the page size: page, count, and one
 * query for every descendant of the page's threads.
 */
export async function contentComments(
  em: EntityManager,
  type: CommentContentType,
  slug: string,
  viewer: string | null,
  filter: ContentCommentsFilter,
  page: PageArgs,
  checkScope: () => Promise<unknown>,
): Promise<{ page: Page<Comment>; trees: CommentTrees }> {
  const content = await findCommentContent(em, type, slug, viewer);
  if (!content) throw new AppError('comment:content_not_found');
  await checkScope();

  const review =
    filter.comment_type === 'review' || filter.recommended
      ? { review_recommendation: filter.recommended ? filter.recommended : { $ne: null } }
      : {};
  const noReview = filter.comment_type === 'comment' ? { review_recommendation: null } : {};
  const where = {
    $and: [
      {
        content_type: type,
        content_reference: content.reference,
        depth: 1,
        deleted: false,
        $or: [{ hidden: false }, { total_replies: { $gt: 0 } }],
      },
      review,
      noReview,
    ],
  };
  const { offset, limit } = pageWindow(page);
  const [roots, total] = await em.findAndCount(Comment, where, {
    populate: ['author'],
    orderBy: [{ created: 'desc' }, { reference: 'desc' }],
    offset,
    limit,
  });
  const descendants = await loadDescendants(
    em,
    roots.map((root) => root.reference),
    1,
  );
  return { page: toPage(roots, total, page), trees: buildTrees(roots, descendants) };
}

/** Top-level comments that are not hidden, deleted or private, on live content, newest first (#10, #20). */
async function publicTopLevel(
  em: EntityManager,
  offset: number,
  limit: number,
): Promise<{ list: Comment[]; total: number }> {
  const condition = `c.depth = 1 and not c.hidden and not c.deleted and not ${PRIVATE_SQL} and ${CONTENT_LIVE_SQL}`;
  const rows = await em.execute<{ reference: string; total: string }[]>(
    `select c.reference, count(*) over () as total from comment c where ${condition}
      order by c.created desc, c.reference desc offset ? limit ?`,
    [offset, limit],
  );
  let total = rows.length > 0 ? Number(rows[0].total) : 0;
  if (rows.length === 0 && offset > 0) {
    const [row] = await em.execute<{ total: string }[]>(
      `select count(*) as total from comment c where ${condition}`,
    );
    total = Number(row.total);
  }
  const references = rows.map((row) => row.reference);
  const found = references.length
    ? await em.find(Comment, { reference: { $in: references } }, { populate: ['author'] })
    : [];
  const byReference = new Map(found.map((comment) => [comment.reference, comment]));
  return { list: references.map((reference) => byReference.get(reference)!), total };
}

/** #10: flat page of public top-level comments across all content. */
export async function listComments(em: EntityManager, page: PageArgs): Promise<Page<Comment>> {
  const { offset, limit } = pageWindow(page);
  const { list, total } = await publicTopLevel(em, offset, limit);
  return toPage(list, total, page);
}

/** #20: the 3 latest public top-level comments. */
export async function latestComments(em: EntityManager): Promise<Comment[]> {
  return (await publicTopLevel(em, 0, 3)).list;
}

/**
 * #17: one comment (any depth) with its reply tree: the visible comment, the check
 * that its content is live, and every descendant of its thread in one query.
 */
export async function commentThread(
  em: EntityManager,
  reference: string,
  viewer: string | null,
  checkScope: () => Promise<unknown>,
): Promise<{ comment: Comment; trees: CommentTrees }> {
  const comment = await findVisibleComment(em, reference, viewer);
  const [live] = await em.execute<{ live: boolean }[]>(
    `select ${CONTENT_LIVE_SQL} as live from comment c where c.reference = ?`,
    [comment.reference],
  );
  if (!live?.live) throw new AppError('comment:not_found');
  await checkScope();
  if (comment.hidden && comment.total_replies === 0) throw new AppError('comment:hidden');

  const root = comment.thread_root?.reference ?? comment.reference;
  const thread = await loadDescendants(em, [root], comment.depth);
  return { comment, trees: buildTrees([comment], thread) };
}
