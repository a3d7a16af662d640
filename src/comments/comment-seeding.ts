import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuthToken } from '../accounts/auth-token.entity';
import { User } from '../accounts/user.entity';
import { Anime } from '../catalog/anime.entity';
import { Manga } from '../catalog/manga.entity';
import { Novel } from '../catalog/novel.entity';
import type { Viewer } from '../accounts/session';
import type { SeededRandom } from '../import/demo-catalog';
import { Comment } from './comment.entity';
import { writeComment } from './comment.service';

const LINES = [
  'Loved the pacing of this one.',
  'The soundtrack is **amazing**.',
  'Not my cup of tea, but the art is great.',
  'Can anyone recommend something similar?',
  'The ending caught me off guard ||no spoilers||.',
  'Rewatching this every year.',
  'Agreed!',
  'I think the second half is stronger.',
  'Fair point.',
  'Totally.',
];

/** A first-party viewer for writing through the service (no scope checks apply). */
const viewerOf = (user: User): Viewer => ({
  user,
  token: { client: null, scope: [] } as unknown as AuthToken,
});

/**
 * Demo comments on a few demo titles, written through the comment service so that
 * depth, counters, previews, notifications and action records all hold: each title
 * gets a few threads with replies down to depth 5 and the odd review. Runs once:
 * nothing happens when comments exist. Returns how many comments were written.
 */
export async function seedDemoComments(em: EntityManager, random: SeededRandom): Promise<number> {
  if ((await em.count(Comment, {})) > 0) return 0;
  const users = await em.find(User, { role: { $in: ['user', 'moderator', 'admin'] }, banned: false });
  if (users.length === 0) return 0;
  const titles = [
    ...(await em.find(Anime, { deleted: false }, { orderBy: { score: 'desc' }, limit: 4 })).map((t) => ({
      type: 'anime' as const,
      slug: t.slug,
    })),
    ...(await em.find(Manga, { deleted: false }, { orderBy: { score: 'desc' }, limit: 2 })).map((t) => ({
      type: 'manga' as const,
      slug: t.slug,
    })),
    ...(await em.find(Novel, { deleted: false }, { orderBy: { score: 'desc' }, limit: 2 })).map((t) => ({
      type: 'novel' as const,
      slug: t.slug,
    })),
  ];
  let written = 0;
  for (const title of titles) {
    const reviewers = new Set<string>();
    for (let thread = 0; thread < random.int(1, 3); thread += 1) {
      const author = random.pick(users);
      const review = !reviewers.has(author.reference) && random.chance(0.4);
      if (review) reviewers.add(author.reference);
      let parent = await writeComment(em.fork(), viewerOf(author), title.type, title.slug, {
        text: random.pick(LINES),
        ...(review ? { review: { recommended: random.pick(['yes', 'no', 'maybe'] as const) } } : {}),
      });
      written += 1;
      const depth = random.int(1, 5);
      for (let level = 2; level <= depth; level += 1) {
        parent = await writeComment(em.fork(), viewerOf(random.pick(users)), title.type, title.slug, {
          text: random.pick(LINES),
          parent: parent.reference,
        });
        written += 1;
      }
    }
  }
  return written;
}
