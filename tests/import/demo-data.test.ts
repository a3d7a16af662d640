import type { MikroORM } from '@mikro-orm/postgresql';
import pino from 'pino';
import { verifyPassword } from '../../src/accounts/passwords';
import { User } from '../../src/accounts/user.entity';
import { generateDemoCatalog, SeededRandom } from '../../src/import/demo-catalog';
import { DEMO_PASSWORD, seedDemoData, seedDemoDataIfEmpty } from '../../src/import/demo-data';
import { openTestOrm, resetDatabase } from '../setup/db';

const silent = pino({ level: 'silent' });
const NOW = 1_800_000_000;

async function count(orm: MikroORM, sql: string): Promise<number> {
  const [row] = await orm.em
    .getConnection()
    .execute<{ count: number }[]>(`select count(*)::int as count ${sql}`);
  return row.count;
}

describe('demo data', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const first = generateDemoCatalog({ seed: 7, scale: 0.1, now: NOW });
    expect(generateDemoCatalog({ seed: 7, scale: 0.1, now: NOW })).toEqual(first);
    expect(generateDemoCatalog({ seed: 8, scale: 0.1, now: NOW }).manga[0].slug).not.toBe(
      first.manga[0].slug,
    );
  });

  it('grows with the scale: about 20,000 titles at scale 10', () => {
    const large = generateDemoCatalog({ seed: 1, scale: 10, now: NOW });
    expect(large.anime.length + large.manga.length + large.novel.length).toBeGreaterThanOrEqual(20000);
  });

  it('samples as splicing from a copy of the items would, draw for draw', () => {
    const bySplicing = (random: SeededRandom, items: readonly number[], size: number) => {
      const pool = [...items];
      const drawn: number[] = [];
      while (drawn.length < size && pool.length > 0)
        drawn.push(pool.splice(Math.floor(random.next() * pool.length), 1)[0]);
      return drawn;
    };
    for (const [length, size] of [
      [0, 3],
      [1, 1],
      [7, 7],
      [29, 4],
      [1000, 300],
      [4097, 5000],
    ]) {
      const items = Array.from({ length }, (_, i) => i * 10);
      for (const seed of [1, 2, 3]) {
        const random = new SeededRandom(seed);
        const reference = new SeededRandom(seed);
        expect(random.sample(items, size)).toEqual(bySplicing(reference, items, size));
        expect(random.next()).toBe(reference.next());
      }
    }
  });

  describe('loaded into the database', () => {
    let orm: MikroORM;
    // About 8 s on a quiet 2-core machine; a generous limit for a busy CI runner.
    beforeAll(async () => {
      orm = await openTestOrm();
      await resetDatabase(orm);
      await seedDemoDataIfEmpty(orm, silent);
    }, 120000);
    afterAll(() => orm.close());

    it('has an airing schedule in the coming week', async () => {
      const upcoming = await count(
        orm,
        `from airing_episode e join anime a on a.reference = e.anime_reference
          where not a.deleted and e.airing_at between now() and now() + interval '7 days'`,
      );
      expect(upcoming).toBeGreaterThan(0);
    });

    it('has franchises that mix anime, manga and novels', async () => {
      const mixed = await count(
        orm,
        `from franchise f where exists (select 1 from anime a where a.franchise_reference = f.reference)
          and exists (select 1 from manga m where m.franchise_reference = f.reference)
          and exists (select 1 from novel n where n.franchise_reference = f.reference)`,
      );
      expect(mixed).toBeGreaterThan(0);
    });

    it('has people with manga roles, characters in novels and deleted titles', async () => {
      expect(
        await count(
          orm,
          `from credit c join credit_roles r on r.credit_reference = c.reference where c.manga_reference is not null`,
        ),
      ).toBeGreaterThan(0);
      expect(await count(orm, `from appearance where novel_reference is not null`)).toBeGreaterThan(0);
      expect(await count(orm, `from manga where deleted`)).toBeGreaterThan(0);
    });

    it('has demo accounts that sign in with the documented password', async () => {
      const admin = await orm.em.fork().findOneOrFail(User, { username: 'demo_admin' });
      expect(admin.role).toBe('admin');
      expect(await verifyPassword(DEMO_PASSWORD, admin.password_hash)).toBe(true);
    });

    it('has watch and read lists of every status, within the list rules', async () => {
      expect(await count(orm, `from (select distinct status from watch_entry) s`)).toBe(5);
      expect(await count(orm, `from (select distinct status from read_entry) s`)).toBe(5);
      expect(
        await count(
          orm,
          `from watch_entry w join anime a on a.reference = w.anime_reference
            where w.episodes > a.episodes_total
               or w.duration <> coalesce(a.duration, 0) * (w.episodes + coalesce(a.episodes_total, 0) * w.rewatches)`,
        ),
      ).toBe(0);
      expect(
        await count(
          orm,
          `from "user" u where exists (select 1 from watch_entry w where w.user_reference = u.reference) and u.lists_updated is null`,
        ),
      ).toBe(0);
    });

    it('keeps native score figures equal to the list scores', async () => {
      expect(
        await count(
          orm,
          `from anime a left join (select anime_reference, count(*) as v, sum(score) as t from watch_entry
             where score > 0 group by anime_reference) s on s.anime_reference = a.reference
            where a.native_scored_by <> coalesce(s.v, 0) or a.native_score_total <> coalesce(s.t, 0)`,
        ),
      ).toBe(0);
      const [baseline] = await orm.em.getConnection().execute<{ matches: boolean }[]>(
        `select b.count = (select count(*) from read_entry where score > 0 and manga_reference is not null) as matches
           from native_score_baseline b where b.content_type = 'manga'`,
      );
      expect(baseline.matches).toBe(true);
    });

    it('is not loaded again into a database that has data', async () => {
      const before = await count(orm, 'from anime');
      await seedDemoDataIfEmpty(orm, silent);
      expect(await count(orm, 'from anime')).toBe(before);
    });

    it('can be loaded again without duplicating accounts', async () => {
      const users = await count(orm, 'from "user"');
      await seedDemoData(orm, silent);
      expect(await count(orm, 'from "user"')).toBe(users);
    });
  });
});
