import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { ActionRecord } from '../accounts/action-record.entity';
import { recordAction } from '../accounts/actions';
import { User } from '../accounts/user.entity';
import { findUserByUsername, lockUserRow } from '../accounts/users.service';
import { requirePermissions } from '../common/auth/permissions';
import { clockHour } from '../common/hourly-window';
import { requireScopes, type Viewer } from '../accounts/session';
import type { CollectionContentType } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import { type ListQuery, listPage } from '../common/pagination/paged-query';
import type { Page, PageArgs } from '../common/pagination/pagination';
import { parseSort } from '../common/sorting';
import type { RequestContext } from '../context';
import { joinSql, sql, type SqlFragment } from '../db/sql';
import { Collection, CollectionItem } from './collection.entity';
import type { CollectionInput, CollectionSearchInput, CollectionSortField } from './collection.inputs';

/** Entries per collection (semantics §3.7). */
const MAX_ENTRIES = 500;
/** Non-deleted collections per user. */
const MAX_COLLECTIONS = 1000;
/** `collection_update` actions per user and clock hour before the limit (§1.11). */
const UPDATE_RATE_LIMIT = 1000;

/** Table of each collection content type; titles have a `deleted` flag. */
const CONTENT_TABLES: Record<CollectionContentType, { table: string; soft: boolean }> = {
  anime: { table: 'anime', soft: true },
  manga: { table: 'manga', soft: true },
  novel: { table: 'novel', soft: true },
  character: { table: 'character', soft: false },
  person: { table: 'person', soft: false },
};

/**
 * SQL condition "the item's content exists and is not deleted", over `collection_item`
 * aliased `alias` (one indexed probe per item).
 */
export function liveContentSql(alias: string): string {
  const cases = Object.entries(CONTENT_TABLES).map(
    ([type, { table, soft }]) =>
      `(${alias}.content_type = '${type}' and exists (select 1 from "${table}" t
         where t.reference = ${alias}.content_reference${soft ? ' and not t.deleted' : ''}))`,
  );
  return `(${cases.join(' or ')})`;
}

/**
 * References of the non-deleted items of `type` named by `slugs` (exact,
 * case-sensitive slugs), in one query.
 */
async function contentBySlug(
  em: EntityManager,
  type: CollectionContentType,
  slugs: readonly string[],
): Promise<Map<string, string>> {
  if (slugs.length === 0) return new Map();
  const { table, soft } = CONTENT_TABLES[type];
  const rows = await em.execute<{ slug: string; reference: string }[]>(
    `select slug, reference from "${table}" where slug in (?)${soft ? ' and not deleted' : ''}`,
    [[...new Set(slugs)]],
  );
  return new Map(rows.map((row) => [row.slug, row.reference]));
}

/**
 * The label and order rules of §3.7, in their order (all 400): labels all or none,
 * `labels_order` matching the distinct labels, 1..500 entries with orders 1..n.
 */
function checkEntries(input: CollectionInput): void {
  const content = input.content;
  const labelled = content.filter((entry) => entry.label != null).length;
  if (labelled > 0 && labelled < content.length) throw new AppError('collections:unlabeled_content');
  const labels = new Set(content.flatMap((entry) => (entry.label == null ? [] : [entry.label])));
  if (input.labels_order.length !== labels.size) throw new AppError('collections:bad_labels_order');
  if (input.labels_order.some((label) => !labels.has(label))) throw new AppError('collections:bad_label');
  const orders = content.map((entry) => entry.order);
  if (new Set(orders).size !== orders.length) throw new AppError('collections:bad_order_duplicated');
  if (content.length < 1 || content.length > MAX_ENTRIES) throw new AppError('collections:content_limit');
  const min = Math.min(...orders);
  const max = Math.max(...orders);
  if (min !== 1) throw new AppError('collections:bad_order_start');
  if (max - min + 1 !== orders.length) throw new AppError('collections:bad_order_not_consecutive');
}

