import type { EntityClass } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TitleContentType } from '../common/enums';
import { type Page, type PageArgs, pageWindow, toPage } from '../common/pagination/pagination';
import type { ReferencedEntity } from '../db/base.entity';
import { titleEntity, type TitleOf } from './catalog.service';
import { joinSql, titleConditions, titleOrder, type SqlFragment, type TitleFilters } from './title-filters';

/** One page of a filtered, ordered list: the SQL pieces of `select … from … where … order by …`. */
export interface ListQuery {
  /** The reference of a listed row. */
  reference: string;
  from: string;
  where: SqlFragment;
  orderBy: SqlFragment;
}

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
  const connection = em.getConnection();
  const rows = await connection.execute<{ reference: string; total: string }[]>(
    `select ${query.reference} as reference, count(*) over () as total
      from ${query.from} where ${query.where.sql} order by ${query.orderBy.sql} limit ? offset ?`,
    [...query.where.params, ...query.orderBy.params, limit, offset],
  );
  if (rows.length > 0) return { references: rows.map((row) => row.reference), total: Number(rows[0].total) };
  if (offset === 0) return { references: [], total: 0 };
  const [count] = await connection.execute<{ total: string }[]>(
    `select count(*) as total from ${query.from} where ${query.where.sql}`,
    query.where.params,
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

/**
 * A page of non-deleted titles of one kind matching `filters`, ordered as §1.10 says
 * (see `titleOrder`). Two queries whatever the page size.
 */
export async function listTitles<K extends TitleContentType>(
  em: EntityManager,
  kind: K,
  filters: TitleFilters,
  sort: readonly string[] | undefined,
  args: PageArgs,
): Promise<Page<TitleOf[K]>> {
  const { references, total } = await pagedReferences(
    em,
    {
      reference: 't.reference',
      from: `${kind} t`,
      where: joinSql(titleConditions(kind, 't', filters)),
      orderBy: titleOrder(kind, 't', sort, filters.query),
    },
    args,
  );
  const list = await loadInOrder(em, titleEntity(kind) as EntityClass<TitleOf[K]>, references);
  return toPage(list, total, args);
}
