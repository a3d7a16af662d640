import type { GraphQLResolveInfo } from 'graphql';
import {
  Arg,
  Args,
  Authorized,
  createUnionType,
  Ctx,
  FieldResolver,
  Info,
  Int,
  Mutation,
  ObjectType,
  Query,
  Resolver,
  Root,
} from 'type-graphql';
import { User } from '../accounts/user.entity';
import { Anime } from '../catalog/anime.entity';
import { Manga } from '../catalog/manga.entity';
import { Novel } from '../catalog/novel.entity';
import { Character } from '../characters/character.entity';
import { DeleteResult } from '../common/delete-result';
import { PageArgs, PagedType } from '../common/pagination/pagination';
import { RootFieldState } from '../common/root-field-state';
import type { RequestContext } from '../context';
import { Person } from '../people/person.entity';
import {
  sqlFields,
  sqlMember,
  sqlRelation,
  sqlRoot,
  sqlRows,
  sqlValue,
  type SqlForm,
} from '../graphql/sql-plan/fields';
import { viewerVoteScores, viewerVoteSql } from '../votes/vote.loaders';
import { Collection, CollectionItem } from './collection.entity';
import { CollectionInput, CollectionSearchInput } from './collection.inputs';
import {
  collectionContent,
  collectionItemRows,
  collectionItems,
  CONTENT_MEMBERS,
  type CollectionContent,
  usersByReference,
} from './collection.loaders';
import {
  collectionSearchQuery,
  COLLECTION_READ_SCOPES,
  createCollection,
  deleteCollection,
  getCollection,
  searchCollections,
  updateCollection,
} from './collection.service';
import { pathReference } from '../common/validation/uuid';

/** What a collection item is about: an anime, a manga, a novel, a character or a person. */
export const CollectionContentUnion = createUnionType({
  name: 'CollectionContent',
  types: () => [Anime, Manga, Novel, Character, Person] as const,
  resolveType: (value) =>
    value instanceof Anime
      ? Anime
      : value instanceof Manga
        ? Manga
        : value instanceof Novel
          ? Novel
          : value instanceof Character
            ? Character
            : Person,
});

@ObjectType()
export class CollectionPage extends PagedType(Collection) {}

/**
 * Whether a root field serves its collections as previews, the first 6 items (#15),
 * rather than with every item (#14 and the writes).
 */
const servesPreviews = new RootFieldState<boolean>(false);

/** Makes the root field of `info` serve its collections as previews, as #15 does (favourite collections). */
export const servePreviews = (info: GraphQLResolveInfo): void => servesPreviews.set(info, true);

/**
 * Collections (semantics §3.7, contract #14 and #15). `@Authorized()` authenticates
 * before the input is checked, as REST does; permissions and scopes are checked by
 * the service after the collection is loaded (404 before 403).
 */
@Resolver(() => Collection)
export class CollectionResolver {
  @Authorized()
  @Mutation(() => Collection, { description: 'POST /collections/create (scope create:collection).' })
  async createCollection(
    @Arg('input', () => CollectionInput) input: CollectionInput,
    @Ctx() ctx: RequestContext,
  ): Promise<Collection> {
    return createCollection(ctx.em, await ctx.auth.required(), input);
  }

  @Authorized()
  @Mutation(() => Collection, { description: 'PUT /collections/{reference} (scope update:collection).' })
  async updateCollection(
    @Arg('reference', () => String) reference: string,
    @Arg('input', () => CollectionInput) input: CollectionInput,
    @Ctx() ctx: RequestContext,
  ): Promise<Collection> {
    const viewer = await ctx.auth.required();
    return updateCollection(ctx.em, viewer, pathReference(reference, 'reference'), input);
  }

  @Authorized()
  @Mutation(() => DeleteResult, { description: 'DELETE /collections/{reference} (scope delete:collection).' })
  async deleteCollection(
    @Arg('reference', () => String) reference: string,
    @Ctx() ctx: RequestContext,
  ): Promise<DeleteResult> {
    const viewer = await ctx.auth.required();
    await deleteCollection(ctx.em, viewer, pathReference(reference, 'reference'));
    return new DeleteResult();
  }

