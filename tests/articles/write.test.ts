import crypto from 'node:crypto';
import { ActionRecord } from '../../src/accounts/action-record.entity';
import type { User } from '../../src/accounts/user.entity';
import { Article, Attachment } from '../../src/articles/article.entity';
import { isValidDocument, buildPreview } from '../../src/articles/document';
import { slugBase, generateSlug } from '../../src/articles/slug';
import { restRoutes } from '../../src/routes';
import { buildAnime, buildClient, buildManga, buildToken, buildUser } from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { useTestApp } from '../setup/harness';
import { asObject, type Json } from '../setup/json';
import {
  articleBody,
  articleTables,
  buildArticle,
  buildAttachment,
  recordActions,
  tagCounts,
} from './helpers';

/** #4 PUT /articles/{slug} and #5 POST /articles/create. */
const t = useTestApp();

const create = (body: unknown, options: CallOptions) =>
  rest(t.app, 'POST', '/articles/create', body, options);
const update = (slug: string, body: unknown, options: CallOptions) =>
  rest(t.app, 'PUT', `/articles/${slug}`, body, options);

async function caller(role: User['role'] = 'user', o: Partial<User> = {}) {
  const user = await buildUser(t.orm, { role, ...o });
  return { user, as: { token: await buildToken(t.orm, user) } };
}

const invalid = (name: string) => ({
  code: 'system:validation_error',
  message: `Invalid field ${name} in request body`,
});

const p = (text: string) => ({ type: 'p', children: [{ text }] });

/** Nodes nested `depth` levels deep (a chain of blockquotes ending in a text node). */
function nested(depth: number): unknown {
  let node: unknown = { text: 'deep' };
  for (let level = 1; level < depth; level += 1) node = { type: 'blockquote', children: [node] };
  return node;
}

