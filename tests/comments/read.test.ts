import type { User } from '../../src/accounts/user.entity';
import type { Anime } from '../../src/catalog/anime.entity';
import type { Comment } from '../../src/comments/comment.entity';
import { restRoutes } from '../../src/routes';
import { buildAnime, buildClient, buildToken, buildUser } from '../factories';
import { gql, rest, type CallOptions } from '../setup/clients';
import { useTestApp } from '../setup/harness';
import { asList, type Json } from '../setup/json';
import { buildCollection, buildComment, nodesOf, recount, shapeOf } from './helpers';

/** Contract #9, #10, #17, #20: comment reads. */
const t = useTestApp();

const get = (path: string, as: CallOptions = {}) => rest(t.app, 'GET', path, undefined, as);
const documentOf = (path: string) => restRoutes.find((r) => r.method === 'GET' && r.path === path)!.document;

let author: User;
let anime: Anime;
const on = () => ({ type: 'anime' as const, reference: anime.reference, slug: anime.slug });

beforeEach(async () => {
  author = await buildUser(t.orm);
  anime = await buildAnime(t.orm, { slug: 'frieren' });
});

/** A thread: top → [a → [a1 (hidden, no replies), a2 (hidden, with reply a2x)], b (deleted)]. */
async function thread() {
  const top = await buildComment(t.orm, author, on());
  const a = await buildComment(t.orm, author, on(), { parent: top });
  const a1 = await buildComment(t.orm, author, on(), { parent: a, hidden: true });
  const a2 = await buildComment(t.orm, author, on(), { parent: a, hidden: true, text: 'secret' });
  const a2x = await buildComment(t.orm, author, on(), { parent: a2 });
  const b = await buildComment(t.orm, author, on(), { parent: top, deleted: true });
  await recount(t.orm);
  return { top, a, a1, a2, a2x, b };
}

describe('#9 GET /comments/{content_type}/{slug}/list', () => {
  it('lists listable top-level comments newest first, each with its listable reply tree and placeholders', async () => {
    const { top, a, a2, a2x } = await thread();
    const older = await buildComment(t.orm, author, on(), { created: new Date('2020-01-01T00:00:00Z') });
    await buildComment(t.orm, author, on(), { hidden: true });
    await recount(t.orm);
    const res = await get('/comments/anime/frieren/list');
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ total: 2, pages: 1, page: 1 });
    const list = asList(res.body.list);
    expect(list.map(shapeOf)).toEqual([
      [top.reference, [[a.reference, [[a2.reference, [[a2x.reference, []]]]]]]],
      [older.reference, []],
    ]);
    const placeholder = nodesOf(list[0]).find((node) => node.reference === a2.reference)!;
    expect(placeholder).toMatchObject({
      hidden: true,
      text: '',
      is_editable: false,
      total_replies: 1,
      depth: 3,
    });
    expect(list[0].total_replies).toBe(2);
  });

  it('filters comment_type and recommended; validates the query', async () => {
    const review = await buildComment(t.orm, author, on(), { review_recommendation: 'yes' });
    const plain = await buildComment(t.orm, author, on());
    const refs = async (query: string) =>
      asList((await get(`/comments/anime/frieren/list${query}`)).body.list).map((c) => c.reference);
    expect(await refs('?comment_type=review')).toEqual([review.reference]);
    expect(await refs('?comment_type=comment')).toEqual([plain.reference]);
    expect(await refs('?recommended=no')).toEqual([]);
    expect((await get('/comments/anime/frieren/list?comment_type=x')).body.message).toBe(
      'Invalid field comment_type in request query',
    );
    expect((await get('/comments/anime/nope/list')).body.code).toBe('comment:content_not_found');
  });

  it('private collection comments are visible only to the collection author', async () => {
    const owner = await buildUser(t.orm);
    const collection = await buildCollection(t.orm, owner, anime, { visibility: 'private' });
    await buildComment(
      t.orm,
      owner,
      { type: 'collection', reference: collection.reference },
      { private: true },
    );
    const path = `/comments/collection/${collection.reference}/list`;
    expect((await get(path)).status).toBe(404);
    expect((await get(path, { token: await buildToken(t.orm, author) })).status).toBe(404);
    const own = await get(path, { token: await buildToken(t.orm, owner) });
    expect(own.body.pagination.total).toBe(1);
    // #10 and #20 never show them.
    expect(
      (await get('/comments/list', { token: await buildToken(t.orm, owner) })).body.pagination.total,
    ).toBe(0);
    expect((await get('/comments/latest')).body).toEqual([]);
  });

  it('scope read:comment:score for third-party tokens, after the look-up', async () => {
    const client = await buildClient(t.orm, await buildUser(t.orm));
    const token = await buildToken(t.orm, author, { client, scope: ['read:vote'] });
    expect((await get('/comments/anime/frieren/list', { token })).body.code).toBe('permission:denied');
    expect((await get('/comments/anime/nope/list', { token })).body.code).toBe('comment:content_not_found');
  });

  it('size=100 uses the same number of SQL queries as size=1', async () => {
    for (let i = 0; i < 30; i += 1) {
      let parent: Comment = await buildComment(t.orm, await buildUser(t.orm), on());
      for (let depth = 2; depth <= 5; depth += 1) {
        parent = await buildComment(t.orm, author, on(), { parent });
      }
    }
    await recount(t.orm);
    const token = await buildToken(t.orm, author);
    await get('/comments/anime/frieren/list?size=1', { token });
    const one = await t.queries.count(() => get('/comments/anime/frieren/list?size=1', { token }));
    const many = await t.queries.count(async () => {
      const res = await get('/comments/anime/frieren/list?size=100', { token });
      expect(res.body.list).toHaveLength(30);
      expect(nodesOf(res.body.list[0])).toHaveLength(5);
    });
    expect(many).toBe(one);
  });
});

