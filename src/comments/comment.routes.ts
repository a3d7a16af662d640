import { UserFields } from '../accounts/accounts.fragments';
import { COMMENT_CONTENT_TYPES, REVIEW_RECOMMENDATIONS } from '../common/enums';
import { documentOf, fragment } from '../rest/fragments';
import type { RestRoute } from '../rest/route';
import { oneOf, slugParam, uuidParam } from '../rest/schemas';
import { COMMENT_LIST_TYPES, EDIT_COMMENT_BODY, WRITE_COMMENT_BODY } from './comment.types';

/** The contract's Comment fields, without `replies`. */
export const CommentFields = fragment(
  'CommentFields',
  'Comment',
  `{ data_type reference parent total_replies depth created updated author { ...UserFields }
    content_type is_editable text vote_score my_score preview { title image slug } hidden }`,
  [UserFields],
);

/**
 * A Comment with its reply tree: fragments cannot recurse, so the levels are
 * spelled out. Five `replies` levels cover every depth (1..5); the deepest is always [].
 */
export const CommentTree = fragment(
  'CommentTree',
  'Comment',
  `{ ...CommentFields
    replies { ...CommentFields
      replies { ...CommentFields
        replies { ...CommentFields
          replies { ...CommentFields
            replies { ...CommentFields } } } } } }`,
  [CommentFields],
);

/** A Comment as flat lists serve it (`replies: []`). */
export const CommentFlat = fragment(
  'CommentFlat',
  'Comment',
  '{ ...CommentFields replies { ...CommentFields } }',
  [CommentFields],
);

const contentParams = { content_type: oneOf(COMMENT_CONTENT_TYPES), slug: slugParam };
const referenceParams = { comment_reference: uuidParam };

/** Comments: contract #9, #10, #17, #20 and the write, edit and hide paths (semantics §3.5). */
export const commentRoutes: RestRoute[] = [
  {
    contract: 9,
    method: 'GET',
    path: '/comments/{content_type}/{slug}/list',
    auth: 'optional',
    params: contentParams,
    paged: true,
    query: { comment_type: oneOf(COMMENT_LIST_TYPES), recommended: oneOf(REVIEW_RECOMMENDATIONS) },
    rootField: 'contentComments',
    document: documentOf(
      `query ContentComments($content_type: CommentContentType!, $slug: String!, $page: Int, $size: Int,
          $comment_type: CommentListType, $recommended: ReviewRecommendation) {
        contentComments(content_type: $content_type, slug: $slug, page: $page, size: $size,
            comment_type: $comment_type, recommended: $recommended) {
          pagination { total pages page }
          list { ...CommentTree }
        }
      }`,
      CommentTree,
    ),
  },
  {
    contract: 10,
    method: 'GET',
    path: '/comments/list',
    auth: 'optional',
    params: {},
    paged: true,
    rootField: 'comments',
    document: documentOf(
      `query Comments($page: Int, $size: Int) {
        comments(page: $page, size: $size) {
          pagination { total pages page }
          list { ...CommentFlat }
        }
      }`,
      CommentFlat,
    ),
  },
  {
    contract: 17,
    method: 'GET',
    path: '/comments/thread/{comment_reference}',
    auth: 'optional',
    params: referenceParams,
    rootField: 'commentThread',
    document: documentOf(
      `query CommentThread($comment_reference: String!) {
        commentThread(comment_reference: $comment_reference) { ...CommentTree }
      }`,
      CommentTree,
    ),
  },
  {
    contract: 20,
    method: 'GET',
    path: '/comments/latest',
    auth: 'none',
    params: {},
    rootField: 'latestComments',
    document: documentOf(`query LatestComments { latestComments { ...CommentFlat } }`, CommentFlat),
  },
  {
    method: 'PUT',
    path: '/comments/{content_type}/{slug}',
    auth: 'required',
    errors: [409],
    params: contentParams,
    body: WRITE_COMMENT_BODY,
    rootField: 'writeComment',
    document: documentOf(
      `mutation WriteComment($content_type: CommentContentType!, $slug: String!, $input: WriteCommentInput!) {
        writeComment(content_type: $content_type, slug: $slug, input: $input) { ...CommentFlat }
      }`,
      CommentFlat,
    ),
  },
  {
    method: 'PUT',
    path: '/comments/{comment_reference}',
    auth: 'required',
    errors: [409],
    params: referenceParams,
    body: EDIT_COMMENT_BODY,
    rootField: 'editComment',
    document: documentOf(
      `mutation EditComment($comment_reference: String!, $input: EditCommentInput!) {
        editComment(comment_reference: $comment_reference, input: $input) { ...CommentFlat }
      }`,
      CommentFlat,
    ),
  },
  {
    method: 'DELETE',
    path: '/comments/{comment_reference}',
    auth: 'required',
    params: referenceParams,
    rootField: 'hideComment',
    document: `mutation HideComment($comment_reference: String!) {
      hideComment(comment_reference: $comment_reference) { success }
    }`,
  },
];
