import { type EntityClass, type EntityDictionary, ReferenceKind } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Entities read by a statement of one's own (on the statement pool, `queryRows`) rather
 * than through the entity manager's query builder: the columns of several joined tables
 * in one row, each named `<alias>__<column>` as MikroORM names joined columns, and the
 * entities made from them in the request's entity manager (`em.map`: managed, with the
 * stored values converted as a find converts them).
 */

const columnsOf = new WeakMap<object, string[]>();

/** The stored columns of `entity` (scalars and owning references), read from its metadata once. */
function storedColumns(em: EntityManager, entity: EntityClass<object>): string[] {
  const meta = em.getMetadata().get(entity.name);
  let columns = columnsOf.get(meta);
  if (!columns) {
    columns = meta.props
      .filter(
        (prop) =>
          (prop.kind === ReferenceKind.SCALAR || prop.kind === ReferenceKind.MANY_TO_ONE) &&
          prop.persist !== false &&
          !prop.formula,
      )
      .flatMap((prop) => prop.fieldNames);
    columnsOf.set(meta, columns);
  }
  return columns;
}

const statementTexts = new WeakMap<object, Map<string, string>>();

/**
 * A statement text made of entities' columns, built once per ORM (its metadata) under
 * `name` (unique in the service): the hot writes and the token look-up send theirs on
 * every request.
 */
export function statementText(em: EntityManager, name: string, build: () => string): string {
  const metadata = em.getMetadata();
  let texts = statementTexts.get(metadata);
  if (!texts) statementTexts.set(metadata, (texts = new Map()));
  let text = texts.get(name);
  if (text === undefined) texts.set(name, (text = build()));
  return text;
}

/** `<alias>."<column>" as "<alias>__<column>"` for every stored column of `entity`. */
export function entityColumns(em: EntityManager, entity: EntityClass<object>, alias: string): string {
  return storedColumns(em, entity)
    .map((column) => `${alias}."${column}" as "${alias}__${column}"`)
    .join(', ');
}

/** The entity whose columns `row` holds under `alias` (see {@link entityColumns}); null where a left join found none. */
export function mapEntityRow<T extends object>(
  em: EntityManager,
  entity: EntityClass<T>,
  row: Record<string, unknown>,
  alias: string,
): T | null {
  const data: Record<string, unknown> = {};
  for (const column of storedColumns(em, entity)) data[column] = row[`${alias}__${column}`];
  const primaryKeys = em.getMetadata().get(entity.name).primaryKeys;
  if (primaryKeys.every((key) => data[key] === null || data[key] === undefined)) return null;
  return em.map(entity, data as EntityDictionary<T>);
}
