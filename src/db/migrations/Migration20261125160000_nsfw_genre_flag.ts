import { Migration } from '@mikro-orm/migrations';

const KINDS = ['anime', 'manga', 'novel'] as const;

/**
 * `has_nsfw_genre` on every catalog title: whether it links one of the NSFW genres
 * (semantics §1.9's auto-hide), kept current by the database, so that the default
 * catalog lists and their counts read one indexed flag instead of joining the genre
 * links on every request. Statement-level triggers on the link tables (transition
 * tables: one update per statement, bulk loads included) and on genre slugs keep it.
 */
export class Migration20261125160000_nsfw_genre_flag extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function nsfw_genre_slugs() returns text[] language sql immutable parallel safe as $$
      select array['ecchi', 'erotica', 'hentai']
    $$;`);
    this.addSql(`create function refresh_nsfw_genre_flags(kind text, titles uuid[]) returns void language plpgsql as $$
      begin
        execute format(
          'update %I t set has_nsfw_genre = flag.nsfw
             from (select t2.reference, exists (select 1 from %I j join genre g on g.reference = j.genre_reference
                     where j.%I = t2.reference and g.slug = any (nsfw_genre_slugs())) as nsfw
                     from %I t2 where t2.reference = any ($1)) flag
            where t.reference = flag.reference and t.has_nsfw_genre <> flag.nsfw',
          kind, kind || '_genres', kind || '_reference', kind) using titles;
      end
    $$;`);
    this.addSql(`create function nsfw_genre_links_changed() returns trigger language plpgsql as $$
      declare
        kind text := TG_ARGV[0];
        titles uuid[];
      begin
        if TG_OP in ('INSERT', 'UPDATE') then
          execute format('select array_agg(%I) from linked', kind || '_reference') into titles;
          perform refresh_nsfw_genre_flags(kind, titles);
        end if;
        if TG_OP in ('DELETE', 'UPDATE') then
          execute format('select array_agg(%I) from unlinked', kind || '_reference') into titles;
          perform refresh_nsfw_genre_flags(kind, titles);
        end if;
        return null;
      end
    $$;`);
    this.addSql(`create function nsfw_genre_slug_changed() returns trigger language plpgsql as $$
      declare
        kind text;
        titles uuid[];
      begin
        foreach kind in array array['anime', 'manga', 'novel'] loop
          execute format('select array_agg(%I) from %I where genre_reference = $1', kind || '_reference', kind || '_genres')
            into titles using new.reference;
          perform refresh_nsfw_genre_flags(kind, titles);
        end loop;
        return null;
      end
    $$;`);
    for (const kind of KINDS) {
      this.addSql(`alter table "${kind}" add column "has_nsfw_genre" boolean not null default false;`);
      this.addSql(`update "${kind}" t set has_nsfw_genre = true where exists (
        select 1 from ${kind}_genres j join genre g on g.reference = j.genre_reference
         where j.${kind}_reference = t.reference and g.slug = any (nsfw_genre_slugs()));`);
      this.addSql(
        `create index "${kind}_score_scored_by_reference_has_nsfw_genre_index" on public.${kind} ("score" desc, "scored_by" desc, "reference" desc) where not "deleted" and not "has_nsfw_genre";`,
      );
      for (const [event, table] of [
        ['insert', 'new table as linked'],
        ['delete', 'old table as unlinked'],
        ['update', 'new table as linked old table as unlinked'],
      ]) {
        this.addSql(`create trigger ${kind}_genres_nsfw_${event} after ${event} on ${kind}_genres
          referencing ${table} for each statement execute function nsfw_genre_links_changed('${kind}');`);
      }
    }
    this.addSql(`create trigger genre_nsfw_slug after update of slug on genre
      for each row when (old.slug is distinct from new.slug) execute function nsfw_genre_slug_changed();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger genre_nsfw_slug on genre;`);
    for (const kind of KINDS) {
      for (const event of ['insert', 'delete', 'update']) this.addSql(`drop trigger ${kind}_genres_nsfw_${event} on ${kind}_genres;`);
      this.addSql(`drop index "${kind}_score_scored_by_reference_has_nsfw_genre_index";`);
      this.addSql(`alter table "${kind}" drop column "has_nsfw_genre";`);
    }
    this.addSql(`drop function nsfw_genre_slug_changed();`);
    this.addSql(`drop function nsfw_genre_links_changed();`);
    this.addSql(`drop function refresh_nsfw_genre_flags(text, uuid[]);`);
    this.addSql(`drop function nsfw_genre_slugs();`);
  }
}
