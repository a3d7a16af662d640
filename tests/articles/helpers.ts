import type { MikroORM } from '@mikro-orm/postgresql';
import type { RequiredEntityData } from '@mikro-orm/core';
import { ActionRecord } from '../../src/accounts/action-record.entity';
import type { User } from '../../src/accounts/user.entity';
import type { ActionType } from '../../src/common/enums';
import { Article, ArticleTag, Attachment, Tag } from '../../src/articles/article.entity';
import { config } from '../../src/config';

let sequence = 0;

/** A valid #4/#5 body; overrides win. */
export const articleBody = (o: Record<string, unknown> = {}): Record<string, unknown> => ({
  title: 'Interesting title',
  document: [{ type: 'p', children: [{ text: 'Hello world' }] }],
  tags: ['anime'],
  category: 'original',
  ...o,
});

/** An attachment uploaded by `user`, and the URL an image node uses for it. */
export async function buildAttachment(
  orm: MikroORM,
  user: User,
  o: Partial<Attachment> = {},
): Promise<{ attachment: Attachment; url: string }> {
  sequence += 1;
  const em = orm.em.fork();
  const attachment = em.create(Attachment, {
    user: user.reference,
    path: `uploads/image-${sequence}.jpg`,
    marked_for_deletion: false,
    ...o,
  } as unknown as RequiredEntityData<Attachment>);
  await em.flush();
  return { attachment, url: `${config().imageBaseUrl}/${attachment.path}` };
}

/** An article row written directly (for look-up and vote tests). */
export async function buildArticle(orm: MikroORM, author: User, o: Partial<Article> = {}): Promise<Article> {
  sequence += 1;
  const em = orm.em.fork();
  const article = em.create(Article, {
    slug: `article-${sequence}`,
    author: author.reference,
    title: `Article ${sequence}`,
    category: 'original',
    draft: false,
    trusted: false,
    document: [{ type: 'p', children: [{ text: 'x' }] }],
    preview: [{ type: 'p', children: [{ text: 'x' }] }],
    ...o,
  } as unknown as RequiredEntityData<Article>);
  await em.flush();
  return article;
}

/** `count` actions of `type` by `user`, recorded now (to bring the user near an hourly limit). */
export async function recordActions(
  orm: MikroORM,
  user: User,
  type: ActionType,
  count: number,
): Promise<void> {
  const em = orm.em.fork();
  for (let i = 0; i < count; i += 1) {
    em.create(ActionRecord, { type, user: user.reference, created: new Date() } as never);
  }
  await em.flush();
}

/** `{name: content_count}` of every tag. */
export async function tagCounts(orm: MikroORM): Promise<Record<string, number>> {
  const tags = await orm.em.fork().find(Tag, {});
  return Object.fromEntries(tags.map((tag) => [tag.name, tag.content_count]));
}

/** A dump of every article-domain table, to prove a failed write changed nothing. */
export async function articleTables(orm: MikroORM): Promise<unknown> {
  const connection = orm.em.getConnection();
  const dump = async (table: string) => connection.execute(`select * from ${table} order by 1`);
  return {
    article: await dump('article'),
    tag: await dump('tag'),
    article_tag: await dump('article_tag'),
    attachment: await dump('attachment'),
    action_record: await dump('action_record'),
  };
}

export { ArticleTag };
