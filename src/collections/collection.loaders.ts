import DataLoader from 'dataloader';
import type { EntityClass } from '@mikro-orm/core';
import { User } from '../accounts/user.entity';
import { Anime } from '../catalog/anime.entity';
import { Manga } from '../catalog/manga.entity';
import { Novel } from '../catalog/novel.entity';
import { Character } from '../characters/character.entity';
import type { CollectionContentType } from '../common/enums';
import { groupedLoader } from '../common/loaders';
import type { RequestContext } from '../context';
import type { MemberRows, RowSource } from '../graphql/sql-plan/fields';
import { Person } from '../people/person.entity';
import { CollectionItem } from './collection.entity';
import { liveContentSql } from './collection.service';

/** At most this many items in a #15 preview (semantics §2 #15). */
export const PREVIEW_SIZE = 6;

/** What a collection item shows as `content`. */
export type CollectionContent = Anime | Manga | Novel | Character | Person;

const CONTENT_ENTITIES: Record<CollectionContentType, EntityClass<CollectionContent>> = {
  anime: Anime,
  manga: Manga,
  novel: Novel,
  character: Character,
  person: Person,
};

/**
 * The items of many collections whose content is not deleted, by `order`: all of
 * them, or (`preview`) the first 6 of each. One query per request and kind,
 * whatever the number of collections.
 */
export function collectionItems(ctx: RequestContext, preview: boolean) {
  return groupedLoader<CollectionItem>(
    ctx,
    `collections:items:${preview ? 'preview' : 'all'}`,
    async (collections) => {
      const live = `i.collection_reference in (?) and ${liveContentSql('i')}`;
      const sql = preview
        ? `select * from (select i.*, row_number() over (partition by i.collection_reference order by i."order") as position
             from collection_item i where ${live}) ranked where position <= ${PREVIEW_SIZE} order by "order"`
        : `select i.* from collection_item i where ${live} order by i."order"`;
      const rows = await ctx.em.execute<Record<string, unknown>[]>(sql, [[...collections]]);
      return rows.map(({ position: _position, ...row }) => ctx.em.map(CollectionItem, row));
    },
    (item) => item.collection.reference,
  );
}

/**
 * {@link collectionItems} in SQL (src/graphql/sql-plan): the items of the collection
 * `collection` (its alias) bound to `alias`, all or the first 6, by `order`.
 */
export function collectionItemRows(collection: string, alias: string, preview: boolean): RowSource {
  const live = (item: string) =>
    `${item}.collection_reference = ${collection}.reference and ${liveContentSql(item)}`;
  return preview
    ? {
        from: `(select i.* from collection_item i where ${live('i')} order by i."order" limit ${PREVIEW_SIZE}) ${alias}`,
        orderBy: `${alias}."order"`,
      }
    : { from: `collection_item ${alias}`, where: live(alias), orderBy: `${alias}."order"` };
}

/** The content row of a collection item (its alias) in `table`, bound to `alias`. */
const contentRow =
  (table: string): MemberRows['rows'] =>
  (item, alias) => ({ from: `"${table}" ${alias}`, where: `${alias}.reference = ${item}.content_reference` });

/** A collection item's content of each kind, for `CollectionItem.content` in SQL. */
export const CONTENT_MEMBERS: Record<CollectionContentType, MemberRows> = {
  anime: { type: Anime, rows: contentRow('anime') },
  manga: { type: Manga, rows: contentRow('manga') },
  novel: { type: Novel, rows: contentRow('novel') },
  character: { type: Character, rows: contentRow('character') },
  person: { type: Person, rows: contentRow('person') },
};

/** Catalog items, persons and characters by reference, one query per kind and request. */
export function collectionContent(ctx: RequestContext, kind: CollectionContentType) {
  return ctx.loader(
    `collections:content:${kind}`,
    () =>
      new DataLoader<string, CollectionContent | null>(async (references) => {
        const rows = await ctx.em.find(CONTENT_ENTITIES[kind], { reference: { $in: [...references] } });
        const byReference = new Map(rows.map((row) => [row.reference, row]));
        return references.map((reference) => byReference.get(reference) ?? null);
      }),
  );
}

/** Users by reference (collection and article authors), one query per request. */
export function usersByReference(ctx: RequestContext) {
  return ctx.loader(
    'users:by-reference',
    () =>
      new DataLoader<string, User>(async (references) => {
        const users = await ctx.em.find(User, { reference: { $in: [...references] } });
        const byReference = new Map(users.map((user) => [user.reference, user]));
        return references.map((reference) => byReference.get(reference) ?? new Error('user not found'));
      }),
  );
}
