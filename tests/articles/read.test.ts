import { Comment } from '../../src/comments/comment.entity';
import { seedDemoArticles } from '../../src/articles/demo-articles';
import { SeededRandom } from '../../src/import/demo-catalog';
import { Article, Attachment } from '../../src/articles/article.entity';
import { ActionRecord } from '../../src/accounts/action-record.entity';
import { buildAnime, buildToken, buildUser } from '../factories';
import { rest } from '../setup/clients';
import { useTestApp } from '../setup/harness';
import { asList, type Json } from '../setup/json';
import { articleBody, buildArticle, buildAttachment } from './helpers';

/** §3.8 GET / DELETE /articles/{slug} and POST /articles. */
const t = useTestApp();

async function caller(role: 'user' | 'moderator' | 'admin' = 'user') {
  const user = await buildUser(t.orm, { role });
  return { user, as: { token: await buildToken(t.orm, user) } };
}

describe('GET /articles/{slug}', () => {
  it('answers drafts too and counts each successful view', async () => {
    const { user } = await caller();
    const article = await buildArticle(t.orm, user, { draft: true });
    expect((await rest(t.app, 'GET', `/articles/${article.slug}`)).body.views).toBe(1);
    expect((await rest(t.app, 'GET', `/articles/${article.slug}`)).body.views).toBe(2);
    expect((await rest(t.app, 'GET', `/articles/${article.slug.toUpperCase()}`)).status).toBe(404);
    expect((await t.orm.em.fork().findOneOrFail(Article, { slug: article.slug })).views).toBe(2);
  });

  it('shows my_score and is_followed for the caller', async () => {
    const { user, as } = await caller();
    const article = await buildArticle(t.orm, user);
    await rest(t.app, 'PUT', `/vote/article/${article.slug}`, { score: -1 }, as);
    const res = await rest(t.app, 'GET', `/articles/${article.slug}`, undefined, as);
    expect(res.body.my_score).toBe(-1);
    expect(res.body.vote_score).toBe(-1);
    expect((await rest(t.app, 'GET', `/articles/${article.slug}`)).body.my_score).toBe(0);
  });
});

describe('DELETE /articles/{slug}', () => {
  it('soft-deletes: tags −1, images detached and marked, comments private, action recorded', async () => {
    const { user, as } = await caller();
    const { attachment, url } = await buildAttachment(t.orm, user);
    const created = await rest(
      t.app,
      'POST',
      '/articles/create',
      articleBody({
        tags: ['abc'],
        document: [{ type: 'image_group', children: [{ type: 'image', url, children: [] }] }],
      }),
      as,
    );
    const slug = created.body.slug as string;
    const article = await t.orm.em.fork().findOneOrFail(Article, { slug });
    const em = t.orm.em.fork();
    em.create(Comment, {
      author: user.reference,
      content_type: 'article',
      content_reference: article.reference,
      text: 'hi',
      preview: { title: null, image: null, slug },
    } as never);
    await em.flush();
    const res = await rest(t.app, 'DELETE', `/articles/${slug}`, undefined, as);
    expect(res.body).toEqual({ success: true });
    const fresh = t.orm.em.fork();
    expect((await fresh.findOneOrFail(Article, { slug })).deleted).toBe(true);
    expect(await fresh.findOneOrFail(Attachment, { reference: attachment.reference })).toMatchObject({
      article: null,
      marked_for_deletion: true,
    });
    expect((await fresh.findOneOrFail(Comment, { content_reference: article.reference })).private).toBe(true);
    expect(await fresh.count(ActionRecord, { type: 'article_delete' })).toBe(1);
    expect((await rest(t.app, 'GET', `/articles/${slug}`)).status).toBe(404);
    expect((await rest(t.app, 'DELETE', `/articles/${slug}`, undefined, as)).body.code).toBe(
      'articles:not_found',
    );
  });

  it('a non-author needs article:delete_moderator (admins only)', async () => {
    const { user } = await caller();
    const article = await buildArticle(t.orm, user);
    for (const role of ['user', 'moderator'] as const) {
      const other = await caller(role);
      const res = await rest(t.app, 'DELETE', `/articles/${article.slug}`, undefined, other.as);
      expect([res.status, res.body.code]).toEqual([403, 'permission:denied']);
    }
    const admin = await caller('admin');
    expect((await rest(t.app, 'DELETE', `/articles/${article.slug}`, undefined, admin.as)).status).toBe(200);
  });
});

