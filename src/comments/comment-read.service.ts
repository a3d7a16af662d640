import type { EntityManager } from '@mikro-orm/postgresql';
import type { CommentContentType, ReviewRecommendation } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import { type ListQuery, listPage } from '../common/pagination/paged-query';
import type { Page, PageArgs } from '../common/pagination/pagination';
import { concatSql, joinSql, sql, type SqlFragment } from '../db/sql';
import type { SqlSubject } from '../graphql/sql-plan/fields';
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

/** {@link listable} on a comment alias. */
const listableSql = (comment: string): string =>
  `not ${comment}.deleted and (not ${comment}.hidden or ${comment}.total_replies > 0)`;

/**
 * The replies of comment `parent` (its alias) in a reply tree, bound to `alias`: the
 * listable ones, oldest first ({@link buildTrees} in SQL).
 */
export function replyRows(parent: string, alias: string): { from: string; where: string; orderBy: string } {
  return {
    from: `comment ${alias}`,
    where: `${alias}.parent_reference = ${parent}.reference and ${listableSql(alias)}`,
    orderBy: `${alias}.created, ${alias}.reference`,
  };
}

/** Newest first, then reference desc (#9, #10, #20). */
const NEWEST_FIRST = 'c.created desc, c.reference desc';

/**
 * #9: the listable top-level comments on a content item (`content`: the SQL of its
 * reference), filtered by review, newest first.
 */
export function contentCommentsQuery(
  type: CommentContentType,
  content: SqlFragment,
  filter: ContentCommentsFilter,
): ListQuery {
  const review =
    filter.comment_type === 'review' || filter.recommended
      ? filter.recommended
        ? [sql('c.review_recommendation = ?', filter.recommended)]
        : [sql('c.review_recommendation is not null')]
      : [];
  const noReview = filter.comment_type === 'comment' ? [sql('c.review_recommendation is null')] : [];
  return {
    reference: 'c.reference',
    from: 'comment c',
    where: joinSql([
      concatSql(sql('c.content_type = ? and c.content_reference = ', type), content),
      sql(`c.depth = 1 and ${listableSql('c')}`),
      ...review,
      ...noReview,
    ]),
    orderBy: sql(NEWEST_FIRST),
  };
}

/**
 * #9: the listable top-level comments of a content item, newest first, each with its
 * reply tree. A fixed number of queries whatever the page size: the look-up, the page
 * with its total, and one query for every descendant of the page's threads.
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
  const query = contentCommentsQuery(type, sql('?', content.reference), filter);
  const roots = await listPage(em, Comment, query, page, ['author']);
  const descendants = await loadDescendants(
    em,
    roots.list.map((root) => root.reference),
    1,
  );
  return { page: roots, trees: buildTrees(roots.list, descendants) };
}

/**
 * Top-level comments that are not hidden, deleted or private, on live content (#10,
 * #20), on comment alias `c`.
 */
const PUBLIC_TOP_LEVEL_SQL = `c.depth = 1 and not c.hidden and not c.deleted and not ${PRIVATE_SQL} and ${CONTENT_LIVE_SQL}`;

/** #10: public top-level comments across all content, newest first. */
export const publicCommentsQuery: ListQuery = {
  reference: 'c.reference',
  from: 'comment c',
  where: sql(PUBLIC_TOP_LEVEL_SQL),
  orderBy: sql(NEWEST_FIRST),
};

/** #10: flat page of public top-level comments across all content. */
export function listComments(em: EntityManager, page: PageArgs): Promise<Page<Comment>> {
  return listPage(em, Comment, publicCommentsQuery, page, ['author']);
}

/** How many comments #20 serves. */
const LATEST_COUNT = 3;

/** #20: the rows of the latest public top-level comments, bound to `alias`, newest first. */
export function latestCommentRows(alias: string): { from: string; orderBy: string } {
  return {
    from: `(select c.* from comment c where ${PUBLIC_TOP_LEVEL_SQL} order by ${NEWEST_FIRST} limit ${LATEST_COUNT}) ${alias}`,
    orderBy: `${alias}.created desc, ${alias}.reference desc`,
  };
}

/** #20: the 3 latest public top-level comments. */
export async function latestComments(em: EntityManager): Promise<Comment[]> {
  return (await listPage(em, Comment, publicCommentsQuery, { page: 1, size: LATEST_COUNT }, ['author'])).list;
}

/**
 * #17's look-up as a compiled root's subject (src/graphql/sql-plan): the comment (any
 * depth, `reference` checked and lower-cased) that is not deleted, whose content is not
 * deleted and which, if private, `viewer` may see ({@link commentThread}'s rules).
 */
export function commentThreadSubject(reference: string, viewer: string | null): SqlSubject {
  return {
    select: sql(
      `select c.reference, null::text as refused from comment c
        where c.reference = ? and not c.deleted and ${CONTENT_LIVE_SQL}
          and (not ${PRIVATE_SQL} or exists (select 1 from collection x
                where x.reference = c.content_reference and x.author_reference = ?))`,
      reference,
      viewer,
    ),
    notFound: 'comment:not_found',
  };
}

/** A comment #17 serves (else 400 `comment:hidden`), on a comment alias: {@link listable}. */
export const servedThreadSql = (comment: string): string => listableSql(comment);

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
