import { ActionRecord } from '../../src/accounts/action-record.entity';
import { Article } from '../../src/articles/article.entity';
import { Collection } from '../../src/collections/collection.entity';
import { Comment } from '../../src/comments/comment.entity';
import { Notification } from '../../src/notifications/notification.entity';
import { buildToken, buildUser } from '../factories';
import { gql, rest } from '../setup/clients';
import { useTestApp } from '../setup/harness';
import { buildArticle } from '../articles/helpers';

/** §3.6 PUT/GET /vote/{content_type}/{slug}. */
const t = useTestApp();

async function caller(o: { role?: 'user' | 'not_activated' } = {}) {
  const user = await buildUser(t.orm, { role: o.role ?? 'user' });
  return { user, as: { token: await buildToken(t.orm, user) } };
}

const vote = (kind: string, slug: string, body: unknown, as: { token: string }) =>
  rest(t.app, 'PUT', `/vote/${kind}/${slug}`, body, as);

describe('votes', () => {
  it('keeps vote_score the exact sum under concurrent votes and re-votes on one item, in one statement after the lock', async () => {
    const author = await caller();
    const article = await buildArticle(t.orm, author.user);
    const voters = await Promise.all(Array.from({ length: 10 }, () => caller()));
    for (const round of [0, 1]) {
      const answers = await Promise.all(
        voters.map(({ as }, i) =>
          vote('article', article.slug, { score: (i + round) % 3 === 0 ? -1 : 1 }, as),
        ),
      );
      expect(answers.map((res) => res.status)).toEqual(Array(10).fill(200));
    }
    const [row] = await t.orm.em.getConnection().execute<{ vote_score: number; sum: string }[]>(
      `select a.vote_score, (select sum(score) from vote where content_reference = a.reference) as sum
           from article a where a.reference = ?`,
      [article.reference],
    );
    expect(row.vote_score).toBe(Number(row.sum));
    // The second round's votes: three of ten are -1.
    expect(row.vote_score).toBe(4);

    await t.queries.count(() => vote('article', article.slug, { score: 1 }, voters[0].as));
    // The look-up locks the item (its author comes along); the vote, the new sum, the item's
    // vote_score and the action record go in one statement after it.
    const statements = t.queries.last;
    const lock = statements.findIndex((line) => line.includes('for no key update'));
    const write = statements.findIndex((line) => line.includes('insert into vote'));
    expect(lock).toBeGreaterThan(-1);
    expect(statements[lock]).toMatch(/join "user" u on u.reference = i.author_reference where i.slug = /);
    expect(write).toBe(lock + 1);
    expect(statements[write]).toMatch(/update "article" set vote_score/);
    expect(statements[write]).toMatch(/insert into action_record/);
    expect(statements.filter((line) => line.includes('from vote'))).toHaveLength(1);
    expect(statements.filter((line) => line.includes('action_record'))).toHaveLength(1);
    expect(statements.filter((line) => line.includes('from "article"'))).toEqual([statements[lock]]);
  });

  it('upserts; vote_score is the sum; GET answers the caller’s vote; action and notification', async () => {
    const author = await caller();
    const article = await buildArticle(t.orm, author.user);
    const a = await caller();
    const b = await caller();
    expect((await vote('article', article.slug, { score: 1 }, a.as)).body).toEqual({ score: 1 });
    await vote('article', article.slug, { score: 1 }, b.as);
    await vote('article', article.slug, { score: -1 }, a.as);
    const stored = await t.orm.em.fork().findOneOrFail(Article, { reference: article.reference });
    expect(stored.vote_score).toBe(0);
    expect((await rest(t.app, 'GET', `/vote/article/${article.slug}`, undefined, a.as)).body).toEqual({
      score: -1,
    });
    expect((await rest(t.app, 'GET', `/vote/article/${article.slug}`, undefined, author.as)).body.code).toBe(
      'vote:not_found',
    );
    expect(await t.orm.em.fork().count(ActionRecord, { type: 'vote_set' })).toBe(3);
    const notes = await t.orm.em
      .fork()
      .find(Notification, { user: author.user.reference }, { orderBy: { created: 'asc' } });
    expect(notes[0]).toMatchObject({
      notification_type: 'article_vote',
      data: { slug: article.slug, user_score: 1, old_score: 0, new_score: 1, username: a.user.username },
    });
  });

  it('collections: system_ranking follows; a private one is found only by its author', async () => {
    const author = await caller();
    const em = t.orm.em.fork();
    const collection = em.create(Collection, {
      author: author.user.reference,
      title: 'List',
      description: 'A list',
      content_type: 'anime',
      visibility: 'private',
    } as never);
    await em.flush();
    const other = await caller();
    expect((await vote('collection', collection.reference, { score: 1 }, other.as)).body.code).toBe(
      'vote:content_not_found',
    );
    expect(
      (await vote('collection', collection.reference.toUpperCase(), { score: 1 }, author.as)).status,
    ).toBe(200);
    const stored = await t.orm.em.fork().findOneOrFail(Collection, { reference: collection.reference });
    expect([stored.vote_score, stored.system_ranking]).toEqual([1, 1]);
  });

  it('comments: hidden ones are not found; votes update vote_score', async () => {
    const author = await caller();
    const em = t.orm.em.fork();
    const make = (hidden: boolean) =>
      em.create(Comment, {
        author: author.user.reference,
        content_type: 'anime',
        content_reference: author.user.reference,
        text: 'hi',
        hidden,
        preview: { title: null, image: null, slug: 'x' },
      } as never);
    const visible = make(false);
    const hidden = make(true);
    await em.flush();
    const voter = await caller();
    expect((await vote('comment', hidden.reference, { score: 1 }, voter.as)).body.code).toBe(
      'vote:content_not_found',
    );
    expect((await vote('comment', visible.reference, { score: -1 }, voter.as)).status).toBe(200);
    expect((await t.orm.em.fork().findOneOrFail(Comment, { reference: visible.reference })).vote_score).toBe(
      -1,
    );
    const note = await t.orm.em.fork().findOneOrFail(Notification, { user: author.user.reference });
    expect(note).toMatchObject({
      notification_type: 'comment_vote',
      data: {
        slug: 'x',
        content_type: 'anime',
        comment_reference: visible.reference,
        comment_depth: 1,
        comment_text: 'hi',
        base_comment_reference: visible.reference,
        user_score: -1,
        username: null,
        avatar: null,
      },
    });
  });

  it('validation, look-up, then permission', async () => {
    const author = await caller();
    const article = await buildArticle(t.orm, author.user);
    const pending = await caller({ role: 'not_activated' });
    expect((await vote('article', article.slug, { score: 2 }, author.as)).body.message).toBe(
      'Invalid field score in request body',
    );
    expect((await vote('edit', article.slug, { score: 1 }, author.as)).body.message).toBe(
      'Invalid field content_type in request path',
    );
    expect((await vote('article', 'missing', { score: 1 }, pending.as)).body.code).toBe(
      'vote:content_not_found',
    );
    expect((await vote('article', article.slug, { score: 1 }, pending.as)).body.code).toBe(
      'permission:confirm_email',
    );
  });

  it('REST ≡ GraphQL', async () => {
    const author = await caller();
    const article = await buildArticle(t.orm, author.user);
    const res = await gql(
      t.app,
      'mutation($s: String!) { setVote(content_type: article, slug: $s, input: { score: 1 }) { score } }',
      { s: article.slug },
      author.as,
    );
    expect(res.body.data.setVote).toEqual(
      (await vote('article', article.slug, { score: 1 }, author.as)).body,
    );
  });
});