/** Every entry's content reference, or 400 `collections:bad_content`. */
async function resolveEntries(em: EntityManager, input: CollectionInput): Promise<string[]> {
  const found = await contentBySlug(
    em,
    input.content_type,
    input.content.map((entry) => entry.slug),
  );
  return input.content.map((entry) => {
    const reference = found.get(entry.slug);
    if (!reference) throw new AppError('collections:bad_content');
    return reference;
  });
}

/** Replaces the collection's items with the body's entries (already resolved). */
async function writeItems(
  em: EntityManager,
  collection: Collection,
  input: CollectionInput,
  references: readonly string[],
): Promise<void> {
  await em.nativeDelete(CollectionItem, { collection: collection.reference });
  input.content.forEach((entry, i) =>
    em.create(CollectionItem, {
      collection,
      content_type: input.content_type,
      content_reference: references[i],
      order: entry.order,
      comment: entry.comment ?? null,
      label: entry.label ?? null,
    }),
  );
  collection.entries = input.content.length;
}

/** Sets `private` on the collection's comments (a visibility change or a deletion). */
async function setCommentsPrivate(em: EntityManager, collection: string, value: boolean): Promise<void> {
  await em.execute(
    `update "comment" set "private" = ? where content_type = 'collection' and content_reference = ?`,
    [value, collection],
  );
}

/**
 * The business rules and effects of a collection creation for `author`, without the
 * caller's permission and scope checks (the demo seeder creates collections so):
 * the entry rules, the content look-ups, the 1000-collection limit, then the rows
 * and the action record, in one transaction.
 */
export function createCollectionFor(
  em: EntityManager,
  author: User,
  input: CollectionInput,
  at: Date = new Date(),
): Promise<Collection> {
  return em.transactional(async (tx) => {
    checkEntries(input);
    const references = await resolveEntries(tx, input);
    await lockUserRow(tx, author.reference);
    if ((await tx.count(Collection, { author: author.reference, deleted: false })) >= MAX_COLLECTIONS) {
      throw new AppError('collections:limit');
    }
    const collection = tx.create(Collection, {
      author: tx.getReference(User, author.reference),
      title: input.title,
      description: input.description,
      tags: [...input.tags],
      visibility: input.visibility,
      content_type: input.content_type,
      labels_order: [...input.labels_order],
      spoiler: input.spoiler,
      nsfw: input.nsfw,
      entries: 0,
      vote_score: 0,
      system_ranking: 0,
      comments_count: 0,
      created: at,
      updated: at,
    });
    await writeItems(tx, collection, input, references);
    recordAction(tx, author, 'collection_create', collection.reference);
    await tx.flush();
    return collection;
  });
}

/** POST /collections/create: permission `collection:create`, scope `create:collection`, then §3.7. */
export function createCollection(
  em: EntityManager,
  viewer: Viewer,
  input: CollectionInput,
): Promise<Collection> {
  requirePermissions(viewer.user, ['collection:create']);
  requireScopes(viewer, ['create:collection']);
  return createCollectionFor(em, viewer.user, input);
}

/**
 * A non-deleted collection that the caller may see: not private, or private and the
 * caller's own; else 404 `collections:not_found`. `reference` is a checked UUID.
 */
export async function findVisibleCollection(
  em: EntityManager,
  reference: string,
  viewer: Viewer | null,
  lock = false,
): Promise<Collection> {
  const collection = await em.findOne(
    Collection,
    { reference: reference.toLowerCase(), deleted: false },
    lock ? { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true } : {},
  );
  if (
    !collection ||
    (collection.visibility === 'private' && collection.author.reference !== viewer?.user.reference)
  ) {
    throw new AppError('collections:not_found');
  }
  return collection;
}

