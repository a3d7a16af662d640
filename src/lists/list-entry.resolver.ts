import { Reference } from '@mikro-orm/core';
import { FieldResolver, Resolver, Root } from 'type-graphql';
import { Anime } from '../catalog/anime.entity';
import type { Manga } from '../catalog/manga.entity';
import type { Novel } from '../catalog/novel.entity';
import { ReadContent } from '../catalog/title-unions';
import { ReadEntry } from './read-entry.entity';
import { sqlFields, sqlRelation } from '../graphql/sql-plan/fields';
import { WatchEntry } from './watch-entry.entity';

/** Titles of list entries load through MikroORM's batching dataloader, one query per batch. */
// The resolver loads the relation: in SQL, the row it points to (src/graphql/sql-plan).
sqlFields(WatchEntry, { anime: sqlRelation });

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
