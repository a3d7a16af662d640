import type { Response } from 'supertest';
import { ActionRecord } from '../../src/accounts/action-record.entity';
import type { User } from '../../src/accounts/user.entity';
import { Anime } from '../../src/catalog/anime.entity';
import { Comment } from '../../src/comments/comment.entity';
import { restRoutes } from '../../src/routes';
import { ERROR_CATALOG } from '../../src/common/errors/catalog';
import { buildAnime, buildPerson, buildToken, buildUser } from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { useTestApp } from '../setup/harness';
import { buildCollection, buildComment, commentState } from './helpers';

/**
 * The comment error codes in Ukrainian (semantics §1.1, §1.1.3), and who may write, edit
 * and hide comments (§1.3, §3.5): not-activated accounts, other users, moderators, admins.
 * Each refusal is checked through both doors and must leave the stored state unchanged.
 */
const t = useTestApp();

const documentOf = (method: string, path: string): string => {
  const route = restRoutes.find((r) => r.method === method && r.path === path);
  if (!route) throw new Error(`no route ${method} ${path}`);
  return route.document;
};
const WRITE = documentOf('PUT', '/comments/{content_type}/{slug}');
const EDIT = documentOf('PUT', '/comments/{comment_reference}');
const HIDE = documentOf('DELETE', '/comments/{comment_reference}');
const THREAD = documentOf('GET', '/comments/thread/{comment_reference}');

/** One request, sendable through REST or GraphQL. */
interface Call {
  label: string;
  rest(as: CallOptions): Promise<Response>;
  gql(as: CallOptions): Promise<Response>;
}

const write = (type: string, slug: string, body: Record<string, unknown>): Call => ({
  label: `PUT /comments/${type}/${slug}`,
  rest: (as) => rest(t.app, 'PUT', `/comments/${type}/${slug}`, body, as),
  gql: (as) => gql(t.app, WRITE, { content_type: type, slug, input: body }, as),
});
const edit = (reference: string, body: Record<string, unknown>): Call => ({
  label: `PUT /comments/${reference}`,
  rest: (as) => rest(t.app, 'PUT', `/comments/${reference}`, body, as),
  gql: (as) => gql(t.app, EDIT, { comment_reference: reference, input: body }, as),
});
const hide = (reference: string): Call => ({
  label: `DELETE /comments/${reference}`,
  rest: (as) => rest(t.app, 'DELETE', `/comments/${reference}`, undefined, as),
  gql: (as) => gql(t.app, HIDE, { comment_reference: reference }, as),
});
const thread = (reference: string): Call => ({
  label: `GET /comments/thread/${reference}`,
  rest: (as) => rest(t.app, 'GET', `/comments/thread/${reference}`, undefined, as),
  gql: (as) => gql(t.app, THREAD, { comment_reference: reference }, as),
});

const tokenOf = async (user: User): Promise<CallOptions> => ({ token: await buildToken(t.orm, user) });
const uk = (as: CallOptions): CallOptions => ({ ...as, language: 'uk' });
const on = (anime: Anime) => ({ type: 'anime' as const, reference: anime.reference, slug: anime.slug });

/**
 * The call fails with exactly `{message, code}` on REST and the same message, code and
 * status on GraphQL, and neither attempt changes anything.
 */
async function expectRefused(
  call: Call,
  as: CallOptions,
  expected: { status: number; code: string; message: string },
): Promise<void> {
  const before = await commentState(t.orm);
  const viaRest = await call.rest(as);
  expect({ call: call.label, status: viaRest.status, body: viaRest.body }).toEqual({
    call: call.label,
    status: expected.status,
    body: { message: expected.message, code: expected.code },
  });
  const viaGraphQL = await call.gql(as);
  expect(viaGraphQL.status).toBe(200);
  expect(viaGraphQL.body.data).toBeNull();
  expect(viaGraphQL.body.errors).toHaveLength(1);
  expect(viaGraphQL.body.errors[0]).toMatchObject({
    message: expected.message,
    extensions: { code: expected.code, http: { status: expected.status } },
  });
  expect(await commentState(t.orm)).toEqual(before);
}

async function setup() {
  const user = await buildUser(t.orm);
  const as = await tokenOf(user);
  const anime = await buildAnime(t.orm, { slug: 'frieren', title_en: 'Frieren' });
  return { user, as, anime };
}

const reads = () => t.orm.em.fork();
const stored = (reference: string) => reads().findOneOrFail(Comment, { reference });

