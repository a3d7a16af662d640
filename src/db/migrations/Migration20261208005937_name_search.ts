import { Migration } from '@mikro-orm/migrations';

/** Trigram indexes for the name searches of POST /characters, /people, /companies and /user/list (pages.md "Catalogs"). */
export class Migration20261208005937_name_search extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create index "character_synonyms_index" on public."character" using gin (lower(catalog_synonyms_text("synonyms")) gin_trgm_ops);`);
    this.addSql(`create index "character_name_ja_index" on public."character" using gin (lower("name_ja") gin_trgm_ops);`);
    this.addSql(`create index "character_name_en_index" on public."character" using gin (lower("name_en") gin_trgm_ops);`);
    this.addSql(`create index "character_name_ua_index" on public."character" using gin (lower("name_ua") gin_trgm_ops);`);

    this.addSql(`create index "company_name_index" on public.company using gin (lower("name") gin_trgm_ops);`);

    this.addSql(`create index "person_synonyms_index" on public.person using gin (lower(catalog_synonyms_text("synonyms")) gin_trgm_ops);`);
    this.addSql(`create index "person_name_en_index" on public.person using gin (lower("name_en") gin_trgm_ops);`);
    this.addSql(`create index "person_name_ua_index" on public.person using gin (lower("name_ua") gin_trgm_ops);`);
    this.addSql(`create index "person_name_native_index" on public.person using gin (lower("name_native") gin_trgm_ops);`);

    this.addSql(`create index "user_username_index" on public."user" using gin (lower("username") gin_trgm_ops);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "character_synonyms_index";`);
    this.addSql(`drop index "character_name_ja_index";`);
    this.addSql(`drop index "character_name_en_index";`);
    this.addSql(`drop index "character_name_ua_index";`);

    this.addSql(`drop index "company_name_index";`);

    this.addSql(`drop index "person_synonyms_index";`);
    this.addSql(`drop index "person_name_en_index";`);
    this.addSql(`drop index "person_name_ua_index";`);
    this.addSql(`drop index "person_name_native_index";`);

    this.addSql(`drop index "user_username_index";`);
  }

}
