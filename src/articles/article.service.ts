import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { actionRecordSql, recordAction } from '../accounts/actions';
import { User } from '../accounts/user.entity';
import { findUserByUsername, lockUserRowSql } from '../accounts/users.service';
import { findTitle } from '../catalog/catalog.service';
import { clockHour } from '../common/hourly-window';
import { hasPermissions, requirePermissions, type Permission } from '../common/auth/permissions';
import { requireScopes, type Viewer } from '../accounts/session';
import type { ActionType, TitleContentType } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import { pageWindow, toPage, type Page, type PageArgs } from '../common/pagination/pagination';
import { parseSort } from '../common/sorting';
import { config } from '../config';
import { counterMoveSql, deltasOf } from '../db/counters';
import { executeInOrder, sql, type SqlFragment, withEffects } from '../db/sql';
import { Article, Attachment, type Tag } from './article.entity';
import type { ArticleInput, ArticleListInput, ArticleSortField } from './article.types';
import { buildPreview, imageUrls } from './document';
import { generateSlug, slugCandidate } from './slug';
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

/** Rejects a non-staff caller who already has more than `limit` actions of a type this clock hour (`count` of them). */
function checkRateLimit(viewer: Viewer, count: number, limit: number): void {
  if (!STAFF.has(viewer.user.role) && count > limit) throw new AppError('system:rate_limit');
}

/**
 * The count (`count`) of the caller's actions of `type` this clock hour; 0 for staff,
 * whom no limit holds (and who may have written thousands).
 */
const actionsThisHourSql = (viewer: Viewer, type: ActionType): SqlFragment =>
  STAFF.has(viewer.user.role)
    ? sql('select 0 as count')
    : sql(
        'select count(*) as count from action_record where user_reference = ? and type = ? and created >= ?',
        viewer.user.reference,
        type,
        clockHour(),
      );

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

/** A tag as an article write reads it. */
type TagRow = Pick<Tag, 'reference' | 'name' | 'content_count'>;

/** The tags of these names that exist, in no order: one statement, no entities. */
async function tagsNamed(em: EntityManager, names: readonly string[]): Promise<TagRow[]> {
  if (names.length === 0) return [];
  const statement = tagsNamedSql(names);
  return em.execute<TagRow[]>(statement.sql, statement.params);
}

/** The statement of {@link tagsNamed}; for no names it finds none. */
const tagsNamedSql = (names: readonly string[]): SqlFragment =>
  sql(
    'select reference, name, content_count from tag where name in (select jsonb_array_elements_text(?::jsonb))',
    JSON.stringify(names),
  );

/**
 * The tags by name, in the given order, creating the missing ones (with `content_count`
 * 0); `found` are those already read. Only missing names are inserted, in name order: an
 * insert that meets an existing name would wait for whoever is moving that tag's count.
 */
async function ensureTags(
  em: EntityManager,
  names: readonly string[],
  found: readonly TagRow[],
): Promise<TagRow[]> {
  const byName = new Map(found.map((tag) => [tag.name, tag]));
  const missing = names.filter((name) => !byName.has(name)).sort();
  if (missing.length > 0) {
    await em.execute(
      `insert into tag (reference, name, content_count) values ${missing.map(() => '(?, ?, 0)').join(', ')}
        on conflict (name) do nothing`,
      missing.flatMap((name) => [randomUUID(), name]),
    );
    for (const tag of await tagsNamed(em, missing)) byName.set(tag.name, tag);
  }
  return names.map((name) => byName.get(name)!);
}

/**
 * The statements that move the tags' `content_count` (src/db/counters.ts): `removed`
 * lose 1, `added` gain 1; none when nothing moves. A write sends them last, in the
 * round trip of its other statements, so that the shared tags' rows stay locked only
 * until the commit that follows; the last one answers the new counts.
 */
function tagCountsMoveSql(change: {
  removed?: readonly Pick<TagRow, 'reference'>[];
  added?: readonly Pick<TagRow, 'reference'>[];
}): SqlFragment[] {
  const deltas = new Map<string, number>();
  for (const tag of change.removed ?? []) deltas.set(tag.reference, (deltas.get(tag.reference) ?? 0) - 1);
  for (const tag of change.added ?? []) deltas.set(tag.reference, (deltas.get(tag.reference) ?? 0) + 1);
  const moved = deltasOf(deltas);
  return moved ? counterMoveSql('tag', 'content_count', moved) : [];
}

