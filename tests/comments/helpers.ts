import type { MikroORM } from '@mikro-orm/postgresql';
import type { User } from '../../src/accounts/user.entity';
import { Collection, CollectionItem } from '../../src/collections/collection.entity';
import { Comment } from '../../src/comments/comment.entity';
import type { CommentContentType } from '../../src/common/enums';
import type { Json } from '../setup/json';

let sequence = 0;

/**
 * A comment row written directly (no rules, no counters): `parent` sets depth and
 * thread root. Call `recount` afterwards to set `total_replies` and `comments_count`.
 */
export async function buildComment(
  orm: MikroORM,
  author: User,
  content: { type: CommentContentType; reference: string; slug?: string },
  o: Partial<Comment> & { parent?: Comment | null } = {},
): Promise<Comment> {
  sequence += 1;
  const em = orm.em.fork();
  const parent = o.parent ?? null;
  const created = o.created ?? new Date(Date.UTC(2024, 0, 1, 0, 0, sequence));
  const comment = em.create(Comment, {
    author: author.reference,
    content_type: content.type,
    content_reference: content.reference,
    text: `comment ${sequence}`,
    preview: { title: 'Title', image: null, slug: content.slug ?? 'slug' },
    created,
    updated: created,
    ...o,
    parent: parent ? parent.reference : null,
    thread_root: parent ? (parent.thread_root?.reference ?? parent.reference) : null,
    depth: parent ? parent.depth + 1 : 1,
  } as never);
  await em.flush();
  if (!parent) {
    await em.nativeUpdate(Comment, { reference: comment.reference }, { thread_root: comment.reference });
    comment.thread_root = comment;
  }
  return comment;
}

/** Recomputes every `total_replies` and the `comments_count` of every content table (§6.4). */
export async function recount(orm: MikroORM): Promise<void> {
  const em = orm.em.fork();
  const rows = await em.execute<
    { reference: string; parent_reference: string | null; hidden: boolean; deleted: boolean }[]
  >(`select reference, parent_reference, hidden, deleted from comment`);
  const byRef = new Map(rows.map((row) => [row.reference, row]));
  const totals = new Map<string, number>();
  for (const row of rows) {
    if (row.hidden || row.deleted) continue;
    let up = row.parent_reference;
    while (up) {
      totals.set(up, (totals.get(up) ?? 0) + 1);
      up = byRef.get(up)?.parent_reference ?? null;
    }
  }
  for (const row of rows) {
    await em.execute(`update comment set total_replies = ? where reference = ?`, [
      totals.get(row.reference) ?? 0,
      row.reference,
    ]);
  }
  for (const table of ['anime', 'manga', 'novel', 'person', 'character', 'article', 'collection']) {
    await em.execute(
      `update "${table}" t set comments_count = (select count(*) from comment c
        where c.content_reference = t.reference and not c.hidden and not c.deleted)`,
    );
  }
}

/** A collection of one anime item. */
export async function buildCollection(
  orm: MikroORM,
  author: User,
  item: { reference: string },
  o: Partial<Collection> = {},
): Promise<Collection> {
  const em = orm.em.fork();
  const collection = em.create(Collection, {
    author: author.reference,
    title: 'My collection',
    description: 'A collection',
    content_type: 'anime',
    visibility: 'public',
    entries: 1,
    created: new Date(),
    updated: new Date(),
    ...o,
  } as never);
  em.create(CollectionItem, {
    collection,
    content_type: 'anime',
    content_reference: item.reference,
    order: 1,
  } as never);
  await em.flush();
  return collection;
}

/** References of a comment tree as served: `[reference, [children…]]`. */
export function shapeOf(comment: Json): unknown {
  const c = comment as { reference: string; replies: Json[] };
  return [c.reference, c.replies.map(shapeOf)];
}

/** Every node of a served tree, depth first. */
export function nodesOf(comment: Json): Json[] {
  const c = comment as { replies: Json[] };
  return [comment, ...c.replies.flatMap(nodesOf)];
}

/**
 * Everything a comment write, edit or hide may change: comment rows (text, hidden,
 * review, counters), their history, the content counters, notifications and action records.
 * A refused request must leave it equal.
 */
export async function commentState(orm: MikroORM): Promise<Record<string, unknown>> {
  const connection = orm.em.getConnection();
  const counted = ['anime', 'manga', 'novel', 'person', 'character', 'article', 'collection'];
  return {
    comments: await connection.execute(`select * from comment order by reference`),
    versions: await connection.execute(`select * from comment_version order by reference`),
    counts: await connection.execute(
      counted
        .map((table) => `select '${table}' as t, reference, comments_count from "${table}"`)
        .join(' union all ') + ' order by t, reference',
    ),
    notifications: await connection.execute(`select * from notification order by reference`),
    actions: await connection.execute(`select * from action_record order by id`),
  };
}