describe('#5 POST /articles/create', () => {
  it('creates the article: slug, defaults, tags in order with counts, action recorded', async () => {
    const { user, as } = await caller();
    const res = await create(articleBody({ tags: ['манга', 'anime', 'манга'] }), as);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      data_type: 'article',
      title: 'Interesting title',
      category: 'original',
      draft: true,
      trusted: false,
      vote_score: 0,
      views: 0,
      comments_count: 0,
      my_score: 0,
      content: null,
      tags: [
        { name: 'манга', content_count: 1 },
        { name: 'anime', content_count: 1 },
      ],
      document: [p('Hello world')],
    });
    expect(res.body.slug).toMatch(/^interesting-title-[0-9a-f]{6}$/);
    expect(asObject(res.body.author)).toMatchObject({ username: user.username, is_followed: false });
    expect(res.body.created).toBe(res.body.updated);
    const actions = await t.orm.em.fork().find(ActionRecord, { user: user.reference });
    expect(actions.map((a) => a.type)).toEqual(['article_create']);
  });

  it('reads what the write needs in one round trip with the user row locked, writes the article, its tag links and its action record in one statement, and the tag counts after it in the same round trip; the answer looks nothing up', async () => {
    const { as } = await caller();
    await create(articleBody({ tags: ['anime'] }), as); // the token's first use slides its expiry
    const kinds = await t.queries.kinds(
      async () => expect((await create(articleBody({ tags: ['anime', 'manga'] }), as)).status).toBe(200),
      (statement) => {
        if (statement.includes('from "user" where reference')) return 'user, locked';
        if (statement.includes('from action_record')) return 'rate count';
        if (statement.includes('from tag where name')) return 'tags';
        if (statement.includes('from "article"')) return 'slug taken';
        if (statement.startsWith('with delta'))
          return statement.includes('for no key update') ? 'tag counts locked' : 'tag counts';
        if (statement.startsWith('with written as (insert into article')) return 'article, links, action';
        return undefined;
      },
    );
    expect(kinds).toEqual([
      'token',
      'begin+user, locked+rate count+tags+slug taken',
      'insert', // the new tag `manga`
      'tags',
      'article, links, action+tag counts locked+tag counts',
      'commit',
    ]);
  });

  it('gives a fresh slug when the random suffix of the first one is taken', async () => {
    const { as } = await caller();
    const first = await create(articleBody({ title: 'Same title' }), as);
    const suffix = Buffer.from(String(first.body.slug).slice(-6), 'hex');
    // The next article's first candidate is the first one's slug.
    const random = jest.spyOn(crypto, 'randomBytes').mockImplementationOnce(() => suffix);
    try {
      const second = await create(articleBody({ title: 'Same title' }), as);
      expect(second.status).toBe(200);
      expect(second.body.slug).toMatch(/^same-title-[0-9a-f]{6}$/);
      expect(second.body.slug).not.toBe(first.body.slug);
    } finally {
      random.mockRestore();
    }
  });

  it('answers exactly the contract Article keys', async () => {
    const { as } = await caller();
    const res = await create(articleBody(), as);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'data_type',
        'title',
        'slug',
        'category',
        'author',
        'tags',
        'created',
        'updated',
        'comments_count',
        'vote_score',
        'my_score',
        'views',
        'trusted',
        'draft',
        'content',
        'document',
      ].sort(),
    );
  });

  it('attaches catalog content; manga title_ja is its title_original', async () => {
    const { as } = await caller();
    await buildManga(t.orm, {
      slug: 'berserk',
      title_original: 'ベルセルク',
      title_en: 'Berserk',
      image: '/b.jpg',
    });
    const res = await create(articleBody({ content: { content_type: 'manga', slug: 'berserk' } }), as);
    expect(res.body.content).toEqual({
      data_type: 'manga',
      image: expect.stringMatching(/\/b\.jpg$/),
      title_en: 'Berserk',
      title_ua: null,
      slug: 'berserk',
      title_ja: 'ベルセルク',
    });
  });

  it('404 content:not_found for an unknown or wrongly cased content slug, nothing written', async () => {
    const { as } = await caller();
    await buildAnime(t.orm, { slug: 'frieren' });
    const before = await articleTables(t.orm);
    const res = await create(articleBody({ content: { content_type: 'anime', slug: 'Frieren' } }), as);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('content:not_found');
    expect(await articleTables(t.orm)).toEqual(before);
  });

  describe('validation (every violation reports its top-level field)', () => {
    const cases: [string, Json][] = [
      ['title', { title: 'ab' }],
      ['title', { title: 'x'.repeat(256) }],
      ['document', { document: [] }],
      ['document', { document: [{ type: 'unknown', children: [] }] }],
      ['document', { document: [{ type: 'p', children: [{ text: 'x', extra: 1 }] }] }],
      ['document', { document: [{ type: 'p', children: [], id: 3 }] }],
      ['document', { document: [{ type: 'h3', children: [{ text: 'a' }, { text: 'b' }] }] }],
      ['document', { document: [{ type: 'ul', children: [p('not li')] }] }],
      ['document', { document: [{ type: 'ul', children: [{ type: 'li', children: [p('not lic')] }] }] }],
      ['document', { document: [{ type: 'video', url: 'https://vimeo.com/1', children: [] }] }],
      ['document', { document: [{ type: 'image', url: 'https://cdn.test/a.jpg', children: [] }] }],
      [
        'document',
        {
          document: [
            {
              type: 'image_group',
              children: Array.from({ length: 5 }, (_, i) => ({
                type: 'image',
                url: `https://x.test/${i}`,
                children: [],
              })),
            },
          ],
        },
      ],
      ['document', { document: [{ type: 'a', url: 'x', target: '_new', children: [] }] }],
      [
        'document',
        {
          document: [
            {
              type: 'table',
              children: [{ type: 'tr', children: [{ type: 'td', colSpan: 0, children: [] }] }],
            },
          ],
        },
      ],
      ['document', { document: [nested(11)] }],
      ['document', { document: Array.from({ length: 1001 }, () => ({ text: '' })) }],
      ['document', { document: [p('x'.repeat(65536))] }],
      ['content', { content: { content_type: 'person', slug: 'x' } }],
      ['content', { content: { content_type: 'anime', slug: 'x', extra: true } }],
      ['tags', { tags: ['one', 'two', 'three', 'four'] }],
      ['tags', { tags: ['one', 'one', 'one', 'one'] }],
      ['tags', { tags: ['ab'] }],
      ['tags', { tags: ['Anime'] }],
      ['tags', { tags: ['єнот'] }],
      ['tags', { tags: ['объект'] }],
      ['tags', { tags: ["м'ята"] }],
      ['tags', { tags: ['x'.repeat(17)] }],
      ['draft', { draft: 'yes' }],
      ['category', { category: 'blog' }],
      ['trusted', { trusted: 1 }],
      ['extra', { extra: 1 }],
    ];
    it.each(cases.map(([name, override], index) => [name, index, override] as const))(
      '%s (case %i)',
      async (name, _index, override) => {
        const { as } = await caller();
        const res = await create(articleBody(override), as);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(invalid(name));
      },
    );

    it('names the first missing required field in contract order', async () => {
      const { as } = await caller();
      expect((await create({}, as)).body).toEqual(invalid('title'));
      expect((await create({ title: 'abc', document: [p('x')] }, as)).body).toEqual(invalid('tags'));
    });

    it('accepts a document at the limits: depth 10, 1000 nodes, every node kind', async () => {
      const { as } = await caller();
      expect((await create(articleBody({ document: [nested(10)] }), as)).status).toBe(200);
      expect(
        (await create(articleBody({ document: Array.from({ length: 1000 }, () => ({ text: '' })) }), as))
          .status,
      ).toBe(200);
      const every = [
        { type: 'h3', children: [{ text: 'T', bold: true, italic: false }], id: null },
        { type: 'h4', children: [] },
        {
          type: 'blockquote',
          children: [{ type: 'spoiler', children: [{ type: 'spoiler_inline', children: [] }] }],
        },
        { type: 'a', url: '/x', target: '_blank', children: [{ text: 'link' }] },
        { type: 'ol', children: [{ type: 'li', children: [{ type: 'lic', children: [{ text: 'i' }] }] }] },
        { type: 'video', url: 'https://www.youtube.com/watch?v=1', children: [{ text: 'v' }] },
        {
          type: 'table',
          children: [
            {
              type: 'tr',
              children: [
                { type: 'th', children: [], colSpan: 2 },
                { type: 'td', rowSpan: 1, children: [] },
              ],
            },
          ],
        },
      ];
      expect((await create(articleBody({ document: every }), as)).status).toBe(200);
      expect((await create(articleBody({ tags: ['ґанок', 'їжак', 'abc'] }), as)).status).toBe(200);
    });
  });

  describe('permissions', () => {
    it('403 permission:confirm_email for a not-activated account', async () => {
      const { as } = await caller('not_activated');
      expect((await create(articleBody(), as)).body.code).toBe('permission:confirm_email');
    });

    it('403 permission:denied when article:create is withheld', async () => {
      const { as } = await caller('user', { forbidden_actions: ['article:create'] });
      expect((await create(articleBody(), as)).body.code).toBe('permission:denied');
    });

    it('the system category is for admins only (moderators included in the refusal)', async () => {
      for (const role of ['user', 'moderator'] as const) {
        const { as } = await caller(role);
        const res = await create(articleBody({ category: 'system' }), as);
        expect([res.status, res.body.code]).toEqual([403, 'permission:denied']);
      }
      const { as } = await caller('admin');
      expect((await create(articleBody({ category: 'system' }), as)).status).toBe(200);
    });

    it('trusted: true is for admins only; trusted: false is allowed to anyone', async () => {
      const moderator = await caller('moderator');
      expect((await create(articleBody({ trusted: true }), moderator.as)).status).toBe(403);
      expect((await create(articleBody({ trusted: false }), moderator.as)).status).toBe(200);
      const admin = await caller('admin');
      const res = await create(articleBody({ trusted: true }), admin.as);
      expect([res.status, res.body.trusted]).toEqual([200, true]);
    });

    it('a third-party token needs create:article', async () => {
      const { user } = await caller();
      const client = await buildClient(t.orm, await buildUser(t.orm));
      const weak = await buildToken(t.orm, user, { client, scope: ['read:articles'] });
      expect((await create(articleBody(), { token: weak })).body.code).toBe('permission:denied');
      const strong = await buildToken(t.orm, user, { client, scope: ['article'] });
      expect((await create(articleBody(), { token: strong })).status).toBe(200);
    });

    it('requires authentication before validation', async () => {
      const res = await create({ title: 1 }, {});
      expect([res.status, res.body.code]).toEqual([401, 'auth:missing_token']);
    });
  });

  describe('rate limit', () => {
    it('the 12th creation in a clock hour fails with 429; staff are exempt', async () => {
      const { user, as } = await caller();
      await recordActions(t.orm, user, 'article_create', 11);
      const res = await create(articleBody(), as);
      expect([res.status, res.body.code]).toEqual([429, 'system:rate_limit']);

      const { user: other, as: otherAs } = await caller();
      await recordActions(t.orm, other, 'article_create', 10);
      expect((await create(articleBody(), otherAs)).status).toBe(200);

      const { user: mod, as: modAs } = await caller('moderator');
      await recordActions(t.orm, mod, 'article_create', 20);
      expect((await create(articleBody(), modAs)).status).toBe(200);
    });

    it('is checked after the category permission and before the images', async () => {
      const { user, as } = await caller();
      await recordActions(t.orm, user, 'article_create', 11);
      expect((await create(articleBody({ category: 'system' }), as)).status).toBe(403);
      const bad = [
        { type: 'image_group', children: [{ type: 'image', url: 'https://elsewhere.test/a', children: [] }] },
      ];
      expect((await create(articleBody({ document: bad }), as)).status).toBe(429);
    });
  });

  describe('images', () => {
    const group = (...urls: string[]) => [
      { type: 'image_group', children: urls.map((url) => ({ type: 'image', url, children: [] })) },
    ];

    it('attaches the author’s free attachments', async () => {
      const { user, as } = await caller();
      const { attachment, url } = await buildAttachment(t.orm, user);
      const res = await create(articleBody({ document: group(url) }), as);
      expect(res.status).toBe(200);
      const stored = await t.orm.em.fork().findOneOrFail(Attachment, { reference: attachment.reference });
      const article = await t.orm.em.fork().findOneOrFail(Article, { slug: res.body.slug as string });
      expect(stored.article?.reference).toBe(article.reference);
    });

    it('400 articles:duplicate_image_url before bad urls', async () => {
      const { as } = await caller();
      const res = await create(articleBody({ document: group('https://x.test/a', 'https://x.test/a') }), as);
      expect([res.status, res.body.code]).toEqual([400, 'articles:duplicate_image_url']);
    });

    it('400 articles:bad_image_url: foreign host, another user’s, marked, or attached elsewhere', async () => {
      const { user, as } = await caller();
      const stranger = await buildUser(t.orm);
      const other = await buildArticle(t.orm, user);
      const urls = [
        'https://elsewhere.test/uploads/x.jpg',
        (await buildAttachment(t.orm, stranger)).url,
        (await buildAttachment(t.orm, user, { marked_for_deletion: true })).url,
        (await buildAttachment(t.orm, user, { article: other.reference as never })).url,
      ];
      for (const url of urls) {
        const res = await create(articleBody({ document: group(url) }), as);
        expect([res.status, res.body.code]).toEqual([400, 'articles:bad_image_url']);
      }
    });

    it('images are checked before the content look-up', async () => {
      const { as } = await caller();
      const res = await create(
        articleBody({
          document: group('https://elsewhere.test/a'),
          content: { content_type: 'anime', slug: 'none' },
        }),
        as,
      );
      expect(res.body.code).toBe('articles:bad_image_url');
    });
  });
});

