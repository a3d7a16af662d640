import { createUnionType } from 'type-graphql';
import { Anime } from './anime.entity';
import { Manga } from './manga.entity';
import { Novel } from './novel.entity';

/** An anime, a manga or a novel (lists that mix title kinds, e.g. #6). */
export const CatalogItem = createUnionType({
  name: 'CatalogItem',
  types: () => [Anime, Manga, Novel] as const,
  resolveType: (value) => (value instanceof Anime ? Anime : value instanceof Manga ? Manga : Novel),
});

/** A manga or a novel: what a read entry is about (#18, read entries). */
export const ReadContent = createUnionType({
  name: 'ReadContent',
  types: () => [Manga, Novel] as const,
  resolveType: (value) => (value instanceof Manga ? Manga : Novel),
});
