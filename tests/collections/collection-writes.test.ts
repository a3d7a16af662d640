import { ActionRecord } from '../../src/accounts/action-record.entity';
import type { User } from '../../src/accounts/user.entity';
import { Collection } from '../../src/collections/collection.entity';
import { seedDemoCollections } from '../../src/collections/demo-collections';
import { SeededRandom } from '../../src/import/demo-catalog';
import { restRoutes } from '../../src/routes';
import {
  buildAnime,
  buildCharacter,
  buildClient,
  buildManga,
  buildPerson,
  buildToken,
  buildUser,
} from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { useTestApp } from '../setup/harness';
import type { Json } from '../setup/json';
import {
  animeSlugs,
  buildCollection,
  buildCollectionComment,
  collectionBody,
  collectionTables,
} from './helpers';

/** §3.7 POST /collections/create, PUT and DELETE /collections/{reference}. */
const t = useTestApp();

const create = (body: unknown, options: CallOptions) =>
  rest(t.app, 'POST', '/collections/create', body, options);
const update = (reference: string, body: unknown, options: CallOptions) =>
  rest(t.app, 'PUT', `/collections/${reference}`, body, options);
const remove = (reference: string, options: CallOptions) =>
  rest(t.app, 'DELETE', `/collections/${reference}`, undefined, options);

async function caller(o: Partial<User> = {}): Promise<{ user: User; as: CallOptions }> {
  const user = await buildUser(t.orm, o);
  return { user, as: { token: await buildToken(t.orm, user) } };
}

async function thirdParty(user: User, scope: string[]): Promise<CallOptions> {
  const client = await buildClient(t.orm, await buildUser(t.orm));
  return { token: await buildToken(t.orm, user, { client, scope }) };
}

const expectError = (res: { status: number; body: Json }, status: number, code: string, message?: string) => {
  expect({ status: res.status, code: res.body.code }).toEqual({ status, code });
  if (message) expect(res.body.message).toBe(message);
};

const storedCollection = (reference: string) =>
  t.orm.em.fork().findOneOrFail(Collection, { reference }, { populate: ['items'] });