/** The stored live entries, as a comparable list of the body's entry fields. */
async function storedEntries(em: EntityManager, collection: Collection): Promise<string> {
  const slugCases = Object.entries(CONTENT_TABLES)
    .map(
      ([type, { table }]) =>
        `when '${type}' then (select t.slug from "${table}" t where t.reference = i.content_reference)`,
    )
    .join(' ');
  const rows = await em.execute<
    { slug: string; order: number; comment: string | null; label: string | null }[]
  >(
    `select case i.content_type ${slugCases} end as slug, i."order", i.comment, i.label
       from collection_item i
      where i.collection_reference = ? and ${liveContentSql('i')}
      order by i."order"`,
    [collection.reference],
  );
  return JSON.stringify(rows.map((row) => [row.slug, row.order, row.comment, row.label]));
}

const bodyEntries = (input: CollectionInput): string =>
  JSON.stringify(
    [...input.content]
      .sort((a, b) => a.order - b.order)
      .map((entry) => [entry.slug, entry.order, entry.comment ?? null, entry.label ?? null]),
  );

/**
 * PUT /collections/{reference} (§3.7): 404 → permission and scope → a non-author
 * needs `collection:update_moderator` → such a non-author may not change the labels
 * order or the entries → rate limit → content type change → the create checks.
 * Entries are replaced only when changed; a visibility change sets `private` on the
 * collection's comments. One transaction: a failed check leaves everything unchanged.
 */
export function updateCollection(
  em: EntityManager,
  viewer: Viewer,
  reference: string,
  input: CollectionInput,
): Promise<Collection> {
  return em.transactional(async (tx) => {
    const collection = await findVisibleCollection(tx, reference, viewer, true);
    requirePermissions(viewer.user, ['collection:update']);
    requireScopes(viewer, ['update:collection']);
    const isAuthor = collection.author.reference === viewer.user.reference;
    if (!isAuthor) requirePermissions(viewer.user, ['collection:update_moderator']);
    const entriesChanged = bodyEntries(input) !== (await storedEntries(tx, collection));
    const labelsChanged = JSON.stringify(input.labels_order) !== JSON.stringify(collection.labels_order);
    if (!isAuthor && (entriesChanged || labelsChanged)) {
      throw new AppError('collections:moderator_content_update');
    }
    const at = new Date();
    await lockUserRow(tx, viewer.user.reference);
    const updates = await tx.count(ActionRecord, {
      user: viewer.user.reference,
      type: 'collection_update',
      created: { $gte: clockHour(at) },
    });
    if (updates > UPDATE_RATE_LIMIT) throw new AppError('system:rate_limit');
    if (input.content_type !== collection.content_type) throw new AppError('collections:bad_content_type');
    checkEntries(input);
    const references = await resolveEntries(tx, input);

    if (input.visibility !== collection.visibility) {
      await setCommentsPrivate(tx, collection.reference, input.visibility === 'private');
    }
    if (entriesChanged) await writeItems(tx, collection, input, references);
    Object.assign(collection, {
      title: input.title,
      description: input.description,
      tags: [...input.tags],
      visibility: input.visibility,
      labels_order: [...input.labels_order],
      spoiler: input.spoiler,
      nsfw: input.nsfw,
      updated: at,
    });
    recordAction(tx, viewer.user, 'collection_update', collection.reference);
    await tx.flush();
    return collection;
  });
}

/**
 * DELETE /collections/{reference}: 404 → permission `collection:delete` and scope
 * `delete:collection` → a non-author needs `collection:delete_moderator`. Soft-deletes
 * the collection and makes its comments private.
 */
export function deleteCollection(em: EntityManager, viewer: Viewer, reference: string): Promise<void> {
  return em.transactional(async (tx) => {
    const collection = await findVisibleCollection(tx, reference, viewer, true);
    requirePermissions(viewer.user, ['collection:delete']);
    requireScopes(viewer, ['delete:collection']);
    if (collection.author.reference !== viewer.user.reference) {
      requirePermissions(viewer.user, ['collection:delete_moderator']);
    }
    collection.deleted = true;
    await setCommentsPrivate(tx, collection.reference, true);
    recordAction(tx, viewer.user, 'collection_delete', collection.reference);
  });
}

