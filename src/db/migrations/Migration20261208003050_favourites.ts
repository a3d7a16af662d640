import { Migration } from '@mikro-orm/migrations';

/** Favourites (pages.md "Anime page"): a user's anime, manga, novels, characters and collections. */
export class Migration20261208003050_favourites extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "favourite" ("reference" uuid not null, "user_reference" uuid not null, "content_type" text not null, "content_reference" uuid not null, "created" timestamptz not null, constraint "favourite_pkey" primary key ("reference"));`);
    this.addSql(`create index "favourite_user_reference_content_type_created_index" on "favourite" ("user_reference", "content_type", "created");`);
    this.addSql(`alter table "favourite" add constraint "favourite_user_reference_content_type_content_reference_unique" unique ("user_reference", "content_type", "content_reference");`);

    this.addSql(`alter table "favourite" add constraint "favourite_user_reference_foreign" foreign key ("user_reference") references "user" ("reference") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "favourite" cascade;`);
  }

}