describe('#4 PUT /articles/{slug}', () => {
  async function created(o: Record<string, unknown> = {}) {
    const author = await caller();
    const res = await create(articleBody(o), author.as);
    expect(res.status).toBe(200);
    return { ...author, slug: res.body.slug as string, body: res.body as Json };
  }

  it('replaces the editable fields, keeps the slug, and rebuilds tags with counts', async () => {
    const { as, slug, user } = await created({ tags: ['anime', 'manga'] });
    await buildAnime(t.orm, { slug: 'frieren' });
    const res = await update(
      slug,
      articleBody({
        title: 'Нова назва',
        tags: ['manga', 'novel'],
        category: 'news',
        content: { content_type: 'anime', slug: 'frieren' },
        document: [p('changed')],
      }),
      as,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      slug,
      title: 'Нова назва',
      category: 'news',
      draft: true,
      document: [p('changed')],
      tags: [
        { name: 'manga', content_count: 1 },
        { name: 'novel', content_count: 1 },
      ],
    });
    expect(asObject(res.body.content).slug).toBe('frieren');
    expect(await tagCounts(t.orm)).toEqual({ anime: 0, manga: 1, novel: 1 });
    const actions = await t.orm.em
      .fork()
      .find(ActionRecord, { user: user.reference }, { orderBy: { id: 'asc' } });
    expect(actions.map((a) => a.type)).toEqual(['article_create', 'article_update']);
  });

  it("answers the caller's own vote on the article, and 0 without one", async () => {
    const { as, slug } = await created({ tags: ['anime'] });
    expect((await update(slug, articleBody({ tags: ['anime'] }), as)).body.my_score).toBe(0);
    expect((await rest(t.app, 'PUT', `/vote/article/${slug}`, { score: -1 }, as)).status).toBe(200);
    const res = await update(slug, articleBody({ tags: ['manga'] }), as);
    expect(res.body).toMatchObject({ my_score: -1, tags: [{ name: 'manga', content_count: 1 }] });
  });

  it('sends a bounded number of statements, whatever the tags; the author comes with the token, the answer looks nothing up', async () => {
    const { as, slug } = await created({ tags: ['anime'] });
    for (const tags of [['anime'], ['manga', 'novel', 'review'], ['drama', 'isekai']]) {
      const kinds = (
        await t.queries.kinds(
          async () => expect((await update(slug, articleBody({ tags }), as)).status).toBe(200),
          (statement) => (statement.includes('from article a where a.slug') ? 'article, locked' : undefined),
        )
      )
        // The token's first use slides its expiry (src/common/auth/session.ts).
        .filter((kind) => kind !== 'token use');
      const statements = t.queries.last.map((line) => line.replace(/^\[query\] /, ''));
      expect(kinds[0]).toBe('token');
      expect(kinds.filter((kind) => kind.includes('article, locked'))).toHaveLength(1);
      expect(statements.filter((statement) => statement.includes('from "user"'))).toEqual([]);
      // The answer's tags and the caller's vote come from the write: no look-up after it.
      expect(
        statements.filter(
          (statement) =>
            statement.includes('from "vote"') || statement.startsWith('select at.article_reference'),
        ),
      ).toEqual([]);
      // None repeats per tag. One read of the article's tags, the body's tags, its
      // attachments and the rate count, then one write (with the counts' lock and move after
      // it, in its round trip, when tags changed); changed tags add the new ones' insert and look-up.
      const changed = ['insert', 'select', 'with+with+with'];
      expect({ tags, kinds }).toEqual({
        tags,
        kinds: [
          'token',
          'begin+article, locked',
          'select',
          ...(tags.length === 1 ? ['with'] : changed),
          'commit',
        ],
      });
    }
  });

  it('records no action when nothing changed; content null detaches', async () => {
    await buildAnime(t.orm, { slug: 'frieren' });
    const { as, slug, user } = await created({ content: { content_type: 'anime', slug: 'frieren' } });
    await update(slug, articleBody({ content: { content_type: 'anime', slug: 'frieren' } }), as);
    expect(await t.orm.em.fork().count(ActionRecord, { user: user.reference, type: 'article_update' })).toBe(
      0,
    );
    const res = await update(slug, articleBody({ content: null }), as);
    expect(res.body.content).toBeNull();
    expect(await t.orm.em.fork().count(ActionRecord, { user: user.reference, type: 'article_update' })).toBe(
      1,
    );
  });

  it('publishing a draft sets created to now; a published article cannot go back to draft', async () => {
    const { as, slug } = await created();
    const em = t.orm.em.fork();
    await em.nativeUpdate(Article, { slug }, { created: new Date('2020-01-01T00:00:00Z') });
    const published = await update(slug, articleBody({ draft: false }), as);
    expect(published.body.created).toBeGreaterThan(Date.parse('2021-01-01') / 1000);
    const before = await articleTables(t.orm);
    const res = await update(slug, articleBody({ draft: true }), as);
    expect([res.status, res.body.code]).toEqual([400, 'articles:bad_draft']);
    // `draft` defaults to true on update too.
    expect((await update(slug, articleBody({}), as)).body.code).toBe('articles:bad_draft');
    expect(await articleTables(t.orm)).toEqual(before);
  });

  it('a published article keeps its category (400 articles:bad_category); a draft may change it', async () => {
    const { as, slug } = await created();
    expect((await update(slug, articleBody({ category: 'news' }), as)).status).toBe(200);
    await update(slug, articleBody({ category: 'news', draft: false }), as);
    const res = await update(slug, articleBody({ category: 'reviews', draft: false }), as);
    expect([res.status, res.body.code]).toEqual([400, 'articles:bad_category']);
  });

  it('bad_draft is checked before bad_category', async () => {
    const { as, slug } = await created({ draft: false });
    expect((await update(slug, articleBody({ category: 'news', draft: true }), as)).body.code).toBe(
      'articles:bad_draft',
    );
  });

  it('404 articles:not_found for unknown, differently cased or deleted slugs', async () => {
    const { as, slug } = await created();
    expect((await update('nope', articleBody(), as)).body.code).toBe('articles:not_found');
    expect((await update(slug.toUpperCase(), articleBody(), as)).body.code).toBe('articles:not_found');
    await t.orm.em.fork().nativeUpdate(Article, { slug }, { deleted: true });
    expect((await update(slug, articleBody(), as)).status).toBe(404);
  });

  it('only the author or an admin may edit (moderators may not)', async () => {
    const { slug } = await created();
    const stranger = await caller();
    expect((await update(slug, articleBody(), stranger.as)).body.code).toBe('permission:denied');
    const moderator = await caller('moderator');
    expect((await update(slug, articleBody(), moderator.as)).body.code).toBe('permission:denied');
    const admin = await caller('admin');
    expect((await update(slug, articleBody(), admin.as)).status).toBe(200);
  });

  it('existence comes before permission', async () => {
    const { as } = await caller('not_activated');
    expect((await update('nope', articleBody(), as)).body.code).toBe('articles:not_found');
  });

  it('trusted: kept for non-admins, set by admins', async () => {
    const { as, slug } = await created();
    const admin = await caller('admin');
    expect((await update(slug, articleBody({ trusted: true }), admin.as)).body.trusted).toBe(true);
    expect((await update(slug, articleBody({ trusted: false }), as)).body.trusted).toBe(true);
    expect((await update(slug, articleBody({ trusted: true }), as)).status).toBe(403);
    expect((await update(slug, articleBody(), admin.as)).body.trusted).toBe(false);
  });

  it('images: detached ones are marked for deletion, new ones attached', async () => {
    const { user, as } = await caller();
    const first = await buildAttachment(t.orm, user);
    const second = await buildAttachment(t.orm, user);
    const group = (url: string) => [
      { type: 'image_group', children: [{ type: 'image', url, children: [] }] },
    ];
    const res = await create(articleBody({ document: group(first.url) }), as);
    // Re-saving with an image already attached to this article is allowed.
    expect(
      (await update(res.body.slug as string, articleBody({ document: group(first.url) }), as)).status,
    ).toBe(200);
    expect(
      (await update(res.body.slug as string, articleBody({ document: group(second.url) }), as)).status,
    ).toBe(200);
    const em = t.orm.em.fork();
    const a = await em.findOneOrFail(Attachment, { reference: first.attachment.reference });
    const b = await em.findOneOrFail(Attachment, { reference: second.attachment.reference });
    expect([a.article, a.marked_for_deletion]).toEqual([null, true]);
    expect(b.article).not.toBeNull();
  });

  it('the update rate limit: more than 1000 changes this hour → 429', async () => {
    const { as, slug, user } = await created();
    await t.orm.em
      .getConnection()
      .execute(
        `insert into action_record (type, user_reference, created) select 'article_update', ?, now() from generate_series(1, 1001)`,
        [user.reference],
      );
    expect((await update(slug, articleBody(), as)).status).toBe(429);
  });
});

