import { Reference } from '@mikro-orm/core';
import { createUnionType, FieldResolver, Resolver, Root } from 'type-graphql';
import { Anime } from '../catalog/anime.entity';
import { Manga } from '../catalog/manga.entity';
import { Novel } from '../catalog/novel.entity';
import { ReadEntry } from './read-entry.entity';
import { WatchEntry } from './watch-entry.entity';

/** A manga or a novel: what a read entry is about. */
export const ReadContent = createUnionType({
  name: 'ReadContent',
  types: () => [Manga, Novel] as const,
  resolveType: (value) => (value instanceof Manga ? Manga : Novel),
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
