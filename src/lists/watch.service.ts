import type { EntityManager } from '@mikro-orm/postgresql';
import type { Anime } from '../catalog/anime.entity';
import { findTitleBySlug, moduleSlug } from '../catalog/catalog.service';
import { requireScopes, type Viewer } from '../accounts/session';
import { AppError } from '../common/errors/app-error';
import {
  deleteListEntry,
  type ListEntryKind,
  listEntryValues,
  lockListsAndFind,
  writeListEntry,
} from './list-entry.service';
import { WatchEntry } from './watch-entry.entity';
import type { WatchEntryInput } from './watch.types';

const WATCH: ListEntryKind<WatchEntry, 'anime'> = {
  entity: WatchEntry,
  table: 'watch_entry',
  title: 'anime',
  titleColumn: 'anime_reference',
  fields: ['status', 'note', 'episodes', 'rewatches', 'score', 'start_date', 'end_date'],
  notFound: 'anime:not_found',
  actions: { create: 'watch_create', update: 'watch_update', delete: 'watch_delete' },
};

/** Minutes watched (§6.3): episode length × (episodes + episodes_total × rewatches), unknowns as 0. */
export function watchDuration(
  anime: Pick<Anime, 'duration' | 'episodes_total'>,
  episodes: number,
  rewatches: number,
): number {
  return (anime.duration ?? 0) * (episodes + (anime.episodes_total ?? 0) * rewatches);
}

/**
 * PUT /watch/{slug}: creates or replaces the caller's entry, with every derived value
 * (duration, native score, the user's list time, the action record) in one transaction.
 */
export function saveWatchEntry(
  em: EntityManager,
  viewer: Viewer,
  slug: string,
  input: WatchEntryInput,
): Promise<WatchEntry> {
  return em.transactional(async (tx) => {
    const at = new Date();
    const { title: anime, entry: existing } = await lockListsAndFind(tx, viewer, WATCH, moduleSlug(slug), at);
    requireScopes(viewer, ['update:watchlist']);
    const episodes = input.episodes ?? 0;
    if (anime.episodes_total !== null && episodes > anime.episodes_total) {
      throw new AppError('watch:bad_episodes');
    }
    const rewatches = input.rewatches ?? 0;
    return writeListEntry(tx, viewer, WATCH, anime, existing, {
      episodes,
      rewatches,
      duration: watchDuration(anime, episodes, rewatches),
      ...listEntryValues(existing, input, at),
    });
  });
}

/** GET /watch/{slug}: the caller's entry for the anime. */
export async function getWatchEntry(em: EntityManager, viewer: Viewer, slug: string): Promise<WatchEntry> {
  const anime = await findTitleBySlug(em, 'anime', slug, 'anime:not_found');
  const entry = await em.findOne(WatchEntry, { user: viewer.user.reference, anime: anime.reference });
  if (!entry) throw new AppError('watch:not_found');
  requireScopes(viewer, ['read:watchlist']);
  return entry;
}

/** DELETE /watch/{slug}: removes the caller's entry and its share of the native score. */
export function deleteWatchEntry(em: EntityManager, viewer: Viewer, slug: string): Promise<void> {
  return em.transactional(async (tx) => {
    const { title: anime, entry } = await lockListsAndFind(tx, viewer, WATCH, moduleSlug(slug), new Date());
    if (!entry) throw new AppError('watch:not_found');
    requireScopes(viewer, ['update:watchlist']);
    await deleteListEntry(tx, viewer, WATCH, anime, entry);
  });
}
