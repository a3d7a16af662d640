import type { MikroORM } from '@mikro-orm/postgresql';
import pino from 'pino';
import { verifyPassword } from '../../src/accounts/passwords';
import { User } from '../../src/accounts/user.entity';
import { generateDemoCatalog, SeededRandom, type DemoCatalogPart } from '../../src/import/demo-catalog';
import { DEMO_PASSWORD, seedDemoData, seedDemoDataIfEmpty } from '../../src/import/demo-data';
import { openTestOrm, resetDatabase } from '../setup/db';
import { testClientSecrets } from '../setup/client-secrets';

const silent = pino({ level: 'silent' });
const NOW = 1_800_000_000;

async function count(orm: MikroORM, sql: string): Promise<number> {
  const [row] = await orm.em
    .getConnection()
    .execute<{ count: number }[]>(`select count(*)::int as count ${sql}`);
  return row.count;
}

const titlesOf = (part: DemoCatalogPart) =>
  (part.anime?.length ?? 0) + (part.manga?.length ?? 0) + (part.novel?.length ?? 0);

/** The parts as one document: each section's records in the order the parts gave them. */
function wholeDocument(parts: Iterable<DemoCatalogPart>): DemoCatalogPart {
  const whole: DemoCatalogPart = {};
  for (const part of parts) {
    for (const [section, records] of Object.entries(part) as [
      keyof DemoCatalogPart,
      Record<string, unknown>[],
    ][]) {
      whole[section] = [...(whole[section] ?? []), ...records];
    }
  }
  return whole;
}

describe('demo data', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const first = [...generateDemoCatalog({ seed: 7, scale: 0.1, now: NOW })];
    expect([...generateDemoCatalog({ seed: 7, scale: 0.1, now: NOW })]).toEqual(first);
    expect(wholeDocument(generateDemoCatalog({ seed: 8, scale: 0.1, now: NOW })).manga?.[0].slug).not.toBe(
      wholeDocument(first).manga?.[0].slug,
    );
  });

  it('comes in parts of at most the given number of titles, the records of one whole document', () => {
    const parts = [...generateDemoCatalog({ seed: 7, scale: 0.1, now: NOW }, 16)];
    const whole = [...generateDemoCatalog({ seed: 7, scale: 0.1, now: NOW }, Infinity)];

    expect(whole).toHaveLength(2);
    expect(titlesOf(whole[1])).toBe(200);
    expect(parts).toHaveLength(1 + Math.ceil(200 / 16));
    expect(Math.max(...parts.map(titlesOf))).toBe(16);
    // The records titles refer to come first; the franchises, which refer to titles, last.
    expect(titlesOf(parts[0])).toBe(0);
    expect(parts.filter((part) => part.franchises)).toEqual([parts[parts.length - 1]]);
    expect(wholeDocument(parts)).toEqual(wholeDocument(whole));
  });

  it('grows with the scale: about 20,000 titles at scale 10', () => {
    let titles = 0;
    for (const part of generateDemoCatalog({ seed: 1, scale: 10, now: NOW })) titles += titlesOf(part);
    expect(titles).toBeGreaterThanOrEqual(20000);
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
    const logged: string[] = [];
    // About 8 s on a quiet 2-core machine; a generous limit for a busy CI runner.
    beforeAll(async () => {
      orm = await openTestOrm();
      await resetDatabase(orm);
      const log = pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line).msg) });
      // Parts of 500 titles: the anime end mid-part, and franchises refer to titles of earlier parts.
      await seedDemoData(orm, log, testClientSecrets(), { titlesPerPart: 500 });
    }, 120000);
    afterAll(() => orm.close());

    it('has every title of every part', async () => {
      expect(
        (await count(orm, 'from anime')) +
          (await count(orm, 'from manga')) +
          (await count(orm, 'from novel')),
      ).toBe(2000);
    });

    it('logs a line per phase with what it wrote', () => {
      const phases = logged.map((line) => /^demo: ([a-z ]+?)(:| in )/.exec(line)?.[1]);
      expect(phases).toEqual([
        'catalog',
        'accounts',
        'list entries',
        'clients',
        'follows',
        'articles',
        'collections',
        'comments',
        'favourites',
        'planner statistics',
      ]);
      expect(logged[0]).toMatch(
        /^demo: catalog: 2,000 titles, 150 people, 300 characters, 30 franchises in \d+\.\d s$/,
      );
      // 53 accounts that are not deleted, 25 anime and 15 manga or novels each.
      expect(logged[2]).toMatch(/^demo: list entries: 1,325 watch entries, 795 read entries in \d+\.\d s$/);
    });

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
        `select sum(b.count) = (select count(*) from read_entry where score > 0 and manga_reference is not null) as matches
           from native_score_baseline b where b.content_type = 'manga'`,
      );
      expect(baseline.matches).toBe(true);
    });

    it('is not loaded again into a database that has data', async () => {
      const before = await count(orm, 'from anime');
      await seedDemoDataIfEmpty(orm, silent, testClientSecrets());
      expect(await count(orm, 'from anime')).toBe(before);
    });

    it('can be loaded again without duplicating accounts or community data', async () => {
      const users = await count(orm, 'from "user"');
      const entries = await count(orm, 'from watch_entry');
      const follows = await count(orm, 'from follow');
      await seedDemoData(orm, silent, testClientSecrets());
      expect(await count(orm, 'from "user"')).toBe(users);
      expect(await count(orm, 'from watch_entry')).toBe(entries);
      expect(await count(orm, 'from follow')).toBe(follows);
    });
  });
});
