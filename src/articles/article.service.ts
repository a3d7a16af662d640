import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { recordAction } from '../accounts/actions';
import { User } from '../accounts/user.entity';
import { findUserByUsername, lockUserRow } from '../accounts/users.service';
import { findTitle } from '../catalog/catalog.service';
import { clockHour } from '../comments/comment.service';
import { hasPermissions, requirePermissions, type Permission } from '../common/auth/permissions';
import { requireScopes, type Viewer } from '../common/auth/session';
import type { ActionType, TitleContentType } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import { pageWindow, toPage, type Page, type PageArgs } from '../common/pagination/pagination';
import { parseSort } from '../common/sorting';
import { config } from '../config';
import { deltasOf, moveCounters } from '../db/counters';
import { Article, ArticleTag, Attachment, Tag } from './article.entity';
import type { ArticleInput, ArticleListInput, ArticleSortField } from './article.types';
import { buildPreview, imageUrls } from './document';
import { generateSlug } from './slug';
import { likeLiteral } from '../common/like';
import { readConnection } from '../db/entity-manager';
import { entityColumns, mapEntityRow, statementText } from '../db/entity-rows';

/** Staff roles are exempt from the article rate limits (semantics §1.11). */
const STAFF = new Set(['moderator', 'admin']);
const CREATE_LIMIT = 10;
const UPDATE_LIMIT = 1000;

/** Body tags without duplicates, first occurrences kept (the count rule applied before, by validation). */
export const distinctTags = (tags: readonly string[]): string[] => [...new Set(tags)];

function requireArticlePermissions(viewer: Viewer, base: Permission, scope: string): void {
  requirePermissions(viewer.user, [base]);
  requireScopes(viewer, [scope]);
}

/** `article:category:<category>`, then `article:trusted` when the body asks for `trusted: true`. */
function requireBodyPermissions(viewer: Viewer, input: ArticleInput): void {
  requirePermissions(viewer.user, [`article:category:${input.category}` as Permission]);
  if (input.trusted === true) requirePermissions(viewer.user, ['article:trusted']);
}

/** Rejects a non-staff caller who already has more than `limit` actions of `type` this clock hour. */
async function checkRateLimit(
  em: EntityManager,
  viewer: Viewer,
  type: ActionType,
  limit: number,
): Promise<void> {
  if (STAFF.has(viewer.user.role)) return;
  const [{ count }] = await em.execute<{ count: string }[]>(
    'select count(*) as count from action_record where user_reference = ? and type = ? and created >= ?',
    [viewer.user.reference, type, clockHour()],
  );
  if (Number(count) > limit) throw new AppError('system:rate_limit');
}

/**
 * The images rule (#4, #5): distinct `url`s, each the image base URL + the path of an
 * attachment uploaded by the author, not marked for deletion and attached to nothing
 * (or to `article` on update). Returns the attachments in document order.
 */
async function checkImages(
  em: EntityManager,
  document: readonly unknown[],
  author: string,
  article: string | null,
): Promise<Attachment[]> {
  const urls = imageUrls(document);
  if (new Set(urls).size !== urls.length) throw new AppError('articles:duplicate_image_url');
  if (urls.length === 0) return [];
  const base = `${config().imageBaseUrl.replace(/\/+$/, '')}/`;
  const paths = urls.map((url) => (url.startsWith(base) ? url.slice(base.length) : ''));
  if (paths.some((path) => path === '' || path.startsWith('/'))) throw new AppError('articles:bad_image_url');
  const rows = await em.find(Attachment, {
    path: { $in: paths.flatMap((path) => [path, `/${path}`]) },
    user: author,
    marked_for_deletion: false,
  });
  const byPath = new Map(rows.map((row) => [row.path.replace(/^\/+/, ''), row]));
  return paths.map((path) => {
    const attachment = byPath.get(path);
    const attachedTo = attachment?.article?.reference ?? null;
    if (!attachment || (attachedTo !== null && attachedTo !== article)) {
      throw new AppError('articles:bad_image_url');
    }
    return attachment;
  });
}

