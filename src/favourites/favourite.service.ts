import type { EntityClass } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findUserByUsername } from '../accounts/users.service';
import { requireScopes, type Viewer } from '../accounts/session';
import { liveAppearanceSql } from '../characters/characters.service';
import type { FavouriteContentType } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import { type ListQuery, loadInOrder, pagedReferences } from '../common/pagination/paged-query';
import { type Page, type PageArgs, toPage } from '../common/pagination/pagination';
import { isUuid } from '../common/validation/uuid';
import type { RequestContext } from '../context';
import { concatSql, sql, type SqlFragment, writeWithEffects } from '../db/sql';
import type { SqlSubject } from '../graphql/sql-plan/fields';
import { Favourite } from './favourite.entity';
import { FAVOURITE_ITEMS, type FavouriteEntity, favouriteView } from './favourite-items';

/**
 * Each kind of item: its table, and the condition (on alias `i`) for a row that can be a
 * favourite and be listed, given the caller's reference (SQL, null when anonymous): never
 * deleted; a character with a live appearance (§1.8 leaves orphans out); a private
 * collection for its author only.
 */
const ITEMS: Record<FavouriteContentType, { table: string; live: (viewer: SqlFragment) => SqlFragment }> = {
  anime: { table: 'anime', live: () => sql('not i.deleted') },
  manga: { table: 'manga', live: () => sql('not i.deleted') },
  novel: { table: 'novel', live: () => sql('not i.deleted') },
  character: { table: 'character', live: () => sql(liveAppearanceSql('i.reference')) },
  collection: {
    table: '"collection"',
    live: (viewer) =>
      concatSql(`not i.deleted and (i.visibility <> 'private' or i.author_reference = `, viewer, ')'),
  },
};

/**
 * The look-up of §1.8 by content type and slug, as a subject (src/graphql/sql-plan): the
 * item's reference, or no row for 404 `favourite:content_not_found`. Slugs match exactly;
 * a collection's slug is its reference, so a slug that is no UUID finds nothing.
 */
export function favouriteContentSubject(
  kind: FavouriteContentType,
  slug: string,
  viewer: SqlFragment,
): SqlSubject {
  const { table, live } = ITEMS[kind];
  const key = kind === 'collection' ? sql('i.reference = ?::uuid', slug) : sql('i.slug = ?', slug);
  const select =
    kind === 'collection' && !isUuid(slug)
      ? sql('select null::uuid as reference, null as refused where false')
      : concatSql(`select i.reference, null as refused from ${table} i where `, key, ' and ', live(viewer));
  return { select, notFound: 'favourite:content_not_found' };
}

/** The item's reference by {@link favouriteContentSubject}; 404 `favourite:content_not_found` when there is none. */
async function findContent(
  em: EntityManager,
  viewer: Viewer,
  kind: FavouriteContentType,
  slug: string,
): Promise<string> {
  const { select, notFound } = favouriteContentSubject(kind, slug, sql('?', viewer.user.reference));
  const [row] = await em.execute<{ reference: string }[]>(select.sql, select.params);
  if (!row) throw new AppError(notFound);
  return row.reference;
}

/** GET /favourite/{content_type}/{slug}: look-up → scope `read:favourite` → 404 `favourite:not_found`. */
export async function getFavourite(
  em: EntityManager,
  viewer: Viewer,
  kind: FavouriteContentType,
  slug: string,
): Promise<Favourite> {
  const content = await findContent(em, viewer, kind, slug);
  requireScopes(viewer, ['read:favourite']);
  const favourite = await em.findOne(Favourite, {
    user: viewer.user.reference,
    content_type: kind,
    content_reference: content,
  });
  if (!favourite) throw new AppError('favourite:not_found');
  return favourite;
}

/**
 * A favourite's insert or delete (returning its `user_reference` and `content_reference`,
 * or no row when there was nothing to write) with its action record, in one statement.
 */
const writeWithAction = (
  em: EntityManager,
  write: SqlFragment,
  action: 'favourite_add' | 'favourite_remove',
  at: Date,
) =>
  writeWithEffects(em, write, [
    sql(
      `insert into action_record (type, user_reference, target, created)
       select ?, user_reference, content_reference::text, ? from written`,
      action,
      at,
    ),
  ]);