describe('REST ≡ GraphQL', () => {
  const route = (method: string, path: string) =>
    restRoutes.find((r) => r.method === method && r.path === path)!;

  it('#5 and #4 answer the same through both doors, errors included', async () => {
    const { as } = await caller();
    const createRoute = route('POST', '/articles/create');
    const viaRest = await create(articleBody({ tags: ['abc'] }), as);
    const viaGql = await gql(t.app, createRoute.document, { input: articleBody({ tags: ['abc'] }) }, as);
    const gqlArticle = asObject(viaGql.body.data).createArticle as Json;
    const strip = (body: Json) => ({ ...body, slug: '', created: 0, updated: 0, tags: undefined });
    expect(strip(gqlArticle)).toEqual(strip(viaRest.body));

    const updateRoute = route('PUT', '/articles/{slug}');
    const slug = viaRest.body.slug as string;
    const body = articleBody({ title: 'Updated' });
    const restUpdate = await update(slug, body, as);
    const gqlUpdate = await gql(t.app, updateRoute.document, { slug, input: body }, as);
    expect({ ...(asObject(gqlUpdate.body.data).updateArticle as Json), updated: 0 }).toEqual({
      ...restUpdate.body,
      updated: 0,
    });

    const bad = articleBody({ document: [{ type: 'p' }] });
    const restError = await update(slug, bad, as);
    const gqlError = await gql(t.app, updateRoute.document, { slug, input: bad }, as);
    expect(restError.body).toEqual(invalid('document'));
    expect(gqlError.body.errors[0].extensions.code).toBe('system:validation_error');
    expect(gqlError.body.errors[0].message).toBe(restError.body.message);

    const denied = articleBody({ category: 'system' });
    const gqlDenied = await gql(t.app, createRoute.document, { input: denied }, as);
    const restDenied = await create(denied, as);
    expect(gqlDenied.body.errors[0].extensions.code).toBe(restDenied.body.code);
    expect(gqlDenied.body.errors[0].message).toBe(restDenied.body.message);
  });
});