describe('comment error messages in Ukrainian (Accept-Language: uk)', () => {
  /** Each case arranges the state and returns the failing call and its caller. */
  const cases: [
    string,
    number,
    string,
    (s: Awaited<ReturnType<typeof setup>>) => Promise<[Call, CallOptions]>,
  ][] = [
    [
      'comment:content_not_found',
      404,
      'Контент не знайдено',
      async ({ as }) => [write('anime', 'no-such-anime', { text: 'x' }), as],
    ],
    [
      'comment:not_found',
      404,
      'Коментар не знайдено',
      async ({ as }) => [edit('00000000-0000-0000-0000-000000000000', { text: 'x' }), as],
    ],
    [
      'comment:not_found',
      404,
      'Коментар не знайдено',
      async ({ user, as, anime }) => {
        const deleted = await buildComment(t.orm, user, on(anime), { deleted: true });
        return [hide(deleted.reference), as];
      },
    ],
    [
      'comment:not_found',
      404,
      'Коментар не знайдено',
      async () => [thread('00000000-0000-0000-0000-000000000000'), {}],
    ],
    [
      'comment:hidden',
      400,
      'Коментар приховано',
      async ({ user, as, anime }) => {
        const hidden = await buildComment(t.orm, user, on(anime), { hidden: true });
        return [edit(hidden.reference, { text: 'x' }), as];
      },
    ],
    [
      'comment:hidden',
      400,
      'Коментар приховано',
      async ({ user, anime }) => {
        const hidden = await buildComment(t.orm, user, on(anime), { hidden: true });
        return [thread(hidden.reference), {}];
      },
    ],
    [
      'comment:parent_not_found',
      404,
      'Батьківський коментар не знайдено',
      async ({ as }) => [
        write('anime', 'frieren', { text: 'x', parent: '00000000-0000-0000-0000-000000000000' }),
        as,
      ],
    ],
    [
      'comment:max_depth',
      400,
      'Досягнуто максимальної глибини відповідей',
      async ({ user, as, anime }) => {
        let parent = await buildComment(t.orm, user, on(anime));
        for (let depth = 2; depth <= 5; depth += 1) {
          parent = await buildComment(t.orm, user, on(anime), { parent });
        }
        return [write('anime', 'frieren', { text: 'x', parent: parent.reference }), as];
      },
    ],
    [
      'comment:rate_limit',
      429,
      'Ви досягли межі коментарів, спробуйте пізніше',
      async ({ user, as, anime }) => {
        const now = new Date();
        for (let i = 0; i < 100; i += 1) await buildComment(t.orm, user, on(anime), { created: now });
        return [write('anime', 'frieren', { text: 'x' }), as];
      },
    ],
    [
      'comment:not_owner',
      403,
      'Ви не є автором цього коментаря',
      async ({ as, anime }) => {
        const others = await buildComment(t.orm, await buildUser(t.orm), on(anime));
        return [edit(others.reference, { text: 'x' }), as];
      },
    ],
    [
      'comment:not_editable',
      400,
      'Цей коментар більше не можна редагувати',
      async ({ user, as, anime }) => {
        const full = await buildComment(t.orm, user, on(anime));
        await t.orm.em.getConnection().execute(
          `insert into comment_version (reference, comment_reference, text, created)
             select gen_random_uuid(), ?, 'v', now() from generate_series(1, 500)`,
          [full.reference],
        );
        return [edit(full.reference, { text: 'x' }), as];
      },
    ],
    [
      'comment:already_hidden',
      400,
      'Коментар уже приховано',
      async ({ user, as, anime }) => {
        const hidden = await buildComment(t.orm, user, on(anime), { hidden: true });
        return [hide(hidden.reference), as];
      },
    ],
    [
      'review:non_reviewable_content',
      400,
      'Для цього контенту не можна залишити відгук',
      async ({ as }) => {
        await buildPerson(t.orm, { slug: 'someone' });
        return [write('person', 'someone', { text: 'x', review: { recommended: 'yes' } }), as];
      },
    ],
    [
      'review:non_reviewable_content',
      400,
      'Для цього контенту не можна залишити відгук',
      async ({ user, as }) => {
        const person = await buildPerson(t.orm, { slug: 'someone' });
        const comment = await buildComment(t.orm, user, { type: 'person', reference: person.reference });
        return [edit(comment.reference, { text: 'x', review: { recommended: 'yes' } }), as];
      },
    ],
    [
      'review:no_parent',
      400,
      'Відгук не може бути відповіддю',
      async ({ user, as, anime }) => {
        const top = await buildComment(t.orm, user, on(anime));
        return [
          write('anime', 'frieren', { text: 'x', parent: top.reference, review: { recommended: 'no' } }),
          as,
        ];
      },
    ],
    [
      'review:no_parent',
      400,
      'Відгук не може бути відповіддю',
      async ({ user, as, anime }) => {
        const top = await buildComment(t.orm, user, on(anime));
        const reply = await buildComment(t.orm, user, on(anime), { parent: top });
        return [edit(reply.reference, { text: 'x', review: { recommended: 'no' } }), as];
      },
    ],
    [
      'review:has_review',
      409,
      'Ви вже залишили відгук на цей контент',
      async ({ user, as, anime }) => {
        await buildComment(t.orm, user, on(anime), { review_recommendation: 'yes', review_score: 0 });
        return [write('anime', 'frieren', { text: 'x', review: { recommended: 'maybe' } }), as];
      },
    ],
    [
      'review:has_review',
      409,
      'Ви вже залишили відгук на цей контент',
      async ({ user, as, anime }) => {
        await buildComment(t.orm, user, on(anime), { review_recommendation: 'yes', review_score: 0 });
        const plain = await buildComment(t.orm, user, on(anime));
        return [edit(plain.reference, { text: 'x', review: { recommended: 'maybe' } }), as];
      },
    ],
  ];

  it.each(cases)('%s (%i): %s', async (code, status, message, arrange) => {
    const [call, as] = await arrange(await setup());
    await expectRefused(call, uk(as), { status, code, message });
  });

  it('every comment:* and review:* code of the catalog is covered above', () => {
    const catalogCodes = Object.keys(ERROR_CATALOG).filter((code) => /^(comment|review):/.test(code));
    expect([...new Set(cases.map(([code]) => code))].sort()).toEqual(catalogCodes.sort());
  });

  it('the permission codes of the comment endpoints in Ukrainian', async () => {
    const { anime } = await setup();
    const inactive = await buildUser(t.orm, { role: 'not_activated', email_confirmed: false });
    await expectRefused(write('anime', 'frieren', { text: 'x' }), uk(await tokenOf(inactive)), {
      status: 403,
      code: 'permission:confirm_email',
      message: 'Підтвердіть вашу пошту, щоб виконати цей запит',
    });
    const others = await buildComment(t.orm, await buildUser(t.orm), on(anime));
    await expectRefused(hide(others.reference), uk(await tokenOf(await buildUser(t.orm))), {
      status: 403,
      code: 'permission:denied',
      message: 'У вас немає дозволу на цю дію',
    });
  });

  it('the same requests answer in English without the header', async () => {
    const { as, anime } = await setup();
    const others = await buildComment(t.orm, await buildUser(t.orm), on(anime));
    await expectRefused(edit(others.reference, { text: 'x' }), as, {
      status: 403,
      code: 'comment:not_owner',
      message: 'You are not the author of this comment',
    });
  });
});