describe('POST /collections/create', () => {
  it('creates the collection with its items, entries and action, answering the full Collection', async () => {
    const { user, as } = await caller();
    const slugs = await animeSlugs(t.orm, 3);
    const body = collectionBody(slugs, {
      labels_order: ['second', 'first'],
      content: [
        { slug: slugs[2], order: 3, label: 'first', comment: 'the best' },
        { slug: slugs[0], order: 1, label: 'first' },
        { slug: slugs[1], order: 2, label: 'second' },
      ],
    });
    const res = await create(body, as);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      data_type: 'collection',
      title: 'Best of the year',
      visibility: 'public',
      content_type: 'anime',
      labels_order: ['second', 'first'],
      tags: ['топ', 'anime'],
      entries: 3,
      vote_score: 0,
      my_score: 0,
      comments_count: 0,
      author: { username: user.username, is_followed: false },
    });
    expect(
      res.body.collection.map((item: Json) => [(item.content as Json).slug, item.order, item.label]),
    ).toEqual([
      [slugs[0], 1, 'first'],
      [slugs[1], 2, 'second'],
      [slugs[2], 3, 'first'],
    ]);
    expect(res.body.collection[2].comment).toBe('the best');
    const stored = await storedCollection(res.body.reference);
    expect([stored.entries, stored.system_ranking, stored.items.length]).toEqual([3, 0, 3]);
    const actions = await t.orm.em.fork().find(ActionRecord, { user: user.reference });
    expect(actions.map((a) => [a.type, a.target])).toEqual([['collection_create', res.body.reference]]);
  });

  it('looks content up by the content type: manga, character and person collections', async () => {
    const { as } = await caller();
    await buildManga(t.orm, { slug: 'berserk' });
    await buildCharacter(t.orm, { slug: 'guts' });
    await buildPerson(t.orm, { slug: 'miura' });
    for (const [content_type, slug, data_type] of [
      ['manga', 'berserk', 'manga'],
      ['character', 'guts', 'character'],
      ['person', 'miura', 'person'],
    ]) {
      const res = await create(collectionBody([slug], { content_type }), as);
      expect(res.status).toBe(200);
      expect(res.body.collection[0].content).toMatchObject({ slug, data_type });
      // The slug of another content type is bad content.
      const wrong = await create(collectionBody([slug], { content_type: 'anime' }), as);
      expectError(wrong, 400, 'collections:bad_content');
    }
  });

  describe('validation (400 system:validation_error, first field in body order)', () => {
    const cases: [string, Json, string][] = [
      ['title too short', { title: 'ab' }, 'title'],
      ['title too long', { title: 'x'.repeat(256) }, 'title'],
      ['description too short', { description: 'ab' }, 'description'],
      ['description empty as markdown', { description: '** __ ~~ ||  ||' }, 'description'],
      ['description only an empty link', { description: '[ ](https://example.com)' }, 'description'],
      ['more than 3 tags', { tags: ['abc', 'abd', 'abe', 'abf'] }, 'tags'],
      ['a capital in a tag', { tags: ['Abc'] }, 'tags'],
      ['a tag with ы', { tags: ['мыло'] }, 'tags'],
      ['a tag with є', { tags: ['єдин'] }, 'tags'],
      ['a tag too short', { tags: ['ab'] }, 'tags'],
      ['a tag too long', { tags: ['a'.repeat(17)] }, 'tags'],
      ['bad visibility', { visibility: 'secret' }, 'visibility'],
      ['bad content type', { content_type: 'article' }, 'content_type'],
      ['repeated labels in labels_order', { labels_order: ['x', 'x'] }, 'labels_order'],
      ['spoiler not boolean', { spoiler: 'yes' }, 'spoiler'],
      ['nsfw missing', { nsfw: undefined }, 'nsfw'],
      ['entry comment too short', { content: [{ slug: 'a-1', order: 1, comment: 'ab' }] }, 'content'],
      ['entry label empty', { content: [{ slug: 'a-1', order: 1, label: '' }] }, 'content'],
      ['entry order fractional', { content: [{ slug: 'a-1', order: 1.5 }] }, 'content'],
      ['entry unknown key', { content: [{ slug: 'a-1', order: 1, extra: 1 }] }, 'content'],
      ['unknown key', { extra: true }, 'extra'],
      ['title wins over later fields', { title: 'ab', tags: ['Bad'] }, 'title'],
    ];
    it.each(cases)('%s', async (_name, override, field) => {
      const { as } = await caller();
      await animeSlugs(t.orm, 1);
      const body = collectionBody(['a-1'], override);
      const restRes = await create(body, as);
      expectError(restRes, 400, 'system:validation_error', `Invalid field ${field} in request body`);
      const route = restRoutes.find((r) => r.path === '/collections/create')!;
      const gqlRes = await gql(t.app, route.document, { input: JSON.parse(JSON.stringify(body)) }, as);
      const [error] = gqlRes.body.errors;
      // GraphQL input coercion answers first for wrong scalar types and unknown keys (with
      // graphql-js's message, §1.1); every other rule gives REST's exact message.
      expect(error.extensions.code).toBe('system:validation_error');
      const coercion = ['spoiler', 'entry order fractional', 'entry unknown key', 'unknown key'];
      if (!coercion.includes(field) && !coercion.includes(_name))
        expect(error.message).toBe(restRes.body.message);
      expect(await t.orm.em.fork().count(Collection, {})).toBe(0);
    });

    it('accepts every lower-case Ukrainian letter but є, and a–z', async () => {
      const { as } = await caller();
      await animeSlugs(t.orm, 1);
      const tags = ['абвгґдежзиіїйкл', 'мнопрстуфхцчшщь', 'юяzyx'];
      const res = await create(collectionBody(['a-1'], { tags }), as);
      expect(res.status).toBe(200);
      expect(res.body.tags).toEqual(tags);
    });
  });

  describe('business rules, in order', () => {
    const entry = (slug: string, order: number, label?: string) => ({
      slug,
      order,
      ...(label ? { label } : {}),
    });
    const cases: [string, (s: string[]) => Json, string][] = [
      [
        'some entries unlabelled',
        (s) => ({ content: [entry(s[0], 1, 'x'), entry(s[1], 2)], labels_order: ['nope', 'x', 'y'] }),
        'collections:unlabeled_content',
      ],
      [
        'labels_order longer than the distinct labels',
        (s) => ({ content: [entry(s[0], 1, 'x'), entry(s[1], 2, 'x')], labels_order: ['x', 'y'] }),
        'collections:bad_labels_order',
      ],
      [
        'labels_order missing a label',
        (s) => ({ content: [entry(s[0], 1, 'x'), entry(s[1], 2, 'y')], labels_order: ['x'] }),
        'collections:bad_labels_order',
      ],
      [
        'labels_order naming an unused label',
        (s) => ({ content: [entry(s[0], 1, 'x'), entry(s[1], 2, 'y')], labels_order: ['x', 'z'] }),
        'collections:bad_label',
      ],
      [
        'labels without entries labelled',
        () => ({ labels_order: ['x'], content: [] }),
        'collections:bad_labels_order',
      ],
      [
        'a repeated order',
        (s) => ({ content: [entry(s[0], 1), entry(s[1], 1)] }),
        'collections:bad_order_duplicated',
      ],
      [
        'a repeated order before the count',
        () => ({ content: [entry('nope', 2), entry('nope', 2)] }),
        'collections:bad_order_duplicated',
      ],
      ['no entries', () => ({ content: [] }), 'collections:content_limit'],
      [
        '501 entries',
        (s) => ({ content: Array.from({ length: 501 }, (_, i) => entry(s[0], i + 1)) }),
        'collections:content_limit',
      ],
      [
        'orders starting at 0',
        (s) => ({ content: [entry(s[0], 0), entry(s[1], 1)] }),
        'collections:bad_order_start',
      ],
      [
        'orders starting at 2',
        (s) => ({ content: [entry(s[0], 2), entry(s[1], 3)] }),
        'collections:bad_order_start',
      ],
      [
        'orders with a gap',
        (s) => ({ content: [entry(s[0], 1), entry(s[1], 3)] }),
        'collections:bad_order_not_consecutive',
      ],
      [
        'an unknown slug',
        (s) => ({ content: [entry(s[0], 1), entry('nope', 2)] }),
        'collections:bad_content',
      ],
      [
        'a deleted anime',
        (s) => ({ content: [entry(s[0], 1), entry('gone', 2)] }),
        'collections:bad_content',
      ],
      [
        'a slug in another case',
        (s) => ({ content: [entry(s[0].toUpperCase(), 1)] }),
        'collections:bad_content',
      ],
    ];
    it.each(cases)('%s', async (_name, override, code) => {
      const { as } = await caller();
      const slugs = await animeSlugs(t.orm, 2);
      await buildAnime(t.orm, { slug: 'gone', deleted: true });
      const before = await collectionTables(t.orm);
      const res = await create(collectionBody(slugs, override(slugs)), as);
      expectError(res, 400, code);
      expect(await collectionTables(t.orm)).toEqual(before);
    });

    it('accepts 500 entries, the same item twice', async () => {
      const { as } = await caller();
      const [slug] = await animeSlugs(t.orm, 1);
      const content = Array.from({ length: 500 }, (_, i) => entry(slug, i + 1));
      const res = await create(collectionBody([], { content }), as);
      expect(res.status).toBe(200);
      expect(res.body.entries).toBe(500);
    });

    it('refuses a 1001st non-deleted collection (collections:limit); deleted ones do not count', async () => {
      const { user, as } = await caller();
      const [slug] = await animeSlugs(t.orm, 1);
      const first = await buildCollection(t.orm, user, collectionBody([slug]));
      await t.orm.em.getConnection().execute(
        `insert into collection (reference, author_reference, title, description, content_type, visibility,
           labels_order, tags, created, updated)
         select gen_random_uuid(), ?, 'x', 'x', 'anime', 'public', '{}', '{}', now(), now()
           from generate_series(1, 999)`,
        [user.reference],
      );
      const before = await collectionTables(t.orm);
      expectError(await create(collectionBody([slug]), as), 400, 'collections:limit');
      expect(await collectionTables(t.orm)).toEqual(before);
      await t.orm.em
        .getConnection()
        .execute(`update collection set deleted = true where reference = ?`, [first.reference]);
      expect((await create(collectionBody([slug]), as)).status).toBe(200);
    });
  });

  describe('authentication and permissions', () => {
    it('requires a token', async () => {
      expectError(await create(collectionBody(['a-1']), {}), 401, 'auth:missing_token');
    });

    it('needs collection:create: not activated → permission:confirm_email, withheld → permission:denied', async () => {
      await animeSlugs(t.orm, 1);
      const pending = await caller({ role: 'not_activated' });
      expectError(await create(collectionBody(['a-1']), pending.as), 403, 'permission:confirm_email');
      const withheld = await caller({ forbidden_actions: ['collection:create'] });
      expectError(await create(collectionBody(['a-1']), withheld.as), 403, 'permission:denied');
    });

    it('checks permission after validation', async () => {
      const pending = await caller({ role: 'not_activated' });
      expectError(
        await create(collectionBody(['a-1'], { title: 'x' }), pending.as),
        400,
        'system:validation_error',
      );
    });

    it('needs scope create:collection for third-party tokens, before the business rules', async () => {
      const { user } = await caller();
      await animeSlugs(t.orm, 1);
      const without = await thirdParty(user, ['read:collection']);
      expectError(await create(collectionBody(['a-1'], { content: [] }), without), 403, 'permission:denied');
      const withScope = await thirdParty(user, ['collection']);
      expect((await create(collectionBody(['a-1']), withScope)).status).toBe(200);
    });
  });
});

