import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { READ_STATUSES, WATCH_STATUSES } from '../common/enums';
import { recountNativeScores } from '../lists/native-score.service';
import { watchDuration } from '../lists/watch.service';
import { insertStream, ROWS_PER_STATEMENT, runSql, type Columns, type TableRow } from './bulk-sql';
import type { SeededRandom } from './demo-catalog';

const DAY_MS = 24 * 60 * 60 * 1000;

const ENTRY_TIMES = {
  start_date: 'timestamptz',
  end_date: 'timestamptz',
  created: 'timestamptz',
  updated: 'timestamptz',
} as const;
/** The columns the generated rows fill (smallint columns take the integers on insert). */
const LIST_TABLES = {
  watch_entry: {
    reference: 'uuid',
    user_reference: 'uuid',
    anime_reference: 'uuid',
    status: 'text',
    episodes: 'integer',
    rewatches: 'integer',
    duration: 'integer',
    score: 'integer',
    note: 'text',
    ...ENTRY_TIMES,
  },
  read_entry: {
    reference: 'uuid',
    user_reference: 'uuid',
    content_type: 'text',
    manga_reference: 'uuid',
    novel_reference: 'uuid',
    status: 'text',
    chapters: 'integer',
    volumes: 'integer',
    rereads: 'integer',
    score: 'integer',
    note: 'text',
    ...ENTRY_TIMES,
  },
} as const satisfies Record<string, Columns>;
type ListTable = keyof typeof LIST_TABLES;

interface AnimeTitle {
  reference: string;
  duration: number | null;
  episodes_total: number | null;
}
interface ReadableTitle {
  kind: 'manga' | 'novel';
  reference: string;
  chapters: number | null;
  volumes: number | null;
}

/**
 * The titles a list entry may name. The draws index into them, so they are in slug
 * order (byte order, the same on every server): the generated slugs follow from the
 * seed, where references are random.
 */
export interface ListTitles {
  anime: readonly AnimeTitle[];
  /** Manga, then novels. */
  readable: readonly ReadableTitle[];
}

export interface EntriesPerUser {
  watch: number;
  read: number;
}

/**
 * The demo list entries of `users` (references), generated one at a time as they are
 * pulled: each user gets `perUser.watch` anime and `perUser.read` manga or novels,
 * under the rules of the list services (one entry per user and title, episodes within
 * `episodes_total`, the §6.3 duration, start and end dates as a completed entry gets
 * them). `now` is in milliseconds; entries were created within the 700 days before it.
 */
export function* demoListEntries(
  random: SeededRandom,
  users: readonly string[],
  titles: ListTitles,
  perUser: EntriesPerUser,
  now: number,
): Generator<TableRow<ListTable>> {
  const endOf = (status: string, created: Date) =>
    status === 'completed' ? new Date(created.getTime() + random.int(1, 60) * DAY_MS).toISOString() : null;
  for (const user of users) {
    for (const title of random.sample(titles.anime, Math.min(perUser.watch, titles.anime.length))) {
      const status = random.pick(WATCH_STATUSES);
      const total = title.episodes_total;
      const episodes = status === 'completed' && total !== null ? total : random.int(0, total ?? 24);
      const rewatches = status === 'completed' && random.chance(0.1) ? 1 : 0;
      const created = new Date(now - random.int(1, 700) * DAY_MS);
      yield {
        table: 'watch_entry',
        row: {
          reference: randomUUID(),
          user_reference: user,
          anime_reference: title.reference,
          status,
          episodes,
          rewatches,
          duration: watchDuration(title, episodes, rewatches),
          score: random.chance(0.7) ? random.int(1, 10) : 0,
          note: random.chance(0.1) ? 'Worth it.' : null,
          start_date: created.toISOString(),
          end_date: endOf(status, created),
          created: created.toISOString(),
          updated: created.toISOString(),
        },
      };
    }
    for (const title of random.sample(titles.readable, Math.min(perUser.read, titles.readable.length))) {
      const status = random.pick(READ_STATUSES);
      const created = new Date(now - random.int(1, 700) * DAY_MS);
      yield {
        table: 'read_entry',
        row: {
          reference: randomUUID(),
          user_reference: user,
          content_type: title.kind,
          manga_reference: title.kind === 'manga' ? title.reference : null,
          novel_reference: title.kind === 'novel' ? title.reference : null,
          status,
          chapters: random.int(0, title.chapters ?? 50),
          volumes: random.int(0, title.volumes ?? 5),
          rereads: 0,
          score: random.chance(0.7) ? random.int(1, 10) : 0,
          note: null,
          start_date: created.toISOString(),
          end_date: endOf(status, created),
          created: created.toISOString(),
          updated: created.toISOString(),
        },
      };
    }
  }
}

async function listTitles(em: EntityManager): Promise<ListTitles> {
  const anime = await runSql<AnimeTitle>(
    em,
    'select reference, duration, episodes_total from anime where not deleted order by slug collate "C"',
  );
  const readable = (kind: ReadableTitle['kind']) =>
    runSql<ReadableTitle>(
      em,
      `select '${kind}' as kind, reference, chapters, volumes from ${kind} where not deleted order by slug collate "C"`,
    );
  return { anime, readable: [...(await readable('manga')), ...(await readable('novel'))] };
}

/**
 * Demo list entries for every account that is not deleted, streamed into the tables
 * in statements of `rowsPerStatement` rows (memory stays bounded however many
 * millions there are), with the derived values (native scores, baselines, users'
 * list times) recounted in the same transaction: the entries come all or none. Runs
 * once: nothing happens when list entries exist.
 */
export async function seedDemoListEntries(
  em: EntityManager,
  random: SeededRandom,
  perUser: EntriesPerUser,
  rowsPerStatement = ROWS_PER_STATEMENT,
): Promise<{ watch: number; read: number }> {
  return em.transactional(async (tx) => {
    const [existing] = await runSql<{ found: boolean }>(
      tx,
      'select exists (select 1 from watch_entry) or exists (select 1 from read_entry) as found',
    );
    if (existing.found) return { watch: 0, read: 0 };
    const users = await runSql<{ reference: string }>(
      tx,
      `select reference from "user" where role <> 'deleted' order by username`,
    );
    const entries = demoListEntries(
      random,
      users.map((user) => user.reference),
      await listTitles(tx),
      perUser,
      Date.now(),
    );
    const written = await insertStream(tx, LIST_TABLES, entries, rowsPerStatement);
    await recountNativeScores(tx);
    await tx.execute(
      `update "user" u set lists_updated = x.latest from (
         select user_reference, max(updated) as latest from (
           select user_reference, updated from watch_entry union all select user_reference, updated from read_entry) e
         group by user_reference) x
        where u.reference = x.user_reference`,
    );
    return { watch: written.get('watch_entry') ?? 0, read: written.get('read_entry') ?? 0 };
  });
}
