import type { Anime } from '../../src/catalog/anime.entity';
import { restFragments } from '../../src/routes';
import { account } from '../clients/helpers';
import { animeSlugs, buildCollection, collectionBody } from '../collections/helpers';
import { buildComment, recount } from '../comments/helpers';
import { articleBody } from '../articles/helpers';
import { buildAnime, buildClient, buildToken, buildUser } from '../factories';
import { gql, type CallOptions } from '../setup/clients';
import { useTestApp } from '../setup/harness';
import { asList, asObject, type Json } from '../setup/json';

/**
 * Issue 10 item 6: one GraphQL document may hold several root fields that serve the
 * same entities (the request's identity map hands them the same instances), and each
 * root field must answer exactly as it would alone.
 */
const t = useTestApp();

/** One root field: its selection (arguments written inline), spreading the REST door's fragments by name. */
interface RootField {
  selection: string;
}

const field = (selection: string): RootField => ({ selection });
const str = (value: string): string => JSON.stringify(value);

/** Sends the root fields, aliased by their keys, as one operation; answers `data`. */
async function send(
  fields: Record<string, RootField>,
  as: CallOptions,
  operation: 'query' | 'mutation' = 'query',
  variables: Record<string, unknown> = {},
  variableDefinitions = '',
): Promise<Json> {
  const selections = Object.entries(fields).map(([alias, root]) => `${alias}: ${root.selection}`);
  const document = restFragments.complete(`${operation} ${variableDefinitions} { ${selections.join('\n')} }`);
  const res = await gql(t.app, document, variables, as);
  expect(res.body.errors).toBeUndefined();
  return asObject(res.body.data);
}

/** What `root` answers when sent alone. */
const alone = async (root: RootField, as: CallOptions): Promise<unknown> =>
  (await send({ subject: root }, as)).subject;

/**
 * The root fields of a query run concurrently, so whether one disturbs another depends
 * on which finishes first: each combination is sent this many times.
 */
const ROUNDS = 3;

/**
 * Every pair of `fields` in one document, in both orders: each field answers the
 * same JSON as alone.
 */
async function expectEachAnswersAsAlone(fields: Record<string, RootField>, as: CallOptions): Promise<void> {
  const answers = new Map<string, unknown>();
  for (const [name, root] of Object.entries(fields)) answers.set(name, await alone(root, as));
  const pairs = Object.keys(fields).flatMap((first) =>
    Object.keys(fields)
      .filter((second) => second !== first)
      .map((second) => [first, second] as const),
  );
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [first, second] of pairs) {
      const data = await send({ first: fields[first], second: fields[second] }, as);
      expect({ pair: [first, second], answer: data.first }).toEqual({
        pair: [first, second],
        answer: answers.get(first),
      });
      expect({ pair: [first, second], answer: data.second }).toEqual({
        pair: [first, second],
        answer: answers.get(second),
      });
    }
  }
}

