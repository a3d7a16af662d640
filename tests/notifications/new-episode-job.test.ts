import { ADVISORY_LOCKS } from '../../src/db/advisory-locks';
import type { RequiredEntityData } from '@mikro-orm/core';
import pino from 'pino';
import type { User } from '../../src/accounts/user.entity';
import { AiringEpisode, Anime } from '../../src/catalog/anime.entity';
import type { WatchStatus } from '../../src/common/enums';
import {
  applyEpisode,
  initNewEpisodeCursor,
  NEW_EPISODE_CURSOR,
  runNewEpisodeJob,
  startNewEpisodeJob,
} from '../../src/notifications/new-episode-job';
import { JobCursor, Notification } from '../../src/notifications/notification.entity';
import { buildAnime, buildUser, buildWatchEntry } from '../factories';
import { openTestOrm } from '../setup/db';
import { startLiveNotifications } from '../../src/notifications/live/notification-feed';
import { useTestApp } from '../setup/harness';

/** The new-episode job (semantics §4 "New episodes", §7.21). */
const t = useTestApp();

const MINUTE = 60 * 1000;
const START = new Date('2026-03-01T12:00:00Z');
const at = (minutes: number) => new Date(START.getTime() + minutes * MINUTE);

async function airing(anime: Anime, episode: number, airingAt: Date): Promise<AiringEpisode> {
  const em = t.orm.em.fork();
  const row = em.create(AiringEpisode, {
    anime: anime.reference,
    episode,
    airing_at: airingAt,
  } as unknown as RequiredEntityData<AiringEpisode>);
  await em.flush();
  return row;
}

/** Starts the cursor at START, as the first run does. */
const started = async () => {
  const run = await runNewEpisodeJob(t.orm, START);
  expect(run.ran).toBe(false);
};

const reload = (anime: Anime) => t.orm.em.fork().findOneOrFail(Anime, { reference: anime.reference });
const notifications = () =>
  t.orm.em.fork().find(Notification, {}, { orderBy: { created: 'asc', data: 'asc' }, populate: ['user'] });
const recipientsOf = async () => (await notifications()).map((n) => n.user.username).sort();
const cursor = async () => (await t.orm.em.fork().findOne(JobCursor, { name: NEW_EPISODE_CURSOR }))?.position;

/** A user watching `anime` with `status`. */
async function watcher(anime: Anime, status: WatchStatus, o: Partial<User> = {}): Promise<User> {
  const user = await buildUser(t.orm, {
    username: `${status}_${Math.random().toString(36).slice(2, 8)}`,
    ...o,
  });
  await buildWatchEntry(t.orm, user, anime, { status });
  return user;
}

describe('the cursor', () => {
  it('starts at the first run’s time, and episodes that aired before never notify', async () => {
    const anime = await buildAnime(t.orm, { status: 'ongoing', episodes_total: 12, episodes_released: 1 });
    await watcher(anime, 'watching');
    await airing(anime, 2, at(-60));
    await airing(anime, 3, at(-1));
    const first = await runNewEpisodeJob(t.orm, START);
    expect(first).toMatchObject({ ran: false, processed: 0 });
    expect(await cursor()).toEqual(START);
    const second = await runNewEpisodeJob(t.orm, at(30));
    expect(second).toMatchObject({ ran: true, processed: 0, changed: 0, notified: 0 });
    expect((await reload(anime)).episodes_released).toBe(1);
    expect(await notifications()).toEqual([]);
  });

  it('processes entries with airing_at in (cursor, now]: not the one at the cursor, the one at now, not later ones', async () => {
    const anime = await buildAnime(t.orm, { status: 'ongoing', episodes_total: 12, episodes_released: 1 });
    await watcher(anime, 'watching');
    await started();
    await airing(anime, 2, START);
    await airing(anime, 3, at(5));
    await airing(anime, 4, at(6));
    const run = await runNewEpisodeJob(t.orm, at(5));
    expect(run).toMatchObject({ ran: true, processed: 1, changed: 1, notified: 1, from: START, to: at(5) });
    expect((await reload(anime)).episodes_released).toBe(3);
    expect(await cursor()).toEqual(at(5));
    // The next run picks up episode 4 once it has aired.
    await runNewEpisodeJob(t.orm, at(10));
    expect((await reload(anime)).episodes_released).toBe(4);
    expect(await notifications()).toHaveLength(2);
  });

  it('never processes an entry twice', async () => {
    const anime = await buildAnime(t.orm, { status: 'ongoing', episodes_total: 12 });
    await watcher(anime, 'watching');
    await started();
    await airing(anime, 1, at(1));
    await runNewEpisodeJob(t.orm, at(5));
    const again = await runNewEpisodeJob(t.orm, at(5));
    expect(again.processed).toBe(0);
    expect(await runNewEpisodeJob(t.orm, at(10))).toMatchObject({ processed: 0 });
    expect(await notifications()).toHaveLength(1);
  });

  it('can be started ahead of the first run (import), and keeps an existing position', async () => {
    await initNewEpisodeCursor(t.orm.em.fork(), at(-30));
    await initNewEpisodeCursor(t.orm.em.fork(), at(100));
    expect(await cursor()).toEqual(at(-30));
    const anime = await buildAnime(t.orm, { status: 'ongoing', episodes_total: 12 });
    await watcher(anime, 'watching');
    await airing(anime, 1, at(-10));
    expect(await runNewEpisodeJob(t.orm, START)).toMatchObject({ ran: true, changed: 1 });
  });
});

