import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { User } from '../accounts/user.entity';
import { Anime } from '../catalog/anime.entity';
import type { ReleaseStatus, WatchStatus } from '../common/enums';
import { imageUrl } from '../common/scalars';
import { ADVISORY_LOCKS, tryTransactionLock } from '../db/advisory-locks';
import { WatchEntry } from '../lists/watch-entry.entity';
import { JobCursor } from './notification.entity';
import { notifyAll, type NotificationRequest } from './notify';
import { useOutbox } from '../db/entity-manager';
import type { NotificationBus } from './live/notification-bus';
import { Outbox } from './live/outbox';

/** The job's cursor: the airing time up to which entries have been processed. */
export const NEW_EPISODE_CURSOR = 'new-episodes';

/** Semantics §4: "at least every 5 minutes". */
export const NEW_EPISODE_INTERVAL_MS = 5 * 60 * 1000;

export interface NewEpisodeRun {
  /** False when another instance held the lock, or when this run only started the cursor. */
  ran: boolean;
  /** Airing entries in the window, skipped ones included. */
  processed: number;
  /** Entries that changed their anime. */
  changed: number;
  notified: number;
  /** The window: (from, to]. */
  from: Date | null;
  to: Date;
}

/** The fields a new episode may change; `before` and `after` hold the changed ones. */
interface EpisodeFields {
  episodes_released: number | null;
  status: ReleaseStatus | null;
}

/** An airing entry of the window with what it needs of its anime. */
interface AiringRow {
  reference: string;
  episode: number;
  anime_reference: string;
}

const ALWAYS_NOTIFIED: readonly WatchStatus[] = ['watching'];
/** Notified only when the anime's status changed (semantics §4). */
const NOTIFIED_ON_STATUS_CHANGE: readonly WatchStatus[] = ['planned', 'on_hold'];

/**
 * The episode rules of semantics §4, applied to an anime's current values: an episode
 * above a known total is skipped (null); the released count grows to the episode; the
 * last episode finishes the anime; an announced non-movie becomes ongoing. Returns the
 * new values (equal to the old ones when nothing changes).
 */
export function applyEpisode(
  anime: Pick<Anime, 'episodes_released' | 'episodes_total' | 'status' | 'media_type'>,
  episode: number,
): EpisodeFields | null {
  if (anime.episodes_total !== null && episode > anime.episodes_total) return null;
  let { episodes_released, status } = anime;
  if (episodes_released === null || episodes_released < episode) episodes_released = episode;
  if (episode === anime.episodes_total && status !== 'finished') status = 'finished';
  if (status === 'announced' && anime.media_type !== 'movie') status = 'ongoing';
  return { episodes_released, status };
}

/** `before` and `after` of the changed fields only. */
function changesOf(
  old: EpisodeFields,
  next: EpisodeFields,
): { before: Partial<EpisodeFields>; after: Partial<EpisodeFields> } {
  const before: Partial<EpisodeFields> = {};
  const after: Partial<EpisodeFields> = {};
  if (old.episodes_released !== next.episodes_released) {
    before.episodes_released = old.episodes_released;
    after.episodes_released = next.episodes_released;
  }
  if (old.status !== next.status) {
    before.status = old.status;
    after.status = next.status;
  }
  return { before, after };
}

/**
 * Starts the cursor at `at` unless it exists, so that episodes that aired before the
 * first start (or import) never notify (§7.21). Safe to call from any process.
 */
export async function initNewEpisodeCursor(em: EntityManager, at: Date = new Date()): Promise<void> {
  await em.execute(`insert into job_cursor (name, position) values (?, ?) on conflict (name) do nothing`, [
    NEW_EPISODE_CURSOR,
    at,
  ]);
}

/**
 * The watch entries that may be notified for each of `anime` (any status a change can
 * notify), recipients in reference order, deleted accounts excluded: one query per run.
 */
async function watchersOf(tx: EntityManager, anime: readonly string[]): Promise<Map<string, WatchEntry[]>> {
  const watchers = new Map<string, WatchEntry[]>(anime.map((reference) => [reference, []]));
  if (anime.length === 0) return watchers;
  const entries = await tx.find(
    WatchEntry,
    {
      anime: { $in: [...anime] },
      status: { $in: [...ALWAYS_NOTIFIED, ...NOTIFIED_ON_STATUS_CHANGE] },
      user: { role: { $ne: 'deleted' } },
    },
    { populate: ['user'], orderBy: { user: { reference: 'asc' } } },
  );
  for (const entry of entries) watchers.get(entry.anime.reference)?.push(entry);
  return watchers;
}

