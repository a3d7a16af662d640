import { randomUUID } from 'node:crypto';
import type { EntityClass } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { titleEntity, type TitleOf } from '../catalog/catalog.service';
import type { Viewer } from '../accounts/session';
import type { ActionType, TitleContentType } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import type { ErrorCode } from '../common/errors/catalog';
import { actionRecordSql } from '../accounts/actions';
import { entityColumns, mapEntityRow, statementText } from '../db/entity-rows';
import { executeInOrder, sql, type SqlFragment, withEffects, writeWithEffects } from '../db/sql';
import type { ListEntry } from './list-entry.entity';
import type { ListEntryInputFields } from './list-entry.types';
import { nativeScoreMove } from './native-score.service';

// Rules shared by watch and read entries (§3.4 applies "date rules, replacement,
// creation and completion rules as for watch entries"), and the statements that
// write them: a list write sends the lock with one look-up, then one write (with the
// title's new native score read back when it moved): two round trips between BEGIN
// and COMMIT, without the unit of work.

/** Where one kind of list entry lives: its entity and table, and the title it points at. */
export interface ListEntryKind<E extends ListEntry, K extends TitleContentType = TitleContentType> {
  entity: EntityClass<E>;
  table: 'watch_entry' | 'read_entry';
  title: K;
  /** The entry's column that points at its title. */
  titleColumn: `${K}_reference`;
  /** The stored fields a write may change, to tell whether it changed anything. */
  fields: readonly string[];
  notFound: ErrorCode;
  actions: { create: ActionType; update: ActionType; delete: ActionType };
}

const dateOf = (seconds: number): Date => new Date(seconds * 1000);

/**
 * The values every list entry shares (status, note, score, dates, and `created` for a
 * new one), after the body and the entry's creation and completion rules (§3.3) at
 * time `at`; `existing` is the stored entry, if any.
 *
 * Reading of the spec where it is open:
 * - `note` and `score` are replaced like every other visible field: omitted → null / 0.
 * - `start_date` and `end_date` are replaced when the body gives them; when omitted
 *   (or null, which means the same for these `?` fields, §7.4), the stored dates are
 *   kept. The body table gives them no default, responses never show them (so a REST
 *   client cannot send them back), and "no *stored* `end_date`" only means something
 *   if dates survive a PUT that does not mention them.
 * - Creation sets `start_date` to now unless the body gives one: a client's own
 *   start date (checked against its `end_date` by validation) wins over the default,
 *   which would otherwise break the order that validation guarantees.
 * - Completion: status `completed` with no `end_date` after applying the body sets
 *   `end_date` to now; an earlier completion date is kept.
 */
export function listEntryValues(
  existing: ListEntry | null,
  input: ListEntryInputFields & { status: string },
  at: Date,
): Pick<ListEntry, 'note' | 'score' | 'start_date' | 'end_date' | 'updated'> & {
  status: string;
  created?: Date;
} {
  const start = input.start_date === undefined ? (existing?.start_date ?? null) : dateOf(input.start_date);
  const end = input.end_date === undefined ? (existing?.end_date ?? null) : dateOf(input.end_date);
  return {
    status: input.status,
    note: input.note ?? null,
    score: input.score ?? 0,
    start_date: !existing && start === null ? at : start,
    end_date: input.status === 'completed' && end === null ? at : end,
    updated: at,
    ...(existing ? {} : { created: at }),
  };
}

/** A comparable copy of an entry's stored `fields`, to tell whether a write changed anything. */
function entryState(entry: object, fields: readonly string[]): string {
  const values = fields.map((field) => {
    const value = (entry as Record<string, unknown>)[field];
    return value instanceof Date ? value.getTime() : (value ?? null);
  });
  return JSON.stringify(values);
}

/**
 * Sets the caller's list change time (§6.4 User `updated`), then finds the title by
 * `slug` (not deleted) with the caller's entry for it: two statements, in one round
 * trip ({@link executeInOrder}). As the transaction's first write the time also locks
 * the user's row, so that concurrent writes to one user's lists run one after another
 * (no duplicate entries, no lost score deltas), and the look-up after it (a statement
 * of its own, with its own snapshot) sees the entry as the last of them left it.
 * The time only moves forward: `at` is read before the lock is granted, so a write
 * that waited for the lock may carry an older time than the one committed before it,
 * and the user's time must never fall behind their newest entry.
 */
