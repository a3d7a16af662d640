import { Ctx, FieldResolver, Resolver, Root, type ClassType } from 'type-graphql';
import { Anime } from '../catalog/anime.entity';
import { Manga } from '../catalog/manga.entity';
import { Novel } from '../catalog/novel.entity';
import type { ReadableTitle } from '../catalog/readable-title.entity';
import type { ReadContentType } from '../common/enums';
import type { RequestContext } from '../context';
import { type SqlForm, sqlFields, sqlRows } from '../graphql/sql-plan/fields';
import { viewerReadEntries, viewerWatchEntries } from './list.loaders';
import { ReadEntry } from './read-entry.entity';
import { WatchEntry } from './watch-entry.entity';

/*
 * The lists add the caller's own entry to the catalog's titles: `watch` on anime,
 * `read` on manga and novels. In SQL as in the loaders: none for anonymous callers
 * (viewer null).
 */

@Resolver(() => Anime)
export class AnimeWatchResolver {
  @FieldResolver(() => [WatchEntry], {
    description: "The caller's own watch entry (at most one); [] when anonymous.",
  })
  watch(@Root() anime: Anime, @Ctx() ctx: RequestContext): Promise<WatchEntry[]> {
    return viewerWatchEntries(ctx).load(anime.reference);
  }
}

function TitleReadResolver<T extends ReadableTitle>(Title: ClassType<T>, kind: ReadContentType) {
  @Resolver(() => Title)
  class ReadResolver {
    @FieldResolver(() => [ReadEntry], {
      description: "The caller's own read entry (at most one); [] when anonymous.",
    })
    read(@Root() title: T, @Ctx() ctx: RequestContext): Promise<ReadEntry[]> {
      return viewerReadEntries(ctx, kind).load(title.reference);
    }
  }
  return ReadResolver;
}

export const MangaReadResolver = TitleReadResolver(Manga, 'manga');
export const NovelReadResolver = TitleReadResolver(Novel, 'novel');

/** `read` of a title of `kind` in SQL. */
const readSql = (kind: ReadContentType) =>
  sqlRows((title, entry, { viewer }) => ({
    from: `read_entry ${entry}`,
    where: `${entry}.${kind}_reference = ${title}.reference and ${entry}.user_reference = ${viewer}`,
  }));

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const titleEntriesSqlForms: readonly SqlForm[] = [
  sqlFields(Anime, {
    watch: sqlRows((anime, entry, { viewer }) => ({
      from: `watch_entry ${entry}`,
      where: `${entry}.anime_reference = ${anime}.reference and ${entry}.user_reference = ${viewer}`,
    })),
  }),
  sqlFields(Manga, { read: readSql('manga') }),
  sqlFields(Novel, { read: readSql('novel') }),
];
