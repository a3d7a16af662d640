import DataLoader from 'dataloader';
import { type ClassType, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../context';
import { sqlFields, sqlRows, type SqlForm } from '../graphql/sql-plan/fields';
import { Favourite } from './favourite.entity';
import { FAVOURITE_ITEMS } from './favourite-items';

/**
 * The caller's favourites among the items shown, by item reference: none when anonymous;
 * one query per request, whatever the number of items.
 */
function viewerFavourites(ctx: RequestContext): DataLoader<string, Favourite | null> {
  return ctx.loader(
    'viewer:favourites',
    () =>
      new DataLoader<string, Favourite | null>(async (items) => {
        const viewer = await ctx.auth.optional();
        if (!viewer) return items.map(() => null);
        const favourites = await ctx.em.find(Favourite, {
          user: viewer.user.reference,
          content_reference: { $in: [...items] },
        });
        const byItem = new Map(favourites.map((favourite) => [favourite.content_reference, favourite]));
        return items.map((item) => byItem.get(item) ?? null);
      }),
  );
}

/** `favourite` on an item type: the caller's favourite of the item, or null (pages.md "The graph"). */
function ViewerFavouriteField<T extends { reference: string }>(Item: ClassType<T>) {
  @Resolver(() => Item)
  class ViewerFavouriteResolver {
    @FieldResolver(() => Favourite, {
      nullable: true,
      description: 'The caller’s favourite of this item; null when it is none or the caller is anonymous.',
    })
    favourite(@Root() item: T, @Ctx() ctx: RequestContext): Promise<Favourite | null> {
      return viewerFavourites(ctx).load(item.reference);
    }
  }
  return ViewerFavouriteResolver;
}

/** The `favourite` field of every kind of item a favourite can be of. */
export const viewerFavouriteResolvers = Object.values(FAVOURITE_ITEMS).map(({ entity }) =>
  ViewerFavouriteField(entity as ClassType<{ reference: string }>),
);

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const viewerFavouriteSqlForms: readonly SqlForm[] = Object.values(FAVOURITE_ITEMS).map(({ entity }) =>
  sqlFields(entity, {
    // References are unique across the items' tables, so the item's names the favourite.
    favourite: sqlRows((item, favourite, { viewer }) => ({
      from: `favourite ${favourite}`,
      where: `${favourite}.user_reference = ${viewer} and ${favourite}.content_reference = ${item}.reference`,
    })),
  }),
);
