import type { Knex } from '@mikro-orm/postgresql';
import { SeededRandom } from '../../src/import/demo-catalog';
import { seedDemoListEntries } from '../../src/import/demo-list-entries';
import { buildAnime, buildManga, buildNovel, buildUser } from '../factories';
import { useTestApp } from '../setup/harness';

/** Demo list entries, streamed into their tables in bounded statements. */
const t = useTestApp();

const USERS = 6;
const PER_USER = { watch: 3, read: 2 };

/** Counts its draws, so a test can tell how far generation had got when a statement went out. */
class CountingRandom extends SeededRandom {
  draws = 0;

  override next(): number {
    this.draws += 1;
    return super.next();
  }
}

/** The same users and titles (by name and slug; references are new each time). */
async function community() {
  for (let i = 0; i < USERS; i += 1) await buildUser(t.orm, { username: `member_${i}` });
  await buildUser(t.orm, { username: 'member_gone', role: 'deleted' });
  for (let i = 0; i < 8; i += 1) {
    await buildAnime(t.orm, { slug: `anime-${i}`, episodes_total: 12, duration: 24 });
    await buildManga(t.orm, { slug: `manga-${i}`, chapters: 40, volumes: 4 });
    await buildNovel(t.orm, { slug: `novel-${i}` });
  }
}

/** The list-entry inserts the database answered while `work` ran: rows each, and draws made by then. */
async function listInserts(random: CountingRandom, work: () => Promise<unknown>) {
  const statements: { table: string; rows: number; drawsSoFar: number }[] = [];
  const knex: Knex = t.orm.em.getConnection().getKnex();
  const record = (response: { rowCount?: number | null }, query: { sql: string }) => {
    const table = /^insert into "(watch_entry|read_entry)"/.exec(query.sql)?.[1];
    if (table) statements.push({ table, rows: response.rowCount ?? 0, drawsSoFar: random.draws });
  };
  knex.on('query-response', record);
  try {
    await work();
  } finally {
    knex.off('query-response', record);
  }
  return statements;
}

const entries = async () =>
  t.orm.em.getConnection().execute<{ entry: string }[]>(
    `select u.username || ' ' || a.slug || ' ' || w.status || ' ' || w.episodes || ' ' || w.score as entry
       from watch_entry w join "user" u on u.reference = w.user_reference join anime a on a.reference = w.anime_reference
     union all
     select u.username || ' ' || coalesce(m.slug, n.slug) || ' ' || r.status || ' ' || r.chapters || ' ' || r.score
       from read_entry r join "user" u on u.reference = r.user_reference
       left join manga m on m.reference = r.manga_reference left join novel n on n.reference = r.novel_reference
     order by 1`,
  );

describe('seedDemoListEntries', () => {
  it('inserts the entries in statements of at most the given size, while it is still drawing them', async () => {
    await community();
    const random = new CountingRandom(5);

    const statements = await listInserts(random, () =>
      seedDemoListEntries(t.orm.em.fork(), random, PER_USER, 4),
    );

    const written = (table: string) =>
      statements.filter((s) => s.table === table).reduce((sum, s) => sum + s.rows, 0);
    expect(written('watch_entry')).toBe(USERS * PER_USER.watch);
    expect(written('read_entry')).toBe(USERS * PER_USER.read);
    expect(Math.max(...statements.map((s) => s.rows))).toBeLessThanOrEqual(4);
    // Held rows are bounded only if rows go out as they are made: the first statement
    // leaves before most of the draws (the users after the first two) are made.
    expect(statements[0].drawsSoFar).toBeLessThan(random.draws / 2);
    expect(await t.orm.em.getConnection().execute('select 1 from watch_entry')).toHaveLength(
      USERS * PER_USER.watch,
    );
  });

  it('gives the same entries for a seed, whatever references the titles have', async () => {
    await community();
    await seedDemoListEntries(t.orm.em.fork(), new SeededRandom(5), PER_USER);
    const first = await entries();
    await t.reset();
    await community();
    await seedDemoListEntries(t.orm.em.fork(), new SeededRandom(5), PER_USER);
    expect(await entries()).toEqual(first);
  });

  it('runs once: nothing is added where list entries exist', async () => {
    await community();
    expect(await seedDemoListEntries(t.orm.em.fork(), new SeededRandom(5), PER_USER)).toEqual({
      watch: USERS * PER_USER.watch,
      read: USERS * PER_USER.read,
    });
    expect(await seedDemoListEntries(t.orm.em.fork(), new SeededRandom(6), PER_USER)).toEqual({
      watch: 0,
      read: 0,
    });
  });
});