/** The `content` look-up (§1.8): exact slug, not deleted; 404 `content:not_found`. */
async function findContent(
  em: EntityManager,
  input: ArticleInput,
): Promise<{ type: TitleContentType; reference: string } | null> {
  if (!input.content) return null;
  const title = await findTitle(em, input.content.content_type, input.content.slug, 'content:not_found');
  return { type: input.content.content_type, reference: title.reference };
}

/**
 * Finds or creates the tags by name (new ones with `content_count` 0), in the given
 * order. Only missing names are inserted, in name order: an insert that meets an
 * existing name would wait for whoever is moving that tag's count.
 */
async function ensureTags(em: EntityManager, names: readonly string[]): Promise<Tag[]> {
  if (names.length === 0) return [];
  const found = await em.find(Tag, { name: { $in: [...names] } });
  const missing = names.filter((name) => !found.some((tag) => tag.name === name)).sort();
  if (missing.length > 0) {
    await em.execute(
      `insert into tag (reference, name, content_count) values ${missing.map(() => '(?, ?, 0)').join(', ')}
        on conflict (name) do nothing`,
      missing.flatMap((name) => [randomUUID(), name]),
    );
    found.push(...(await em.find(Tag, { name: { $in: missing } })));
  }
  const byName = new Map(found.map((tag) => [tag.name, tag]));
  return names.map((name) => byName.get(name)!);
}

/** Moves the tags' `content_count`: `removed` lose 1, `added` gain 1, in one statement (src/db/counters.ts). */
async function moveTagCounts(
  em: EntityManager,
  change: { removed?: readonly Tag[]; added?: readonly Tag[] },
): Promise<Map<string, number>> {
  const deltas = new Map<string, number>();
  for (const tag of change.removed ?? []) deltas.set(tag.reference, (deltas.get(tag.reference) ?? 0) - 1);
  for (const tag of change.added ?? []) deltas.set(tag.reference, (deltas.get(tag.reference) ?? 0) + 1);
  return moveCounters(em, 'tag', 'content_count', deltasOf(deltas));
}

/**
 * What an article write answers besides the article: its tags in order, and the
 * caller's vote on it, so that the answer looks neither up again. A tag whose count
 * the write moved shows the count it left; a kept tag, its count as this transaction
 * read it.
 */
export interface SavedArticle {
  article: Article;
  tags: ArticleTagRow[];
  callerVote: number;
}

/** A tag of one article as an answer shows it (the tag loader's row). */
export interface ArticleTagRow extends Pick<Tag, 'reference' | 'name' | 'content_count'> {
  article_reference: string;
}

const tagRows = (
  article: Article,
  tags: readonly Tag[],
  moved: ReadonlyMap<string, number>,
): ArticleTagRow[] =>
  tags.map((tag) => ({
    article_reference: article.reference,
    reference: tag.reference,
    name: tag.name,
    content_count: moved.get(tag.reference) ?? tag.content_count,
  }));

/** The article's tag links as stored, tags loaded, in position order. */
function storedTagLinks(em: EntityManager, article: Article): Promise<ArticleTag[]> {
  return em.find(
    ArticleTag,
    { article: article.reference },
    { populate: ['tag'], orderBy: { position: 'asc' } },
  );
}

function linkTags(em: EntityManager, article: Article, tags: readonly Tag[]): void {
  tags.forEach((tag, position) => em.create(ArticleTag, { article, tag, position }));
}

const slugTaken = (em: EntityManager) => async (slug: string) => (await em.count(Article, { slug })) > 0;

/**
 * {@link findArticle} with the article's row locked for the rest of the transaction, and
 * the caller's vote on it (for the answer), in one statement (`for no key update`:
 * votes and comments may still point at it).
 */
