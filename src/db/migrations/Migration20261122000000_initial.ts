import { Migration } from '@mikro-orm/migrations';

/** The whole data model (foundation issue). */
export class Migration20261122000000_initial extends Migration {

  override async up(): Promise<void> {
    // Trigram search (semantics §1.9) needs pg_trgm, and an immutable synonyms-to-text function
    // for its expression indexes; generated migrations emit neither.
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(
      `create function catalog_synonyms_text(text[]) returns text language sql immutable parallel safe as $$ select array_to_string($1, ' ') $$;`,
    );
    this.addSql(`create table "character" ("reference" uuid not null, "slug" text not null, "name_ua" text null, "name_en" text null, "name_ja" text null, "image" text null, "synonyms" text[] not null, "comments_count" int not null default 0, constraint "character_pkey" primary key ("reference"));`);
    this.addSql(`alter table "character" add constraint "character_slug_unique" unique ("slug");`);

    this.addSql(`create table "company" ("reference" uuid not null, "slug" text not null, "name" text not null, "image" text null, constraint "company_pkey" primary key ("reference"));`);
    this.addSql(`alter table "company" add constraint "company_slug_unique" unique ("slug");`);

    this.addSql(`create table "franchise" ("reference" uuid not null, "key" text not null, "created" timestamptz not null, "updated" timestamptz not null, constraint "franchise_pkey" primary key ("reference"));`);
    this.addSql(`alter table "franchise" add constraint "franchise_key_unique" unique ("key");`);

    this.addSql(`create table "anime" ("reference" uuid not null, "slug" text not null, "extcat_id" int not null, "title_ua" text null, "title_en" text null, "synonyms" text[] not null, "status" text null, "year" int null, "image" text null, "score" double precision not null default 0, "scored_by" int not null default 0, "native_score" double precision not null default 0, "native_scored_by" int not null default 0, "start_date" timestamptz null, "end_date" timestamptz null, "translated_ua" boolean not null default false, "nsfw" boolean not null default false, "synopsis_en" text null, "synopsis_ua" text null, "comments_count" int not null default 0, "franchise_reference" uuid null, "deleted" boolean not null default false, "created" timestamptz null, "updated" timestamptz null, "title_ja" text null, "media_type" text null, "season" text null, "source" text null, "rating" text null, "episodes_released" int null, "episodes_total" int null, "duration" int null, constraint "anime_pkey" primary key ("reference"));`);
    this.addSql(`alter table "anime" add constraint "anime_slug_unique" unique ("slug");`);
    this.addSql(`alter table "anime" add constraint "anime_extcat_id_unique" unique ("extcat_id");`);
    this.addSql(`create index "anime_year_index" on "anime" ("year");`);
    this.addSql(`create index "anime_franchise_reference_index" on "anime" ("franchise_reference");`);
    this.addSql(`create index "anime_synonyms_index" on public.anime using gin (lower(catalog_synonyms_text("synonyms")) gin_trgm_ops);`);
    this.addSql(`create index "anime_title_en_index" on public.anime using gin (lower("title_en") gin_trgm_ops);`);
    this.addSql(`create index "anime_title_ua_index" on public.anime using gin (lower("title_ua") gin_trgm_ops);`);
    this.addSql(`create index "anime_score_scored_by_reference_index" on public.anime ("score" desc, "scored_by" desc, "reference" desc) where not "deleted";`);
    this.addSql(`create index "anime_title_ja_index" on public.anime using gin (lower("title_ja") gin_trgm_ops);`);
    this.addSql(`create index "anime_media_type_index" on "anime" ("media_type");`);

    this.addSql(`create table "anime_company" ("reference" uuid not null, "anime_reference" uuid not null, "company_reference" uuid not null, "role" text not null, constraint "anime_company_pkey" primary key ("reference"));`);
    this.addSql(`create index "anime_company_company_reference_role_index" on "anime_company" ("company_reference", "role");`);
    this.addSql(`alter table "anime_company" add constraint "anime_company_anime_reference_company_reference_role_unique" unique ("anime_reference", "company_reference", "role");`);

    this.addSql(`create table "airing_episode" ("reference" uuid not null, "anime_reference" uuid not null, "episode" int not null, "airing_at" timestamptz not null, constraint "airing_episode_pkey" primary key ("reference"));`);
    this.addSql(`create index "airing_episode_airing_at_index" on "airing_episode" ("airing_at");`);
    this.addSql(`create index "airing_episode_anime_reference_airing_at_index" on "airing_episode" ("anime_reference", "airing_at");`);
    this.addSql(`alter table "airing_episode" add constraint "airing_episode_anime_reference_episode_unique" unique ("anime_reference", "episode");`);

    this.addSql(`create table "genre" ("reference" uuid not null, "slug" text not null, "name_en" text not null, "name_ua" text null, "type" text not null, constraint "genre_pkey" primary key ("reference"));`);
    this.addSql(`alter table "genre" add constraint "genre_slug_unique" unique ("slug");`);

    this.addSql(`create table "anime_genres" ("anime_reference" uuid not null, "genre_reference" uuid not null, constraint "anime_genres_pkey" primary key ("anime_reference", "genre_reference"));`);

    this.addSql(`create table "job_cursor" ("name" text not null, "position" timestamptz not null, constraint "job_cursor_pkey" primary key ("name"));`);

    this.addSql(`create table "magazine" ("reference" uuid not null, "slug" text not null, "name_en" text not null, constraint "magazine_pkey" primary key ("reference"));`);
    this.addSql(`alter table "magazine" add constraint "magazine_slug_unique" unique ("slug");`);

    this.addSql(`create table "manga" ("reference" uuid not null, "slug" text not null, "extcat_id" int not null, "title_ua" text null, "title_en" text null, "synonyms" text[] not null, "status" text null, "year" int null, "image" text null, "score" double precision not null default 0, "scored_by" int not null default 0, "native_score" double precision not null default 0, "native_scored_by" int not null default 0, "start_date" timestamptz null, "end_date" timestamptz null, "translated_ua" boolean not null default false, "nsfw" boolean not null default false, "synopsis_en" text null, "synopsis_ua" text null, "comments_count" int not null default 0, "franchise_reference" uuid null, "deleted" boolean not null default false, "created" timestamptz null, "updated" timestamptz null, "title_original" text null, "chapters" int null, "volumes" int null, "external" jsonb not null, "media_type" text null, constraint "manga_pkey" primary key ("reference"));`);
    this.addSql(`alter table "manga" add constraint "manga_slug_unique" unique ("slug");`);
    this.addSql(`alter table "manga" add constraint "manga_extcat_id_unique" unique ("extcat_id");`);
    this.addSql(`create index "manga_year_index" on "manga" ("year");`);
    this.addSql(`create index "manga_franchise_reference_index" on "manga" ("franchise_reference");`);
    this.addSql(`create index "manga_synonyms_index" on public.manga using gin (lower(catalog_synonyms_text("synonyms")) gin_trgm_ops);`);
    this.addSql(`create index "manga_title_en_index" on public.manga using gin (lower("title_en") gin_trgm_ops);`);
    this.addSql(`create index "manga_title_ua_index" on public.manga using gin (lower("title_ua") gin_trgm_ops);`);
    this.addSql(`create index "manga_score_scored_by_reference_index" on public.manga ("score" desc, "scored_by" desc, "reference" desc) where not "deleted";`);
    this.addSql(`create index "manga_title_original_index" on public.manga using gin (lower("title_original") gin_trgm_ops);`);
    this.addSql(`create index "manga_media_type_index" on "manga" ("media_type");`);

    this.addSql(`create table "manga_genres" ("manga_reference" uuid not null, "genre_reference" uuid not null, constraint "manga_genres_pkey" primary key ("manga_reference", "genre_reference"));`);

    this.addSql(`create table "manga_magazines" ("manga_reference" uuid not null, "magazine_reference" uuid not null, constraint "manga_magazines_pkey" primary key ("manga_reference", "magazine_reference"));`);

    this.addSql(`create table "novel" ("reference" uuid not null, "slug" text not null, "extcat_id" int not null, "title_ua" text null, "title_en" text null, "synonyms" text[] not null, "status" text null, "year" int null, "image" text null, "score" double precision not null default 0, "scored_by" int not null default 0, "native_score" double precision not null default 0, "native_scored_by" int not null default 0, "start_date" timestamptz null, "end_date" timestamptz null, "translated_ua" boolean not null default false, "nsfw" boolean not null default false, "synopsis_en" text null, "synopsis_ua" text null, "comments_count" int not null default 0, "franchise_reference" uuid null, "deleted" boolean not null default false, "created" timestamptz null, "updated" timestamptz null, "title_original" text null, "chapters" int null, "volumes" int null, "external" jsonb not null, "media_type" text null, constraint "novel_pkey" primary key ("reference"));`);
    this.addSql(`alter table "novel" add constraint "novel_slug_unique" unique ("slug");`);
    this.addSql(`alter table "novel" add constraint "novel_extcat_id_unique" unique ("extcat_id");`);
    this.addSql(`create index "novel_year_index" on "novel" ("year");`);
    this.addSql(`create index "novel_franchise_reference_index" on "novel" ("franchise_reference");`);
    this.addSql(`create index "novel_synonyms_index" on public.novel using gin (lower(catalog_synonyms_text("synonyms")) gin_trgm_ops);`);
    this.addSql(`create index "novel_title_en_index" on public.novel using gin (lower("title_en") gin_trgm_ops);`);
    this.addSql(`create index "novel_title_ua_index" on public.novel using gin (lower("title_ua") gin_trgm_ops);`);
    this.addSql(`create index "novel_score_scored_by_reference_index" on public.novel ("score" desc, "scored_by" desc, "reference" desc) where not "deleted";`);
    this.addSql(`create index "novel_title_original_index" on public.novel using gin (lower("title_original") gin_trgm_ops);`);
    this.addSql(`create index "novel_media_type_index" on "novel" ("media_type");`);

    this.addSql(`create table "appearance" ("reference" uuid not null, "character_reference" uuid not null, "anime_reference" uuid null, "manga_reference" uuid null, "novel_reference" uuid null, "main" boolean not null default false, constraint "appearance_pkey" primary key ("reference"), constraint appearance_one_title check (num_nonnulls(anime_reference, manga_reference, novel_reference) = 1));`);
    this.addSql(`create index "appearance_character_reference_index" on "appearance" ("character_reference");`);
    this.addSql(`create index "appearance_anime_reference_index" on "appearance" ("anime_reference");`);
    this.addSql(`create index "appearance_manga_reference_index" on "appearance" ("manga_reference");`);
    this.addSql(`create index "appearance_novel_reference_index" on "appearance" ("novel_reference");`);
    this.addSql(`alter table "appearance" add constraint "appearance_character_reference_novel_reference_unique" unique ("character_reference", "novel_reference");`);
    this.addSql(`alter table "appearance" add constraint "appearance_character_reference_manga_reference_unique" unique ("character_reference", "manga_reference");`);
    this.addSql(`alter table "appearance" add constraint "appearance_character_reference_anime_reference_unique" unique ("character_reference", "anime_reference");`);

    this.addSql(`create table "novel_genres" ("novel_reference" uuid not null, "genre_reference" uuid not null, constraint "novel_genres_pkey" primary key ("novel_reference", "genre_reference"));`);

    this.addSql(`create table "novel_magazines" ("novel_reference" uuid not null, "magazine_reference" uuid not null, constraint "novel_magazines_pkey" primary key ("novel_reference", "magazine_reference"));`);

    this.addSql(`create table "person" ("reference" uuid not null, "slug" text not null, "name_native" text null, "name_ua" text null, "name_en" text null, "image" text null, "description_ua" text null, "synonyms" text[] not null, "comments_count" int not null default 0, constraint "person_pkey" primary key ("reference"));`);
    this.addSql(`alter table "person" add constraint "person_slug_unique" unique ("slug");`);

    this.addSql(`create table "credit" ("reference" uuid not null, "person_reference" uuid not null, "anime_reference" uuid null, "manga_reference" uuid null, "novel_reference" uuid null, constraint "credit_pkey" primary key ("reference"), constraint credit_one_title check (num_nonnulls(anime_reference, manga_reference, novel_reference) = 1));`);
    this.addSql(`create index "credit_person_reference_index" on "credit" ("person_reference");`);
    this.addSql(`create index "credit_anime_reference_index" on "credit" ("anime_reference");`);
    this.addSql(`create index "credit_manga_reference_index" on "credit" ("manga_reference");`);
    this.addSql(`create index "credit_novel_reference_index" on "credit" ("novel_reference");`);
    this.addSql(`alter table "credit" add constraint "credit_person_reference_novel_reference_unique" unique ("person_reference", "novel_reference");`);
    this.addSql(`alter table "credit" add constraint "credit_person_reference_manga_reference_unique" unique ("person_reference", "manga_reference");`);
    this.addSql(`alter table "credit" add constraint "credit_person_reference_anime_reference_unique" unique ("person_reference", "anime_reference");`);

    this.addSql(`create table "role" ("reference" uuid not null, "slug" text not null, "name_en" text null, "name_ua" text null, "weight" int null, constraint "role_pkey" primary key ("reference"));`);
    this.addSql(`alter table "role" add constraint "role_slug_unique" unique ("slug");`);

    this.addSql(`create table "credit_roles" ("credit_reference" uuid not null, "role_reference" uuid not null, constraint "credit_roles_pkey" primary key ("credit_reference", "role_reference"));`);

    this.addSql(`create table "tag" ("reference" uuid not null, "name" text not null, "content_count" int not null default 0, constraint "tag_pkey" primary key ("reference"));`);
    this.addSql(`alter table "tag" add constraint "tag_name_unique" unique ("name");`);

    this.addSql(`create table "user" ("reference" uuid not null, "username" text not null, "email" text not null, "email_confirmed" boolean not null default false, "password_hash" text not null, "role" text not null default 'not_activated', "description" text null, "avatar_path" text null, "cover" text null, "created" timestamptz not null, "lists_updated" timestamptz null, "last_active" timestamptz not null, "activation_token_hash" text null, "activation_expires" timestamptz null, "banned" boolean not null default false, "forbidden_actions" text[] not null, "ignored_notifications" text[] not null, constraint "user_pkey" primary key ("reference"));`);
    this.addSql(`create index "user_activation_token_hash_index" on "user" ("activation_token_hash");`);
    this.addSql(`create unique index "user_email_lower_unique" on "user" (lower("email"));`);
    this.addSql(`create unique index "user_username_lower_unique" on "user" (lower("username"));`);

    this.addSql(`create table "read_entry" ("reference" uuid not null, "user_reference" uuid not null, "note" text null, "score" smallint not null default 0, "start_date" timestamptz null, "end_date" timestamptz null, "created" timestamptz not null, "updated" timestamptz not null, "content_type" text not null, "manga_reference" uuid null, "novel_reference" uuid null, "status" text not null, "chapters" int not null default 0, "volumes" int not null default 0, "rereads" smallint not null default 0, constraint "read_entry_pkey" primary key ("reference"), constraint read_entry_one_title check ((content_type = 'manga' and manga_reference is not null and novel_reference is null) or (content_type = 'novel' and novel_reference is not null and manga_reference is null)));`);
    this.addSql(`create index "read_entry_created_index" on "read_entry" ("created");`);
    this.addSql(`create index "read_entry_manga_reference_index" on "read_entry" ("manga_reference");`);
    this.addSql(`create index "read_entry_novel_reference_index" on "read_entry" ("novel_reference");`);
    this.addSql(`create index "read_entry_user_reference_content_type_status_index" on "read_entry" ("user_reference", "content_type", "status");`);
    this.addSql(`alter table "read_entry" add constraint "read_entry_user_reference_novel_reference_unique" unique ("user_reference", "novel_reference");`);
    this.addSql(`alter table "read_entry" add constraint "read_entry_user_reference_manga_reference_unique" unique ("user_reference", "manga_reference");`);

    this.addSql(`create table "notification" ("reference" uuid not null, "user_reference" uuid not null, "initiator_user_reference" uuid null, "notification_type" text not null, "data" jsonb not null, "event_key" text null, "seen" boolean not null default false, "created" timestamptz not null, "updated" timestamptz not null, constraint "notification_pkey" primary key ("reference"));`);
    this.addSql(`create index "notification_event_key_index" on "notification" ("event_key");`);
    this.addSql(`create index "notification_user_reference_seen_index" on "notification" ("user_reference", "seen");`);
    this.addSql(`create index "notification_user_reference_created_index" on "notification" ("user_reference", "created");`);

    this.addSql(`create table "follow" ("reference" uuid not null, "follower_reference" uuid not null, "followed_reference" uuid not null, "created" timestamptz not null, constraint "follow_pkey" primary key ("reference"));`);
    this.addSql(`create index "follow_followed_reference_index" on "follow" ("followed_reference");`);
    this.addSql(`alter table "follow" add constraint "follow_follower_reference_followed_reference_unique" unique ("follower_reference", "followed_reference");`);

    this.addSql(`create table "comment" ("reference" uuid not null, "author_reference" uuid not null, "content_type" text not null, "content_reference" uuid not null, "parent_reference" uuid null, "thread_root_reference" uuid null, "depth" smallint not null default 1, "text" text not null, "hidden" boolean not null default false, "hidden_by_reference" uuid null, "deleted" boolean not null default false, "private" boolean not null default false, "total_replies" int not null default 0, "vote_score" int not null default 0, "review_recommendation" text null, "review_score" smallint null, "preview" jsonb not null, "created" timestamptz not null, "updated" timestamptz not null, constraint "comment_pkey" primary key ("reference"));`);
    this.addSql(`create index "comment_author_reference_index" on "comment" ("author_reference");`);
    this.addSql(`create index "comment_parent_reference_index" on "comment" ("parent_reference");`);
    this.addSql(`create index "comment_thread_root_reference_index" on "comment" ("thread_root_reference");`);
    this.addSql(`create index "comment_thread_root_reference_created_index" on "comment" ("thread_root_reference", "created");`);
    this.addSql(`create index "comment_created_index" on "comment" ("created");`);
    this.addSql(`create index "comment_content_type_content_reference_depth_created_index" on "comment" ("content_type", "content_reference", "depth", "created");`);

    this.addSql(`create table "comment_version" ("reference" uuid not null, "comment_reference" uuid not null, "text" text not null, "created" timestamptz not null, constraint "comment_version_pkey" primary key ("reference"));`);
    this.addSql(`create index "comment_version_comment_reference_index" on "comment_version" ("comment_reference");`);

    this.addSql(`create table "collection" ("reference" uuid not null, "author_reference" uuid not null, "title" text not null, "description" text not null, "content_type" text not null, "visibility" text not null, "labels_order" text[] not null, "tags" text[] not null, "spoiler" boolean not null default false, "nsfw" boolean not null default false, "entries" int not null default 0, "vote_score" int not null default 0, "system_ranking" int not null default 0, "comments_count" int not null default 0, "deleted" boolean not null default false, "created" timestamptz not null, "updated" timestamptz not null, constraint "collection_pkey" primary key ("reference"));`);
    this.addSql(`create index "collection_author_reference_index" on "collection" ("author_reference");`);
    this.addSql(`create index "collection_system_ranking_created_index" on "collection" ("system_ranking", "created");`);

    this.addSql(`create table "collection_item" ("reference" uuid not null, "collection_reference" uuid not null, "content_type" text not null, "content_reference" uuid not null, "order" int not null, "comment" text null, "label" text null, constraint "collection_item_pkey" primary key ("reference"));`);
    this.addSql(`create index "collection_item_content_type_content_reference_index" on "collection_item" ("content_type", "content_reference");`);
    this.addSql(`alter table "collection_item" add constraint "collection_item_collection_reference_order_unique" unique ("collection_reference", "order");`);

    this.addSql(`create table "client" ("reference" uuid not null, "user_reference" uuid not null, "name" text not null, "description" text not null, "endpoint" text not null, "secret" text not null, "verified" boolean not null default false, "created" timestamptz not null, "updated" timestamptz not null, constraint "client_pkey" primary key ("reference"));`);
    this.addSql(`create index "client_user_reference_index" on "client" ("user_reference");`);

    this.addSql(`create table "token_request" ("reference" uuid not null, "client_reference" uuid not null, "user_reference" uuid not null, "scope" text[] not null, "created" timestamptz not null, "expiration" timestamptz not null, "used" boolean not null default false, constraint "token_request_pkey" primary key ("reference"));`);
    this.addSql(`create index "token_request_client_reference_index" on "token_request" ("client_reference");`);

    this.addSql(`create table "auth_token" ("reference" uuid not null, "secret_hash" text not null, "user_reference" uuid not null, "client_reference" uuid null, "scope" text[] not null, "created" timestamptz not null, "expiration" timestamptz not null, "used" timestamptz null, constraint "auth_token_pkey" primary key ("reference"));`);
    this.addSql(`alter table "auth_token" add constraint "auth_token_secret_hash_unique" unique ("secret_hash");`);
    this.addSql(`create index "auth_token_user_reference_index" on "auth_token" ("user_reference");`);
    this.addSql(`create index "auth_token_client_reference_index" on "auth_token" ("client_reference");`);

    this.addSql(`create table "article" ("reference" uuid not null, "slug" text not null, "author_reference" uuid not null, "title" text not null, "category" text not null, "draft" boolean not null default true, "trusted" boolean not null default false, "document" jsonb not null, "preview" jsonb not null, "content_type" text null, "content_reference" uuid null, "vote_score" int not null default 0, "views" int not null default 0, "comments_count" int not null default 0, "deleted" boolean not null default false, "created" timestamptz not null, "updated" timestamptz not null, constraint "article_pkey" primary key ("reference"));`);
    this.addSql(`alter table "article" add constraint "article_slug_unique" unique ("slug");`);
    this.addSql(`create index "article_author_reference_index" on "article" ("author_reference");`);
    this.addSql(`create index "article_category_draft_created_index" on "article" ("category", "draft", "created");`);

    this.addSql(`create table "attachment" ("reference" uuid not null, "user_reference" uuid not null, "path" text not null, "article_reference" uuid null, "marked_for_deletion" boolean not null default false, "created" timestamptz not null, constraint "attachment_pkey" primary key ("reference"));`);
    this.addSql(`create index "attachment_user_reference_index" on "attachment" ("user_reference");`);
    this.addSql(`alter table "attachment" add constraint "attachment_path_unique" unique ("path");`);
    this.addSql(`create index "attachment_article_reference_index" on "attachment" ("article_reference");`);

    this.addSql(`create table "article_tag" ("article_reference" uuid not null, "tag_reference" uuid not null, "position" smallint not null, constraint "article_tag_pkey" primary key ("article_reference", "tag_reference"));`);
    this.addSql(`create index "article_tag_tag_reference_index" on "article_tag" ("tag_reference");`);

    this.addSql(`create table "action_record" ("id" bigserial primary key, "type" text not null, "user_reference" uuid not null, "target" text null, "created" timestamptz not null);`);
    this.addSql(`create index "action_record_user_reference_type_created_index" on "action_record" ("user_reference", "type", "created");`);

    this.addSql(`create table "vote" ("reference" uuid not null, "user_reference" uuid not null, "content_type" text not null, "content_reference" uuid not null, "score" smallint not null, "created" timestamptz not null, "updated" timestamptz not null, constraint "vote_pkey" primary key ("reference"));`);
    this.addSql(`create index "vote_content_type_content_reference_index" on "vote" ("content_type", "content_reference");`);
    this.addSql(`alter table "vote" add constraint "vote_user_reference_content_type_content_reference_unique" unique ("user_reference", "content_type", "content_reference");`);

    this.addSql(`create table "watch_entry" ("reference" uuid not null, "user_reference" uuid not null, "note" text null, "score" smallint not null default 0, "start_date" timestamptz null, "end_date" timestamptz null, "created" timestamptz not null, "updated" timestamptz not null, "anime_reference" uuid not null, "status" text not null, "episodes" int not null default 0, "rewatches" smallint not null default 0, "duration" int not null default 0, constraint "watch_entry_pkey" primary key ("reference"));`);
    this.addSql(`create index "watch_entry_created_index" on "watch_entry" ("created");`);
    this.addSql(`create index "watch_entry_anime_reference_index" on "watch_entry" ("anime_reference");`);
    this.addSql(`create index "watch_entry_user_reference_status_index" on "watch_entry" ("user_reference", "status");`);
    this.addSql(`alter table "watch_entry" add constraint "watch_entry_user_reference_anime_reference_unique" unique ("user_reference", "anime_reference");`);

    this.addSql(`alter table "anime" add constraint "anime_franchise_reference_foreign" foreign key ("franchise_reference") references "franchise" ("reference") on update cascade on delete set null;`);

    this.addSql(`alter table "anime_company" add constraint "anime_company_anime_reference_foreign" foreign key ("anime_reference") references "anime" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "anime_company" add constraint "anime_company_company_reference_foreign" foreign key ("company_reference") references "company" ("reference") on update cascade on delete cascade;`);

    this.addSql(`alter table "airing_episode" add constraint "airing_episode_anime_reference_foreign" foreign key ("anime_reference") references "anime" ("reference") on update cascade on delete cascade;`);

    this.addSql(`alter table "anime_genres" add constraint "anime_genres_anime_reference_foreign" foreign key ("anime_reference") references "anime" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "anime_genres" add constraint "anime_genres_genre_reference_foreign" foreign key ("genre_reference") references "genre" ("reference") on update cascade on delete cascade;`);

    this.addSql(`alter table "manga" add constraint "manga_franchise_reference_foreign" foreign key ("franchise_reference") references "franchise" ("reference") on update cascade on delete set null;`);

    this.addSql(`alter table "manga_genres" add constraint "manga_genres_manga_reference_foreign" foreign key ("manga_reference") references "manga" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "manga_genres" add constraint "manga_genres_genre_reference_foreign" foreign key ("genre_reference") references "genre" ("reference") on update cascade on delete cascade;`);

    this.addSql(`alter table "manga_magazines" add constraint "manga_magazines_manga_reference_foreign" foreign key ("manga_reference") references "manga" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "manga_magazines" add constraint "manga_magazines_magazine_reference_foreign" foreign key ("magazine_reference") references "magazine" ("reference") on update cascade on delete cascade;`);

    this.addSql(`alter table "novel" add constraint "novel_franchise_reference_foreign" foreign key ("franchise_reference") references "franchise" ("reference") on update cascade on delete set null;`);

    this.addSql(`alter table "appearance" add constraint "appearance_character_reference_foreign" foreign key ("character_reference") references "character" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "appearance" add constraint "appearance_anime_reference_foreign" foreign key ("anime_reference") references "anime" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "appearance" add constraint "appearance_manga_reference_foreign" foreign key ("manga_reference") references "manga" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "appearance" add constraint "appearance_novel_reference_foreign" foreign key ("novel_reference") references "novel" ("reference") on update cascade on delete cascade;`);

    this.addSql(`alter table "novel_genres" add constraint "novel_genres_novel_reference_foreign" foreign key ("novel_reference") references "novel" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "novel_genres" add constraint "novel_genres_genre_reference_foreign" foreign key ("genre_reference") references "genre" ("reference") on update cascade on delete cascade;`);

    this.addSql(`alter table "novel_magazines" add constraint "novel_magazines_novel_reference_foreign" foreign key ("novel_reference") references "novel" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "novel_magazines" add constraint "novel_magazines_magazine_reference_foreign" foreign key ("magazine_reference") references "magazine" ("reference") on update cascade on delete cascade;`);

    this.addSql(`alter table "credit" add constraint "credit_person_reference_foreign" foreign key ("person_reference") references "person" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "credit" add constraint "credit_anime_reference_foreign" foreign key ("anime_reference") references "anime" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "credit" add constraint "credit_manga_reference_foreign" foreign key ("manga_reference") references "manga" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "credit" add constraint "credit_novel_reference_foreign" foreign key ("novel_reference") references "novel" ("reference") on update cascade on delete cascade;`);

    this.addSql(`alter table "credit_roles" add constraint "credit_roles_credit_reference_foreign" foreign key ("credit_reference") references "credit" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "credit_roles" add constraint "credit_roles_role_reference_foreign" foreign key ("role_reference") references "role" ("reference") on update cascade on delete cascade;`);

    this.addSql(`alter table "read_entry" add constraint "read_entry_user_reference_foreign" foreign key ("user_reference") references "user" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "read_entry" add constraint "read_entry_manga_reference_foreign" foreign key ("manga_reference") references "manga" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "read_entry" add constraint "read_entry_novel_reference_foreign" foreign key ("novel_reference") references "novel" ("reference") on update cascade on delete cascade;`);

    this.addSql(`alter table "notification" add constraint "notification_user_reference_foreign" foreign key ("user_reference") references "user" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "notification" add constraint "notification_initiator_user_reference_foreign" foreign key ("initiator_user_reference") references "user" ("reference") on update cascade on delete set null;`);

    this.addSql(`alter table "follow" add constraint "follow_follower_reference_foreign" foreign key ("follower_reference") references "user" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "follow" add constraint "follow_followed_reference_foreign" foreign key ("followed_reference") references "user" ("reference") on update cascade on delete cascade;`);

    this.addSql(`alter table "comment" add constraint "comment_author_reference_foreign" foreign key ("author_reference") references "user" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "comment" add constraint "comment_parent_reference_foreign" foreign key ("parent_reference") references "comment" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "comment" add constraint "comment_thread_root_reference_foreign" foreign key ("thread_root_reference") references "comment" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "comment" add constraint "comment_hidden_by_reference_foreign" foreign key ("hidden_by_reference") references "user" ("reference") on update cascade on delete set null;`);

    this.addSql(`alter table "comment_version" add constraint "comment_version_comment_reference_foreign" foreign key ("comment_reference") references "comment" ("reference") on update cascade on delete cascade;`);

    this.addSql(`alter table "collection" add constraint "collection_author_reference_foreign" foreign key ("author_reference") references "user" ("reference") on update cascade on delete cascade;`);

    this.addSql(`alter table "collection_item" add constraint "collection_item_collection_reference_foreign" foreign key ("collection_reference") references "collection" ("reference") on update cascade on delete cascade;`);

    this.addSql(`alter table "client" add constraint "client_user_reference_foreign" foreign key ("user_reference") references "user" ("reference") on update cascade on delete cascade;`);

    this.addSql(`alter table "token_request" add constraint "token_request_client_reference_foreign" foreign key ("client_reference") references "client" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "token_request" add constraint "token_request_user_reference_foreign" foreign key ("user_reference") references "user" ("reference") on update cascade on delete cascade;`);

    this.addSql(`alter table "auth_token" add constraint "auth_token_user_reference_foreign" foreign key ("user_reference") references "user" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "auth_token" add constraint "auth_token_client_reference_foreign" foreign key ("client_reference") references "client" ("reference") on update cascade on delete cascade;`);

    this.addSql(`alter table "article" add constraint "article_author_reference_foreign" foreign key ("author_reference") references "user" ("reference") on update cascade on delete cascade;`);

    this.addSql(`alter table "attachment" add constraint "attachment_user_reference_foreign" foreign key ("user_reference") references "user" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "attachment" add constraint "attachment_article_reference_foreign" foreign key ("article_reference") references "article" ("reference") on update cascade on delete set null;`);

    this.addSql(`alter table "article_tag" add constraint "article_tag_article_reference_foreign" foreign key ("article_reference") references "article" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "article_tag" add constraint "article_tag_tag_reference_foreign" foreign key ("tag_reference") references "tag" ("reference") on update cascade on delete cascade;`);

    this.addSql(`alter table "action_record" add constraint "action_record_user_reference_foreign" foreign key ("user_reference") references "user" ("reference") on update cascade on delete cascade;`);

    this.addSql(`alter table "vote" add constraint "vote_user_reference_foreign" foreign key ("user_reference") references "user" ("reference") on update cascade on delete cascade;`);

    this.addSql(`alter table "watch_entry" add constraint "watch_entry_user_reference_foreign" foreign key ("user_reference") references "user" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "watch_entry" add constraint "watch_entry_anime_reference_foreign" foreign key ("anime_reference") references "anime" ("reference") on update cascade on delete cascade;`);

    this.addSql(`create table "edit" ("edit_id" serial primary key, "author_reference" uuid not null, "moderator_reference" uuid null, "content_type" text not null, "content_reference" uuid not null, "status" text not null default 'pending', "description" text null, "before" jsonb not null, "after" jsonb not null, "created" timestamptz not null, "updated" timestamptz not null);`);
    this.addSql(`create index "edit_author_reference_index" on "edit" ("author_reference");`);
    this.addSql(`create index "edit_content_type_content_reference_index" on "edit" ("content_type", "content_reference");`);

    this.addSql(`alter table "edit" add constraint "edit_author_reference_foreign" foreign key ("author_reference") references "user" ("reference") on update cascade on delete cascade;`);
    this.addSql(`alter table "edit" add constraint "edit_moderator_reference_foreign" foreign key ("moderator_reference") references "user" ("reference") on update cascade on delete set null;`);
  }
}
