import {
  type EntityClass,
  type EntityDictionary,
  type EntityMetadata,
  type EntityProperty,
  ReferenceKind,
} from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Entities read by a statement of one's own (on the statement pool, `queryRows`) rather
 * than through the entity manager's query builder: the columns of several joined tables
 * in one row, each named `<alias>__<column>` as MikroORM names joined columns, and the
 * entities made from them in the request's entity manager (`em.map`: managed, with the
 * stored values converted as a find converts them).
 */

/** The SQL of `prop`'s formula on the table aliased `alias`, as a find selects it. */
export function formulaSql(meta: EntityMetadata, prop: EntityProperty, alias: string): string {
  return prop.formula!(
    { alias, name: meta.tableName, qualifiedName: meta.tableName, toString: () => alias },
    meta.createColumnMappingObject(),
  );
}

/** A value a row holds for an entity: its data key, and its SQL for a table alias. */
interface SelectedValue {
  key: string;
  sql: (alias: string) => string;
}

const valuesOf = new WeakMap<object, SelectedValue[]>();

/**
 * What a find of `entity` selects, read from its metadata once: the stored columns
 * (scalars and owning references) and the eager formulas (a title's `native_score`).
 */
function selectedValues(em: EntityManager, entity: EntityClass<object>): SelectedValue[] {
  const meta = em.getMetadata().get(entity.name);
  let values = valuesOf.get(meta);
  if (!values) {
    values = [
      ...meta.props
        .filter(
          (prop) =>
            (prop.kind === ReferenceKind.SCALAR || prop.kind === ReferenceKind.MANY_TO_ONE) &&
            prop.persist !== false &&
            !prop.formula,
        )
        .flatMap((prop) => prop.fieldNames)
        .map((column) => ({ key: column, sql: (alias: string) => `${alias}."${column}"` })),
      // A formula is not persisted: it is computed as each find selects it.
      ...meta.props
        .filter((prop) => prop.formula && !prop.lazy)
        .map((prop) => ({ key: prop.name, sql: (alias: string) => formulaSql(meta, prop, alias) })),
    ];
    valuesOf.set(meta, values);
  }
  return values;
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

/** `<value> as "<alias>__<key>"` for every value a find of `entity` selects (see {@link selectedValues}). */
export function entityColumns(em: EntityManager, entity: EntityClass<object>, alias: string): string {
  return selectedValues(em, entity)
    .map(({ key, sql }) => `${sql(alias)} as "${alias}__${key}"`)
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
  for (const { key } of selectedValues(em, entity)) data[key] = row[`${alias}__${key}`];
  const primaryKeys = em.getMetadata().get(entity.name).primaryKeys;
  if (primaryKeys.every((key) => data[key] === null || data[key] === undefined)) return null;
  return em.map(entity, data as EntityDictionary<T>);
}
