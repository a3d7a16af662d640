import { ActionRecord } from '../../src/accounts/action-record.entity';
import type { User } from '../../src/accounts/user.entity';
import { Anime } from '../../src/catalog/anime.entity';
import { Comment, CommentVersion } from '../../src/comments/comment.entity';
import { imageUrl } from '../../src/common/scalars';
import { Notification } from '../../src/notifications/notification.entity';
import { buildAnime, buildClient, buildPerson, buildToken, buildUser, buildWatchEntry } from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { useTestApp } from '../setup/harness';
import type { Json } from '../setup/json';
import { buildCollection, buildComment } from './helpers';

/** §3.5 comment write, edit and hide. */
const t = useTestApp();

const write = (type: string, slug: string, body: unknown, as: CallOptions) =>
  rest(t.app, 'PUT', `/comments/${type}/${slug}`, body, as);
const edit = (reference: string, body: unknown, as: CallOptions) =>
  rest(t.app, 'PUT', `/comments/${reference}`, body, as);
const hide = (reference: string, as: CallOptions) =>
  rest(t.app, 'DELETE', `/comments/${reference}`, undefined, as);

async function setup() {
  const user = await buildUser(t.orm);
  const as = { token: await buildToken(t.orm, user) };
  const anime = await buildAnime(t.orm, {
    slug: 'frieren',
    title_en: 'Frieren',
    title_ja: 'フリーレン',
    image: '/a.jpg',
  });
  return { user, as, anime };
}

const stored = (reference: string) => t.orm.em.fork().findOneOrFail(Comment, { reference });
const animeRow = (reference: string) => t.orm.em.fork().findOneOrFail(Anime, { reference });
const count = (entity: typeof Comment | typeof CommentVersion | typeof Notification | typeof ActionRecord) =>
  t.orm.em.fork().count(entity as typeof Comment, {});
const tokenOf = async (user: User) => ({ token: await buildToken(t.orm, user) });

/** The whole state a failed write must leave untouched. */
async function snapshot() {
  const connection = t.orm.em.getConnection();
  return {
    comments: await connection.execute(`select * from comment order by reference`),
    counts: await connection.execute(`select reference, comments_count from anime order by reference`),
    notifications: await count(Notification),
    actions: await count(ActionRecord),
  };
}

