import { randomInt } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { lockUserRow } from '../accounts/users.service';
import { requireScopes, type Viewer } from '../accounts/session';
import type { TitleContentType } from '../common/enums';
import { sql } from '../db/sql';
import { MAL_READ_STATUSES, MAL_WATCH_STATUSES } from './list-import.types';

/** Caps of imported values (pages.md "Settings"). */
const MAX_COUNT = 10000;
const MAX_REPEATS = 100;
const MAX_NOTE = 2048;

/** One record as imported: the title's `extcat_id` and the entry's values (counts uncapped). */
interface ImportedEntry {
  extcat_id: number;
  status: string;
  score: number;
  note: string | null;
  /** Watched episodes, or read chapters. */
  progress: number;
  /** Read volumes (0 for anime). */
  volumes: number;
  repeats: number;
}

/** A note as MAL exports it: text (at most 2048 characters kept), or an object meaning none. */
function noteOf(comments: unknown): string | null {
  if (typeof comments !== 'string' || comments.trim() === '') return null;
  return [...comments].slice(0, MAX_NOTE).join('');
}

/** A count within its cap (any integer ≥ 0 is valid; the caps of pages.md apply). */
const capped = (value: unknown, cap: number): number => Math.min((value as number | undefined) ?? 0, cap);

const watchEntryOf = (record: Record<string, unknown>): ImportedEntry => ({
  extcat_id: record.series_animedb_id as number,
  status: MAL_WATCH_STATUSES[record.my_status as keyof typeof MAL_WATCH_STATUSES],
  score: (record.my_score as number | undefined) ?? 0,
  note: noteOf(record.my_comments),
  progress: capped(record.my_watched_episodes, MAX_COUNT),
  volumes: 0,
  repeats: capped(record.my_times_watched, MAX_REPEATS),
});

const readEntryOf = (record: Record<string, unknown>): ImportedEntry => ({
  extcat_id: record.manga_mangadb_id as number,
  status: MAL_READ_STATUSES[record.my_status as keyof typeof MAL_READ_STATUSES],
  score: record.my_score as number,
  note: noteOf(record.my_comments),
  progress: capped(record.my_read_chapters, MAX_COUNT),
  volumes: capped(record.my_read_volumes, MAX_COUNT),
  repeats: capped(record.my_times_read ?? record.my_times_watched, MAX_REPEATS),
});

/** Each kind's entry table and the columns an import writes besides the shared ones. */
const TARGETS: Record<
  TitleContentType,
  { table: string; kindColumn: string; columns: string; values: string }
> = {
  anime: {
    table: 'watch_entry',
    kindColumn: '',
    columns: 'episodes, rewatches, duration',
    values: `least(i.progress, ${MAX_COUNT}, coalesce(t.episodes_total, ${MAX_COUNT})), least(i.repeats, ${MAX_REPEATS}),
      coalesce(t.duration, 0) * (least(i.progress, ${MAX_COUNT}, coalesce(t.episodes_total, ${MAX_COUNT}))
        + coalesce(t.episodes_total, 0) * least(i.repeats, ${MAX_REPEATS}))`,
  },
  manga: {
    table: 'read_entry',
    kindColumn: 'content_type, ',
    columns: 'chapters, volumes, rereads',
    values: `least(i.progress, ${MAX_COUNT}), least(i.volumes, ${MAX_COUNT}), least(i.repeats, ${MAX_REPEATS})`,
  },
  novel: {
    table: 'read_entry',
    kindColumn: 'content_type, ',
    columns: 'chapters, volumes, rereads',
    values: `least(i.progress, ${MAX_COUNT}), least(i.volumes, ${MAX_COUNT}), least(i.repeats, ${MAX_REPEATS})`,
  },
};

/**
 * Imports the entries of one title kind in one statement: each record matched to a live
 * title by `extcat_id` (the last record of a title wins; unknown ids are skipped), an
 * existing entry replaced only with `overwrite`, and every derived value moved with the
 * entries: durations, the titles' native figures and the baseline (as a list write moves
 * them, §6.1), the user's list time. Answers how many entries it wrote.
 */
