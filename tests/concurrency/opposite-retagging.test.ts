import { buildToken, buildUser } from '../factories';
import { rest } from '../setup/clients';
import { useTestApp } from '../setup/harness';
import { articleBody, tagCounts } from '../articles/helpers';

// Bursts of concurrent requests: slow on a loaded machine, bounded all the same.
jest.setTimeout(120_000);

const t = useTestApp();

/**
 * Issue 21 item 2: articles re-tagged at once in opposite directions (X→Y and Y→X) move
 * the same tag counters in opposite orders. Each update must succeed (a deadlock is
 * prevented, or its transaction run again), and the counters must stay exact.
 */
describe('articles re-tagged at once in opposite directions', () => {
  it('answers every update and keeps each tag count equal to its articles', async () => {
    const author = await buildUser(t.orm);
    const token = await buildToken(t.orm, author);
    const save = (slug: string | undefined, tag: string) =>
      slug
        ? rest(t.app, 'PUT', `/articles/${slug}`, articleBody({ tags: [tag, 'shared'], draft: false }), {
            token,
          })
        : rest(t.app, 'POST', '/articles/create', articleBody({ tags: [tag, 'shared'], draft: false }), {
            token,
          });
    const pairs: { x: string; y: string }[] = [];
    for (let i = 0; i < 5; i += 1) {
      const x = await save(undefined, 'tagx');
      const y = await save(undefined, 'tagy');
      expect([x.status, y.status]).toEqual([200, 200]);
      pairs.push({ x: x.body.slug, y: y.body.slug });
    }

    const statuses: number[] = [];
    for (let round = 0; round < 8; round += 1) {
      // Even rounds swap X→Y and Y→X; odd rounds swap them back.
      const [first, second] = round % 2 === 0 ? ['tagy', 'tagx'] : ['tagx', 'tagy'];
      const responses = await Promise.all(pairs.flatMap(({ x, y }) => [save(x, first), save(y, second)]));
      statuses.push(...responses.map((response) => response.status));
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expect(await tagCounts(t.orm)).toEqual({ tagx: 5, tagy: 5, shared: 10 });
  });
});