describe('PUT /comments/{content_type}/{slug}', () => {
  it('writes a top-level comment: Comment response, preview, counters, thread root, action', async () => {
    const { user, as, anime } = await setup();
    const res = await write('anime', 'frieren', { text: '\n\nHello\u2800 world\uFFF4\n' }, as);
    expect(res.status).toBe(200);
    const body = res.body as Json;
    expect(Object.keys(body).sort()).toEqual(
      [
        'data_type',
        'reference',
        'parent',
        'replies',
        'total_replies',
        'depth',
        'created',
        'updated',
        'author',
        'content_type',
        'is_editable',
        'text',
        'vote_score',
        'my_score',
        'preview',
        'hidden',
      ].sort(),
    );
    expect(body).toMatchObject({
      data_type: 'comment',
      parent: null,
      replies: [],
      depth: 1,
      text: 'Hello world',
      content_type: 'anime',
      is_editable: true,
      hidden: false,
      my_score: 0,
      vote_score: 0,
      total_replies: 0,
      preview: { title: 'Frieren', slug: 'frieren', image: imageUrl('/a.jpg') },
    });
    expect((body.author as Json).username).toBe(user.username);
    const comment = await stored(body.reference as string);
    expect(comment.thread_root?.reference).toBe(comment.reference);
    expect((await animeRow(anime.reference)).comments_count).toBe(1);
    const actions = await t.orm.em.fork().find(ActionRecord, { user: user.reference, type: 'comment_write' });
    expect(actions.map((a) => a.target)).toEqual([comment.reference]);
  });

  it('GraphQL writeComment answers the same as REST', async () => {
    const { as } = await setup();
    const res = await gql(
      t.app,
      `mutation($input: WriteCommentInput!) { writeComment(content_type: anime, slug: "frieren", input: $input) { text depth } }`,
      { input: { text: 'Hi' } },
      as,
    );
    expect(res.body.data.writeComment).toEqual({ text: 'Hi', depth: 1 });
  });

  it('replies: depth, parent, total_replies of every ancestor, comment_reply notification', async () => {
    const { as, anime } = await setup();
    const other = await buildUser(t.orm);
    const top = (await write('anime', 'frieren', { text: 'top' }, await tokenOf(other))).body as Json;
    const reply = (await write('anime', 'frieren', { text: 'reply', parent: top.reference }, as))
      .body as Json;
    const deeper = await write('anime', 'frieren', { text: 'deeper', parent: reply.reference }, as);
    expect(deeper.body).toMatchObject({ depth: 3, parent: reply.reference });
    expect((await stored(top.reference as string)).total_replies).toBe(2);
    expect((await stored(reply.reference as string)).total_replies).toBe(1);
    expect((await stored(deeper.body.reference)).thread_root?.reference).toBe(top.reference);
    expect((await animeRow(anime.reference)).comments_count).toBe(3);
    const notes = await t.orm.em.fork().find(Notification, { notification_type: 'comment_reply' });
    // The reply to `other` notifies them; the reply to oneself does not.
    expect(notes).toHaveLength(1);
    expect(notes[0].data).toMatchObject({
      slug: 'frieren',
      content_type: 'anime',
      comment_reference: reply.reference,
      comment_depth: 2,
      comment_text: 'reply',
      base_comment_reference: top.reference,
    });
  });

  it('notifies mentioned users (comment_tag) and a collection author (collection_comment)', async () => {
    const { as, anime } = await setup();
    const owner = await buildUser(t.orm, { username: 'owner_name' });
    const collection = await buildCollection(t.orm, owner, anime);
    await write('collection', collection.reference, { text: 'hey @OWNER_NAME and @nobody' }, as);
    const types = (await t.orm.em.fork().find(Notification, {})).map((n) => n.notification_type).sort();
    expect(types).toEqual(['collection_comment', 'comment_tag']);
  });

  it('sends the look-ups, then the writes in one round trip (a top-level comment with its content count, and the action record) after the token; a hide, the same', async () => {
    const { as } = await setup();
    const kinds = (body: object | string) =>
      t.queries.kinds(
        async () =>
          expect(
            (typeof body === 'string' ? await hide(body, as) : await write('anime', 'frieren', body, as))
              .status,
          ).toBe(200),
        (statement) => {
          if (statement.includes('from "anime"')) return 'content';
          if (statement.startsWith('select count(*) as recent')) return 'hourly count';
          if (statement.startsWith('with written as (insert into comment')) return 'write';
          if (statement.includes('from comment c join "user" u')) return 'comment look-up';
          if (statement.startsWith('with delta'))
            return statement.includes('for no key update') ? 'replies above locked' : 'replies above';
          if (statement.includes('from notification where')) return 'notification look-up';
          if (statement.startsWith('insert into notification')) return 'notification';
          if (statement.startsWith('insert into action_record')) return 'action';
          if (statement.startsWith('update comment as c set hidden')) return 'hide';
          return undefined;
        },
      );
    const top = await kinds({ text: 'A comment' });
    expect(top).toEqual(['token', 'token use', 'begin+content', 'hourly count', 'write+action', 'commit']);
    const [root] = await t.orm.em.fork().find(Comment, {});
    const reply = await kinds({ text: 'A reply to myself', parent: root.reference });
    // The reply's parent comes with the hourly count; its writes go in one round trip
    // (the replies above it, locked then moved, then its content's count); replying to
    // oneself notifies no one.
    expect(reply).toEqual([
      'token',
      'begin+content',
      'hourly count+comment look-up',
      'write+replies above locked+replies above+update+action',
      'commit',
    ]);
    // A hide: the comment, then in one round trip the replies above it (locked, moved), the hide
    // (refused when already hidden), the content's count and the action record.
    const [written] = await t.orm.em.fork().find(Comment, { depth: 2 });
    expect(await kinds(written.reference)).toEqual([
      'token',
      'begin+comment look-up',
      'replies above locked+replies above+hide+update+action',
      'commit',
    ]);
  });

  describe('validation', () => {
    const cases: [string, unknown, string][] = [
      ['missing text', {}, 'text'],
      ['empty text', { text: '' }, 'text'],
      ['only newlines', { text: '\n\n' }, 'text'],
      ['markdown-empty text', { text: ' **  __ ~~ || || [](https://x.y) \u2800' }, 'text'],
      ['too long text', { text: 'a'.repeat(2049) }, 'text'],
      ['bad review', { text: 'ok', review: { recommended: 'great' } }, 'review'],
      ['review with unknown key', { text: 'ok', review: { recommended: 'yes', x: 1 } }, 'review'],
      ['bad parent', { text: 'ok', parent: 'nope' }, 'parent'],
      ['unknown key', { text: 'ok', extra: 1 }, 'extra'],
    ];
    it.each(cases)('%s', async (_name, body, field) => {
      const { as } = await setup();
      const res = await write('anime', 'frieren', body, as);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'system:validation_error',
        message: `Invalid field ${field} in request body`,
      });
    });

    it('accepts 2048 characters between stripped newlines, and text around markup', async () => {
      const { as } = await setup();
      expect((await write('anime', 'frieren', { text: `\n${'a'.repeat(2048)}\n` }, as)).status).toBe(200);
      expect((await write('anime', 'frieren', { text: '**bold**' }, as)).status).toBe(200);
    });

    it('rejects an unknown content type in the path, before the content look-up', async () => {
      const { as } = await setup();
      const res = await write('video', 'frieren', { text: 'x' }, as);
      expect(res.body).toEqual({
        code: 'system:validation_error',
        message: 'Invalid field content_type in request path',
      });
    });

    it('authenticates before validating', async () => {
      await setup();
      expect((await write('anime', 'frieren', {}, {})).body.code).toBe('auth:missing_token');
    });
  });

  describe('look-up, permissions and business rules', () => {
    it('unknown content → 404 comment:content_not_found; a private collection is found only by its author', async () => {
      const { user, as, anime } = await setup();
      expect((await write('anime', 'nope', { text: 'x' }, as)).body.code).toBe('comment:content_not_found');
      const owner = await buildUser(t.orm);
      const secret = await buildCollection(t.orm, owner, anime, { visibility: 'private' });
      expect((await write('collection', secret.reference, { text: 'x' }, as)).status).toBe(404);
      const own = await write('collection', secret.reference, { text: 'x' }, await tokenOf(owner));
      expect(own.status).toBe(200);
      expect((await stored(own.body.reference)).private).toBe(true);
      void user;
    });

    it('finds characters only when not orphaned, and edits by number', async () => {
      const { as } = await setup();
      expect((await write('edit', '12', { text: 'x' }, as)).status).toBe(404);
      const person = await buildPerson(t.orm, { slug: 'someone', name_en: 'Some One' });
      const res = await write('person', 'someone', { text: 'x' }, as);
      expect(res.body.preview).toEqual({ title: 'Some One', image: null, slug: 'someone' });
      void person;
    });

    it('permission comment:write: not activated → confirm_email, withheld → denied', async () => {
      await setup();
      const inactive = await buildUser(t.orm, { role: 'not_activated' });
      expect((await write('anime', 'frieren', { text: 'x' }, await tokenOf(inactive))).body.code).toBe(
        'permission:confirm_email',
      );
      const withheld = await buildUser(t.orm, { forbidden_actions: ['comment:write'] });
      expect((await write('anime', 'frieren', { text: 'x' }, await tokenOf(withheld))).body.code).toBe(
        'permission:denied',
      );
    });

    it('scope create:comment for third-party tokens', async () => {
      const { user } = await setup();
      const client = await buildClient(t.orm, await buildUser(t.orm));
      const without = { token: await buildToken(t.orm, user, { client, scope: ['read:comment:score'] }) };
      expect((await write('anime', 'frieren', { text: 'x' }, without)).status).toBe(403);
      const withScope = { token: await buildToken(t.orm, user, { client, scope: ['comment'] }) };
      expect((await write('anime', 'frieren', { text: 'x' }, withScope)).status).toBe(200);
    });

    it('rate limit: 100 non-deleted comments in the clock hour → 429 comment:rate_limit', async () => {
      const { user, as, anime } = await setup();
      const now = new Date();
      for (let i = 0; i < 99; i += 1) {
        await buildComment(t.orm, user, { type: 'anime', reference: anime.reference }, { created: now });
      }
      await buildComment(
        t.orm,
        user,
        { type: 'anime', reference: anime.reference },
        { created: now, deleted: true },
      );
      await buildComment(
        t.orm,
        user,
        { type: 'anime', reference: anime.reference },
        { created: new Date(now.getTime() - 2 * 3600 * 1000) },
      );
      expect((await write('anime', 'frieren', { text: 'x' }, as)).status).toBe(200);
      const res = await write('anime', 'frieren', { text: 'x' }, as);
      expect(res.status).toBe(429);
      expect(res.body.code).toBe('comment:rate_limit');
    });

    it('parent: unknown, deleted or on other content → 404; hidden parent allowed; depth 5 → max_depth', async () => {
      const { user, as, anime } = await setup();
      const other = await buildAnime(t.orm);
      const foreign = await buildComment(t.orm, user, { type: 'anime', reference: other.reference });
      const gone = await buildComment(
        t.orm,
        user,
        { type: 'anime', reference: anime.reference },
        { deleted: true },
      );
      for (const parent of [foreign.reference, gone.reference, '00000000-0000-0000-0000-000000000000']) {
        expect((await write('anime', 'frieren', { text: 'x', parent }, as)).body.code).toBe(
          'comment:parent_not_found',
        );
      }
      const hidden = await buildComment(
        t.orm,
        user,
        { type: 'anime', reference: anime.reference },
        { hidden: true },
      );
      expect((await write('anime', 'frieren', { text: 'x', parent: hidden.reference }, as)).status).toBe(200);

      let parent = await buildComment(t.orm, user, { type: 'anime', reference: anime.reference });
      for (let depth = 2; depth <= 5; depth += 1) {
        parent = await buildComment(t.orm, user, { type: 'anime', reference: anime.reference }, { parent });
      }
      const before = await snapshot();
      const res = await write('anime', 'frieren', { text: 'x', parent: parent.reference }, as);
      expect(res.body).toEqual({ code: 'comment:max_depth', message: 'Maximum reply depth reached' });
      expect(await snapshot()).toEqual(before);
    });

    it('review rules: reviewable content only, no parent, one per user; keeps the list score', async () => {
      const { user, as, anime } = await setup();
      await buildPerson(t.orm, { slug: 'pers' });
      expect(
        (await write('person', 'pers', { text: 'x', review: { recommended: 'yes' } }, as)).body.code,
      ).toBe('review:non_reviewable_content');
      const top = await buildComment(t.orm, user, { type: 'anime', reference: anime.reference });
      expect(
        (
          await write(
            'anime',
            'frieren',
            { text: 'x', review: { recommended: 'yes' }, parent: top.reference },
            as,
          )
        ).body.code,
      ).toBe('review:no_parent');
      await buildWatchEntry(t.orm, user, anime, { score: 8 });
      const first = await write('anime', 'frieren', { text: 'x', review: { recommended: 'maybe' } }, as);
      expect(first.status).toBe(200);
      const row = await stored(first.body.reference);
      expect([row.review_recommendation, row.review_score]).toEqual(['maybe', 8]);
      const again = await write('anime', 'frieren', { text: 'x', review: { recommended: 'no' } }, as);
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('review:has_review');
    });
  });
});

