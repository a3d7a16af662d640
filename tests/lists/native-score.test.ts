import { nativeScoreSql } from '../../src/catalog/catalog-title.entity';
import { buildAnime, buildManga, buildNovel, buildToken, buildUser } from '../factories';
import { gql, rest } from '../setup/clients';
import { useTestApp } from '../setup/harness';
import { asObject } from '../setup/json';

/**
 * §6.1 native score, kept current by the list entry writes: for a title with `v`
 * scores above 0 of mean S, and C the mean of every score above 0 of its content
 * type, native_score = (v/(v+10))·S + (10/(v+10))·C rounded to 2 decimals, 0 when v < 10.
 */
const t = useTestApp();
const M = 10n;

/**
 * The expected value, computed exactly: (v·S + m·C)/(v + m) = (sum·n + m·total) / ((v + m)·n)
 * for the title's positive scores (`sum` of `v`) and the type's (`total` of `n`), rounded
 * half up to 2 decimals with integer arithmetic.
 */
function expectedNativeScore(title: number[], everyTitle: number[]): number {
  const own = title.filter((score) => score > 0);
  const all = everyTitle.filter((score) => score > 0);
  if (own.length < 10) return 0;
  const sum = BigInt(own.reduce((a, b) => a + b, 0));
  const v = BigInt(own.length);
  const total = BigInt(all.reduce((a, b) => a + b, 0));
  const n = BigInt(all.length);
  const numerator = sum * n + M * total;
  const denominator = (v + M) * n;
  return Number((200n * numerator + denominator) / (2n * denominator)) / 100;
}

type Kind = 'anime' | 'manga' | 'novel';
const pathOf = (kind: Kind, slug: string) => (kind === 'anime' ? `/watch/${slug}` : `/read/${kind}/${slug}`);
const statusOf = (kind: Kind) => (kind === 'anime' ? 'watching' : 'reading');

/** One reader per entry: writes through the API and remembers each reader's score. */
class Readers {
  private readonly scores = new Map<string, { slug: string; score: number }>();

  constructor(private readonly kind: Kind) {}

  async add(slug: string, score: number): Promise<string> {
    const token = await buildToken(t.orm, await buildUser(t.orm));
    await this.set(token, slug, score);
    return token;
  }

  async addAll(slug: string, scores: number[]): Promise<string[]> {
    const tokens: string[] = [];
    for (const score of scores) tokens.push(await this.add(slug, score));
    return tokens;
  }

  async set(token: string, slug: string, score: number): Promise<void> {
    const res = await rest(
      t.app,
      'PUT',
      pathOf(this.kind, slug),
      { status: statusOf(this.kind), score },
      { token },
    );
    expect(res.status).toBe(200);
    this.scores.set(token, { slug, score });
  }

  async remove(token: string): Promise<void> {
    const { slug } = this.scores.get(token)!;
    expect((await rest(t.app, 'DELETE', pathOf(this.kind, slug), undefined, { token })).status).toBe(200);
    this.scores.delete(token);
  }

  of(slug: string): number[] {
    return [...this.scores.values()].filter((entry) => entry.slug === slug).map((entry) => entry.score);
  }

  all(): number[] {
    return [...this.scores.values()].map((entry) => entry.score);
  }

  expected(slug: string) {
    return {
      native_score: expectedNativeScore(this.of(slug), this.all()),
      native_scored_by: this.of(slug).filter((score) => score > 0).length,
    };
  }
}

/** An anime's native figures as served by GET /watch/{slug} (the entry's `anime`), for a caller with an entry. */
async function animeFigures(slug: string, token: string) {
  const res = await rest(t.app, 'GET', `/watch/${slug}`, undefined, { token });
  expect(res.status).toBe(200);
  const { native_score, native_scored_by } = asObject(res.body.anime);
  return { native_score, native_scored_by };
}

/** A manga's native figures as served by #16 and by the GraphQL `manga` query (they must agree). */
async function mangaFigures(slug: string) {
  const res = await rest(t.app, 'GET', `/manga/${slug}`);
  expect(res.status).toBe(200);
  const viaGql = await gql(t.app, '{ manga(slug: "' + slug + '") { native_score native_scored_by } }');
  const figures = { native_score: res.body.native_score, native_scored_by: res.body.native_scored_by };
  expect(viaGql.body.data.manga).toEqual(figures);
  return figures;
}

/** The content type's baseline: the sums over its shards; undefined without any. */
async function baseline(kind: Kind) {
  const rows = await t.orm.em.getConnection().execute(
    `select sum(total)::int as total, sum(count)::int as count from native_score_baseline
        where content_type = ? having count(*) > 0`,
    [kind],
  );
  return rows[0] as { total: number; count: number } | undefined;
}

