import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../context';
import { viewerWatchEntries } from '../lists/list.loaders';
import { WatchEntry } from '../lists/watch-entry.entity';
import { Anime } from './anime.entity';
import { sqlFields, sqlRows } from '../graphql/sql-plan/fields';
import { CatalogTitleFields } from './title-fields';

// viewerWatchEntries in SQL: the caller's own entry; none for anonymous callers (viewer null).
sqlFields(Anime, {
  watch: sqlRows((anime, entry, { viewer }) => ({
    from: `watch_entry ${entry}`,
    where: `${entry}.anime_reference = ${anime}.reference and ${entry}.user_reference = ${viewer}`,
  })),
});

@Resolver(() => Anime)
export class AnimeResolver extends CatalogTitleFields(Anime, 'anime') {
  @FieldResolver(() => [WatchEntry], {
    description: "The caller's own watch entry (at most one); [] when anonymous.",
  })
  watch(@Root() anime: Anime, @Ctx() ctx: RequestContext): Promise<WatchEntry[]> {
    return viewerWatchEntries(ctx).load(anime.reference);
  }
}
