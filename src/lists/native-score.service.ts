import { randomInt } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TitleContentType } from '../common/enums';
import { sql, type SqlFragment } from '../db/sql';

/**
 * Rows each content type's baseline is kept in: list writes that move the baseline at
 * the same time pick one at random, and wait for each other only when they pick the same.
 */
const BASELINE_SHARDS = 16;

/** What one list score adds to the native figures: only scores above 0 count (semantics §6.1). */
function contribution(score: number): { count: number; total: number } {
  return score > 0 ? { count: 1, total: score } : { count: 0, total: 0 };
}

/**
 * The statements (effects of the list entry's write, `writeWithEffects`) that move a title's native figures (`native_scored_by`, `native_score_total`) and its
 * content type's baseline (one shard of it) from a list score `before` to `after` (0 =
 * no score or no entry), so the figures change with the entry; none when the move
 * changes nothing.
 *
 * Both are relative updates, safe under concurrent writers; the baseline row is
 * upserted because it may be missing (a fresh or emptied database). `kind` is one of
 * three fixed table names, never user text.
 */
export function nativeScoreMove(
  kind: TitleContentType,
  titleReference: string,
  before: number,
  after: number,
): SqlFragment[] {
  const old = contribution(before);
  const next = contribution(after);
  const count = next.count - old.count;
  const total = next.total - old.total;
  if (count === 0 && total === 0) return [];
  return [
    sql(
      `update "${kind}" set "native_scored_by" = "native_scored_by" + ?, "native_score_total" = "native_score_total" + ?
        where "reference" = ?`,
      count,
      total,
      titleReference,
    ),
    sql(
      `insert into "native_score_baseline" ("content_type", "shard", "total", "count") values (?, ?, ?, ?)
         on conflict ("content_type", "shard") do update set
           "total" = "native_score_baseline"."total" + excluded."total",
           "count" = "native_score_baseline"."count" + excluded."count"`,
      kind,
      randomInt(BASELINE_SHARDS),
      total,
      count,
    ),
  ];
}

/**
 * Recounts every title's native figures and the baselines from the list entries in
 * set-based SQL: the bulk counterpart of {@link nativeScoreMove}, for bulk loads.
 */
export async function recountNativeScores(em: EntityManager): Promise<void> {
  const sources = [
    ['anime', 'watch_entry', 'anime_reference'],
    ['manga', 'read_entry', 'manga_reference'],
    ['novel', 'read_entry', 'novel_reference'],
  ] as const;
  for (const [kind, table, column] of sources) {
    await em.execute(
      `update "${kind}" t set "native_scored_by" = coalesce(s.count, 0), "native_score_total" = coalesce(s.total, 0)
         from "${kind}" k left join (select "${column}" as title, count(*) as count, sum("score") as total
           from "${table}" where "score" > 0 and "${column}" is not null group by "${column}") s on s.title = k.reference
        where t.reference = k.reference`,
    );
    // Into one shard, the others emptied.
    await em.execute(`delete from "native_score_baseline" where "content_type" = ? and "shard" <> 0`, [kind]);
    await em.execute(
      `insert into "native_score_baseline" ("content_type", "shard", "total", "count")
         select ?, 0, coalesce(sum("score"), 0), count(*) from "${table}" where "score" > 0 and "${column}" is not null
       on conflict ("content_type", "shard") do update set "total" = excluded."total", "count" = excluded."count"`,
      [kind],
    );
  }
}