async function lockArticle(
  em: EntityManager,
  slug: string,
  viewer: Viewer,
): Promise<{ article: Article; callerVote: number }> {
  const lock = statementText(
    em,
    'articles:lock',
    () => `select ${entityColumns(em, Article, 'a')},
        coalesce((select v.score from vote v where v.user_reference = ? and v.content_type = 'article'
          and v.content_reference = a.reference), 0) as caller_vote
      from article a where a.slug = ? and not a.deleted
      for no key update of a`,
  );
  const [row] = await em.execute<Record<string, unknown>[]>(lock, [viewer.user.reference, slug]);
  if (!row) throw new AppError('articles:not_found');
  return { article: mapEntityRow(em, Article, row, 'a')!, callerVote: Number(row.caller_vote) };
}

/** Finds a non-deleted article by exact slug (drafts included); 404 `articles:not_found`. */
export async function findArticle(em: EntityManager, slug: string): Promise<Article> {
  const article = await em.findOne(Article, { slug, deleted: false });
  if (!article) throw new AppError('articles:not_found');
  return article;
}

/**
 * #5 POST /articles/create, after authentication and validation. Check order:
 * permission and scope → category and `trusted` permissions → rate limit → images →
 * `content` look-up. Everything is written in one transaction.
 */
export function createArticle(em: EntityManager, viewer: Viewer, input: ArticleInput): Promise<SavedArticle> {
  return em.transactional(async (tx) => {
    requireArticlePermissions(viewer, 'article:create', 'create:article');
    requireBodyPermissions(viewer, input);
    await lockUserRow(tx, viewer.user.reference);
    await checkRateLimit(tx, viewer, 'article_create', CREATE_LIMIT);
    const attachments = await checkImages(tx, input.document, viewer.user.reference, null);
    const content = await findContent(tx, input);

    const at = new Date();
    const article = tx.create(Article, {
      slug: await generateSlug(input.title, slugTaken(tx)),
      author: tx.getReference(User, viewer.user.reference),
      title: input.title,
      category: input.category,
      draft: input.draft ?? true,
      trusted: input.trusted ?? false,
      document: input.document,
      preview: buildPreview(input.document),
      content_type: content?.type ?? null,
      content_reference: content?.reference ?? null,
      vote_score: 0,
      views: 0,
      comments_count: 0,
      deleted: false,
      created: at,
      updated: at,
    });
    const tags = await ensureTags(tx, distinctTags(input.tags));
    const moved = await moveTagCounts(tx, { added: tags });
    linkTags(tx, article, tags);
    attachments.forEach((attachment) => (attachment.article = article));
    recordAction(tx, viewer.user, 'article_create', article.reference);
    return { article, tags: tagRows(article, tags, moved), callerVote: 0 };
  });
}

/** A comparable copy of the editable state, to tell whether an update changed anything. */
function articleState(article: Article, tags: readonly string[]): string {
  return JSON.stringify([
    article.title,
    article.document,
    article.category,
    article.draft,
    article.trusted,
    article.content_type,
    article.content_reference,
    tags,
  ]);
}

/**
 * #4 PUT /articles/{slug}, after authentication and validation. Check order: article
 * → permission and scope → author or `article:update_moderator` → category and
 * `trusted` permissions → rate limit → `articles:bad_draft` → `articles:bad_category`
 * → images → `content` look-up.
 */