describe('POST /articles', () => {
  it('lists published, non-system, non-deleted articles, newest first, with preview', async () => {
    const { user, as } = await caller();
    const old = await buildArticle(t.orm, user, { created: new Date('2020-01-01') });
    const recent = await buildArticle(t.orm, user, { created: new Date('2021-01-01') });
    await buildArticle(t.orm, user, { draft: true });
    await buildArticle(t.orm, user, { category: 'system' });
    await buildArticle(t.orm, user, { deleted: true });
    const res = await rest(t.app, 'POST', '/articles', {});
    expect(res.body.pagination).toEqual({ total: 2, pages: 1, page: 1 });
    const list = asList(res.body.list);
    expect(list.map((item) => item.slug)).toEqual([recent.slug, old.slug]);
    expect(list[0]).toHaveProperty('preview');
    expect(list[0]).not.toHaveProperty('document');
    const drafts = await rest(t.app, 'POST', '/articles', { draft: true }, as);
    expect(drafts.body.pagination.total).toBe(1);
    expect((await rest(t.app, 'POST', '/articles', { draft: true })).body.pagination.total).toBe(0);
  });

  it('filters: author (404 when unknown), categories, min_vote_score with show_trusted, query, sort', async () => {
    const { user } = await caller();
    const a = await buildArticle(t.orm, user, {
      title: 'Frieren review',
      vote_score: 5,
      category: 'reviews',
    });
    const b = await buildArticle(t.orm, user, { title: 'News', trusted: true });
    expect((await rest(t.app, 'POST', '/articles', { author: 'nobody_here' })).body.code).toBe(
      'articles:author_not_found',
    );
    const slugs = async (body: object) =>
      asList((await rest(t.app, 'POST', '/articles', body)).body.list).map((item) => item.slug);
    expect(await slugs({ author: user.username.toUpperCase(), categories: ['reviews'] })).toEqual([a.slug]);
    expect((await slugs({ min_vote_score: 3 })).sort()).toEqual([a.slug, b.slug].sort());
    expect(await slugs({ min_vote_score: 3, show_trusted: false })).toEqual([a.slug]);
    expect(await slugs({ query: 'frieren' })).toEqual([a.slug]);
    expect(await slugs({ sort: ['vote_score:asc'] })).toEqual([b.slug, a.slug]);
    expect((await rest(t.app, 'POST', '/articles', { sort: ['views:asc'] })).body.message).toBe(
      'Invalid field sort in request body',
    );
  });

  it('size=20 sends as many queries as size=1 (authors, tags, content and my_score batched)', async () => {
    const anime = await buildAnime(t.orm);
    for (let i = 0; i < 20; i += 1) {
      await buildArticle(t.orm, await buildUser(t.orm), {
        content_type: 'anime',
        content_reference: anime.reference,
      });
    }
    const { as } = await caller();
    const count = async (size: number) => {
      let list: Json[] = [];
      const queries = await t.queries.count(async () => {
        list = asList((await rest(t.app, 'POST', `/articles?size=${size}`, {}, as)).body.list);
      });
      expect(list).toHaveLength(size);
      expect(list.every((item) => (item.content as Json).slug === anime.slug)).toBe(true);
      return queries;
    };
    await count(1); // the token's first use writes
    expect(await count(20)).toBe(await count(1));
  });
});

describe('seedDemoArticles', () => {
  it('creates articles and votes through the services, once', async () => {
    for (let i = 0; i < 4; i += 1) await buildUser(t.orm);
    const em = t.orm.em.fork();
    const result = await seedDemoArticles(em, new SeededRandom(1));
    expect(result.articles).toBe(4);
    expect(result.votes).toBeGreaterThan(0);
    expect((await rest(t.app, 'POST', '/articles', {})).body.pagination.total).toBe(3);
    expect(await seedDemoArticles(t.orm.em.fork(), new SeededRandom(1))).toEqual({ articles: 0, votes: 0 });
  });
});