/** The tags' new counts, from the rows of {@link tagCountsMoveSql}'s last statement (none sent: none moved). */
const movedCounts = (rows: readonly Record<string, unknown>[] = []): Map<string, number> =>
  new Map(rows.map((row) => [String(row.reference), Number(row.value)]));

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
  tags: readonly TagRow[],
  moved: ReadonlyMap<string, number>,
): ArticleTagRow[] =>
  tags.map((tag) => ({
    article_reference: article.reference,
    reference: tag.reference,
    name: tag.name,
    content_count: moved.get(tag.reference) ?? tag.content_count,
  }));

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
    const names = distinctTags(input.tags);
    const candidate = slugCandidate(input.title);
    // One round trip: the user's row locked first (so the hourly count cannot be raced),
    // then what the write needs that no rule below can refuse.
    const [, [{ count }], found, [{ taken }]] = await executeInOrder(tx, [
      lockUserRowSql(viewer.user.reference),
      actionsThisHourSql(viewer, 'article_create'),
      tagsNamedSql(names),
      sql('select exists (select 1 from "article" where slug = ?) as taken', candidate),
    ]);
    checkRateLimit(viewer, Number(count), CREATE_LIMIT);
    const attachments = await checkImages(tx, input.document, viewer.user.reference, null);
    const content = await findContent(tx, input);

    const at = new Date();
    const reference = randomUUID();
    const tags = await ensureTags(tx, names, found as TagRow[]);
    // A collision of the random suffix is rare: fresh candidates then, one look-up each.
    const slug = taken ? await generateSlug(input.title, slugTaken(tx)) : candidate;
    const write = sql(
      `insert into article as a (reference, slug, author_reference, title, category, draft, trusted, document,
          preview, content_type, content_reference, vote_score, views, comments_count, deleted, created, updated)
        values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?, ?, 0, 0, 0, false, ?, ?)
        returning ${entityColumns(tx, Article, 'a')}`,
      reference,
      slug,
      viewer.user.reference,
      input.title,
      input.category,
      input.draft ?? true,
      input.trusted ?? false,
      JSON.stringify(input.document),
      JSON.stringify(buildPreview(input.document)),
      content?.type ?? null,
      content?.reference ?? null,
      at,
      at,
    );
    // In one statement: the links' and attachments' key checks see the article it inserts.
    const [[row], ...moves] = await executeInOrder(tx, [
      withEffects(write, [
        ...linkTagsSql(reference, tags),
        ...attachSql(reference, attachments),
        actionRecordSql(viewer.user.reference, 'article_create', reference),
      ]),
      ...tagCountsMoveSql({ added: tags }),
    ]);
    const article = mapEntityRow(tx, Article, row, 'a')!;
    return { article, tags: tagRows(article, tags, movedCounts(moves.at(-1))), callerVote: 0 };
  });
}

/** Links `tags` to the article in their order, moving the positions of links it has already. */
function linkTagsSql(article: string, tags: readonly TagRow[]): SqlFragment[] {
  if (tags.length === 0) return [];
  const links = tags.map((tag, position) => ({ tag: tag.reference, position }));
  return [
    sql(
      `insert into article_tag (article_reference, tag_reference, position)
       select ?, link.tag, link.position from jsonb_to_recordset(?::jsonb) as link(tag uuid, position smallint)
       on conflict (article_reference, tag_reference) do update set position = excluded.position
        where article_tag.position <> excluded.position`,
      article,
      JSON.stringify(links),
    ),
  ];
}

/** Attaches the attachments to the article. */
function attachSql(article: string, attachments: readonly Attachment[]): SqlFragment[] {
  if (attachments.length === 0) return [];
  return [
    sql(
      `update attachment set article_reference = ?
        where reference in (select value::uuid from jsonb_array_elements_text(?::jsonb))`,
      article,
      JSON.stringify(attachments.map((attachment) => attachment.reference)),
    ),
  ];
}