export function updateArticle(
  em: EntityManager,
  viewer: Viewer,
  slug: string,
  input: ArticleInput,
): Promise<SavedArticle> {
  return em.transactional(async (tx) => {
    const { article, callerVote } = await lockArticle(tx, slug, viewer);
    requireArticlePermissions(viewer, 'article:update', 'update:article');
    if (article.author.reference !== viewer.user.reference) {
      requirePermissions(viewer.user, ['article:update_moderator']);
    }
    requireBodyPermissions(viewer, input);
    await checkRateLimit(tx, viewer, 'article_update', UPDATE_LIMIT);
    const draft = input.draft ?? true;
    if (!article.draft && draft) throw new AppError('articles:bad_draft');
    if (!article.draft && input.category !== article.category) throw new AppError('articles:bad_category');
    const attachments = await checkImages(tx, input.document, article.author.reference, article.reference);
    const content = await findContent(tx, input);

    const links = await storedTagLinks(tx, article);
    const oldTags = links.map((link) => link.tag);
    const newNames = distinctTags(input.tags);
    const before = articleState(
      article,
      oldTags.map((tag) => tag.name),
    );

    const at = new Date();
    if (article.draft && !draft) article.created = at;
    article.title = input.title;
    article.document = input.document;
    article.category = input.category;
    article.draft = draft;
    if (hasPermissions(viewer.user, ['article:trusted'])) article.trusted = input.trusted ?? false;
    article.content_type = content?.type ?? null;
    article.content_reference = content?.reference ?? null;
    article.preview = buildPreview(input.document);
    article.updated = at;

    // Tags: removed ones −1, added ones +1, kept ones unchanged; positions follow the body.
    const oldNames = new Set(oldTags.map((tag) => tag.name));
    const newTags = await ensureTags(tx, newNames);
    const moved = await moveTagCounts(tx, {
      removed: oldTags.filter((tag) => !newNames.includes(tag.name)),
      added: newTags.filter((tag) => !oldNames.has(tag.name)),
    });
    const linked = new Map(links.map((link) => [link.tag.reference, link]));
    links
      .filter((link) => !newTags.some((tag) => tag.reference === link.tag.reference))
      .forEach((link) => tx.remove(link));
    newTags.forEach((tag, position) => {
      const link = linked.get(tag.reference);
      if (link) link.position = position;
      else tx.create(ArticleTag, { article, tag, position });
    });

    // Images: the document's are attached, the others detached and marked for deletion.
    const kept = new Set(attachments.map((attachment) => attachment.reference));
    const previous = await tx.find(Attachment, { article: article.reference });
    for (const attachment of previous) {
      if (kept.has(attachment.reference)) continue;
      attachment.article = null;
      attachment.marked_for_deletion = true;
    }
    attachments.forEach((attachment) => (attachment.article = article));

    if (before !== articleState(article, newNames)) {
      recordAction(tx, viewer.user, 'article_update', article.reference);
    }
    return { article, tags: tagRows(article, newTags, moved), callerVote };
  });
}

/** GET /articles/{slug}: the article (drafts included); each successful call adds 1 to `views`. */
export async function readArticle(em: EntityManager, slug: string): Promise<Article> {
  const article = await findArticle(em, slug);
  const [row] = await em
    .getConnection()
    .execute<{ views: number }[]>(
      'update article set views = views + 1 where reference = ? returning views',
      [article.reference],
    );
  // Keep the managed entity in step without marking it dirty.
  const data = em.getUnitOfWork().getOriginalEntityData(article) as Record<string, unknown> | undefined;
  article.views = row.views;
  if (data) data.views = row.views;
  return article;
}

/**
 * DELETE /articles/{slug}: soft-deletes the article; its tags lose 1 from
 * `content_count`, its images are detached and marked for deletion, its comments
 * become private; action `article_delete`.
 */
export function deleteArticle(em: EntityManager, viewer: Viewer, slug: string): Promise<void> {
  return em.transactional(async (tx) => {
    const article = await findArticle(tx, slug);
    requirePermissions(viewer.user, ['article:delete']);
    requireScopes(viewer, ['delete:article']);
    if (article.author.reference !== viewer.user.reference) {
      requirePermissions(viewer.user, ['article:delete_moderator']);
    }
    const deleted = await tx.nativeUpdate(
      Article,
      { reference: article.reference, deleted: false },
      { deleted: true },
    );
    if (deleted === 0) throw new AppError('articles:not_found');
    const links = await storedTagLinks(tx, article);
    await moveTagCounts(tx, { removed: links.map((link) => link.tag) });
    await tx.nativeUpdate(
      Attachment,
      { article: article.reference },
      { article: null, marked_for_deletion: true },
    );
    await tx.execute(
      `update comment set private = true where content_type = 'article' and content_reference = ?`,
      [article.reference],
    );
    recordAction(tx, viewer.user, 'article_delete', article.reference);
  });
}

