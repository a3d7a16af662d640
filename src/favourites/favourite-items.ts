import { createUnionType, Field, ObjectType } from 'type-graphql';
import { Anime } from '../catalog/anime.entity';
import { Manga } from '../catalog/manga.entity';
import { Novel } from '../catalog/novel.entity';
import { Character } from '../characters/character.entity';
import { Collection } from '../collections/collection.entity';
import type { FavouriteContentType } from '../common/enums';
import { UnixTime } from '../common/scalars';

/*
 * The items of a favourites list: each is the item's own type plus `favourite_created`
 * (pages.md "User profile"). A view is made per response from the item's entity (see
 * {@link favouriteView}), so the entity the identity map shares stays untouched; every
 * field of the item's type, its resolvers and SQL forms included, applies to the view.
 */

const FAVOURITE_CREATED = { description: 'When the user added it to their favourites.' };

@ObjectType('FavouriteAnime', { description: 'An anime among favourites: the Anime and when it was added.' })
export class FavouriteAnime extends Anime {
  @Field(() => UnixTime, FAVOURITE_CREATED)
  favourite_created!: Date;
}

@ObjectType('FavouriteManga', { description: 'A manga among favourites: the Manga and when it was added.' })
export class FavouriteManga extends Manga {
  @Field(() => UnixTime, FAVOURITE_CREATED)
  favourite_created!: Date;
}

@ObjectType('FavouriteNovel', { description: 'A novel among favourites: the Novel and when it was added.' })
export class FavouriteNovel extends Novel {
  @Field(() => UnixTime, FAVOURITE_CREATED)
  favourite_created!: Date;
}

@ObjectType('FavouriteCharacter', {
  description: 'A character among favourites: the Character and when it was added.',
})
export class FavouriteCharacter extends Character {
  @Field(() => UnixTime, FAVOURITE_CREATED)
  favourite_created!: Date;
}

@ObjectType('FavouriteCollection', {
  description: 'A collection among favourites: the Collection (a preview of 6 items) and when it was added.',
})
export class FavouriteCollection extends Collection {
  @Field(() => UnixTime, FAVOURITE_CREATED)
  favourite_created!: Date;

  // Typed as the titles' (nullable) times, so that one selection over the union may name
  // `created` and `updated` of every member; a collection's are always set.
  @Field(() => UnixTime, { nullable: true })
  declare created: Date;

  @Field(() => UnixTime, { nullable: true })
  declare updated: Date;
}

/** Each kind's item entity and its favourite view. */
export const FAVOURITE_ITEMS = {
  anime: { entity: Anime, view: FavouriteAnime },
  manga: { entity: Manga, view: FavouriteManga },
  novel: { entity: Novel, view: FavouriteNovel },
  character: { entity: Character, view: FavouriteCharacter },
  collection: { entity: Collection, view: FavouriteCollection },
} as const;

export type FavouriteEntity = InstanceType<(typeof FAVOURITE_ITEMS)[FavouriteContentType]['entity']>;

/**
 * A favourite's item as listed: an object whose prototype is the entity (so every field
 * and resolver reads the entity), with `favourite_created` of its own.
 */
export function favouriteView(entity: FavouriteEntity, created: Date): FavouriteEntity {
  return Object.assign(Object.create(entity) as FavouriteEntity, { favourite_created: created });
}

export const FavouriteItem = createUnionType({
  name: 'FavouriteItem',
  description: 'An anime, manga, novel, character or collection among favourites.',
  types: () =>
    [FavouriteAnime, FavouriteManga, FavouriteNovel, FavouriteCharacter, FavouriteCollection] as const,
  resolveType: (view) => {
    const item = Object.values(FAVOURITE_ITEMS).find(({ entity }) => view instanceof entity);
    if (!item) throw new Error('a favourite item of no known kind');
    return item.view;
  },
});
