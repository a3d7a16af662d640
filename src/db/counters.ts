import type { SqlFragment } from './sql';

/**
 * Counters that one transaction moves on several rows at once, by table (fixed names,
 * never user text). A counter moved on one row per transaction (a title's
 * `comments_count`, an item's `vote_score`) needs no order of its own.
 */
interface Counters {
  tag: 'content_count';
  comment: 'total_replies';
}

type CountedTable = keyof Counters;

/**
 * The rows whose counter moves, and by how much: a query whose rows are
 * `(reference uuid, delta integer)`, each reference once, with its parameters. A row
 * with delta 0 is locked with the others and left as it is.
 */
export interface CounterDeltas {
  sql: string;
  params: readonly unknown[];
}

/** `delta` for each row named in `deltas` (zero moves are left out). */
export function deltasOf(deltas: ReadonlyMap<string, number>): CounterDeltas | undefined {
  const moved = [...deltas].filter(([, delta]) => delta !== 0);
  if (moved.length === 0) return undefined;
  return {
    sql: `values ${moved.map(() => '(?::uuid, ?::integer)').join(', ')}`,
    params: moved.flat(),
  };
}

/**
 * The two statements that add each row's delta to `column`: the first locks the rows
 * in the order of their key, the second changes them. Every writer of a shared counter
 * goes through here, so two transactions moving the same counters (two articles
 * re-tagged in opposite directions, replies in one thread) wait for each other in turn
 * instead of locking in opposite orders, which PostgreSQL would end as a deadlock.
 *
 * Two statements, not one: an update that also locks its rows reads them as of its
 * statement's start, so a row another transaction changed meanwhile sends it back to
 * the row's older version to queue for it again, though it holds the row already; two
 * hides in one thread then met as a deadlock on such a tuple lock
 * (tests/concurrency/simultaneous-hides.test.ts: 1 run in 6 at 4 rounds, every run at
 * 40). An update after the locks reads the versions they hold. The second statement
 * answers each moved row's new value (`reference`, `value`).
 */
export function counterMoveSql<Table extends CountedTable>(
  table: Table,
  column: Counters[Table],
  deltas: CounterDeltas,
): [lock: SqlFragment, move: SqlFragment] {
  const delta = `with delta (reference, delta) as (${deltas.sql})`;
  return [
    {
      sql: `${delta}
     select counted.reference from "${table}" counted join delta using (reference)
      order by counted.reference for no key update of counted`,
      params: [...deltas.params],
    },
    {
      sql: `${delta}
     update "${table}" counted set "${column}" = counted."${column}" + delta.delta
       from delta
      where counted.reference = delta.reference and delta.delta <> 0
      returning counted.reference, counted."${column}" as value`,
      params: [...deltas.params],
    },
  ];
}
