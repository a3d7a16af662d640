import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../context';
import { viewerWatchEntries } from '../lists/list.loaders';
import { WatchEntry } from '../lists/watch-entry.entity';
import { Anime } from './anime.entity';
import { CatalogTitleFields } from './title-fields';

@Resolver(() => Anime)
export class AnimeResolver extends CatalogTitleFields(Anime, 'anime') {
  @FieldResolver(() => [WatchEntry], {
    description: "The caller's own watch entry (at most one); [] when anonymous.",
  })
  watch(@Root() anime: Anime, @Ctx() ctx: RequestContext): Promise<WatchEntry[]> {
    return viewerWatchEntries(ctx).load(anime.reference);
  }
}