/**
 * PUT /favourite/{content_type}/{slug}: look-up → scope `create:favourite` → 409
 * `favourite:exists`. The favourite and its action `favourite_add` in one statement; a
 * concurrent add of the same item is the same conflict.
 */
export async function addFavourite(
  em: EntityManager,
  viewer: Viewer,
  kind: FavouriteContentType,
  slug: string,
): Promise<Favourite> {
  const content = await findContent(em, viewer, kind, slug);
  requireScopes(viewer, ['create:favourite']);
  const at = new Date();
  const row = await writeWithAction(
    em,
    sql(
      `insert into favourite (reference, user_reference, content_type, content_reference, created)
       values (gen_random_uuid(), ?, ?, ?, ?)
       on conflict (user_reference, content_type, content_reference) do nothing
       returning reference, user_reference, content_reference, created`,
      viewer.user.reference,
      kind,
      content,
      at,
    ),
    'favourite_add',
    at,
  );
  if (!row) throw new AppError('favourite:exists');
  return em.map(Favourite, { ...row, content_type: kind });
}

/** DELETE /favourite/{content_type}/{slug}: look-up → scope `delete:favourite` → 404 `favourite:not_found`. */
export async function removeFavourite(
  em: EntityManager,
  viewer: Viewer,
  kind: FavouriteContentType,
  slug: string,
): Promise<void> {
  const content = await findContent(em, viewer, kind, slug);
  requireScopes(viewer, ['delete:favourite']);
  const row = await writeWithAction(
    em,
    sql(
      `delete from favourite where user_reference = ? and content_type = ? and content_reference = ?
       returning user_reference, content_reference`,
      viewer.user.reference,
      kind,
      content,
    ),
    'favourite_remove',
    new Date(),
  );
  if (!row) throw new AppError('favourite:not_found');
}

/**
 * POST /favourite/{content_type}/{username}/list, after the user's look-up (`user`: SQL
 * of its reference) and the caller's (`viewer`, SQL, null when anonymous): the user's
 * favourites of that kind whose item can be listed (live; a private collection only for
 * its author, the caller), newest first, then favourite reference. Lists item references.
 */
export function favouritesQuery(
  kind: FavouriteContentType,
  user: SqlFragment,
  viewer: SqlFragment,
): ListQuery {
  const { table, live } = ITEMS[kind];
  return {
    reference: 'f.content_reference',
    from: `favourite f join ${table} i on i.reference = f.content_reference`,
    where: concatSql('f.user_reference = ', user, sql(' and f.content_type = ? and ', kind), live(viewer)),
    orderBy: sql('f.created desc, f.reference'),
  };
}

/** SQL of `favourite_created` of an item (alias `item`) among the favourites of `user` (SQL). */
export const favouriteCreatedSql = (kind: FavouriteContentType, item: string, user: string): string =>
  `(select f.created from favourite f
     where f.user_reference = ${user} and f.content_type = '${kind}' and f.content_reference = ${item}.reference)`;

/**
 * A page of {@link favouritesQuery}: the caller (optional), the user's look-up, the scope,
 * then the items as favourite views, each with when it was added.
 */
export async function listFavourites(
  ctx: RequestContext,
  kind: FavouriteContentType,
  username: string,
  args: PageArgs,
): Promise<Page<FavouriteEntity>> {
  const { em } = ctx;
  await ctx.auth.optional();
  const user = await findUserByUsername(em, username);
  const viewer = await ctx.auth.optional(['read:favourite:list']);
  const query = favouritesQuery(
    kind,
    sql('?', user.reference),
    sql('?::uuid', viewer?.user.reference ?? null),
  );
  const { references, total } = await pagedReferences(em, query, args);
  const entity = FAVOURITE_ITEMS[kind].entity as EntityClass<FavouriteEntity>;
  const items = await loadInOrder(em, entity, references);
  const favourites =
    references.length === 0
      ? []
      : await em.find(Favourite, {
          user: user.reference,
          content_type: kind,
          content_reference: { $in: references },
        });
  const added = new Map(favourites.map((favourite) => [favourite.content_reference, favourite.created]));
  // An item whose favourite was removed between the two reads is left out.
  const views = items.flatMap((item) => {
    const created = added.get(item.reference);
    return created ? [favouriteView(item, created)] : [];
  });
  return toPage(views, total, args);
}