describe('PUT /comments/{comment_reference}', () => {
  it('keeps the previous text in the history and updates text and review', async () => {
    const { user, as, anime } = await setup();
    const comment = await buildComment(
      t.orm,
      user,
      { type: 'anime', reference: anime.reference },
      { text: 'old', review_recommendation: 'yes', review_score: 3 },
    );
    const res = await edit(comment.reference, { text: 'new' }, as);
    expect(res.status).toBe(200);
    expect(res.body.text).toBe('new');
    const versions = await t.orm.em.fork().find(CommentVersion, { comment: comment.reference });
    expect(versions.map((v) => v.text)).toEqual(['old']);
    const row = await stored(comment.reference);
    expect(row.review_recommendation).toBeNull();
    expect(row.preview.title).toBe('Frieren');
  });

  it('404 unknown or deleted; 403 not owner; 400 hidden; 400 not_editable at 500 versions', async () => {
    const { user, as, anime } = await setup();
    const on = { type: 'anime' as const, reference: anime.reference };
    expect((await edit('00000000-0000-0000-0000-000000000000', { text: 'x' }, as)).body.code).toBe(
      'comment:not_found',
    );
    const deleted = await buildComment(t.orm, user, on, { deleted: true });
    expect((await edit(deleted.reference, { text: 'x' }, as)).body.code).toBe('comment:not_found');
    const others = await buildComment(t.orm, await buildUser(t.orm), on);
    expect((await edit(others.reference, { text: 'x' }, as)).body.code).toBe('comment:not_owner');
    const hidden = await buildComment(t.orm, user, on, { hidden: true });
    expect((await edit(hidden.reference, { text: 'x' }, as)).body.code).toBe('comment:hidden');

    const full = await buildComment(t.orm, user, on);
    await t.orm.em.getConnection().execute(
      `insert into comment_version (reference, comment_reference, text, created)
         select gen_random_uuid(), ?, 'v', now() from generate_series(1, 499)`,
      [full.reference],
    );
    expect((await edit(full.reference, { text: 'x' }, as)).status).toBe(200);
    const res = await edit(full.reference, { text: 'y' }, as);
    expect(res.body).toEqual({
      code: 'comment:not_editable',
      message: 'This comment can no longer be edited',
    });
    expect((await stored(full.reference)).text).toBe('x');
  });

  it('permission comment:edit and validation of the path', async () => {
    const { anime } = await setup();
    const withheld = await buildUser(t.orm, { forbidden_actions: ['comment:edit'] });
    const comment = await buildComment(t.orm, withheld, { type: 'anime', reference: anime.reference });
    expect((await edit(comment.reference, { text: 'x' }, await tokenOf(withheld))).body.code).toBe(
      'permission:denied',
    );
    expect((await edit('not-a-uuid', { text: 'x' }, await tokenOf(withheld))).body.message).toBe(
      'Invalid field comment_reference in request path',
    );
  });
});

