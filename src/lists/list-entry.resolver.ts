import { Reference } from '@mikro-orm/core';
import { FieldResolver, Resolver, Root } from 'type-graphql';
import { Anime } from '../catalog/anime.entity';
import { Manga } from '../catalog/manga.entity';
import { Novel } from '../catalog/novel.entity';
import { ReadContent } from '../catalog/title-unions';
import { ReadEntry } from './read-entry.entity';
import { type MemberRows, sqlFields, sqlMember, sqlRelation, type SqlForm } from '../graphql/sql-plan/fields';
import { WatchEntry } from './watch-entry.entity';

/** A read entry's title in `table`, through its column `<table>_reference`. */
const entryTitle = (table: 'manga' | 'novel'): MemberRows => ({
  type: table === 'manga' ? Manga : Novel,
  rows: (entry, title) => ({
    from: `${table} ${title}`,
    where: `${title}.reference = ${entry}.${table}_reference`,
  }),
});

/** Titles of list entries load through MikroORM's batching dataloader, one query per batch. */
@Resolver(() => WatchEntry)
export class WatchEntryResolver {
  @FieldResolver(() => Anime)
  anime(@Root() entry: WatchEntry): Promise<Anime> {
    return Reference.create(entry.anime).loadOrFail();
  }
}

@Resolver(() => ReadEntry)
export class ReadEntryResolver {
  @FieldResolver(() => ReadContent, { description: 'The manga or novel of the entry.' })
  async content(@Root() entry: ReadEntry): Promise<Manga | Novel> {
    if (entry.manga) return Reference.create(entry.manga).loadOrFail();
    if (entry.novel) return Reference.create(entry.novel).loadOrFail();
    throw new Error(`read entry ${entry.reference} has no title`);
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const listEntrySqlForms: readonly SqlForm[] = [
  // The resolver loads the relation: in SQL, the row it points to (src/graphql/sql-plan).
  sqlFields(WatchEntry, { anime: sqlRelation }),
  sqlFields(ReadEntry, {
    content: sqlMember((entry) => `${entry}.content_type`, {
      manga: entryTitle('manga'),
      novel: entryTitle('novel'),
    }),
  }),
];
