import type { ReadContentType } from '../common/enums';
import { groupedLoader } from '../common/loaders';
import type { RequestContext } from '../context';
import { ReadEntry } from './read-entry.entity';
import { WatchEntry } from './watch-entry.entity';

/**
 * The caller's own watch entry per anime (at most one), `[]` for anonymous callers
 * (semantics §1.7). One query per request, whatever the number of anime.
 */
export function viewerWatchEntries(ctx: RequestContext) {
  return groupedLoader<WatchEntry>(
    ctx,
    'viewer:watch',
    async (anime) => {
      const viewer = await ctx.auth.optional();
      if (!viewer) return [];
      return ctx.em.find(WatchEntry, { user: viewer.user, anime: { $in: [...anime] } });
    },
    (entry) => entry.anime.reference,
  );
}

/** The caller's own read entry per manga or novel. */
export function viewerReadEntries(ctx: RequestContext, kind: ReadContentType) {
  return groupedLoader<ReadEntry>(
    ctx,
    `viewer:read:${kind}`,
    async (titles) => {
      const viewer = await ctx.auth.optional();
      if (!viewer) return [];
      return ctx.em.find(ReadEntry, { user: viewer.user, [kind]: { $in: titles } });
    },
    (entry) => entry[kind]!.reference,
  );
}
