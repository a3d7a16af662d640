import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Authorized, Ctx, Info, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { userSubject } from '../accounts/users.service';
import { servePreviews } from '../collections/collection.resolver';
import { DeleteResult } from '../common/delete-result';
import { FAVOURITE_CONTENT_TYPES, type FavouriteContentType } from '../common/enums';
import { PageArgs, PagedType } from '../common/pagination/pagination';
import { valueListType } from '../common/scalars/value-list';
import type { RequestContext } from '../context';
import { sql } from '../db/sql';
import { sqlFields, sqlRoot, sqlValue, type SqlForm } from '../graphql/sql-plan/fields';
import { Favourite } from './favourite.entity';
import { FAVOURITE_ITEMS, FavouriteItem, type FavouriteEntity } from './favourite-items';
import {
  addFavourite,
  favouriteContentSubject,
  favouriteCreatedSql,
  favouritesQuery,
  getFavourite,
  listFavourites,
  removeFavourite,
} from './favourite.service';

export const FavouriteContentTypeEnum = valueListType('FavouriteContentType', FAVOURITE_CONTENT_TYPES);

/** A page of favourites: items of one kind, each with `favourite_created`. */
@ObjectType()
export class FavouritePage extends PagedType<FavouriteEntity>(FavouriteItem) {}

const READ_FAVOURITE = ['read:favourite'];
const READ_FAVOURITE_LIST = ['read:favourite:list'];

/**
 * A user's favourites (pages.md "Anime page", "User profile"). The caller's own: read,
 * add and remove with required authentication, scopes checked after the look-up; anyone's
 * list with optional authentication.
 */
@Resolver()
export class FavouriteResolver {
  @Authorized()
  @Query(() => Favourite, {
    description:
      'GET /favourite/{content_type}/{slug}: whether the caller keeps the item (scope read:favourite).',
  })
  async favourite(
    @Arg('content_type', () => FavouriteContentTypeEnum) kind: FavouriteContentType,
    @Arg('slug', () => String) slug: string,
    @Ctx() ctx: RequestContext,
  ): Promise<Favourite> {
    return getFavourite(ctx.em, await ctx.auth.required(), kind, slug);
  }

  @Authorized()
  @Mutation(() => Favourite, {
    description:
      'PUT /favourite/{content_type}/{slug}: adds the item to the caller’s favourites (scope create:favourite).',
  })
  async addFavourite(
    @Arg('content_type', () => FavouriteContentTypeEnum) kind: FavouriteContentType,
    @Arg('slug', () => String) slug: string,
    @Ctx() ctx: RequestContext,
  ): Promise<Favourite> {
    return addFavourite(ctx.em, await ctx.auth.required(), kind, slug);
  }

  @Authorized()
  @Mutation(() => DeleteResult, {
    description:
      'DELETE /favourite/{content_type}/{slug}: removes the item from the caller’s favourites (scope delete:favourite).',
  })
  async removeFavourite(
    @Arg('content_type', () => FavouriteContentTypeEnum) kind: FavouriteContentType,
    @Arg('slug', () => String) slug: string,
    @Ctx() ctx: RequestContext,
  ): Promise<DeleteResult> {
    await removeFavourite(ctx.em, await ctx.auth.required(), kind, slug);
    return new DeleteResult();
  }

  @Query(() => FavouritePage, {
    description:
      "POST /favourite/{content_type}/{username}/list: a user's favourites of one kind, newest first (scope read:favourite:list).",
  })
  async favourites(
    @Arg('content_type', () => FavouriteContentTypeEnum) kind: FavouriteContentType,
    @Arg('username', () => String) username: string,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: RequestContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<FavouritePage> {
    servePreviews(info);
    return listFavourites(ctx, kind, username, page);
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const favouriteSqlForms: readonly SqlForm[] = [
  // GET /favourite/{content_type}/{slug}: the item's look-up, then the caller's favourite.
  sqlRoot('favourite', {
    kind: 'one',
    type: Favourite,
    authentication: 'required',
    subject: async (args, ctx) =>
      favouriteContentSubject(
        args.content_type as FavouriteContentType,
        String(args.slug),
        sql('?::uuid', await ctx.auth.viewerReference()),
      ),
    // References are unique across the items' tables, so the item's names the favourite.
    rows: (favourite, _args, item, table, { viewer }) => ({
      from: `${table} ${favourite}`,
      where: `${favourite}.user_reference = ${viewer} and ${favourite}.content_reference = ${item}`,
    }),
    // No favourite is told once the scopes pass, as the service tells it.
    withheld: 'favourite:not_found',
    scopes: READ_FAVOURITE,
  }),
  sqlRoot('favourites', {
    kind: 'page',
    item: {
      argument: 'content_type',
      items: Object.fromEntries(Object.entries(FAVOURITE_ITEMS).map(([kind, { view }]) => [kind, view])),
    },
    subject: (args) => userSubject(String(args.username)),
    query: async (ctx, args, user) =>
      favouritesQuery(
        args.content_type as FavouriteContentType,
        user,
        sql('?::uuid', await ctx.auth.viewerReference()),
      ),
    scopes: READ_FAVOURITE_LIST,
    serving: { previews: true },
  }),
  ...Object.entries(FAVOURITE_ITEMS).map(([kind, { view }]) =>
    sqlFields(view, {
      favourite_created: sqlValue((item, { subject }) =>
        favouriteCreatedSql(kind as FavouriteContentType, item, subject),
      ),
    }),
  ),
];
