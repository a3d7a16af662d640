import { raw, type EntityManager } from '@mikro-orm/postgresql';
import { User } from '../accounts/user.entity';
import type { Viewer } from '../common/auth/session';
import type { ListEntry } from './list-entry.entity';
import type { ListEntryInputFields } from './list-entry.types';

// Rules shared by watch and read entries (§3.4 applies "date rules, replacement,
// creation and completion rules as for watch entries").

const dateOf = (seconds: number): Date => new Date(seconds * 1000);

/**
 * Applies the fields every list entry shares, with the entry's creation and
 * completion rules (§3.3), at time `at`.
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
export function applyListEntryInput(
  entry: ListEntry,
  input: ListEntryInputFields,
  { created, completed, at }: { created: boolean; completed: boolean; at: Date },
): void {
  entry.note = input.note ?? null;
  entry.score = input.score ?? 0;
  if (input.start_date !== undefined) entry.start_date = dateOf(input.start_date);
  if (input.end_date !== undefined) entry.end_date = dateOf(input.end_date);
  if (created && entry.start_date === null) entry.start_date = at;
  if (completed && entry.end_date === null) entry.end_date = at;
  entry.updated = at;
}

/** A comparable copy of an entry's stored fields, to tell whether a write changed anything. */
export function entryState(entry: ListEntry, fields: readonly string[]): string {
  const values = fields.map((field) => {
    const value = (entry as unknown as Record<string, unknown>)[field];
    return value instanceof Date ? value.getTime() : (value ?? null);
  });
  return JSON.stringify(values);
}

/**
 * Sets the caller's list change time (§6.4 User `updated`). As the transaction's
 * first write it also locks the user's row, so that concurrent writes to one user's
 * lists run one after another (no duplicate entries, no lost score deltas).
 * The time only moves forward: `at` is read before the lock is granted, so a write
 * that waited for the lock may carry an older time than the one committed before it,
 * and the user's time must never fall behind their newest entry.
 */
export async function touchLists(em: EntityManager, viewer: Viewer, at: Date): Promise<void> {
  await em.nativeUpdate(
    User,
    { reference: viewer.user.reference },
    { lists_updated: raw('greatest(lists_updated, ?)', [at]) },
  );
}
