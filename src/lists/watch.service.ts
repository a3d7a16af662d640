import type { EntityManager } from '@mikro-orm/postgresql';
import { recordAction } from '../accounts/actions';
import { User } from '../accounts/user.entity';
import type { Anime } from '../catalog/anime.entity';
import { findTitleBySlug } from '../catalog/catalog.service';
import { requireScopes, type Viewer } from '../common/auth/session';
import { AppError } from '../common/errors/app-error';
import { applyListEntryInput, entryState, touchLists } from './list-entry.service';
import { moveNativeScore } from './native-score.service';
import { WatchEntry } from './watch-entry.entity';
import type { WatchEntryInput } from './watch.types';

const WATCH_FIELDS = ['status', 'note', 'episodes', 'rewatches', 'score', 'start_date', 'end_date'] as const;

/** Minutes watched (§6.3): episode length × (episodes + episodes_total × rewatches), unknowns as 0. */
export function watchDuration(
  anime: Pick<Anime, 'duration' | 'episodes_total'>,
  episodes: number,
  rewatches: number,
): number {
  return (anime.duration ?? 0) * (episodes + (anime.episodes_total ?? 0) * rewatches);
}

const findAnime = (em: EntityManager, slug: string) => findTitleBySlug(em, 'anime', slug, 'anime:not_found');

async function findOwnEntry(em: EntityManager, viewer: Viewer, anime: Anime): Promise<WatchEntry | null> {
  return em.findOne(WatchEntry, { user: viewer.user.reference, anime: anime.reference });
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
    const anime = await findAnime(tx, slug);
    requireScopes(viewer, ['update:watchlist']);
    const episodes = input.episodes ?? 0;
    if (anime.episodes_total !== null && episodes > anime.episodes_total) {
      throw new AppError('watch:bad_episodes');
    }

    const at = new Date();
    await touchLists(tx, viewer, at);
    const existing = await findOwnEntry(tx, viewer, anime);
    const entry =
      existing ??
      tx.create(WatchEntry, {
        user: tx.getReference(User, viewer.user.reference),
        anime,
        status: input.status,
        episodes,
        rewatches: 0,
        duration: 0,
        score: 0,
        created: at,
        updated: at,
      });
    const before = existing ? entryState(existing, WATCH_FIELDS) : null;
    const previousScore = existing?.score ?? 0;

    entry.status = input.status;
    entry.episodes = episodes;
    entry.rewatches = input.rewatches ?? 0;
    applyListEntryInput(entry, input, {
      created: !existing,
      completed: input.status === 'completed',
      at,
    });
    entry.duration = watchDuration(anime, entry.episodes, entry.rewatches);

    if (await moveNativeScore(tx, 'anime', anime.reference, previousScore, entry.score)) {
      await tx.refresh(anime);
    }
    if (!existing) recordAction(tx, viewer.user, 'watch_create', anime.reference);
    else if (before !== entryState(entry, WATCH_FIELDS)) {
      recordAction(tx, viewer.user, 'watch_update', anime.reference);
    }
    return entry;
  });
}

/** GET /watch/{slug}: the caller's entry for the anime. */
export async function getWatchEntry(em: EntityManager, viewer: Viewer, slug: string): Promise<WatchEntry> {
  const anime = await findAnime(em, slug);
  const entry = await findOwnEntry(em, viewer, anime);
  if (!entry) throw new AppError('watch:not_found');
  requireScopes(viewer, ['read:watchlist']);
  return entry;
}

/** DELETE /watch/{slug}: removes the caller's entry and its share of the native score. */
export function deleteWatchEntry(em: EntityManager, viewer: Viewer, slug: string): Promise<void> {
  return em.transactional(async (tx) => {
    const anime = await findAnime(tx, slug);
    await touchLists(tx, viewer, new Date());
    const entry = await findOwnEntry(tx, viewer, anime);
    if (!entry) throw new AppError('watch:not_found');
    requireScopes(viewer, ['update:watchlist']);
    await moveNativeScore(tx, 'anime', anime.reference, entry.score, 0);
    tx.remove(entry);
    recordAction(tx, viewer.user, 'watch_delete', anime.reference);
  });
}
