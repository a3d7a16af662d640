import { Migration } from '@mikro-orm/migrations';

const SEARCHED = {
  anime: ['title_ua', 'title_en', 'title_ja'],
  manga: ['title_ua', 'title_en', 'title_original'],
  novel: ['title_ua', 'title_en', 'title_original'],
} as const;

/**
 * `title_search_version`: one row per title kind whose `version` changes with every
 * statement that may change what a text query matches there (new or removed titles,
 * their titles, synonyms or `extcat_id`). The service keeps each query's matches
 * (src/catalog/title-search.ts) for as long as the version it read them at holds.
 * A missing row (the table emptied) is a version too: the next change inserts one.
 */
export class Migration20261129000000_title_search_version extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "title_search_version" ("kind" text not null, "version" uuid not null default gen_random_uuid(), constraint "title_search_version_pkey" primary key ("kind"));`,
    );
    this.addSql(`insert into "title_search_version" ("kind") values ('anime'), ('manga'), ('novel');`);
    this.addSql(`create function title_search_touch() returns trigger language plpgsql as $$
      begin
        insert into title_search_version (kind) values (tg_argv[0])
          on conflict (kind) do update set version = gen_random_uuid();
        return null;
      end
    $$;`);
    for (const [kind, titles] of Object.entries(SEARCHED)) {
      const columns = [...titles, 'synonyms', 'extcat_id'].join(', ');
      this.addSql(
        `create trigger ${kind}_search_touch after insert or delete or update of ${columns} on "${kind}" for each statement execute function title_search_touch('${kind}');`,
      );
      this.addSql(
        `create trigger ${kind}_search_truncate after truncate on "${kind}" for each statement execute function title_search_touch('${kind}');`,
      );
    }
  }

  override async down(): Promise<void> {
    for (const kind of Object.keys(SEARCHED)) {
      this.addSql(`drop trigger ${kind}_search_touch on "${kind}";`);
      this.addSql(`drop trigger ${kind}_search_truncate on "${kind}";`);
    }
    this.addSql(`drop function title_search_touch();`);
    this.addSql(`drop table "title_search_version";`);
  }
}