describe('the episode rules', () => {
  it.each<[string, Partial<Anime>, number, object | null]>([
    [
      'unknown released count',
      { status: 'ongoing', episodes_total: 12, episodes_released: null },
      1,
      { episodes_released: 1, status: 'ongoing' },
    ],
    [
      'released count below',
      { status: 'ongoing', episodes_total: 12, episodes_released: 3 },
      4,
      { episodes_released: 4, status: 'ongoing' },
    ],
    [
      'released count already there',
      { status: 'ongoing', episodes_total: 12, episodes_released: 5 },
      4,
      { episodes_released: 5, status: 'ongoing' },
    ],
    [
      'last episode',
      { status: 'ongoing', episodes_total: 12, episodes_released: 11 },
      12,
      { episodes_released: 12, status: 'finished' },
    ],
    [
      'last episode of an announced anime',
      { status: 'announced', episodes_total: 1, media_type: 'tv' },
      1,
      { episodes_released: 1, status: 'finished' },
    ],
    [
      'last episode of an announced movie',
      { status: 'announced', episodes_total: 1, media_type: 'movie' },
      1,
      { episodes_released: 1, status: 'finished' },
    ],
    [
      'announced tv',
      { status: 'announced', episodes_total: 12, media_type: 'tv' },
      1,
      { episodes_released: 1, status: 'ongoing' },
    ],
    [
      'announced movie',
      { status: 'announced', episodes_total: null, media_type: 'movie' },
      1,
      { episodes_released: 1, status: 'announced' },
    ],
    [
      'announced, no media type',
      { status: 'announced', episodes_total: null, media_type: null },
      1,
      { episodes_released: 1, status: 'ongoing' },
    ],
    ['above the total', { status: 'ongoing', episodes_total: 12, episodes_released: 12 }, 13, null],
    [
      'unknown total',
      { status: 'ongoing', episodes_total: null, episodes_released: 100 },
      101,
      { episodes_released: 101, status: 'ongoing' },
    ],
    [
      'paused, last episode',
      { status: 'paused', episodes_total: 2, episodes_released: 1 },
      2,
      { episodes_released: 2, status: 'finished' },
    ],
  ])('%s', (_name, anime, episode, expected) => {
    const title = {
      episodes_released: null,
      episodes_total: null,
      status: null,
      media_type: 'tv' as const,
      ...anime,
    };
    expect(applyEpisode(title, episode)).toEqual(expected);
  });
});

