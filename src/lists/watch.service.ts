import type { EntityManager } from '@mikro-orm/postgresql';
import { recordAction } from '../accounts/actions';
import { User } from '../accounts/user.entity';
import type { Anime } from '../catalog/anime.entity';
import { findTitleBySlug } from '../catalog/catalog.service';
import { requireScopes, type Viewer } from '../common/auth/session';
import { AppError } from '../common/errors/app-error';
import type { ListEntry } from './list-entry.entity';
import { moveNativeScore } from './native-score.service';
import { WatchEntry } from './watch-entry.entity';
import type { WatchEntryInput } from './watch.types';

// ---------------------------------------------------------------------------
// Rules shared by watch and read entries (§3.4 applies "date rules, replacement,
// creation and completion rules as for watch entries").

/** The body fields every list entry has. */
export interface ListEntryInput {
  note?: string | null;
  score?: number;
  start_date?: number | null;
  end_date?: number | null;
}

const dateOf = (seconds: number | null): Date | null => (seconds === null ? null : new Date(seconds * 1000));

/**
 * Applies the fields every list entry shares, with the entry's creation and
 * completion rules (§3.3), at time `at`.
 *
 * Reading of the spec where it is open:
 * - `note` and `score` are replaced like every other visible field: omitted → null / 0.
 * - `start_date` and `end_date` are replaced when the body gives them (a number, or
 *   null to clear); when omitted, the stored dates are kept. The body table gives
 *   them no default, responses never show them (so a REST client cannot send them
 *   back), and "no *stored* `end_date`" only means something if dates survive a PUT
 *   that does not mention them.
 * - Creation sets `start_date` to now unless the body gives one: a client's own
 *   start date (checked against its `end_date` by validation) wins over the default,
 *   which would otherwise break the order that validation guarantees.
 * - Completion: status `completed` with no `end_date` after applying the body sets
 *   `end_date` to now; an earlier completion date is kept.
 */
export function applyListEntryInput(
  entry: ListEntry,
  input: ListEntryInput,
  { created, completed, at }: { created: boolean; completed: boolean; at: Date },
): void {
  entry.note = input.note ?? null;
  entry.score = input.score ?? 0;
  if (input.start_date !== undefined) entry.start_date = dateOf(input.start_date);
  if (input.end_date !== undefined) entry.end_date = dateOf(input.end_date);
  if (created && entry.start_date === null) entry.start_date = at;
  if (completed && entry.end_date === null) entry.end_date = at;
  entry.updated = at;
}

/** A comparable copy of an entry's stored fields, to tell whether a write changed anything. */
export function entryState(entry: ListEntry, fields: readonly string[]): string {
  const values = fields.map((field) => {
    const value = (entry as unknown as Record<string, unknown>)[field];
    return value instanceof Date ? value.getTime() : (value ?? null);
  });
  return JSON.stringify(values);
}

/**
 * Sets the caller's list change time (§6.4 User `updated`). As the transaction's
 * first write it also locks the user's row, so that concurrent writes to one user's
 * lists run one after another (no duplicate entries, no lost score deltas).
 */
export async function touchLists(em: EntityManager, viewer: Viewer, at: Date): Promise<void> {
  await em.nativeUpdate(User, { reference: viewer.user.reference }, { lists_updated: at });
}

// ---------------------------------------------------------------------------
// Watch entries (§3.3).

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