describe('comments: #9, #10, #17 and #20 in one document', () => {
  let anime: Anime;

  async function setUp() {
    const author = await buildUser(t.orm);
    const voter = await buildUser(t.orm);
    anime = await buildAnime(t.orm, { slug: 'frieren' });
    const on = { type: 'anime' as const, reference: anime.reference, slug: anime.slug };
    const top = await buildComment(t.orm, author, on);
    const reply = await buildComment(t.orm, author, on, { parent: top });
    const nested = await buildComment(t.orm, author, on, { parent: reply });
    const other = await buildComment(t.orm, author, on);
    await recount(t.orm);
    for (const comment of [top, reply, nested, other]) {
      await t.orm.em.getConnection().execute(
        `insert into vote (reference, user_reference, content_type, content_reference, score, created, updated)
           values (gen_random_uuid(), ?, 'comment', ?, 1, now(), now())`,
        [voter.reference, comment.reference],
      );
    }
    return { top, reply, nested, other, voter: { token: await buildToken(t.orm, voter) } };
  }

  it('each root field answers as alone, for a voter and anonymously: my_score, #20 and reply trees stay its own', async () => {
    const { top, reply, voter } = await setUp();
    const fields = {
      latest: field('latestComments { ...CommentFlat }'),
      list: field('comments(page: 1, size: 15) { pagination { total pages page } list { ...CommentFlat } }'),
      content: field(`contentComments(content_type: anime, slug: ${str(anime.slug)}) {
          pagination { total pages page } list { ...CommentTree } }`),
      thread: field(`commentThread(comment_reference: ${str(top.reference)}) { ...CommentTree }`),
      subthread: field(`commentThread(comment_reference: ${str(reply.reference)}) { ...CommentTree }`),
    };

    // Alone, the fields disagree on the same comments: that is what must not leak.
    const latest = asList(await alone(fields.latest, voter));
    expect(latest.map((c) => [c.my_score, c.replies])).toEqual([
      [0, []],
      [0, []],
    ]);
    const list = asList(asObject(await alone(fields.list, voter)).list);
    expect(list.map((c) => [c.my_score, c.replies])).toEqual([
      [1, []],
      [1, []],
    ]);
    const thread = asObject(await alone(fields.thread, voter));
    expect(thread.my_score).toBe(1);
    expect(asList(thread.replies).map((c) => c.reference)).toEqual([reply.reference]);

    await expectEachAnswersAsAlone(fields, voter);
    await expectEachAnswersAsAlone(fields, {});
  });

  it('two edits of one comment in a mutation: the second answers is_editable as it would alone', async () => {
    const author = await account(t.orm);
    const anime = await buildAnime(t.orm, { slug: 'edited' });
    const comment = await buildComment(t.orm, author.user, {
      type: 'anime',
      reference: anime.reference,
      slug: anime.slug,
    });
    // 498 earlier versions: the first edit makes 499 (still editable), the second 500 (no longer).
    await t.orm.em.getConnection().execute(
      `insert into comment_version (reference, comment_reference, text, created)
         select gen_random_uuid(), ?, 'old', now() from generate_series(1, 498)`,
      [comment.reference],
    );
    const edit = (text: string) =>
      field(`editComment(comment_reference: ${str(comment.reference)}, input: { text: ${str(text)} }) {
        text is_editable }`);
    const data = await send({ first: edit('first'), second: edit('second') }, author.as, 'mutation');
    expect(data).toEqual({
      first: { text: 'first', is_editable: true },
      second: { text: 'second', is_editable: false },
    });
  });
});

describe('collections: #14, #15 and the writes in one document', () => {
  it('#14 (every item) and #15 (previews of 6) answer as alone, anonymous or as the author', async () => {
    const author = await account(t.orm);
    const slugs = await animeSlugs(t.orm, 8);
    const collection = await buildCollection(t.orm, author.user, collectionBody(slugs));
    const fields = {
      full: field(`collection(reference: ${str(collection.reference)}) { ...CollectionFields }`),
      previews: field(
        'collections(page: 1, size: 15) { pagination { total pages page } list { ...CollectionFields } }',
      ),
    };
    const full = asObject(await alone(fields.full, author.as));
    expect(asList(full.collection)).toHaveLength(8);
    const [preview] = asList(asObject(await alone(fields.previews, author.as)).list);
    expect(asList(preview.collection)).toHaveLength(6);

    await expectEachAnswersAsAlone(fields, author.as);
    await expectEachAnswersAsAlone(fields, {});
  });

  it('two updates of one collection in a mutation: the second answers its own entries', async () => {
    const author = await account(t.orm);
    const slugs = await animeSlugs(t.orm, 3);
    const collection = await buildCollection(t.orm, author.user, collectionBody(slugs));
    const update = field('updateCollection(reference: $reference, input: $first) { ...CollectionFields }');
    const data = await send(
      {
        first: update,
        second: field('updateCollection(reference: $reference, input: $second) { ...CollectionFields }'),
      },
      author.as,
      'mutation',
      {
        reference: collection.reference,
        first: collectionBody(slugs.slice(0, 2), { title: 'First' }),
        second: collectionBody(slugs.slice(1), { title: 'Second' }),
      },
      '($reference: String!, $first: CollectionInput!, $second: CollectionInput!)',
    );
    const afterwards = await alone(
      field(`collection(reference: ${str(collection.reference)}) { ...CollectionFields }`),
      author.as,
    );
    expect(data.second).toEqual(afterwards);
    expect(asList(asObject(data.second).collection).map((item) => asObject(item.content).slug)).toEqual(
      slugs.slice(1),
    );
  });
});

