import type { EntityClass } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Viewer } from '../accounts/session';
import { requireScopes } from '../accounts/session';
import { User } from '../accounts/user.entity';
import { findTitle, findTitleBySlug } from '../catalog/catalog.service';
import type { TitleContentType } from '../common/enums';
import { listPage, type ListQuery } from '../common/pagination/paged-query';
import type { Page, PageArgs } from '../common/pagination/pagination';
import { concatSql, sql, type SqlFragment } from '../db/sql';
import type { ListEntry } from '../lists/list-entry.entity';
import { ReadEntry } from '../lists/read-entry.entity';
import { WatchEntry } from '../lists/watch-entry.entity';

/** Each kind's entries, and the scope a third-party token needs to see who of its follows has one. */
export const FOLLOWED_ENTRIES = {
  anime: { table: 'watch_entry', entity: WatchEntry, scopes: ['read:follow'] },
  manga: { table: 'read_entry', entity: ReadEntry, scopes: ['read:user-details'] },
  novel: { table: 'read_entry', entity: ReadEntry, scopes: ['read:user-details'] },
} as const;

/**
 * The users whom the caller (`viewer`: SQL of the reference) follows and who have an
 * entry for the title (`title`: SQL of its reference) of `kind`, deleted accounts left
 * out; by the entry's score desc, then its update desc, then user reference.
 */
export function followingEntriesQuery(
  kind: TitleContentType,
  viewer: SqlFragment,
  title: SqlFragment,
): ListQuery {
  return {
    reference: 'u.reference',
    from: `follow f join "user" u on u.reference = f.followed_reference
      join ${FOLLOWED_ENTRIES[kind].table} e on e.user_reference = u.reference`,
    where: concatSql(
      'f.follower_reference = ',
      viewer,
      ` and e.${kind}_reference = `,
      title,
      sql(" and u.role <> 'deleted'"),
    ),
    orderBy: sql('e.score desc, e.updated desc, u.reference'),
  };
}

/**
 * The rows of a listed user's (alias `user`) entry for the title (`title`: SQL of its
 * reference) in `table`; references are unique across the title tables, so a read
 * entry names its title by either column.
 */
export const followedEntrySql = (
  table: 'watch_entry' | 'read_entry',
  user: string,
  entry: string,
  title: string,
) => ({
  from: `${table} ${entry}`,
  where:
    table === 'watch_entry'
      ? `${entry}.user_reference = ${user}.reference and ${entry}.anime_reference = ${title}`
      : `${entry}.user_reference = ${user}.reference
        and (${entry}.manga_reference = ${title} or ${entry}.novel_reference = ${title})`,
});

/** A listed user with that user's entry for the title. */
export interface FollowedEntry<E extends ListEntry> {
  user: User;
  entry: E;
}

/**
 * GET /watch/{slug}/following and GET /read/{content_type}/{slug}/following (pages.md
 * "Anime page", "Manga page"), after authentication: the title's look-up (anime: module
 * look-up, 404 `anime:not_found`; manga and novels: by content type and slug, 404
 * `read:content_not_found`), the scope, then the page and each user's entry.
 */
export async function followingEntries<E extends ListEntry>(
  em: EntityManager,
  viewer: Viewer,
  kind: TitleContentType,
  slug: string,
  args: PageArgs,
): Promise<Page<FollowedEntry<E>>> {
  const title =
    kind === 'anime'
      ? await findTitleBySlug(em, 'anime', slug, 'anime:not_found')
      : await findTitle(em, kind, slug, 'read:content_not_found');
  requireScopes(viewer, FOLLOWED_ENTRIES[kind].scopes);
  const page = await listPage(
    em,
    User,
    followingEntriesQuery(kind, sql('?', viewer.user.reference), sql('?', title.reference)),
    args,
  );
  const users = page.list.map((user) => user.reference);
  const entries =
    users.length === 0
      ? []
      : await em.find(
          FOLLOWED_ENTRIES[kind].entity as EntityClass<ListEntry>,
          {
            user: { $in: users },
            [kind]: title.reference,
          } as never,
        );
  const byUser = new Map(entries.map((entry) => [entry.user.reference, entry as E]));
  // A user whose entry was removed between the two reads is left out.
  const list = page.list.flatMap((user) => {
    const entry = byUser.get(user.reference);
    return entry ? [{ user, entry }] : [];
  });
  return { pagination: page.pagination, list };
}