export async function lockListsAndFind<E extends ListEntry, K extends TitleContentType>(
  tx: EntityManager,
  viewer: Viewer,
  kind: ListEntryKind<E, K>,
  slug: string,
  at: Date,
): Promise<{ title: TitleOf[K]; entry: E | null }> {
  const find = statementText(
    tx,
    `lists:find:${kind.table}:${kind.title}`,
    () => `select ${entityColumns(tx, titleEntity(kind.title), 't')}, ${entityColumns(tx, kind.entity, 'e')}
      from "${kind.title}" t left join "${kind.table}" e on e."${kind.titleColumn}" = t.reference and e.user_reference = ?
     where t.slug = ? and not t.deleted`,
  );
  const [, [row]] = await executeInOrder(tx, [
    sql(
      'update "user" set lists_updated = greatest(lists_updated, ?) where reference = ?',
      at,
      viewer.user.reference,
    ),
    sql(find, viewer.user.reference, slug),
  ]);
  if (!row) throw new AppError(kind.notFound);
  return {
    title: mapEntityRow(tx, titleEntity(kind.title), row, 't')!,
    entry: mapEntityRow(tx, kind.entity, row, 'e'),
  };
}

/**
 * Creates the caller's entry for `title` from `values` (its stored columns), or
 * replaces `existing`'s, with the title's native score and the action record, in one
 * statement; returns the entry as stored. A moved native score is read back by a
 * statement after it in the same round trip, so the answer shows it.
 */
export async function writeListEntry<E extends ListEntry, K extends TitleContentType>(
  tx: EntityManager,
  viewer: Viewer,
  kind: ListEntryKind<E, K>,
  title: TitleOf[K],
  existing: E | null,
  values: Record<string, unknown>,
): Promise<E> {
  const columns = entityColumns(tx, kind.entity, 'e');
  const names = Object.keys(values).map((column) => `"${column}"`);
  const entryWrite = existing
    ? sql(
        `update "${kind.table}" e set ${names.map((name) => `${name} = ?`).join(', ')}
          where e.reference = ? returning ${columns}`,
        ...Object.values(values),
        existing.reference,
      )
    : sql(
        `insert into "${kind.table}" as e (reference, user_reference, "${kind.titleColumn}", ${names.join(', ')})
          values (?, ?, ?, ${names.map(() => '?').join(', ')}) returning ${columns}`,
        randomUUID(),
        viewer.user.reference,
        title.reference,
        ...Object.values(values),
      );
  const changed =
    existing && entryState(existing, kind.fields) !== entryState({ ...existing, ...values }, kind.fields);
  const action = !existing ? kind.actions.create : changed ? kind.actions.update : null;
  const score = nativeScoreMove(kind.title, title.reference, existing?.score ?? 0, Number(values.score));
  const effects: SqlFragment[] = [...score];
  if (action) effects.push(actionRecordSql(viewer.user.reference, action, title.reference));
  // Read back by a statement of its own: the baseline it depends on moved in the
  // write's statement, whose snapshot cannot see that.
  const [[row], titleRows] = await executeInOrder(tx, [
    withEffects(entryWrite, effects),
    ...(score.length > 0 ? [titleRead(tx, kind.title, title.reference)] : []),
  ]);
  // Gone meanwhile: the title was deleted with its entries (the user's lock keeps their own writes out).
  if (!row) throw new AppError(kind.notFound);
  // The write moved its figures, so this transaction holds the title's row: it is there.
  if (titleRows) mapEntityRow(tx, titleEntity(kind.title), titleRows[0], 't');
  return mapEntityRow(tx, kind.entity, row, 'e')!;
}

/** Deletes `entry` with its share of the title's native score and the action record, in one statement. */
export async function deleteListEntry<E extends ListEntry, K extends TitleContentType>(
  tx: EntityManager,
  viewer: Viewer,
  kind: ListEntryKind<E, K>,
  title: TitleOf[K],
  entry: E,
): Promise<void> {
  await writeWithEffects(
    tx,
    sql(`delete from "${kind.table}" where reference = ? returning reference`, entry.reference),
    [
      ...nativeScoreMove(kind.title, title.reference, entry.score, 0),
      actionRecordSql(viewer.user.reference, kind.actions.delete, title.reference),
    ],
  );
  // Out of the request's identity map, as a removal through the unit of work would be.
  tx.getUnitOfWork().unsetIdentity(entry);
}

/** Reads the title's stored values again (its native score moved), for the entity the request holds. */
function titleRead(tx: EntityManager, kind: TitleContentType, reference: string): SqlFragment {
  const read = statementText(
    tx,
    `lists:title:${kind}`,
    () => `select ${entityColumns(tx, titleEntity(kind), 't')} from "${kind}" t where t.reference = ?`,
  );
  return sql(read, reference);
}