async function importEntries(
  tx: EntityManager,
  user: string,
  kind: TitleContentType,
  entries: readonly ImportedEntry[],
  overwrite: boolean,
  at: Date,
): Promise<number> {
  const { table, kindColumn, columns, values } = TARGETS[kind];
  const titleColumn = `${kind}_reference`;
  const kindValue = kindColumn ? `'${kind}', ` : '';
  const updates = ['status', 'score', 'note', ...columns.split(', '), 'updated']
    .map((column) => `${column} = excluded.${column}`)
    .join(', ');
  const statement = sql(
    `with input as (
       select distinct on (t.reference) t.reference as title, i.*
         from rows from (jsonb_to_recordset(?::jsonb) as (extcat_id int, status text, score int, note text,
              progress int, volumes int, repeats int)) with ordinality as i(extcat_id, status, score, note,
              progress, volumes, repeats, position)
         join ${kind} t on t.extcat_id = i.extcat_id and not t.deleted
        order by t.reference, i.position desc
     ),
     old as (
       select e.${titleColumn} as title, e.score from ${table} e join input i on i.title = e.${titleColumn}
        where e.user_reference = ?
     ),
     written as (
       insert into ${table} (reference, user_reference, ${kindColumn}${titleColumn}, status, score, note, ${columns}, created, updated)
       select gen_random_uuid(), ?, ${kindValue}i.title, i.status, i.score, i.note, ${values}, ?, ?
         from input i join ${kind} t on t.reference = i.title
       on conflict (user_reference, ${titleColumn}) do update set ${updates} where ?::boolean
       returning ${titleColumn} as title, score
     ),
     moves as (
       select w.title,
              (w.score > 0)::int - coalesce((o.score > 0)::int, 0) as count,
              greatest(w.score, 0) - coalesce(o.score, 0) as total
         from written w left join old o on o.title = w.title
     ),
     titles as (
       update ${kind} t set native_scored_by = native_scored_by + m.count, native_score_total = native_score_total + m.total
         from moves m where t.reference = m.title and (m.count <> 0 or m.total <> 0)
     ),
     baseline as (
       insert into native_score_baseline (content_type, shard, total, count)
       select ?, ?, sum(total), sum(count) from moves having count(*) > 0
       on conflict (content_type, shard) do update set
         total = native_score_baseline.total + excluded.total, count = native_score_baseline.count + excluded.count
     ),
     touched as (
       update "user" set lists_updated = greatest(lists_updated, ?) where reference = ? and exists (select 1 from written)
     )
     select count(*)::int as imported from written`,
    JSON.stringify(entries),
    user,
    user,
    at,
    at,
    overwrite,
    kind,
    randomInt(16),
    at,
    user,
  );
  const [row] = await tx.execute<{ imported: number }[]>(statement.sql, statement.params);
  return row.imported;
}

/**
 * POST /settings/import/watch (pages.md "Settings"): scope `update:watchlist`, then the
 * anime of a MAL export, in one transaction with the user's lists locked. Answers the
 * number of entries written.
 */
export async function importWatchList(
  em: EntityManager,
  viewer: Viewer,
  records: readonly Record<string, unknown>[],
  overwrite: boolean,
): Promise<number> {
  requireScopes(viewer, ['update:watchlist']);
  return em.transactional(async (tx) => {
    await lockUserRow(tx, viewer.user.reference);
    return importEntries(
      tx,
      viewer.user.reference,
      'anime',
      records.map(watchEntryOf),
      overwrite,
      new Date(),
    );
  });
}

/**
 * POST /settings/import/read: scope `update:readlist`, then the manga and novels of a MAL
 * export (each id matched against both), in one transaction with the user's lists locked.
 */
export async function importReadList(
  em: EntityManager,
  viewer: Viewer,
  records: readonly Record<string, unknown>[],
  overwrite: boolean,
): Promise<{ manga: number; novel: number }> {
  requireScopes(viewer, ['update:readlist']);
  const entries = records.map(readEntryOf);
  return em.transactional(async (tx) => {
    await lockUserRow(tx, viewer.user.reference);
    const at = new Date();
    const manga = await importEntries(tx, viewer.user.reference, 'manga', entries, overwrite, at);
    const novel = await importEntries(tx, viewer.user.reference, 'novel', entries, overwrite, at);
    return { manga, novel };
  });
}