/** A comparable copy of the editable state, to tell whether an update changed anything. */
function articleState(
  article: Pick<
    Article,
    'title' | 'document' | 'category' | 'draft' | 'trusted' | 'content_type' | 'content_reference'
  >,
  tags: readonly string[],
): string {
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

/** What an update reads once the article is locked (so that no concurrent write of it is missed). */
interface ArticleState {
  /** Its tags, in position order. */
  linked: TagRow[];
  /** The tags of the body's names that exist already. */
  named: TagRow[];
  /** The attachments attached to it. */
  attached: string[];
  /** The caller's `article_update` actions this clock hour (the rate limit's count). */
  recentUpdates: number;
}

/** {@link ArticleState} in one statement. */
async function readArticleState(
  em: EntityManager,
  article: Article,
  names: readonly string[],
  viewer: Viewer,
): Promise<ArticleState> {
  const read = statementText(
    em,
    'articles:state',
    () => `select
        (select coalesce(json_agg(json_build_object('reference', t.reference, 'name', t.name,
            'content_count', t.content_count) order by at.position), '[]')
           from article_tag at join tag t on t.reference = at.tag_reference
          where at.article_reference = ?) as linked,
        (select coalesce(json_agg(json_build_object('reference', t.reference, 'name', t.name,
            'content_count', t.content_count)), '[]')
           from tag t where t.name in (select jsonb_array_elements_text(?::jsonb))) as named,
        (select coalesce(json_agg(reference), '[]') from attachment where article_reference = ?) as attached,
        (select count(*) from action_record
          where user_reference = ? and type = 'article_update' and created >= ?)::integer as recent_updates`,
  );
  const [row] = await em.execute<
    { linked: TagRow[]; named: TagRow[]; attached: string[]; recent_updates: number }[]
  >(read, [article.reference, JSON.stringify(names), article.reference, viewer.user.reference, clockHour()]);
  return { linked: row.linked, named: row.named, attached: row.attached, recentUpdates: row.recent_updates };
}

/**
 * #4 PUT /articles/{slug}, after authentication and validation. Check order: article
 * → permission and scope → author or `article:update_moderator` → category and
 * `trusted` permissions → rate limit → `articles:bad_draft` → `articles:bad_category`
 * → images → `content` look-up.
 *
 * Without the unit of work: the article's lock, one read of what the update changes
 * (its tags, the body's tags, its attachments, the rate limit's count), and one write of
 * the article with its tag links, attachments and action record; changed tags add the
 * new ones' insert and the counts' move.
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
    const newNames = distinctTags(input.tags);
    const state = await readArticleState(tx, article, newNames, viewer);
    checkRateLimit(viewer, state.recentUpdates, UPDATE_LIMIT);
    const draft = input.draft ?? true;
    if (!article.draft && draft) throw new AppError('articles:bad_draft');
    if (!article.draft && input.category !== article.category) throw new AppError('articles:bad_category');
    const attachments = await checkImages(tx, input.document, article.author.reference, article.reference);
    const content = await findContent(tx, input);

    const oldTags = state.linked;
    const before = articleState(
      article,
      oldTags.map((tag) => tag.name),
    );
    const at = new Date();
    const updated = {
      title: input.title,
      document: input.document,
      category: input.category,
      draft,
      trusted: hasPermissions(viewer.user, ['article:trusted']) ? (input.trusted ?? false) : article.trusted,
      content_type: content?.type ?? null,
      content_reference: content?.reference ?? null,
    };

    // Tags: removed ones −1, added ones +1, kept ones unchanged; positions follow the body.
    const oldNames = new Set(oldTags.map((tag) => tag.name));
    const newTags = await ensureTags(tx, newNames, state.named);
    const removedLinks = oldTags.filter((tag) => !newNames.includes(tag.name)).map((tag) => tag.reference);

    // Images: the document's are attached, the others detached and marked for deletion.
    const kept = new Set(attachments.map((attachment) => attachment.reference));
    const detached = state.attached.filter((reference) => !kept.has(reference));

    const effects = [
      ...(removedLinks.length === 0
        ? []
        : [
            sql(
              `delete from article_tag where article_reference = ?
                and tag_reference in (select value::uuid from jsonb_array_elements_text(?::jsonb))`,
              article.reference,
              JSON.stringify(removedLinks),
            ),
          ]),
      ...linkTagsSql(article.reference, newTags),
      ...(detached.length === 0
        ? []
        : [
            sql(
              `update attachment set article_reference = null, marked_for_deletion = true
                where reference in (select value::uuid from jsonb_array_elements_text(?::jsonb))`,
              JSON.stringify(detached),
            ),
          ]),
      ...attachSql(article.reference, attachments),
      ...(before === articleState(updated, newNames)
        ? []
        : [actionRecordSql(viewer.user.reference, 'article_update', article.reference)]),
    ];
    const write = sql(
      `update article as a set title = ?, document = ?::jsonb, category = ?, draft = ?, trusted = ?,
          content_type = ?, content_reference = ?, preview = ?::jsonb, updated = ?, created = ?
        where reference = ?
        returning ${entityColumns(tx, Article, 'a')}`,
      updated.title,
      JSON.stringify(updated.document),
      updated.category,
      updated.draft,
      updated.trusted,
      updated.content_type,
      updated.content_reference,
      JSON.stringify(buildPreview(input.document)),
      at,
      article.draft && !draft ? at : article.created,
      article.reference,
    );
    const [[row], ...moves] = await executeInOrder(tx, [
      withEffects(write, effects),
      ...tagCountsMoveSql({
        removed: oldTags.filter((tag) => !newNames.includes(tag.name)),
        added: newTags.filter((tag) => !oldNames.has(tag.name)),
      }),
    ]);
    // The stored values become the managed article's: nothing is left for a flush to write.
    const saved = mapEntityRow(tx, Article, row, 'a')!;
    return { article: saved, tags: tagRows(saved, newTags, movedCounts(moves.at(-1))), callerVote };
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
    const linked = await tx.execute<{ reference: string }[]>(
      'select tag_reference as reference from article_tag where article_reference = ?',
      [article.reference],
    );
    await executeInOrder(tx, tagCountsMoveSql({ removed: linked }));
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
