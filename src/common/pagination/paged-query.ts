import type { EntityClass } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ReferencedEntity } from '../../db/base.entity';
import { readConnection } from '../../db/entity-manager';
import { concatSql, sql, type SqlFragment } from '../../db/sql';
import { type Page, type PageArgs, pageWindow, toPage } from './pagination';

/** One page of a filtered, ordered list: the SQL pieces of `select … from … where … order by …`. */
export interface ListQuery {
  /** The reference of a listed row. */
  reference: string;
  from: string;
  /** Joined onto `from` before the filters (a text query's matches: src/catalog/title-search.ts). */
  join?: SqlFragment;
  where: SqlFragment;
  orderBy: SqlFragment;
}

/** `from`, with the join when there is one. */
export const listSource = (query: ListQuery): SqlFragment =>
  query.join ? concatSql(`${query.from} `, query.join) : sql(query.from);

/**
 * The references on one page and the exact total, in one query (`count(*) over ()`);
 * only a page past the end, which has no row to carry the total, needs a second one.
 */
export async function pagedReferences(
  em: EntityManager,
  query: ListQuery,
  args: PageArgs,
): Promise<{ references: string[]; total: number }> {
  const { offset, limit } = pageWindow(args);
  const connection = readConnection(em);
  const source = listSource(query);
  const rows = await connection.execute<{ reference: string; total: string }[]>(
    `select ${query.reference} as reference, count(*) over () as total
      from ${source.sql} where ${query.where.sql} order by ${query.orderBy.sql} limit ? offset ?`,
    [...source.params, ...query.where.params, ...query.orderBy.params, limit, offset],
  );
  if (rows.length > 0) return { references: rows.map((row) => row.reference), total: Number(rows[0].total) };
  if (offset === 0) return { references: [], total: 0 };
  const [count] = await connection.execute<{ total: string }[]>(
    `select count(*) as total from ${source.sql} where ${query.where.sql}`,
    [...source.params, ...query.where.params],
  );
  return { references: [], total: Number(count.total) };
}

/** The entities with these references, in the given order, in one query. */
export async function loadInOrder<T extends ReferencedEntity>(
  em: EntityManager,
  entity: EntityClass<T>,
  references: readonly string[],
  populate: readonly string[] = [],
): Promise<T[]> {
  if (references.length === 0) return [];
  const rows = (await em.find(
    entity as EntityClass<ReferencedEntity>,
    { reference: { $in: [...references] } },
    {
      populate: populate as never,
    },
  )) as T[];
  const byReference = new Map(rows.map((row) => [row.reference, row]));
  return references
    .map((reference) => byReference.get(reference))
    .filter((row): row is T => row !== undefined);
}

/** One page of a list query's items, loaded as entities in the query's order: two queries whatever the size. */
export async function listPage<T extends ReferencedEntity>(
  em: EntityManager,
  entity: EntityClass<T>,
  query: ListQuery,
  args: PageArgs,
  populate: readonly string[] = [],
): Promise<Page<T>> {
  const { references, total } = await pagedReferences(em, query, args);
  return toPage(await loadInOrder(em, entity, references, populate), total, args);
}