/** Users to notify of a change: `watching` always, `planned` and `on_hold` only when the status changed. */
function recipientsOf(watchers: readonly WatchEntry[], statusChanged: boolean): User[] {
  return watchers
    .filter((entry) => statusChanged || ALWAYS_NOTIFIED.includes(entry.status))
    .map((entry) => entry.user);
}

/**
 * One pass of the new-episode job (semantics §4 "New episodes", §7.21), in one
 * transaction: under a transaction-scoped advisory lock (another instance running →
 * nothing happens), it reads the cursor (absent → started at `now`, nothing else),
 * applies the episode rules to every airing entry with `airing_at` in (cursor, now]
 * in airing order, creates the `schedule_anime` notifications of each change, and
 * moves the cursor to `now`.
 */
export async function runNewEpisodeJob(
  orm: MikroORM,
  now: Date = new Date(),
  /** Where the run announces its notifications to live subscriptions, once it commits. */
  live?: { bus: NotificationBus; log: Logger },
): Promise<NewEpisodeRun> {
  const idle = (from: Date | null): NewEpisodeRun => ({
    ran: false,
    processed: 0,
    changed: 0,
    notified: 0,
    from,
    to: now,
  });
  const em = orm.em.fork();
  const afterCommit: (() => void)[] = [];
  if (live) useOutbox(em, new Outbox(live.bus, (effect) => afterCommit.push(effect), live.log));
  const run = await em.transactional(async (tx) => {
    // Held for the run's transaction: one instance runs it at a time (§7.21).
    if (!(await tryTransactionLock(tx, ADVISORY_LOCKS.newEpisodes))) return idle(null);

    const cursor = await tx.findOne(JobCursor, { name: NEW_EPISODE_CURSOR });
    if (!cursor) {
      await initNewEpisodeCursor(tx, now);
      return idle(null);
    }
    const from = cursor.position;
    if (from >= now) return idle(from);

    const rows = await tx.execute<AiringRow[]>(
      `select e.reference, e.episode, e.anime_reference
         from airing_episode e
        where e.airing_at > ? and e.airing_at <= ?
        order by e.airing_at, e.episode, e.reference`,
      [from, now],
    );
    const anime = new Map(
      (
        await tx.find(Anime, {
          reference: { $in: [...new Set(rows.map((row) => row.anime_reference))] },
          deleted: false,
        })
      ).map((title) => [title.reference, title]),
    );

    const watchers = await watchersOf(tx, [...anime.keys()]);

    let changed = 0;
    const requests: NotificationRequest[] = [];
    for (const row of rows) {
      const title = anime.get(row.anime_reference);
      if (!title) continue;
      const next = applyEpisode(title, row.episode);
      if (!next) continue;
      const { before, after } = changesOf(title, next);
      if (Object.keys(after).length === 0) continue;
      Object.assign(title, next);
      changed += 1;
      const data = {
        slug: title.slug,
        image: title.image === null ? null : imageUrl(title.image),
        title_ja: title.title_ja,
        title_en: title.title_en,
        title_ua: title.title_ua,
        media_type: title.media_type,
        before,
        after,
      };
      for (const recipient of recipientsOf(watchers.get(title.reference) ?? [], 'status' in after)) {
        requests.push({
          recipient,
          type: 'schedule_anime',
          initiator: null,
          data,
          eventKey: `schedule:${row.reference}`,
          at: now,
        });
      }
    }
    // One batch for the whole run: each row has its own event key, so nothing is checked across rows.
    const notified = (await notifyAll(tx, requests)).length;
    cursor.position = now;
    return { ran: true, processed: rows.length, changed, notified, from, to: now };
  });
  for (const effect of afterCommit) effect();
  return run;
}

export interface NewEpisodeJob {
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Runs the job now (which starts the cursor on the first start) and then every
 * `intervalMs`, never two runs of this process at once; a failed run is logged and
 * retried at the next tick.
 */
export function startNewEpisodeJob(
  orm: MikroORM,
  log: Logger,
  notifications?: NotificationBus,
  intervalMs: number = NEW_EPISODE_INTERVAL_MS,
): NewEpisodeJob {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const tick = (): void => {
    running = runNewEpisodeJob(orm, new Date(), notifications && { bus: notifications, log })
      .then((run) => {
        if (run.changed > 0) log.info({ newEpisodes: run }, 'new episodes processed');
      })
      .catch((error: unknown) => log.error({ err: error }, 'new-episode job failed'))
      .finally(() => {
        if (!stopped) {
          timer = setTimeout(tick, intervalMs);
          timer.unref();
        }
      });
  };
  tick();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