describe('a not-activated account may not write, edit or hide comments', () => {
  const CONFIRM = { status: 403, code: 'permission:confirm_email' };
  const EN = 'Confirm your email to proceed with this request';
  const UK = 'Підтвердіть вашу пошту, щоб виконати цей запит';

  async function inactiveSetup() {
    const { user: other, anime } = await setup();
    const inactive = await buildUser(t.orm, { role: 'not_activated', email_confirmed: false });
    const as = await tokenOf(inactive);
    // Existing comments, so that counters are non-zero and a change would show.
    const own = await buildComment(t.orm, inactive, on(anime), { text: 'own', review_recommendation: 'yes' });
    const others = await buildComment(t.orm, other, on(anime), { text: 'others' });
    const reply = await buildComment(t.orm, inactive, on(anime), { parent: others, text: 'own reply' });
    await t.orm.em
      .getConnection()
      .execute(`update comment set total_replies = 1 where reference = ?`, [others.reference]);
    await t.orm.em
      .getConnection()
      .execute(`update anime set comments_count = 3 where reference = ?`, [anime.reference]);
    return { inactive, as, anime, own, others, reply };
  }
  type InactiveSetup = Awaited<ReturnType<typeof inactiveSetup>>;

  it.each([
    ['write a top-level comment', () => write('anime', 'frieren', { text: 'hello' })],
    ['write a review', () => write('anime', 'frieren', { text: 'x', review: { recommended: 'no' } })],
  ] as const)('%s → 403 permission:confirm_email, nothing written', async (_name, call) => {
    const { as } = await inactiveSetup();
    const comments = await reads().count(Comment, {});
    await expectRefused(call(), as, { ...CONFIRM, message: EN });
    await expectRefused(call(), uk(as), { ...CONFIRM, message: UK });
    expect(await reads().count(Comment, {})).toBe(comments);
  });

  it('write a reply to another user → 403, no reply row, no notification, total_replies unchanged', async () => {
    const { as, anime, others } = await inactiveSetup();
    await expectRefused(write('anime', 'frieren', { text: 'reply', parent: others.reference }), uk(as), {
      ...CONFIRM,
      message: UK,
    });
    expect(await reads().count(Comment, { parent: others.reference })).toBe(1);
    expect((await stored(others.reference)).total_replies).toBe(1);
    expect((await reads().findOneOrFail(Anime, { reference: anime.reference })).comments_count).toBe(3);
  });

  it('write on a private collection of their own → 403 (existence passes, permission fails)', async () => {
    const { inactive, as, anime } = await inactiveSetup();
    const collection = await buildCollection(t.orm, inactive, anime, { visibility: 'private' });
    await expectRefused(write('collection', collection.reference, { text: 'x' }), as, {
      ...CONFIRM,
      message: EN,
    });
  });

  const changes: [string, (s: InactiveSetup) => Call][] = [
    ['edit their own comment', (s) => edit(s.own.reference, { text: 'changed' })],
    [
      'edit their own reply into a review',
      (s) => edit(s.reply.reference, { text: 'changed', review: { recommended: 'yes' } }),
    ],
    [
      "edit another user's comment (permission before ownership)",
      (s) => edit(s.others.reference, { text: 'x' }),
    ],
    ['hide their own comment', (s) => hide(s.own.reference)],
    ['hide their own reply', (s) => hide(s.reply.reference)],
    ["hide another user's comment", (s) => hide(s.others.reference)],
  ];
  it.each(changes)('%s → 403 permission:confirm_email, nothing changed', async (_name, call) => {
    const s = await inactiveSetup();
    await expectRefused(call(s), s.as, { ...CONFIRM, message: EN });
    await expectRefused(call(s), uk(s.as), { ...CONFIRM, message: UK });
    const own = await stored(s.own.reference);
    expect([own.text, own.hidden, own.review_recommendation]).toEqual(['own', false, 'yes']);
    expect((await stored(s.reply.reference)).hidden).toBe(false);
    expect((await stored(s.others.reference)).total_replies).toBe(1);
    expect(await reads().count(ActionRecord, {})).toBe(0);
  });

  it('validation and existence are checked before the permission (§1.1.2)', async () => {
    const { as } = await inactiveSetup();
    const missing = '00000000-0000-0000-0000-000000000000';
    expect((await write('anime', 'frieren', { text: '' }).rest(as)).body).toEqual({
      code: 'system:validation_error',
      message: 'Invalid field text in request body',
    });
    expect((await write('anime', 'nope', { text: 'x' }).rest(as)).body.code).toBe(
      'comment:content_not_found',
    );
    expect((await edit(missing, { text: 'x' }).rest(as)).body.code).toBe('comment:not_found');
    expect((await hide(missing).rest(as)).body.code).toBe('comment:not_found');
    expect((await hide('not-a-uuid').rest(as)).body.message).toBe(
      'Invalid field comment_reference in request path',
    );
  });
});