describe('PUT /collections/{reference}', () => {
  let fixtures = 0;
  async function fixture(visibility = 'public') {
    const author = await caller();
    fixtures += 1;
    const slugs = await animeSlugs(t.orm, 4, `f${fixtures}`);
    const body = collectionBody(slugs.slice(0, 2), { visibility });
    const collection = await buildCollection(t.orm, author.user, body);
    return { author, slugs, body, collection };
  }

  it('replaces fields and entries, keeps created, sets updated, records the action', async () => {
    const { author, slugs, body, collection } = await fixture();
    const res = await update(
      collection.reference,
      { ...body, title: 'Renamed', spoiler: true, content: [{ slug: slugs[3], order: 1, comment: 'now' }] },
      author.as,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      title: 'Renamed',
      spoiler: true,
      entries: 1,
      reference: collection.reference,
    });
    expect(res.body.collection.map((i: Json) => [(i.content as Json).slug, i.comment])).toEqual([
      [slugs[3], 'now'],
    ]);
    const stored = await storedCollection(collection.reference);
    expect(stored.items.length).toBe(1);
    expect(stored.created.getTime()).toBe(collection.created.getTime());
    const actions = await t.orm.em
      .fork()
      .find(ActionRecord, { user: author.user.reference, type: 'collection_update' });
    expect(actions.length).toBe(1);
  });

  it('keeps the item rows when the entries are unchanged', async () => {
    const { author, body, collection } = await fixture();
    const before = (await storedCollection(collection.reference)).items
      .getItems()
      .map((i) => i.reference)
      .sort();
    expect((await update(collection.reference, { ...body, title: 'Other' }, author.as)).status).toBe(200);
    const after = (await storedCollection(collection.reference)).items
      .getItems()
      .map((i) => i.reference)
      .sort();
    expect(after).toEqual(before);
  });

  it('accepts the reference in upper case', async () => {
    const { author, body, collection } = await fixture();
    const res = await update(collection.reference.toUpperCase(), body, author.as);
    expect(res.status).toBe(200);
    expect(res.body.reference).toBe(collection.reference);
  });

  it('a malformed reference is a path validation error; unknown, deleted and others’ private are 404', async () => {
    const { author, body, collection } = await fixture();
    expectError(
      await update('nope', body, author.as),
      400,
      'system:validation_error',
      'Invalid field reference in request path',
    );
    expectError(
      await update('00000000-0000-0000-0000-000000000000', body, author.as),
      404,
      'collections:not_found',
    );
    const admin = await caller({ role: 'admin' });
    const secret = await fixture('private');
    expectError(
      await update(secret.collection.reference, secret.body, admin.as),
      404,
      'collections:not_found',
    );
    await t.orm.em
      .getConnection()
      .execute(`update collection set deleted = true where reference = ?`, [collection.reference]);
    expectError(await update(collection.reference, body, author.as), 404, 'collections:not_found');
  });

  it('404 comes before the permission check', async () => {
    const pending = await caller({ role: 'not_activated' });
    const { body } = await fixture();
    expectError(
      await update('00000000-0000-0000-0000-000000000000', body, pending.as),
      404,
      'collections:not_found',
    );
  });

  it('needs collection:update and the scope update:collection', async () => {
    const { author, body, collection } = await fixture();
    await t.orm.em
      .getConnection()
      .execute(`update "user" set forbidden_actions = '{collection:update}' where reference = ?`, [
        author.user.reference,
      ]);
    expectError(await update(collection.reference, body, author.as), 403, 'permission:denied');
    await t.orm.em
      .getConnection()
      .execute(`update "user" set forbidden_actions = '{}' where reference = ?`, [author.user.reference]);
    expectError(
      await update(collection.reference, body, await thirdParty(author.user, ['create:collection'])),
      403,
      'permission:denied',
    );
    expect(
      (await update(collection.reference, body, await thirdParty(author.user, ['update:collection']))).status,
    ).toBe(200);
  });

  it('other users, moderators included, may not edit; admins may edit all but the entries and labels', async () => {
    const { body, collection, slugs } = await fixture();
    for (const role of ['user', 'moderator'] as const) {
      const other = await caller({ role });
      expectError(
        await update(collection.reference, { ...body, title: 'Mine now' }, other.as),
        403,
        'permission:denied',
      );
    }
    const admin = await caller({ role: 'admin' });
    const changedEntries = { ...body, content: [{ slug: slugs[2], order: 1 }] };
    expectError(
      await update(collection.reference, changedEntries, admin.as),
      403,
      'collections:moderator_content_update',
    );
    const changedComment = {
      ...body,
      content: [
        { slug: slugs[0], order: 1, comment: 'admin note' },
        { slug: slugs[1], order: 2 },
      ],
    };
    expectError(
      await update(collection.reference, changedComment, admin.as),
      403,
      'collections:moderator_content_update',
    );
    const labelled = { ...body, labels_order: ['x'] };
    expectError(
      await update(collection.reference, labelled, admin.as),
      403,
      'collections:moderator_content_update',
    );
    // The moderator rule comes before the create checks (an invalid label order).
    const res = await update(collection.reference, { ...body, title: 'Curated', nsfw: true }, admin.as);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: 'Curated', nsfw: true });
    expect(res.body.author.reference).toBe((await storedCollection(collection.reference)).author.reference);
  });

  it('rate limit: more than 1000 updates in the clock hour → 429 system:rate_limit', async () => {
    const { author, body, collection } = await fixture();
    const insertActions = (n: number, at: string) =>
      t.orm.em.getConnection().execute(
        `insert into action_record (type, user_reference, target, created)
         select 'collection_update', ?, null, ${at} from generate_series(1, ?)`,
        [author.user.reference, n],
      );
    await insertActions(999, `date_trunc('hour', now())`);
    await insertActions(5, `date_trunc('hour', now()) - interval '1 second'`);
    expect((await update(collection.reference, body, author.as)).status).toBe(200); // 999 before: ok, now 1000
    expect((await update(collection.reference, body, author.as)).status).toBe(200); // 1000 before: ok, now 1001
    const before = await collectionTables(t.orm);
    expectError(
      await update(collection.reference, { ...body, title: 'Late' }, author.as),
      429,
      'system:rate_limit',
    );
    expect(await collectionTables(t.orm)).toEqual(before);
  });

  it('the content type cannot change (before the entry checks)', async () => {
    const { author, body, collection } = await fixture();
    await buildManga(t.orm, { slug: 'berserk' });
    const res = await update(
      collection.reference,
      { ...body, content_type: 'manga', content: [] },
      author.as,
    );
    expectError(res, 400, 'collections:bad_content_type');
  });

  it('runs the create checks; a failed update changes nothing (501 entries, bad label)', async () => {
    const { author, body, collection, slugs } = await fixture();
    const before = await collectionTables(t.orm);
    const many = Array.from({ length: 501 }, (_, i) => ({ slug: slugs[0], order: i + 1 }));
    expectError(
      await update(collection.reference, { ...body, visibility: 'private', content: many }, author.as),
      400,
      'collections:content_limit',
    );
    expectError(
      await update(
        collection.reference,
        {
          ...body,
          visibility: 'private',
          labels_order: ['x'],
          content: [{ slug: slugs[0], order: 1, label: 'y' }],
        },
        author.as,
      ),
      400,
      'collections:bad_label',
    );
    expectError(
      await update(collection.reference, { ...body, content: [{ slug: 'nope', order: 1 }] }, author.as),
      400,
      'collections:bad_content',
    );
    expect(await collectionTables(t.orm)).toEqual(before);
  });

  it('a visibility change sets private on the collection comments', async () => {
    const { author, body, collection } = await fixture();
    const comment = await buildCollectionComment(t.orm, author.user, collection);
    const isPrivate = async () =>
      (
        (
          await t.orm.em
            .getConnection()
            .execute(`select private from "comment" where reference = ?`, [comment.reference])
        )[0] as Json
      ).private;
    await update(collection.reference, { ...body, visibility: 'private' }, author.as);
    expect(await isPrivate()).toBe(true);
    await update(collection.reference, { ...body, visibility: 'unlisted' }, author.as);
    expect(await isPrivate()).toBe(false);
  });
});