  @Query(() => Collection, {
    description: 'GET /collections/{reference} (contract #14): every item with live content.',
  })
  collection(
    @Arg('reference', () => String) reference: string,
    @Ctx() ctx: RequestContext,
  ): Promise<Collection> {
    return getCollection(ctx, pathReference(reference, 'reference'));
  }

  @Query(() => CollectionPage, {
    description: 'POST /collections (contract #15): collections with previews of at most 6 items.',
  })
  collections(
    @Args(() => PageArgs) page: PageArgs,
    @Arg('input', () => CollectionSearchInput, { nullable: true })
    input: CollectionSearchInput | null | undefined,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<CollectionPage> {
    servePreviews(info);
    return searchCollections(ctx, input ?? {}, page);
  }
}

/** Viewer-specific and batched fields of a Collection. */
@Resolver(() => Collection)
export class CollectionFieldsResolver {
  @FieldResolver(() => User, { description: 'The author; select is_followed for the caller.' })
  author(@Root() collection: Collection, @Ctx() ctx: RequestContext): Promise<User> {
    return usersByReference(ctx).load(collection.author.reference);
  }

  @FieldResolver(() => Int, { description: "The caller's vote (−1, 0 or 1); 0 when anonymous." })
  my_score(@Root() collection: Collection, @Ctx() ctx: RequestContext): Promise<number> {
    return viewerVoteScores(ctx, 'collection').load(collection.reference);
  }

  @FieldResolver(() => [CollectionItem], {
    description: 'Items whose content is not deleted, by order: all (#14) or a preview of 6 (#15).',
  })
  collection(
    @Root() collection: Collection,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<CollectionItem[]> {
    return collectionItems(ctx, servesPreviews.get(info)).load(collection.reference);
  }
}

@Resolver(() => CollectionItem)
export class CollectionItemResolver {
  @FieldResolver(() => CollectionContentUnion, {
    description: 'Anime (with watch), Manga or Novel (with read), Character or Person.',
  })
  async content(@Root() item: CollectionItem, @Ctx() ctx: RequestContext): Promise<CollectionContent> {
    const content = await collectionContent(ctx, item.content_type).load(item.content_reference);
    if (!content) throw new Error(`collection item ${item.reference} has no content`);
    return content;
  }
}

export const collectionResolvers = [
  CollectionResolver,
  CollectionFieldsResolver,
  CollectionItemResolver,
] as const;

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const collectionSqlForms: readonly SqlForm[] = [
  // #14 and #15 in one SQL statement each (src/graphql/sql-plan), serving items as the
  // resolvers above do: every one for #14, previews for #15 (`previews`).
  sqlRoot('collection', {
    kind: 'one',
    type: Collection,
    values: (args) => ({ reference: pathReference(String(args.reference), 'reference') }),
    rows: (collection, args, _subject, table, { viewer }) => ({
      from: `${table} ${collection}`,
      where: `${collection}.reference = ${args.reference}::uuid and not ${collection}.deleted
      and (${collection}.visibility <> 'private' or ${collection}.author_reference = ${viewer})`,
    }),
    notFound: 'collections:not_found',
    scopes: COLLECTION_READ_SCOPES,
  }),
  sqlRoot('collections', {
    kind: 'page',
    item: Collection,
    query: (ctx, args) => collectionSearchQuery(ctx, (args.input ?? {}) as CollectionSearchInput),
    serving: { previews: true },
  }),
  sqlFields(Collection, {
    author: sqlRelation,
    my_score: sqlValue(
      (collection, { viewer }) => viewerVoteSql('collection', `${collection}.reference`, viewer),
      'smallint',
    ),
    collection: sqlRows((collection, item, { serving }) =>
      collectionItemRows(collection, item, serving.previews === true),
    ),
  }),
  sqlFields(CollectionItem, { content: sqlMember((item) => `${item}.content_type`, CONTENT_MEMBERS) }),
];
