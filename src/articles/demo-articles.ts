import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuthToken } from '../accounts/auth-token.entity';
import { User } from '../accounts/user.entity';
import { Anime } from '../catalog/anime.entity';
import type { Viewer } from '../accounts/session';
import type { ArticleCategory } from '../common/enums';
import type { SeededRandom } from '../import/demo-catalog';
import { setVote } from '../votes/vote.service';
import { Article } from './article.entity';
import { createArticle } from './article.service';
import type { ArticleInput } from './article.types';

/** A first-party caller for a demo user (a first-party token passes every scope check). */
const demoViewer = (user: User): Viewer => ({
  user,
  token: { client: null, scope: [] } as unknown as AuthToken,
});

const TITLES = [
  'Огляд сезону: що варто подивитися',
  'Why this manga still matters',
  'Новини тижня',
  'Top light novels to read this year',
  'Мої враження від фіналу',
  'A guide for newcomers',
];
const TAGS = ['аніме', 'манґа', 'ранобе', 'огляд', 'новини', 'anime', 'review', 'guide'];
const CATEGORIES: ArticleCategory[] = ['original', 'reviews', 'news'];

const paragraph = (text: string) => ({ type: 'p', children: [{ text }] });

/**
 * Demo articles of the demo users, written through the article service (slugs, tag
 * counts, previews and action records as in production), some published, with votes
 * from other users (vote scores and notifications through the vote service). Runs
 * once: nothing happens when articles exist.
 */
export async function seedDemoArticles(
  em: EntityManager,
  random: SeededRandom,
): Promise<{ articles: number; votes: number }> {
  if ((await em.count(Article, {})) > 0) return { articles: 0, votes: 0 };
  const users = await em.find(
    User,
    { role: { $in: ['user', 'moderator', 'admin'] }, banned: false },
    { orderBy: { username: 'asc' } },
  );
  if (users.length === 0) return { articles: 0, votes: 0 };
  const anime = await em.find(Anime, { deleted: false }, { orderBy: { score: 'desc' }, limit: 10 });
  const authors = random.sample(users, Math.min(6, users.length));
  const articles: Article[] = [];
  for (const [index, author] of authors.entries()) {
    const title = anime.length > 0 && index % 2 === 0 ? random.sample(anime, 1)[0] : null;
    const input: ArticleInput = {
      title: TITLES[index % TITLES.length],
      document: [
        { type: 'h3', children: [{ text: TITLES[index % TITLES.length] }] },
        paragraph('Це демонстраційна стаття. '.repeat(random.int(3, 20)).trim()),
        {
          type: 'ul',
          children: [{ type: 'li', children: [{ type: 'lic', children: [{ text: 'Пункт' }] }] }],
        },
      ],
      content: title ? { content_type: 'anime', slug: title.slug } : null,
      tags: random.sample(TAGS, random.int(0, 3)),
      draft: index === authors.length - 1,
      category: CATEGORIES[index % CATEGORIES.length],
      trusted: false,
    };
    articles.push((await createArticle(em, demoViewer(author), input)).article);
  }
  let votes = 0;
  for (const article of articles) {
    for (const voter of random.sample(users, Math.min(5, users.length))) {
      await setVote(em, demoViewer(voter), 'article', article.slug, random.int(0, 3) === 0 ? -1 : 1);
      votes += 1;
    }
  }
  return { articles: articles.length, votes };
}
