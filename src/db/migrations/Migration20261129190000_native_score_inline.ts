import { Migration } from '@mikro-orm/migrations';

/**
 * The native score (semantics §6.1) in two parts that a statement computes cheaply:
 * - `native_score_mean(kind)`, the content type's baseline `C` (the mean of its positive
 *   list scores, summed over the baseline's shards);
 * - `native_score_from(v, total, mean)`, the formula alone: arithmetic that PostgreSQL
 *   inlines into the statement.
 * A statement passes `(select native_score_mean(kind))`, read once per statement,
 * instead of calling `native_score(v, total, kind)`, a function PostgreSQL cannot inline
 * (its body reads a table) and so runs, with its read of the baseline, for every row:
 * that was most of a search sorted by native score. `native_score` stays, made of the two,
 * for SQL written against it.
 */
export class Migration20261129190000_native_score_inline extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function native_score_mean(kind text) returns numeric language sql stable parallel safe as $$
      select sum(b.total)::numeric / nullif(sum(b.count), 0) from native_score_baseline b where b.content_type = kind
    $$;`);
    this.addSql(`create function native_score_from(v integer, total integer, mean numeric)
      returns double precision language sql immutable parallel safe as $$
        select case when v < 10 then 0::double precision else round(
          (v::numeric / (v + 10)) * (total::numeric / v) + (10::numeric / (v + 10)) * coalesce(mean, 0),
          2)::double precision end
    $$;`);
    this.addSql(`create or replace function native_score(v integer, total integer, kind text)
      returns double precision language sql stable parallel safe as $$
        select native_score_from(v, total, native_score_mean(kind))
    $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`create or replace function native_score(v integer, total integer, kind text)
      returns double precision language sql stable parallel safe as $$
        select case when v < 10 then 0::double precision else round(
          (v::numeric / (v + 10)) * (total::numeric / v)
          + (10::numeric / (v + 10)) * coalesce((select sum(b.total)::numeric / nullif(sum(b.count), 0) from native_score_baseline b where b.content_type = kind), 0),
          2)::double precision end
    $$;`);
    this.addSql(`drop function native_score_from(integer, integer, numeric);`);
    this.addSql(`drop function native_score_mean(text);`);
  }
}