describe('tag content_count', () => {
  it('stays correct through create, update and delete (drafts count)', async () => {
    const { as } = await caller();
    const a = await create(articleBody({ tags: ['one', 'two'] }), as);
    const b = await create(articleBody({ tags: ['two', 'three'], draft: false }), as);
    expect(await tagCounts(t.orm)).toEqual({ one: 1, two: 2, three: 1 });
    await update(a.body.slug as string, articleBody({ tags: ['three', 'one'] }), as);
    expect(await tagCounts(t.orm)).toEqual({ one: 1, two: 1, three: 2 });
    await rest(t.app, 'DELETE', `/articles/${b.body.slug as string}`, undefined, as);
    expect(await tagCounts(t.orm)).toEqual({ one: 1, two: 0, three: 1 });
  });
});

describe('units', () => {
  it('slug: transliteration, cleanup, suffix, collisions, UUID after 5', async () => {
    expect(slugBase('Інтерв’ю з Щукою: Євген!')).toBe('intervyu-z-shchukoyu-yevhen');
    expect(slugBase('  Interesting   title__ ')).toBe('interesting-title');
    expect(slugBase('x'.repeat(300))).toHaveLength(240);
    let calls = 0;
    const slug = await generateSlug(
      'A b',
      async () => ++calls < 3,
      () => 'abcdef',
    );
    expect([slug, calls]).toEqual(['a-b-abcdef', 3]);
    const fallback = await generateSlug('A b', async () => true);
    expect(fallback).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it('document validator limits', () => {
    expect(isValidDocument([nested(10)])).toBe(true);
    expect(isValidDocument([nested(11)])).toBe(false);
  });

  it('preview keeps text until 300 characters and the first media node only', () => {
    const words = 'word '.repeat(100).trim();
    const video = { type: 'video', url: 'https://youtube.com/x', children: [] };
    const preview = buildPreview([video, { ...video, id: '2' }, p(words), p('after')]);
    expect(preview).toHaveLength(2);
    const text = ((preview[1] as Json).children as Json[])[0].text as string;
    expect(text.endsWith('...')).toBe(true);
    expect(text.length).toBeLessThanOrEqual(300);
    expect(buildPreview([p('short'), p('text')])).toEqual([p('short'), p('text')]);
  });
});