describe('native score (§6.1)', () => {
  it('anime: equals the formula after 12 scores, C being the mean of every positive anime score', async () => {
    await buildAnime(t.orm, { slug: 'main' });
    await buildAnime(t.orm, { slug: 'other' });
    const readers = new Readers('anime');
    const tokens = await readers.addAll('main', [10, 9, 9, 8, 8, 7, 7, 6, 5, 4, 10, 3]);
    await readers.addAll('other', [2, 3, 1, 1]);

    const expected = readers.expected('main');
    // By hand: S = 86/12, C = 93/16, (86·16 + 10·93) / (22·16) = 6.551…
    expect(expected).toEqual({ native_score: 6.55, native_scored_by: 12 });
    expect(await animeFigures('main', tokens[0])).toEqual(expected);
    const viaGql = await gql(
      t.app,
      '{ watchEntry(slug: "main") { anime { native_score native_scored_by } } }',
      {},
      {
        token: tokens[0],
      },
    );
    expect(viaGql.body.data.watchEntry.anime).toEqual(expected);
  });

  it('is 0 while fewer than 10 entries are scored, and the formula from the 10th on', async () => {
    await buildManga(t.orm, { slug: 'rising' });
    const readers = new Readers('manga');
    await readers.addAll('rising', [9, 9, 9, 9, 9, 9, 9, 9, 8]);
    expect(await mangaFigures('rising')).toEqual({ native_score: 0, native_scored_by: 9 });
    await readers.add('rising', 7);
    expect(await mangaFigures('rising')).toEqual(readers.expected('rising'));
    expect((await mangaFigures('rising')).native_score).toBeGreaterThan(0);
  });

  it('the write that changes the figures already answers them (PUT response `anime`)', async () => {
    await buildAnime(t.orm, { slug: 'fresh' });
    const readers = new Readers('anime');
    await readers.addAll('fresh', [7, 7, 7, 7, 7, 7, 7, 7, 7]);
    const token = await buildToken(t.orm, await buildUser(t.orm));
    const res = await rest(t.app, 'PUT', '/watch/fresh', { status: 'completed', score: 9 }, { token });
    const { native_score, native_scored_by } = asObject(res.body.anime);
    expect({ native_score, native_scored_by }).toEqual({
      native_score: expectedNativeScore([7, 7, 7, 7, 7, 7, 7, 7, 7, 9], [7, 7, 7, 7, 7, 7, 7, 7, 7, 9]),
      native_scored_by: 10,
    });
    expect(native_score).toBeGreaterThan(0);
  });

  it('does not count score 0 entries, in the title or in the mean C', async () => {
    await buildManga(t.orm, { slug: 'scored' });
    await buildManga(t.orm, { slug: 'unscored' });
    const readers = new Readers('manga');
    await readers.addAll('scored', [10, 10, 9, 9, 8, 8, 7, 7, 6, 6, 5]);
    const before = await mangaFigures('scored');
    await readers.addAll('scored', [0, 0, 0]);
    await readers.addAll('unscored', [0, 0]);
    expect(await mangaFigures('scored')).toEqual(before);
    expect(before).toEqual(readers.expected('scored'));
    expect(before.native_scored_by).toBe(11);
    expect(await baseline('manga')).toEqual({ total: 85, count: 11 });
  });

  it('follows score changes and deletions', async () => {
    await buildManga(t.orm, { slug: 'moving' });
    await buildManga(t.orm, { slug: 'beside' });
    const readers = new Readers('manga');
    const tokens = await readers.addAll('moving', [10, 9, 8, 8, 7, 7, 6, 5, 5, 4, 3, 0]);
    const [beside] = await readers.addAll('beside', [6, 2]);
    const check = async () => expect(await mangaFigures('moving')).toEqual(readers.expected('moving'));
    await check();

    await readers.set(tokens[0], 'moving', 1); // 10 → 1
    await check();
    await readers.set(tokens[1], 'moving', 0); // 9 → unscored
    await check();
    await readers.set(tokens[11], 'moving', 10); // unscored → 10
    await check();
    await readers.set(beside, 'beside', 10); // another title's score moves C
    await check();
    await readers.remove(tokens[2]);
    await check();
    await readers.remove(tokens[3]); // 9 scored entries left: 0 again
    expect(await mangaFigures('moving')).toEqual({ native_score: 0, native_scored_by: 9 });
    await readers.remove(tokens[1]); // deleting an unscored entry changes nothing
    expect(await mangaFigures('moving')).toEqual({ native_score: 0, native_scored_by: 9 });
  });

  it('keeps each content type apart: novel scores do not move the manga mean', async () => {
    await buildManga(t.orm, { slug: 'shared-name' });
    await buildNovel(t.orm, { slug: 'shared-name' });
    const manga = new Readers('manga');
    const novels = new Readers('novel');
    await manga.addAll('shared-name', [8, 8, 8, 8, 8, 7, 7, 7, 7, 7]);
    await novels.addAll('shared-name', [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2]);
    expect(await mangaFigures('shared-name')).toEqual(manga.expected('shared-name'));
    expect(await baseline('manga')).toEqual({ total: 75, count: 10 });
    expect(await baseline('novel')).toEqual({ total: 12, count: 11 });

    const [token] = await novels.addAll('shared-name', [3]);
    const res = await rest(t.app, 'GET', '/read/novel/shared-name', undefined, { token });
    const { native_score, native_scored_by } = asObject(res.body.content);
    expect({ native_score, native_scored_by }).toEqual(novels.expected('shared-name'));
  });

  it('concurrent writes keep the figures exact (one user twice at once, many users at once)', async () => {
    await buildAnime(t.orm, { slug: 'busy' });
    const same = await buildToken(t.orm, await buildUser(t.orm));
    const others = await Promise.all(
      Array.from({ length: 6 }, async () => buildToken(t.orm, await buildUser(t.orm))),
    );
    const put = (token: string, score: number) =>
      rest(t.app, 'PUT', '/watch/busy', { status: 'watching', score }, { token });
    const answers = await Promise.all([put(same, 4), put(same, 4), ...others.map((token) => put(token, 8))]);
    expect(answers.map((res) => res.status)).toEqual(Array(8).fill(200));
    const [row] = await t.orm.em
      .getConnection()
      .execute(`select native_scored_by, native_score_total from anime where slug = 'busy'`);
    expect(row).toEqual({ native_scored_by: 7, native_score_total: 4 + 6 * 8 });
    expect(await baseline('anime')).toEqual({ total: 52, count: 7 });
  });

  it('creates the missing baseline row on the first write', async () => {
    await buildAnime(t.orm, { slug: 'first' });
    expect(await baseline('anime')).toBeUndefined(); // emptied by the test reset
    await new Readers('anime').add('first', 6);
    expect(await baseline('anime')).toEqual({ total: 6, count: 1 });
  });

  it('stored figures equal a recount of the entries after mixed writes', async () => {
    const slugs = ['a', 'b', 'c'];
    for (const slug of slugs) await buildAnime(t.orm, { slug });
    const readers = new Readers('anime');
    const tokens: [string, string][] = [];
    for (let i = 0; i < 18; i += 1) {
      const slug = slugs[i % 3];
      tokens.push([await readers.add(slug, (i * 7) % 11), slug]);
    }
    for (let i = 0; i < tokens.length; i += 3) await readers.set(tokens[i][0], tokens[i][1], (i * 5) % 11);
    for (let i = 1; i < tokens.length; i += 4) await readers.remove(tokens[i][0]);

    const connection = t.orm.em.getConnection();
    const titles = await connection.execute(
      `select a.slug, a.native_scored_by, a.native_score_total,
              (select count(*)::int from watch_entry w where w.anime_reference = a.reference and w.score > 0) as count,
              (select coalesce(sum(w.score), 0)::int from watch_entry w where w.anime_reference = a.reference and w.score > 0) as total
         from anime a order by a.slug`,
    );
    for (const row of titles) {
      expect([row.slug, row.native_scored_by, row.native_score_total]).toEqual([
        row.slug,
        row.count,
        row.total,
      ]);
    }
    const [all] = await connection.execute(
      `select count(*)::int as count, coalesce(sum(score), 0)::int as total from watch_entry where score > 0`,
    );
    expect(await baseline('anime')).toEqual({ total: all.total, count: all.count });
  });

  it("reads its type's mean once per statement, not once per title", async () => {
    await buildNovel(t.orm);
    const [{ 'QUERY PLAN': plan }] = await t.orm.em
      .getConnection()
      .execute<{ 'QUERY PLAN': unknown }[]>(
        `explain (verbose, format json) select ${nativeScoreSql('novel', 't')} as score from novel t`,
      );
    const root = (plan as { Plan: Record<string, unknown> }[])[0].Plan;
    const children = (root.Plans as Record<string, unknown>[] | undefined) ?? [];
    // The mean is an init plan, computed once; the scan of the titles computes the formula alone.
    expect(children.map((child) => child['Parent Relationship'])).toEqual(['InitPlan']);
    expect(JSON.stringify(children[0].Output)).toContain('native_score_mean');
    expect(root['Node Type']).toBe('Seq Scan');
    expect(JSON.stringify(root.Output)).not.toMatch(/native_score(_mean|_from)?\(/);
  });
});