describe('clients: the owner-only secret in one document', () => {
  async function setUp() {
    const owner = await account(t.orm, { role: 'admin' });
    const client = await buildClient(t.orm, owner.user, { secret: 'S'.repeat(128) });
    const reference = str(client.reference);
    const thirdParty = await buildToken(t.orm, owner.user, {
      client,
      scope: ['read:client', 'read:client:list'],
    });
    const fields = {
      lookUp: field(`client(client_reference: ${reference}) { ...ClientFields }`),
      full: field(`clientFull(client_reference: ${reference}) { ...ClientFields }`),
      own: field('clients { pagination { total pages page } list { ...ClientFields } }'),
      all: field('allClients(input: {}) { pagination { total pages page } list { ...ClientFields } }'),
      tokens: field('thirdPartyTokens { list { ...TokenInfoFields } }'),
    };
    return { owner, thirdParty: { token: thirdParty }, fields };
  }

  it('the public look-up shows no secret, even next to fields that authenticate the owner', async () => {
    const { owner, fields } = await setUp();
    expect(asObject(await alone(fields.lookUp, owner.as)).secret).toBeNull();
    expect(asObject(await alone(fields.full, owner.as)).secret).toBe('S'.repeat(128));

    await expectEachAnswersAsAlone(fields, owner.as);
  });

  it("with the owner's third-party token: its own info shows the secret, the look-up does not", async () => {
    const { thirdParty, fields: others } = await setUp();
    const fields = { ...others, info: field('tokenInfo { ...TokenInfoFields }') };
    expect(asObject(asObject(await alone(fields.info, thirdParty)).client).secret).toBe('S'.repeat(128));
    expect(asObject(await alone(fields.lookUp, thirdParty)).secret).toBeNull();

    await expectEachAnswersAsAlone(fields, thirdParty);
  });
});

describe('articles: two writes in one mutation', () => {
  it('two updates of one article: the second answers its own tags, as a read afterwards does', async () => {
    const author = await account(t.orm, { role: 'admin' });
    const created = await send(
      { article: field('createArticle(input: $input) { slug }') },
      author.as,
      'mutation',
      { input: articleBody({ tags: ['anime'] }) },
      '($input: ArticleInput!)',
    );
    const slug = String(asObject(created.article).slug);
    const update = (input: string) =>
      field(`updateArticle(slug: ${str(slug)}, input: $${input}) { ...ArticleFields }`);
    const data = await send(
      { first: update('first'), second: update('second') },
      author.as,
      'mutation',
      { first: articleBody({ tags: ['manga'] }), second: articleBody({ tags: ['novel', 'anime'] }) },
      '($first: ArticleInput!, $second: ArticleInput!)',
    );
    const afterwards = await alone(field(`article(slug: ${str(slug)}) { ...ArticleFields }`), author.as);
    expect(asList(asObject(data.second).tags).map((tag) => asObject(tag).name)).toEqual(['novel', 'anime']);
    // The read counts a view; everything else matches the second write's answer.
    expect({ ...asObject(data.second), views: 0 }).toEqual({ ...asObject(afterwards), views: 0 });
  });
});