describe('#17 GET /comments/thread/{comment_reference}', () => {
  it('returns a 200-comment thread of depth 5 in a bounded number of queries', async () => {
    const top = await buildComment(t.orm, author, on());
    let level: Comment[] = [top];
    let made = 1;
    for (let depth = 2; depth <= 5 && made < 200; depth += 1) {
      const next: Comment[] = [];
      for (const parent of level) {
        for (let i = 0; i < 4 && made < 200; i += 1) {
          next.push(await buildComment(t.orm, author, on(), { parent }));
          made += 1;
        }
      }
      level = next;
    }
    for (let i = made; i < 200; i += 1) await buildComment(t.orm, author, on(), { parent: top });
    await recount(t.orm);
    const token = await buildToken(t.orm, author);
    await get(`/comments/thread/${top.reference}`, { token });
    let body: Json = {};
    const queries = await t.queries.count(async () => {
      body = (await get(`/comments/thread/${top.reference}`, { token })).body;
    });
    expect(nodesOf(body)).toHaveLength(200);
    expect(Math.max(...nodesOf(body).map((n) => n.depth as number))).toBe(5);
    expect(queries).toBeLessThanOrEqual(8);
  });

  it('serves a comment at any depth with its subtree; 404 and 400 rules', async () => {
    const { top, a, a1, a2, a2x, b } = await thread();
    expect(shapeOf((await get(`/comments/thread/${a2.reference}`)).body)).toEqual([
      a2.reference,
      [[a2x.reference, []]],
    ]);
    expect((await get(`/comments/thread/${a.reference}`)).body.parent).toBe(top.reference);
    expect((await get(`/comments/thread/${a1.reference}`)).body.code).toBe('comment:hidden');
    expect((await get(`/comments/thread/${b.reference}`)).body.code).toBe('comment:not_found');
    expect((await get('/comments/thread/00000000-0000-0000-0000-000000000000')).status).toBe(404);
    expect((await get('/comments/thread/nope')).body.message).toBe(
      'Invalid field comment_reference in request path',
    );
  });

  it('404 when the content is deleted', async () => {
    const { top } = await thread();
    await t.orm.em.getConnection().execute(`update anime set deleted = true`);
    expect((await get(`/comments/thread/${top.reference}`)).body.code).toBe('comment:not_found');
  });
});

describe('#10 GET /comments/list and #20 GET /comments/latest', () => {
  it('list public, visible top-level comments on live content, newest first, flat', async () => {
    const { top } = await thread();
    const gone = await buildAnime(t.orm, { deleted: true });
    await buildComment(t.orm, author, { type: 'anime', reference: gone.reference });
    await buildComment(t.orm, author, on(), { hidden: true });
    const newer = await buildComment(t.orm, author, on());
    const res = await get('/comments/list');
    expect(res.body.pagination).toEqual({ total: 2, pages: 1, page: 1 });
    expect(asList(res.body.list).map(shapeOf)).toEqual([
      [newer.reference, []],
      [top.reference, []],
    ]);
    expect(res.body.list[1].total_replies).toBe(2);
    const latest = await get('/comments/latest');
    expect(asList(latest.body).map((c) => c.reference)).toEqual([newer.reference, top.reference]);
  });

  it('#20 keeps 3 and answers my_score 0 even for a voter', async () => {
    const made = [];
    for (let i = 0; i < 4; i += 1) made.push(await buildComment(t.orm, author, on()));
    await t.orm.em.getConnection().execute(
      `insert into vote (reference, user_reference, content_type, content_reference, score, created, updated)
         values (gen_random_uuid(), ?, 'comment', ?, 1, now(), now())`,
      [author.reference, made[3].reference],
    );
    const token = await buildToken(t.orm, author);
    const latest = asList((await get('/comments/latest', { token })).body);
    expect(latest.map((c) => c.reference)).toEqual([made[3], made[2], made[1]].map((c) => c.reference));
    expect(latest[0].my_score).toBe(0);
    expect(asList((await get('/comments/list', { token })).body.list)[0].my_score).toBe(1);
  });
});

describe('REST ≡ GraphQL', () => {
  it('#9, #10, #17, #20 answer data[rootField] of the same document, with and without a viewer', async () => {
    const { top } = await thread();
    const token = await buildToken(t.orm, author);
    const cases: [string, string, string, Record<string, unknown>][] = [
      [
        '/comments/{content_type}/{slug}/list',
        '/comments/anime/frieren/list?size=5&comment_type=all',
        'contentComments',
        { content_type: 'anime', slug: 'frieren', page: 1, size: 5, comment_type: 'all' },
      ],
      ['/comments/list', '/comments/list', 'comments', { page: 1, size: 15 }],
      [
        '/comments/thread/{comment_reference}',
        `/comments/thread/${top.reference}`,
        'commentThread',
        { comment_reference: top.reference },
      ],
      ['/comments/latest', '/comments/latest', 'latestComments', {}],
    ];
    for (const as of [{}, { token }]) {
      for (const [route, path, root, variables] of cases) {
        const viaRest = await get(path, as);
        const viaGql = await gql(t.app, documentOf(route), variables, as);
        expect(viaGql.body.errors).toBeUndefined();
        expect(viaRest.status).toBe(200);
        expect(viaRest.body).toEqual(viaGql.body.data[root]);
      }
    }
  });
});