const TITLE_TABLES: Record<TitleContentType, string> = { anime: 'anime', manga: 'manga', novel: 'novel' };

const SORT_COLUMNS: Record<ArticleSortField, string> = { vote_score: 'a.vote_score', created: 'a.created' };

/**
 * POST /articles (§3.8): non-deleted, never `system`; published ones, or with
 * `draft: true` the caller's own drafts; filters combine with AND; `sort`, then
 * reference desc.
 */
export async function listArticles(
  em: EntityManager,
  viewer: Viewer | null,
  input: ArticleListInput,
  page: PageArgs,
): Promise<Page<Article>> {
  const where: string[] = ['not a.deleted', `a.category <> 'system'`];
  const params: unknown[] = [];
  if (input.author !== undefined && input.author !== null) {
    let author: User;
    try {
      author = await findUserByUsername(em, input.author);
    } catch (error) {
      if (error instanceof AppError && error.code === 'user:not_found') {
        throw new AppError('articles:author_not_found');
      }
      throw error;
    }
    where.push('a.author_reference = ?');
    params.push(author.reference);
  }
  if (input.draft === true) {
    if (!viewer) return toPage([], 0, page);
    where.push('a.draft', 'a.author_reference = ?');
    params.push(viewer.user.reference);
  } else {
    where.push('not a.draft');
  }
  const categories = input.categories ?? [];
  if (categories.length > 0) {
    where.push(`a.category in (${categories.map(() => '?').join(', ')})`);
    params.push(...categories);
  }
  for (const tag of distinctTags(input.tags ?? [])) {
    where.push(
      'exists (select 1 from article_tag at join tag t on t.reference = at.tag_reference where at.article_reference = a.reference and t.name = ?)',
    );
    params.push(tag);
  }
  if (input.content_type) {
    where.push('a.content_type = ?');
    params.push(input.content_type);
  }
  if (input.content_slug !== undefined && input.content_slug !== null) {
    const kinds = input.content_type
      ? [input.content_type]
      : (Object.keys(TITLE_TABLES) as TitleContentType[]);
    where.push(
      `(${kinds
        .map(
          (kind) =>
            `(a.content_type = '${kind}' and exists (select 1 from ${TITLE_TABLES[kind]} c where c.reference = a.content_reference and c.slug = ? and not c.deleted))`,
        )
        .join(' or ')})`,
    );
    params.push(...kinds.map(() => input.content_slug));
  }
  if (input.min_vote_score !== undefined && input.min_vote_score !== null) {
    where.push(input.show_trusted === false ? 'a.vote_score >= ?' : '(a.vote_score >= ? or a.trusted)');
    params.push(input.min_vote_score);
  }
  if (input.query) {
    where.push(`(lower(a.title) like '%' || ? || '%' or lower(?) <% lower(a.title))`);
    params.push(likeLiteral(input.query.toLowerCase()), input.query);
  }
  const sort = input.sort && input.sort.length > 0 ? input.sort : ['created:desc'];
  const order = parseSort<ArticleSortField>(sort).map(
    ({ field, direction }) => `${SORT_COLUMNS[field]} ${direction}`,
  );
  const condition = where.join(' and ');
  const connection = readConnection(em);
  const [{ total }] = await connection.execute<{ total: string }[]>(
    `select count(*) as total from article a where ${condition}`,
    params,
  );
  const { offset, limit } = pageWindow(page);
  const rows = await connection.execute<{ reference: string }[]>(
    `select a.reference from article a where ${condition}
      order by ${[...order, 'a.reference desc'].join(', ')} limit ? offset ?`,
    [...params, limit, offset],
  );
  const articles = await em.find(Article, { reference: { $in: rows.map((row) => row.reference) } });
  const byReference = new Map(articles.map((article) => [article.reference, article]));
  return toPage(
    rows.map((row) => byReference.get(row.reference)!),
    Number(total),
    page,
  );
}
