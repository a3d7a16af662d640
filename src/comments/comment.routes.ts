import { COMMENT_CONTENT_TYPES, REVIEW_RECOMMENDATIONS } from '../common/enums';
import type { RestRoute } from '../rest/route';
import { oneOf, slugParam, uuidParam } from '../rest/schemas';
import { COMMENT_LIST_TYPES, EDIT_COMMENT_BODY, WRITE_COMMENT_BODY } from './comment.types';

const contentParams = { content_type: oneOf(COMMENT_CONTENT_TYPES), slug: slugParam };
const referenceParams = { comment_reference: uuidParam };

/** Comments: contract #9, #10, #17, #20 and the write, edit and hide paths (semantics §3.5). */
export const commentRoutes: RestRoute[] = [
  {
    contract: 9,
    method: 'GET',
    path: '/comments/{content_type}/{slug}/list',
    summary: 'Comments on a content item',
    description:
      'The top-level comments on an anime, manga, novel, article, collection, character, person or edit, newest first, each with its whole reply tree. `comment_type` and `recommended` narrow them to plain comments or to reviews.',
    auth: 'optional',
    params: contentParams,
    paged: true,
    query: { comment_type: oneOf(COMMENT_LIST_TYPES), recommended: oneOf(REVIEW_RECOMMENDATIONS) },
    rootField: 'contentComments',
    document: `query ContentComments($content_type: CommentContentType!, $slug: String!, $page: Int, $size: Int,
          $comment_type: CommentListType, $recommended: ReviewRecommendation) {
        contentComments(content_type: $content_type, slug: $slug, page: $page, size: $size,
            comment_type: $comment_type, recommended: $recommended) {
          pagination { total pages page }
          list { ...CommentTree }
        }
      }`,
  },
  {
    contract: 10,
    method: 'GET',
    path: '/comments/list',
    summary: 'All comments, newest first',
    description:
      'Public top-level comments across all content, newest first, without their replies (`total_replies` still counts them).',
    auth: 'optional',
    params: {},
    paged: true,
    rootField: 'comments',
    document: `query Comments($page: Int, $size: Int) {
        comments(page: $page, size: $size) {
          pagination { total pages page }
          list { ...CommentFlat }
        }
      }`,
  },
  {
    contract: 17,
    method: 'GET',
    path: '/comments/thread/{comment_reference}',
    summary: 'A comment with its replies',
    description: 'One comment, at any depth, with its reply tree below it (down to depth 5).',
    auth: 'optional',
    params: referenceParams,
    rootField: 'commentThread',
    document: `query CommentThread($comment_reference: String!) {
        commentThread(comment_reference: $comment_reference) { ...CommentTree }
      }`,
  },
  {
    contract: 20,
    method: 'GET',
    path: '/comments/latest',
    summary: 'The 3 latest comments',
    description:
      'The 3 most recent public top-level comments across all content, as a plain array (no paging).',
    auth: 'none',
    params: {},
    rootField: 'latestComments',
    document: `query LatestComments { latestComments { ...CommentFlat } }`,
  },
  {
    method: 'PUT',
    path: '/comments/{content_type}/{slug}',
    summary: 'Write a comment or reply',
    description:
      'Writes a comment on a content item, or a reply to one of its comments (`parent`, up to depth 5). On an anime, manga or novel it may be a review with a recommendation, one per user and title. Rate limited. Answers the Comment.',
    auth: 'required',
    errors: [409],
    params: contentParams,
    body: WRITE_COMMENT_BODY,
    rootField: 'writeComment',
    document: `mutation WriteComment($content_type: CommentContentType!, $slug: String!, $input: WriteCommentInput!) {
        writeComment(content_type: $content_type, slug: $slug, input: $input) { ...CommentFlat }
      }`,
  },
  {
    method: 'PUT',
    path: '/comments/{comment_reference}',
    summary: 'Edit your comment',
    description:
      'The author replaces the text (and the review) of a comment; earlier versions are kept in its history. Answers the Comment.',
    auth: 'required',
    errors: [409],
    params: referenceParams,
    body: EDIT_COMMENT_BODY,
    rootField: 'editComment',
    document: `mutation EditComment($comment_reference: String!, $input: EditCommentInput!) {
        editComment(comment_reference: $comment_reference, input: $input) { ...CommentFlat }
      }`,
  },
  {
    method: 'DELETE',
    path: '/comments/{comment_reference}',
    summary: 'Hide a comment',
    description:
      "Hides a comment, one's own or, for moderators, anyone's: it is shown as a placeholder while it has visible replies, and its review is removed.",
    auth: 'required',
    params: referenceParams,
    rootField: 'hideComment',
    document: `mutation HideComment($comment_reference: String!) {
      hideComment(comment_reference: $comment_reference) { success }
    }`,
  },
];
