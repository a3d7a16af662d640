import type { EntityManager, Knex } from '@mikro-orm/postgresql';

/**
 * Set-based statements for the link tables (genres, credits, appearances, schedule…),
 * where a large import writes hundreds of thousands of small rows: one statement per
 * few thousand rows instead of one entity per row. Rows travel as one JSON parameter
 * unpacked by `jsonb_to_recordset`. Table and column names are constants of this code.
 */
export type SqlType = 'uuid' | 'text' | 'integer' | 'boolean' | 'timestamptz';
export type Columns = Readonly<Record<string, SqlType>>;
export type SqlValue = string | number | boolean | null;
export type Row = Readonly<Record<string, SqlValue>>;

/** Rows per statement: big enough to amortise round trips, small enough for modest parameters. */
export const ROWS_PER_STATEMENT = 5000;

const quote = (identifier: string): string => `"${identifier}"`;

/** Consecutive slices of at most `size` items (one statement's worth each). */
export function* batches<T>(items: readonly T[], size = ROWS_PER_STATEMENT): Generator<readonly T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}

function recordset(columns: Columns): string {
  const definitions = Object.entries(columns).map(([name, type]) => `${quote(name)} ${type}`);
  return `jsonb_to_recordset(?::jsonb) as r(${definitions.join(', ')})`;
}

/** A PostgreSQL array literal, for `= any(?::text[])` (a JS array would be spread into a list). */
export function pgArray(values: Iterable<string | number>): string {
  const items = [...values].map((value) =>
    typeof value === 'number' ? String(value) : `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`,
  );
  return `{${items.join(',')}}`;
}

/**
 * Runs one statement inside the entity manager's transaction with bound parameters.
 * `em.execute` would inline the parameters into the SQL text on the client, which for
 * multi-megabyte JSON parameters costs more than the database work itself.
 */
export async function runSql<T extends object = object>(
  em: EntityManager,
  sql: string,
  params: readonly SqlValue[] = [],
): Promise<T[]> {
  const query = em
    .getConnection()
    .getKnex()
    .raw(sql, [...params]);
  const transaction = em.getTransactionContext<Knex.Transaction>();
  if (transaction) query.transacting(transaction);
  const result: { rows: T[] } = await query;
  return result.rows;
}

/** One statement inserting all of `rows`. */
async function insertStatement(
  em: EntityManager,
  table: string,
  columns: Columns,
  rows: readonly Row[],
): Promise<void> {
  const names = Object.keys(columns).map(quote).join(', ');
  await runSql(em, `insert into ${quote(table)} (${names}) select ${names} from ${recordset(columns)}`, [
    JSON.stringify(rows),
  ]);
}

export async function insertRows(
  em: EntityManager,
  table: string,
  columns: Columns,
  rows: readonly Row[],
): Promise<void> {
  for (const batch of batches(rows)) await insertStatement(em, table, columns, batch);
}

/** A row bound for one of several tables. */
export interface TableRow<T extends string> {
  readonly table: T;
  readonly row: Row;
}

/**
 * Inserts what `rows` yields into the tables its rows name, one statement per
 * `rowsPerStatement` rows of a table. Rows are pulled only as statements fill, so
 * however many `rows` yields, at most one statement's rows per table are held at a
 * time: a generator of millions of rows loads in bounded memory. Returns how many
 * rows went into each table.
 */
export async function insertStream<T extends string>(
  em: EntityManager,
  tables: Readonly<Record<T, Columns>>,
  rows: Iterable<TableRow<T>>,
  rowsPerStatement = ROWS_PER_STATEMENT,
): Promise<ReadonlyMap<T, number>> {
  const pending = new Map<T, Row[]>();
  const written = new Map<T, number>();
  const write = async (table: T, batch: readonly Row[]) => {
    await insertStatement(em, table, tables[table], batch);
    written.set(table, (written.get(table) ?? 0) + batch.length);
  };
  for (const { table, row } of rows) {
    const batch = pending.get(table) ?? [];
    batch.push(row);
    if (batch.length < rowsPerStatement) {
      pending.set(table, batch);
    } else {
      pending.delete(table);
      await write(table, batch);
    }
  }
  for (const [table, batch] of pending) await write(table, batch);
  return written;
}

/** Updates rows matched by `reference`; `columns` lists `reference` and the columns to set. */
export async function updateRows(
  em: EntityManager,
  table: string,
  columns: Columns,
  rows: readonly Row[],
): Promise<void> {
  const assignments = Object.keys(columns)
    .filter((name) => name !== 'reference')
    .map((name) => `${quote(name)} = r.${quote(name)}`)
    .join(', ');
  for (const batch of batches(rows)) {
    await runSql(
      em,
      `update ${quote(table)} t set ${assignments} from ${recordset(columns)} where t."reference" = r."reference"`,
      [JSON.stringify(batch)],
    );
  }
}

/** Deletes rows whose `columns` all equal those of one of `rows` (pivot tables have no reference). */
export async function deleteMatching(
  em: EntityManager,
  table: string,
  columns: Columns,
  rows: readonly Row[],
): Promise<void> {
  const match = Object.keys(columns)
    .map((name) => `t.${quote(name)} = r.${quote(name)}`)
    .join(' and ');
  for (const batch of batches(rows)) {
    await runSql(em, `delete from ${quote(table)} t using ${recordset(columns)} where ${match}`, [
      JSON.stringify(batch),
    ]);
  }
}

export async function deleteByReference(
  em: EntityManager,
  table: string,
  references: readonly string[],
): Promise<void> {
  for (const batch of batches(references)) {
    await runSql(em, `delete from ${quote(table)} where "reference" = any(?::uuid[])`, [pgArray(batch)]);
  }
}