describe('DELETE /collections/{reference}', () => {
  it('soft-deletes, makes comments private, records the action; the author only (or admins)', async () => {
    const author = await caller();
    const [slug] = await animeSlugs(t.orm, 1);
    const collection = await buildCollection(t.orm, author.user, collectionBody([slug]));
    const comment = await buildCollectionComment(t.orm, author.user, collection);
    for (const role of ['user', 'moderator'] as const) {
      expectError(await remove(collection.reference, (await caller({ role })).as), 403, 'permission:denied');
    }
    expectError(
      await remove(collection.reference, await thirdParty(author.user, ['update:collection'])),
      403,
      'permission:denied',
    );
    const res = await remove(collection.reference, author.as);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const [row] = await t.orm.em
      .getConnection()
      .execute(`select deleted from collection where reference = ?`, [collection.reference]);
    expect(row.deleted).toBe(true);
    const [c] = await t.orm.em
      .getConnection()
      .execute(`select private from "comment" where reference = ?`, [comment.reference]);
    expect(c.private).toBe(true);
    expectError(await remove(collection.reference, author.as), 404, 'collections:not_found');
    expectError(
      await rest(t.app, 'GET', `/collections/${collection.reference}`),
      404,
      'collections:not_found',
    );
    const actions = await t.orm.em
      .fork()
      .find(ActionRecord, { user: author.user.reference, type: 'collection_delete' });
    expect(actions.length).toBe(1);
  });

  it('admins delete other users’ collections; withheld collection:delete is refused', async () => {
    const author = await caller({ forbidden_actions: ['collection:delete'] });
    const [slug] = await animeSlugs(t.orm, 1);
    const collection = await buildCollection(t.orm, author.user, collectionBody([slug]));
    expectError(await remove(collection.reference, author.as), 403, 'permission:denied');
    expect((await remove(collection.reference, (await caller({ role: 'admin' })).as)).status).toBe(200);
  });
});

describe('seedDemoCollections', () => {
  it('creates demo collections through the service, once', async () => {
    await buildUser(t.orm, { username: 'demo_alice' });
    await buildUser(t.orm);
    await animeSlugs(t.orm, 15, 'demo');
    await buildCharacter(t.orm);
    const first = await seedDemoCollections(t.orm.em.fork(), new SeededRandom(1));
    expect(first.collections).toBeGreaterThan(0);
    const rows = await t.orm.em
      .getConnection()
      .execute(
        `select entries, (select count(*) from collection_item i where i.collection_reference = c.reference)::int as items from collection c`,
      );
    expect(rows.every((row: Json) => row.entries === row.items && (row.items as number) >= 1)).toBe(true);
    expect((await seedDemoCollections(t.orm.em.fork(), new SeededRandom(1))).collections).toBe(0);
  });
});
