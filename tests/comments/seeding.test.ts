import { Anime } from '../../src/catalog/anime.entity';
import { Comment } from '../../src/comments/comment.entity';
import { seedDemoComments } from '../../src/comments/comment-seeding';
import { SeededRandom } from '../../src/import/demo-catalog';
import { buildAnime, buildUser } from '../factories';
import { useTestApp } from '../setup/harness';

const t = useTestApp();

it('seedDemoComments writes threaded comments through the service, once', async () => {
  await buildUser(t.orm);
  await buildUser(t.orm);
  const anime = await buildAnime(t.orm);
  const written = await seedDemoComments(t.orm.em.fork(), new SeededRandom(7));
  expect(written).toBeGreaterThan(0);
  const em = t.orm.em.fork();
  expect(await em.count(Comment, {})).toBe(written);
  expect((await em.findOneOrFail(Anime, { reference: anime.reference })).comments_count).toBe(written);
  expect(await seedDemoComments(t.orm.em.fork(), new SeededRandom(7))).toBe(0);
});