describe('DELETE /comments/{comment_reference}', () => {
  it('hides own comment: placeholder, review removed, counters of ancestors and content decrease', async () => {
    const { user, as, anime } = await setup();
    const top = (await write('anime', 'frieren', { text: 'top', review: { recommended: 'yes' } }, as)).body;
    const reply = (await write('anime', 'frieren', { text: 'r', parent: top.reference }, as)).body;
    const res = await hide(reply.reference, as);
    expect(res.body).toEqual({ success: true });
    expect((await stored(top.reference)).total_replies).toBe(0);
    expect((await animeRow(anime.reference)).comments_count).toBe(1);
    await hide(top.reference, as);
    const row = await stored(top.reference);
    expect([row.hidden, row.hidden_by?.reference, row.review_recommendation]).toEqual([
      true,
      user.reference,
      null,
    ]);
    expect((await animeRow(anime.reference)).comments_count).toBe(0);
    expect((await hide(top.reference, as)).body.code).toBe('comment:already_hidden');
  });

  it("another user's comment needs comment:hide_admin (admins only)", async () => {
    const { user, anime } = await setup();
    const comment = await buildComment(t.orm, user, { type: 'anime', reference: anime.reference });
    const moderator = await buildUser(t.orm, { role: 'moderator' });
    expect((await hide(comment.reference, await tokenOf(moderator))).body.code).toBe('permission:denied');
    const admin = await buildUser(t.orm, { role: 'admin' });
    expect((await hide(comment.reference, await tokenOf(admin))).status).toBe(200);
  });

  it('own comment needs comment:hide; unknown → 404', async () => {
    const { anime, as } = await setup();
    const withheld = await buildUser(t.orm, { forbidden_actions: ['comment:hide'] });
    const comment = await buildComment(t.orm, withheld, { type: 'anime', reference: anime.reference });
    expect((await hide(comment.reference, await tokenOf(withheld))).body.code).toBe('permission:denied');
    expect((await hide('00000000-0000-0000-0000-000000000000', as)).status).toBe(404);
  });
});
