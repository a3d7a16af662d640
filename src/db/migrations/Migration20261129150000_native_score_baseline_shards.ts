import { Migration } from '@mikro-orm/migrations';

/** The native score function (semantics §6.1), its baseline `C` (the mean of a content type's positive scores) read by `baseline`. */
const nativeScoreFunction = (baseline: string) => `create or replace function native_score(v integer, total integer, kind text)
  returns double precision language sql stable parallel safe as $$
    select case when v < 10 then 0::double precision else round(
      (v::numeric / (v + 10)) * (total::numeric / v)
      + (10::numeric / (v + 10)) * coalesce((${baseline}), 0),
      2)::double precision end
  $$;`;

/**
 * The native score baseline in shards: each content type's sum and count of positive
 * list scores kept in several rows, which a list write picks one of at random, so that
 * concurrent list writes no longer all wait for one row's lock until they commit. The
 * native score reads the sums over a type's shards.
 */
export class Migration20261129150000_native_score_baseline_shards extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "native_score_baseline" add column "shard" smallint not null default 0;`);
    this.addSql(`alter table "native_score_baseline" drop constraint "native_score_baseline_pkey";`);
    this.addSql(
      `alter table "native_score_baseline" add constraint "native_score_baseline_pkey" primary key ("content_type", "shard");`,
    );
    this.addSql(
      nativeScoreFunction(
        'select sum(b.total)::numeric / nullif(sum(b.count), 0) from native_score_baseline b where b.content_type = kind',
      ),
    );
  }

  override async down(): Promise<void> {
    this.addSql(`insert into "native_score_baseline" ("content_type", "shard", "total", "count")
      select content_type, 0, sum(total), sum(count) from native_score_baseline group by content_type
      on conflict ("content_type", "shard") do update set "total" = excluded."total", "count" = excluded."count";`);
    this.addSql(`delete from "native_score_baseline" where "shard" <> 0;`);
    this.addSql(`alter table "native_score_baseline" drop constraint "native_score_baseline_pkey";`);
    this.addSql(`alter table "native_score_baseline" drop column "shard";`);
    this.addSql(
      `alter table "native_score_baseline" add constraint "native_score_baseline_pkey" primary key ("content_type");`,
    );
    this.addSql(
      nativeScoreFunction(
        'select b.total::numeric / nullif(b.count, 0) from native_score_baseline b where b.content_type = kind',
      ),
    );
  }
}
