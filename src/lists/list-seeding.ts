import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../accounts/user.entity';
import { READ_STATUSES, WATCH_STATUSES } from '../common/enums';
import type { SeededRandom } from '../import/demo-catalog';
import { recountNativeScores } from './native-score.service';
import { watchDuration } from './watch.service';

const BATCH = 2000;
const DAY_MS = 24 * 60 * 60 * 1000;

interface TitleRow {
  reference: string;
  duration: number | null;
  episodes_total: number | null;
  chapters: number | null;
  volumes: number | null;
}

async function insertRows(em: EntityManager, table: string, rows: Record<string, unknown>[]): Promise<void> {
  const knex = em.getConnection().getKnex();
  for (let i = 0; i < rows.length; i += BATCH) {
    await knex(table)
      .insert(rows.slice(i, i + BATCH))
      .transacting(em.getTransactionContext()!);
  }
}

/**
 * Demo list entries for every account, in bulk but under the rules of the list
 * services: one entry per user and title, episodes within `episodes_total`, the
 * §6.3 duration, start/end dates as a completed entry gets them, and the derived
 * values (native scores, baselines, users' list times) recounted in the same
 * transaction. Users get `perUser.watch` anime and `perUser.read` manga or novels.
 */
export async function seedListEntries(
  em: EntityManager,
  random: SeededRandom,
  perUser: { watch: number; read: number },
): Promise<{ watch: number; read: number }> {
  return em.transactional(async (tx) => {
    const connection = tx.getConnection();
    const users = await tx.find(
      User,
      { role: { $ne: 'deleted' } },
      { fields: ['reference'], orderBy: { username: 'asc' } },
    );
    const titles = (table: string) =>
      connection.execute<TitleRow[]>(
        `select reference, ${table === 'anime' ? 'duration, episodes_total' : 'null as duration, null as episodes_total'},
                ${table === 'anime' ? 'null as chapters, null as volumes' : 'chapters, volumes'}
           from "${table}" where not deleted order by reference`,
      );
    const anime = await titles('anime');
    const manga = await titles('manga');
    const novels = await titles('novel');
    const now = Date.now();
    const watchRows: Record<string, unknown>[] = [];
    const readRows: Record<string, unknown>[] = [];

    for (const user of users) {
      for (const title of random.sample(anime, Math.min(perUser.watch, anime.length))) {
        const status = random.pick(WATCH_STATUSES);
        const total = title.episodes_total;
        const episodes = status === 'completed' && total !== null ? total : random.int(0, total ?? 24);
        const rewatches = status === 'completed' && random.chance(0.1) ? 1 : 0;
        const created = new Date(now - random.int(1, 700) * DAY_MS);
        watchRows.push({
          reference: randomUUID(),
          user_reference: user.reference,
          anime_reference: title.reference,
          status,
          episodes,
          rewatches,
          duration: watchDuration(title, episodes, rewatches),
          score: random.chance(0.7) ? random.int(1, 10) : 0,
          note: random.chance(0.1) ? 'Worth it.' : null,
          start_date: created,
          end_date: status === 'completed' ? new Date(created.getTime() + random.int(1, 60) * DAY_MS) : null,
          created,
          updated: created,
        });
      }
      const readable = [
        ...manga.map((title) => ({ kind: 'manga' as const, title })),
        ...novels.map((title) => ({ kind: 'novel' as const, title })),
      ];
      for (const { kind, title } of random.sample(readable, Math.min(perUser.read, readable.length))) {
        const status = random.pick(READ_STATUSES);
        const created = new Date(now - random.int(1, 700) * DAY_MS);
        readRows.push({
          reference: randomUUID(),
          user_reference: user.reference,
          content_type: kind,
          manga_reference: kind === 'manga' ? title.reference : null,
          novel_reference: kind === 'novel' ? title.reference : null,
          status,
          chapters: random.int(0, title.chapters ?? 50),
          volumes: random.int(0, title.volumes ?? 5),
          rereads: 0,
          score: random.chance(0.7) ? random.int(1, 10) : 0,
          note: null,
          start_date: created,
          end_date: status === 'completed' ? new Date(created.getTime() + random.int(1, 60) * DAY_MS) : null,
          created,
          updated: created,
        });
      }
    }
    await insertRows(tx, 'watch_entry', watchRows);
    await insertRows(tx, 'read_entry', readRows);
    await recountNativeScores(tx);
    await tx.execute(
      `update "user" u set lists_updated = x.latest from (
         select user_reference, max(updated) as latest from (
           select user_reference, updated from watch_entry union all select user_reference, updated from read_entry) e
         group by user_reference) x
        where u.reference = x.user_reference`,
    );
    return { watch: watchRows.length, read: readRows.length };
  });
}
