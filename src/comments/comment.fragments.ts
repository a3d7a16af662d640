import { type Fragment, fragment } from '../rest/fragments';

/** The comments' contract resources (src/rest/fragments.ts). */
export const commentFragments: readonly Fragment[] = [
  /** The contract's Comment fields, without `replies`. */
  fragment(
    'CommentFields',
    'Comment',
    `{ data_type reference parent total_replies depth created updated author { ...UserFields }
      content_type is_editable text vote_score my_score preview { title image slug } hidden }`,
  ),

  /**
   * A Comment with its reply tree: fragments cannot recurse, so the levels are
   * spelled out. Five `replies` levels cover every depth (1..5); the deepest is always [].
   */
  fragment(
    'CommentTree',
    'Comment',
    `{ ...CommentFields
      replies { ...CommentFields
        replies { ...CommentFields
          replies { ...CommentFields
            replies { ...CommentFields
              replies { ...CommentFields } } } } } }`,
  ),

  /** A Comment as flat lists serve it (`replies: []`). */
  fragment('CommentFlat', 'Comment', '{ ...CommentFields replies { ...CommentFields } }'),
];
