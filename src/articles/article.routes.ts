import type { RestRoute } from '../rest/route';
import { slugParam } from '../rest/schemas';
import { ARTICLE_BODY, ARTICLE_LIST_BODY } from './article.types';

const slugParams = { slug: slugParam };

/** Articles (contract #4, #5; semantics §3.8). */
export const articleRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/articles/stats',
    summary: 'Top authors and tags',
    description:
      'The 10 best authors of the last 30 days (published, non-system articles: count, comments, vote score; author_score = 2 × likes + comments + 1.5 × articles), each with `is_followed` for the caller, and the 10 most used tags.',
    auth: 'optional',
    params: {},
    rootField: 'articleStats',
    document: `query ArticleStats {
        articleStats {
          authors { user { ...UserFields is_followed } total_articles total_comments total_likes author_score }
          tags { name content_count }
        }
      }`,
  },
  {
    method: 'POST',
    path: '/articles/create',
    summary: 'Write an article',
    description:
      'Creates an article (a draft unless `draft` is false) with its document, category, tags and the title it is about, if any; the slug is made from the title. Answers the Article.',
    contract: 5,
    auth: 'required',
    params: {},
    body: ARTICLE_BODY,
    rootField: 'createArticle',
    document: `mutation CreateArticle($input: ArticleInput!) {
        createArticle(input: $input) { ...ArticleFields }
      }`,
  },
  {
    method: 'PUT',
    path: '/articles/{slug}',
    summary: 'Update an article',
    description:
      "The author or a moderator replaces an article's title, document, category, tags, content and draft flag. A published article cannot go back to draft or change category; the slug never changes. Answers the updated Article.",
    contract: 4,
    auth: 'required',
    params: slugParams,
    body: ARTICLE_BODY,
    rootField: 'updateArticle',
    document: `mutation UpdateArticle($slug: String!, $input: ArticleInput!) {
        updateArticle(slug: $slug, input: $input) { ...ArticleFields }
      }`,
  },
  {
    method: 'GET',
    path: '/articles/{slug}',
    summary: 'Read an article',
    description:
      "An article by its slug, drafts included (whoever has a draft's slug may read it); each read adds 1 to its views.",
    auth: 'optional',
    params: slugParams,
    rootField: 'article',
    document: `query Article($slug: String!) {
        article(slug: $slug) { ...ArticleFields }
      }`,
  },
  {
    method: 'DELETE',
    path: '/articles/{slug}',
    summary: 'Delete an article',
    description:
      'Its author, or a moderator, deletes an article: its tags count one article less, its images are released and its comments become private.',
    auth: 'required',
    params: slugParams,
    rootField: 'deleteArticle',
    document: `mutation DeleteArticle($slug: String!) {
      deleteArticle(slug: $slug) { success }
    }`,
  },
  {
    method: 'POST',
    path: '/articles',
    summary: 'List articles',
    description:
      "Published articles (or the caller's own drafts with `draft: true`) filtered by categories, tags, the title they are about, author, a minimum vote score and a title `query`, newest first by default; each with a preview instead of its document.",
    auth: 'optional',
    params: {},
    paged: true,
    body: ARTICLE_LIST_BODY,
    rootField: 'articles',
    document: `query Articles($page: Int!, $size: Int!, $input: ArticleListInput!) {
        articles(page: $page, size: $size, input: $input) { pagination { total pages page } list { ...ArticleListFields } }
      }`,
  },
];
