import { type Fragment, fragment } from '../rest/fragments';

const ARTICLE_COMMON = `data_type title slug category
  author { ...UserFields is_followed }
  tags { name content_count }
  created updated comments_count vote_score my_score views trusted draft
  content { data_type image title_en title_ua slug title_ja }`;

/** The articles' contract resources (src/rest/fragments.ts). */
export const articleFragments: readonly Fragment[] = [
  /** The contract's Article (semantics §1.6). */
  fragment('ArticleFields', 'Article', `{ ${ARTICLE_COMMON} document }`),
  /** A list item: the Article with `preview` instead of `document` (§3.8). */
  fragment('ArticleListFields', 'Article', `{ ${ARTICLE_COMMON} preview }`),
];