/**
 * #14 GET /collections/{reference}: the collection if the caller may see it (404
 * `collections:not_found`), then the scopes `read:watchlist` and `read:readlist`.
 */
/** The scopes a third-party token needs to read a collection (#14), checked once it is found. */
export const COLLECTION_READ_SCOPES = ['read:watchlist', 'read:readlist'];

export async function getCollection(ctx: RequestContext, reference: string): Promise<Collection> {
  const viewer = await ctx.auth.optional();
  const collection = await findVisibleCollection(ctx.em, reference, viewer);
  if (viewer) requireScopes(viewer, COLLECTION_READ_SCOPES);
  return collection;
}

const SORT_COLUMNS: Record<CollectionSortField, string> = {
  system_ranking: 'c.system_ranking',
  created: 'c.created',
};
const DEFAULT_SORT = ['system_ranking:desc', 'created:desc'];

/**
 * #15 POST /collections (semantics §2 #15): scope `read:collection` → author look-up
 * (404 `collections:author_not_found`) → content without content type (400
 * `collections:empty_content_type`) → content look-up (400 `collections:bad_content`),
 * then the list those filters select, in the requested order.
 */
export async function collectionSearchQuery(
  ctx: RequestContext,
  input: CollectionSearchInput,
): Promise<ListQuery> {
  const viewer = await ctx.auth.optional(['read:collection']);
  const { em } = ctx;
  let author: User | null = null;
  if (input.author != null) {
    try {
      author = await findUserByUsername(em, input.author);
    } catch (error) {
      if (error instanceof AppError && error.code === 'user:not_found') {
        throw new AppError('collections:author_not_found');
      }
      throw error;
    }
  }
  const content = input.content ?? [];
  const contentType = input.content_type ?? null;
  let contentReference: string | null = null;
  if (content.length > 0) {
    if (contentType === null) throw new AppError('collections:empty_content_type');
    contentReference = (await contentBySlug(em, contentType, content)).get(content[0]) ?? null;
    if (contentReference === null) throw new AppError('collections:bad_content');
  }

  const conditions: SqlFragment[] = [sql('not c.deleted')];
  if (input.only_public ?? true) conditions.push(sql(`c.visibility = 'public'`));
  else if (author && viewer && author.reference === viewer.user.reference) {
    // Every visibility of the caller's own collections.
  } else conditions.push(sql(`c.visibility in ('public', 'unlisted')`));
  if (author) conditions.push(sql('c.author_reference = ?', author.reference));
  if (contentType !== null) conditions.push(sql('c.content_type = ?', contentType));
  const tags = input.tags ?? [];
  if (tags.length > 0) conditions.push(sql('c.tags @> array[?]::text[]', tags));
  if (contentReference !== null) {
    conditions.push(
      sql(
        `exists (select 1 from collection_item i where i.collection_reference = c.reference
                  and i.content_type = ? and i.content_reference = ?)`,
        contentType,
        contentReference,
      ),
    );
  }
  const order = [
    ...parseSort<CollectionSortField>(input.sort ?? DEFAULT_SORT).map(
      ({ field, direction }) => `${SORT_COLUMNS[field]} ${direction}`,
    ),
    'c.reference desc',
  ].join(', ');
  return { reference: 'c.reference', from: 'collection c', where: joinSql(conditions), orderBy: sql(order) };
}

/** #15: a page of {@link collectionSearchQuery}. */
export async function searchCollections(
  ctx: RequestContext,
  input: CollectionSearchInput,
  args: PageArgs,
): Promise<Page<Collection>> {
  return listPage(ctx.em, Collection, await collectionSearchQuery(ctx, input), args);
}