describe('edit and hide by someone other than the author (§1.3, §3.5)', () => {
  async function othersComment() {
    const { user: author, as: authorAs, anime } = await setup();
    const top = await buildComment(t.orm, author, on(anime), { text: 'top' });
    const comment = await buildComment(t.orm, author, on(anime), {
      parent: top,
      text: 'mine',
      review_recommendation: null,
    });
    await t.orm.em
      .getConnection()
      .execute(`update comment set total_replies = 1 where reference = ?`, [top.reference]);
    await t.orm.em
      .getConnection()
      .execute(`update anime set comments_count = 2 where reference = ?`, [anime.reference]);
    return { author, authorAs, anime, top, comment };
  }

  const DENIED = { status: 403, code: 'permission:denied', message: 'У вас немає дозволу на цю дію' };
  const NOT_OWNER = { status: 403, code: 'comment:not_owner', message: 'Ви не є автором цього коментаря' };

  it("a plain user may not hide another user's comment → 403 permission:denied", async () => {
    const { comment } = await othersComment();
    const stranger = await tokenOf(await buildUser(t.orm));
    await expectRefused(hide(comment.reference), uk(stranger), DENIED);
    expect((await stored(comment.reference)).hidden).toBe(false);
  });

  it('permission comes before already_hidden: a stranger gets denied, an admin already_hidden', async () => {
    const { author, anime } = await othersComment();
    const hidden = await buildComment(t.orm, author, on(anime), { hidden: true });
    await expectRefused(hide(hidden.reference), uk(await tokenOf(await buildUser(t.orm))), DENIED);
    await expectRefused(
      hide(hidden.reference),
      uk(await tokenOf(await buildUser(t.orm, { role: 'moderator' }))),
      DENIED,
    );
    await expectRefused(
      hide(hidden.reference),
      uk(await tokenOf(await buildUser(t.orm, { role: 'admin' }))),
      {
        status: 400,
        code: 'comment:already_hidden',
        message: 'Коментар уже приховано',
      },
    );
  });

  it("a moderator may not hide another user's comment (GraphQL too)", async () => {
    const { comment } = await othersComment();
    await expectRefused(
      hide(comment.reference),
      uk(await tokenOf(await buildUser(t.orm, { role: 'moderator' }))),
      DENIED,
    );
  });

  it.each(['user', 'moderator', 'admin'] as const)(
    "a %s may not edit another user's comment → 403 comment:not_owner",
    async (role) => {
      const { comment } = await othersComment();
      const as = uk(await tokenOf(await buildUser(t.orm, { role })));
      await expectRefused(edit(comment.reference, { text: 'changed' }), as, NOT_OWNER);
      // Ownership is checked before the hidden state.
      await t.orm.em
        .getConnection()
        .execute(`update comment set hidden = true where reference = ?`, [comment.reference]);
      await expectRefused(edit(comment.reference, { text: 'changed' }), as, NOT_OWNER);
    },
  );

  it.each(['REST', 'GraphQL'] as const)(
    "an admin hides another user's reply through %s: hider recorded, counters decrease, action recorded",
    async (door) => {
      const { anime, top, comment } = await othersComment();
      await t.orm.em
        .getConnection()
        .execute(`update comment set review_recommendation = 'yes', review_score = 7 where reference = ?`, [
          comment.reference,
        ]);
      const admin = await buildUser(t.orm, { role: 'admin' });
      const call = hide(comment.reference);
      const res =
        door === 'REST' ? await call.rest(await tokenOf(admin)) : await call.gql(await tokenOf(admin));
      expect(res.status).toBe(200);
      expect(door === 'REST' ? res.body : res.body.data.hideComment).toEqual({ success: true });
      const row = await stored(comment.reference);
      expect([row.hidden, row.hidden_by?.reference, row.review_recommendation, row.review_score]).toEqual([
        true,
        admin.reference,
        null,
        null,
      ]);
      expect(row.text).toBe('mine');
      expect((await stored(top.reference)).total_replies).toBe(0);
      expect((await reads().findOneOrFail(Anime, { reference: anime.reference })).comments_count).toBe(1);
      const actions = await reads().find(ActionRecord, { type: 'comment_hide' });
      expect(actions.map((a) => [a.user.reference, a.target])).toEqual([
        [admin.reference, comment.reference],
      ]);
    },
  );

  it('an admin whose comment:hide_admin is withheld is denied for others but may hide their own', async () => {
    const { anime, comment } = await othersComment();
    const admin = await buildUser(t.orm, { role: 'admin', forbidden_actions: ['comment:hide_admin'] });
    const as = await tokenOf(admin);
    await expectRefused(hide(comment.reference), uk(as), DENIED);
    const own = await buildComment(t.orm, admin, on(anime));
    expect((await hide(own.reference).rest(as)).body).toEqual({ success: true });
  });

  it('a moderator hides their own comment like any user', async () => {
    const { anime } = await setup();
    const moderator = await buildUser(t.orm, { role: 'moderator' });
    const own = await buildComment(t.orm, moderator, on(anime));
    expect((await hide(own.reference).gql(await tokenOf(moderator))).body.data).toEqual({
      hideComment: { success: true },
    });
    expect((await stored(own.reference)).hidden_by?.reference).toBe(moderator.reference);
  });

  it("an admin cannot see, so cannot hide, a comment on another user's private collection → 404", async () => {
    const { user: author, anime } = await setup();
    const collection = await buildCollection(t.orm, author, anime, { visibility: 'private' });
    const secret = await buildComment(
      t.orm,
      author,
      { type: 'collection', reference: collection.reference },
      {
        private: true,
      },
    );
    await expectRefused(
      hide(secret.reference),
      uk(await tokenOf(await buildUser(t.orm, { role: 'admin' }))),
      {
        status: 404,
        code: 'comment:not_found',
        message: 'Коментар не знайдено',
      },
    );
  });
});
