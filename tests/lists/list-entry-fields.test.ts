import {
  buildAnime,
  buildFranchise,
  buildManga,
  buildNovel,
  buildReadEntry,
  buildToken,
  buildUser,
  buildWatchEntry,
} from '../factories';
import { gql } from '../setup/clients';
import { useTestApp } from '../setup/harness';

// The viewer's entries seen through #13's franchise lists, with their titles resolved in batches.
const QUERY = `query ($slug: String!) {
  franchise(content_type: anime, slug: $slug) {
    anime { watch { status anime { slug } } }
    manga { read { status content { ... on Manga { slug data_type } ... on Novel { slug } } } }
    novel { read { status content { ... on Novel { slug data_type } } } }
  }
}`;

describe('list entry fields', () => {
  const t = useTestApp();

  it('resolve the title of watch and read entries (anime; manga or novel), in a bounded number of queries', async () => {
    const franchise = await buildFranchise(t.orm);
    const user = await buildUser(t.orm);
    const token = await buildToken(t.orm, user);
    const addAnime = async (from: number, to: number) => {
      for (let i = from; i < to; i += 1) {
        await buildWatchEntry(t.orm, user, await buildAnime(t.orm, { franchise, slug: `anime-${i}` }), {
          status: 'completed',
        });
      }
    };
    await addAnime(0, 2);
    const manga = await buildManga(t.orm, { franchise, slug: 'manga-one' });
    const novel = await buildNovel(t.orm, { franchise, slug: 'novel-one' });
    await buildReadEntry(t.orm, user, { manga }, { status: 'planned' });
    await buildReadEntry(t.orm, user, { novel }, { status: 'dropped' });

    let body: { data: { franchise: Record<string, { watch?: unknown[]; read?: unknown[] }[]> } } | undefined;
    const run = () =>
      t.queries.count(async () => {
        body = (await gql(t.app, QUERY, { slug: 'anime-0' }, { token })).body;
      });
    await run(); // the token's first use slides its expiry: one extra write
    const withTwo = await run();
    await addAnime(2, 12);
    const queries = await run();
    const result = body!.data.franchise;
    expect(result.anime.map((a) => a.watch)).toEqual(
      expect.arrayContaining([[{ status: 'completed', anime: { slug: 'anime-3' } }]]),
    );
    expect(result.manga[0].read).toEqual([
      { status: 'planned', content: { slug: 'manga-one', data_type: 'manga' } },
    ]);
    expect(result.novel[0].read).toEqual([
      { status: 'dropped', content: { slug: 'novel-one', data_type: 'novel' } },
    ]);
    expect(result.anime).toHaveLength(12);
    // Every anime, not only one, resolves its entry's title.
    const watched = result.anime.flatMap((a) => a.watch as { anime: { slug: string } }[]);
    expect(watched.map((entry) => entry.anime.slug).sort()).toEqual(
      Array.from({ length: 12 }, (_, i) => `anime-${i}`).sort(),
    );
    expect(withTwo).toBeGreaterThan(0);
    expect(queries).toBe(withTwo);
  });
});
