import type { MikroORM } from '@mikro-orm/postgresql';
import type { RequiredEntityData } from '@mikro-orm/core';
import { User } from '../../src/accounts/user.entity';
import { Collection } from '../../src/collections/collection.entity';
import type { CollectionInput } from '../../src/collections/collection.inputs';
import { createCollectionFor } from '../../src/collections/collection.service';
import { Comment } from '../../src/comments/comment.entity';
import { Vote } from '../../src/votes/vote.entity';
import { buildAnime } from '../factories';
import type { Json } from '../setup/json';

/** A valid create/update body over `slugs` (orders 1..n), overridable. */
export function collectionBody(slugs: string[], o: Json = {}): Json {
  return {
    title: 'Best of the year',
    description: 'My **favourite** picks',
    tags: ['топ', 'anime'],
    visibility: 'public',
    content_type: 'anime',
    labels_order: [],
    spoiler: false,
    nsfw: false,
    content: slugs.map((slug, i) => ({ slug, order: i + 1 })),
    ...o,
  };
}

/** `n` live anime with slugs `<prefix>-1..n`. */
export async function animeSlugs(orm: MikroORM, n: number, prefix = 'a'): Promise<string[]> {
  const slugs: string[] = [];
  for (let i = 1; i <= n; i += 1) {
    const slug = `${prefix}-${i}`;
    await buildAnime(orm, { slug });
    slugs.push(slug);
  }
  return slugs;
}

/** A collection of `author`, created through the service (every derived value right). */
export async function buildCollection(
  orm: MikroORM,
  author: User,
  body: Json,
  o: { at?: Date } = {},
): Promise<Collection> {
  return createCollectionFor(orm.em.fork(), author, body as unknown as CollectionInput, o.at);
}

/** A comment row on a collection (the comments domain owns the real writes). */
export async function buildCollectionComment(
  orm: MikroORM,
  author: User,
  collection: Collection,
): Promise<Comment> {
  const em = orm.em.fork();
  const comment = em.create(Comment, {
    author: em.getReference(User, author.reference),
    content_type: 'collection',
    content_reference: collection.reference,
    text: 'Nice',
    preview: { title: collection.title, image: null, slug: collection.reference },
  } as unknown as RequiredEntityData<Comment>);
  await em.flush();
  return comment;
}

/** A vote row and the collection's score kept equal (the votes domain owns the real writes). */
export async function buildCollectionVote(orm: MikroORM, voter: User, collection: Collection, score: number) {
  const em = orm.em.fork();
  em.create(Vote, {
    user: em.getReference(User, voter.reference),
    content_type: 'collection',
    content_reference: collection.reference,
    score,
  } as unknown as RequiredEntityData<Vote>);
  await em.flush();
  await em
    .getConnection()
    .execute(
      `update collection set vote_score = vote_score + ?, system_ranking = system_ranking + ? where reference = ?`,
      [score, score, collection.reference],
    );
}

/** Every row of the collection tables, for "nothing changed" assertions. */
export async function collectionTables(orm: MikroORM): Promise<unknown> {
  const connection = orm.em.getConnection();
  return {
    collections: await connection.execute(`select * from collection order by reference`),
    items: await connection.execute(`select * from collection_item order by reference`),
    comments: await connection.execute(`select reference, private from "comment" order by reference`),
    actions: await connection.execute(`select type, target from action_record order by id`),
  };
}