describe('a run', () => {
  it('updates the anime and notifies watchers with the schedule_anime data of the changed fields', async () => {
    const anime = await buildAnime(t.orm, {
      slug: 'frieren',
      title_ja: 'フリーレン',
      title_en: 'Frieren',
      title_ua: 'Фрірен',
      image: '/anime/frieren.jpg',
      media_type: 'tv',
      status: 'ongoing',
      episodes_total: 28,
      episodes_released: 4,
    });
    const user = await watcher(anime, 'watching');
    await started();
    await airing(anime, 5, at(1));
    await runNewEpisodeJob(t.orm, at(5));
    const [notification] = await notifications();
    expect(notification.user.reference).toBe(user.reference);
    expect(notification).toMatchObject({
      notification_type: 'schedule_anime',
      initiator_user: null,
      seen: false,
      created: at(5),
      data: {
        slug: 'frieren',
        image: 'https://cdn.test/anime/frieren.jpg',
        title_ja: 'フリーレン',
        title_en: 'Frieren',
        title_ua: 'Фрірен',
        media_type: 'tv',
        before: { episodes_released: 4 },
        after: { episodes_released: 5 },
      },
    });
    expect(Object.keys(notification.data).sort()).toEqual(
      ['after', 'before', 'image', 'media_type', 'slug', 'title_en', 'title_ja', 'title_ua'].sort(),
    );
  });

  it('puts a status change in before and after, with a null image when there is none', async () => {
    const anime = await buildAnime(t.orm, { status: 'announced', media_type: 'tv', episodes_total: 12 });
    await watcher(anime, 'watching');
    await started();
    await airing(anime, 1, at(1));
    await runNewEpisodeJob(t.orm, at(5));
    const [notification] = await notifications();
    expect(notification.data).toMatchObject({
      image: null,
      before: { episodes_released: null, status: 'announced' },
      after: { episodes_released: 1, status: 'ongoing' },
    });
    expect(await reload(anime)).toMatchObject({ episodes_released: 1, status: 'ongoing' });
  });

  it('finishes the anime at its last episode', async () => {
    const anime = await buildAnime(t.orm, { status: 'ongoing', episodes_total: 2, episodes_released: 1 });
    await watcher(anime, 'watching');
    await started();
    await airing(anime, 2, at(1));
    await runNewEpisodeJob(t.orm, at(5));
    expect(await reload(anime)).toMatchObject({ episodes_released: 2, status: 'finished' });
    expect((await notifications())[0].data).toMatchObject({
      before: { episodes_released: 1, status: 'ongoing' },
      after: { episodes_released: 2, status: 'finished' },
    });
  });

  it('keeps an announced movie announced', async () => {
    const anime = await buildAnime(t.orm, { status: 'announced', media_type: 'movie', episodes_total: null });
    await watcher(anime, 'watching');
    await started();
    await airing(anime, 1, at(1));
    await runNewEpisodeJob(t.orm, at(5));
    expect(await reload(anime)).toMatchObject({ episodes_released: 1, status: 'announced' });
    expect((await notifications())[0].data).toMatchObject({
      before: { episodes_released: null },
      after: { episodes_released: 1 },
    });
  });

  it('skips an episode above a known total: no change, no notification', async () => {
    const anime = await buildAnime(t.orm, { status: 'ongoing', episodes_total: 12, episodes_released: 11 });
    await watcher(anime, 'watching');
    await started();
    await airing(anime, 13, at(1));
    const run = await runNewEpisodeJob(t.orm, at(5));
    expect(run).toMatchObject({ processed: 1, changed: 0, notified: 0 });
    expect(await reload(anime)).toMatchObject({ episodes_released: 11, status: 'ongoing' });
    expect(await notifications()).toEqual([]);
  });

  it('notifies nothing when nothing changed (an episode already counted)', async () => {
    const anime = await buildAnime(t.orm, { status: 'ongoing', episodes_total: 12, episodes_released: 6 });
    await watcher(anime, 'watching');
    await started();
    await airing(anime, 5, at(1));
    expect(await runNewEpisodeJob(t.orm, at(5))).toMatchObject({ processed: 1, changed: 0 });
    expect(await notifications()).toEqual([]);
  });

  it('leaves a deleted anime alone', async () => {
    const anime = await buildAnime(t.orm, { status: 'ongoing', episodes_total: 12, deleted: true });
    await watcher(anime, 'watching');
    await started();
    await airing(anime, 1, at(1));
    await runNewEpisodeJob(t.orm, at(5));
    expect((await reload(anime)).episodes_released).toBeNull();
    expect(await notifications()).toEqual([]);
  });

  it('applies several episodes of one anime in airing order, each with its own notification', async () => {
    const anime = await buildAnime(t.orm, { status: 'announced', media_type: 'tv', episodes_total: 3 });
    await watcher(anime, 'watching');
    await started();
    // Inserted out of order: airing time decides.
    await airing(anime, 3, at(3));
    await airing(anime, 1, at(1));
    await airing(anime, 2, at(2));
    const run = await runNewEpisodeJob(t.orm, at(5));
    expect(run).toMatchObject({ processed: 3, changed: 3, notified: 3 });
    const changes = (await notifications()).map((n) => [n.data.before, n.data.after]);
    expect(changes).toEqual(
      expect.arrayContaining([
        [
          { episodes_released: null, status: 'announced' },
          { episodes_released: 1, status: 'ongoing' },
        ],
        [{ episodes_released: 1 }, { episodes_released: 2 }],
        [
          { episodes_released: 2, status: 'ongoing' },
          { episodes_released: 3, status: 'finished' },
        ],
      ]),
    );
    expect(await reload(anime)).toMatchObject({ episodes_released: 3, status: 'finished' });
  });

  describe('recipients by watch status', () => {
    async function scene(anime: Partial<Anime>, episode: number) {
      const title = await buildAnime(t.orm, { media_type: 'tv', ...anime });
      const users: Record<string, User> = {};
      for (const status of ['watching', 'planned', 'on_hold', 'completed', 'dropped'] as const) {
        users[status] = await watcher(title, status, { username: `${status}_user` });
      }
      await buildUser(t.orm, { username: 'no_entry_user' });
      await started();
      await airing(title, episode, at(1));
      await runNewEpisodeJob(t.orm, at(5));
      return users;
    }

    it('only watching when only the released count changed', async () => {
      await scene({ status: 'ongoing', episodes_total: 12, episodes_released: 2 }, 3);
      expect(await recipientsOf()).toEqual(['watching_user']);
    });

    it('watching, planned and on_hold when the status changed', async () => {
      await scene({ status: 'announced', episodes_total: 12 }, 1);
      expect(await recipientsOf()).toEqual(['on_hold_user', 'planned_user', 'watching_user']);
    });

    it('planned and on_hold at the last episode too', async () => {
      await scene({ status: 'ongoing', episodes_total: 3, episodes_released: 2 }, 3);
      expect(await recipientsOf()).toEqual(['on_hold_user', 'planned_user', 'watching_user']);
    });

    it('never users who ignore the type, nor deleted accounts', async () => {
      const anime = await buildAnime(t.orm, { status: 'ongoing', episodes_total: 12 });
      await watcher(anime, 'watching', { username: 'watching_user' });
      await watcher(anime, 'watching', {
        username: 'ignoring_user',
        ignored_notifications: ['schedule_anime'],
      });
      await watcher(anime, 'watching', { username: 'deleted_user', role: 'deleted' });
      await started();
      await airing(anime, 1, at(1));
      await runNewEpisodeJob(t.orm, at(5));
      expect(await recipientsOf()).toEqual(['watching_user']);
    });
  });
});

