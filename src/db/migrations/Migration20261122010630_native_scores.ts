import { Migration } from '@mikro-orm/migrations';

/**
 * Native scores computed when read (semantics §6.1) and airing seasons (§6.5):
 * titles keep the count and sum of positive list scores, one baseline row per
 * content type keeps the mean, and SQL functions derive the values.
 */
export class Migration20261122010630_native_scores extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "native_score_baseline" ("content_type" text not null, "total" bigint not null default '0', "count" int not null default 0, constraint "native_score_baseline_pkey" primary key ("content_type"));`);

    this.addSql(`alter table "anime" drop column "native_score";`);

    this.addSql(`alter table "anime" add column "native_score_total" int not null default 0;`);

    this.addSql(`alter table "manga" drop column "native_score";`);

    this.addSql(`alter table "manga" add column "native_score_total" int not null default 0;`);

    this.addSql(`alter table "novel" drop column "native_score";`);

    this.addSql(`alter table "novel" add column "native_score_total" int not null default 0;`);

    this.addSql(`insert into "native_score_baseline" ("content_type") values ('anime'), ('manga'), ('novel');`);
    // (v/(v+m))·S + (m/(v+m))·C with m = 10, rounded to 2 decimals; 0 while v < m.
    this.addSql(`create function native_score(v integer, total integer, kind text) returns double precision
      language sql stable parallel safe as $$
        select case when v < 10 then 0::double precision else round(
          (v::numeric / (v + 10)) * (total::numeric / v)
          + (10::numeric / (v + 10)) * coalesce(
            (select b.total::numeric / nullif(b.count, 0) from native_score_baseline b where b.content_type = kind), 0),
          2)::double precision end
      $$;`);
    // Whether an anime aired in <season> <year>: its airing months run from the month of
    // start_date (the next one when fewer than 7 days of it remain) to the month of
    // end_date, or of now; every date in UTC.
    this.addSql(`create function anime_aired_in(start_date timestamptz, end_date timestamptz, season text, year integer)
      returns boolean language sql stable parallel safe as $$
        select coalesce(bounds.first_month <= bounds.season_start + interval '2 months'
          and bounds.last_month >= bounds.season_start
          and bounds.first_month <= bounds.last_month, false)
        from (select
          date_trunc('month', start_date at time zone 'UTC') + case
            when date_trunc('month', start_date at time zone 'UTC') + interval '1 month' - (start_date at time zone 'UTC')
              < interval '7 days' then interval '1 month' else interval '0 days' end as first_month,
          date_trunc('month', coalesce(end_date, now()) at time zone 'UTC') as last_month,
          make_date(year, case season when 'winter' then 1 when 'spring' then 4 when 'summer' then 7
            when 'fall' then 10 end, 1)::timestamp as season_start) as bounds
      $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop function if exists anime_aired_in(timestamptz, timestamptz, text, integer);`);
    this.addSql(`drop function if exists native_score(integer, integer, text);`);
    this.addSql(`drop table if exists "native_score_baseline" cascade;`);

    this.addSql(`alter table "anime" drop column "native_score_total";`);

    this.addSql(`alter table "anime" add column "native_score" float8 not null default 0;`);

    this.addSql(`alter table "manga" drop column "native_score_total";`);

    this.addSql(`alter table "manga" add column "native_score" float8 not null default 0;`);

    this.addSql(`alter table "novel" drop column "native_score_total";`);

    this.addSql(`alter table "novel" add column "native_score" float8 not null default 0;`);
  }

}