describe('one instance at a time (advisory lock)', () => {
  it('does nothing while another session holds the lock, and runs after it is released', async () => {
    const anime = await buildAnime(t.orm, { status: 'ongoing', episodes_total: 12 });
    await watcher(anime, 'watching');
    await started();
    await airing(anime, 1, at(1));

    const other = await openTestOrm();
    try {
      const em = other.em.fork();
      await em.transactional(async (tx) => {
        await tx.execute('select pg_advisory_xact_lock(?)', [ADVISORY_LOCKS.newEpisodes]);
        const blocked = await runNewEpisodeJob(t.orm, at(5));
        expect(blocked).toMatchObject({ ran: false, processed: 0 });
      });
    } finally {
      await other.close();
    }
    expect(await cursor()).toEqual(START);
    expect(await notifications()).toEqual([]);
    expect((await reload(anime)).episodes_released).toBeNull();

    expect(await runNewEpisodeJob(t.orm, at(5))).toMatchObject({ ran: true, notified: 1 });
  });

  it('concurrent runs notify once', async () => {
    const anime = await buildAnime(t.orm, { status: 'ongoing', episodes_total: 12 });
    await watcher(anime, 'watching');
    await watcher(anime, 'watching');
    await started();
    await airing(anime, 1, at(1));
    const runs = await Promise.all([1, 2, 3, 4].map(() => runNewEpisodeJob(t.orm, at(5))));
    expect(runs.reduce((sum, run) => sum + run.notified, 0)).toBe(2);
    expect(await notifications()).toHaveLength(2);
  });
});

describe('startNewEpisodeJob', () => {
  it('starts the cursor at once, runs on its interval and stops cleanly', async () => {
    const log = pino({ level: 'silent' });
    const job = startNewEpisodeJob(t.orm, log, undefined, 50);
    try {
      await waitFor(async () => (await cursor()) !== undefined);
      const anime = await buildAnime(t.orm, { status: 'ongoing', episodes_total: 12 });
      await watcher(anime, 'watching');
      await airing(anime, 1, new Date(Date.now() + 20));
      await waitFor(async () => (await notifications()).length === 1);
    } finally {
      await job.stop();
    }
    expect((await notifications())[0].notification_type).toBe('schedule_anime');
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('live subscriptions', () => {
  it('hear of the notifications a run created, once the run committed', async () => {
    const log = pino({ level: 'silent' });
    const listener = await startLiveNotifications(t.orm, undefined, log);
    try {
      const anime = await buildAnime(t.orm, { status: 'ongoing', episodes_total: 12, episodes_released: 1 });
      const user = await watcher(anime, 'watching');
      await started();
      await airing(anime, 2, at(1));
      const received = listener.feed.created(user.reference, () => undefined);
      await runNewEpisodeJob(t.orm, at(5), { bus: listener.bus, log });
      const next = await received.next();
      expect(next.value).toMatchObject({ notification_type: 'schedule_anime', seen: false });
      await received.return?.();
    } finally {
      await listener.feed.close();
    }
  });
});
