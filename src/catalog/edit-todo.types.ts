import { createUnionType, Field, ObjectType } from 'type-graphql';
import {
  ANIME_MEDIA_TYPES,
  type AnimeMediaType,
  MANGA_MEDIA_TYPES,
  type MangaMediaType,
  NOVEL_MEDIA_TYPES,
  type NovelMediaType,
} from '../common/enums';
import { enumScalar } from '../common/scalars/enum.scalar';
import { type Fragment, fragment } from '../rest/fragments';
import { Anime } from './anime.entity';
import { Manga } from './manga.entity';
import { Novel } from './novel.entity';

/**
 * Lists that mix titles of several kinds (#6, #18) are GraphQL unions, and one
 * persisted document selects every member's summary under the same response keys.
 * graphql-js refuses two leaf fields with one response key but different types
 * ("fields media_type conflict"), and `Anime`, `Manga` and `Novel` each type
 * `media_type` with their own scalar. These item types are the same titles (every
 * field and field resolver inherited) with `media_type` typed by one scalar of all
 * media types, so that their summaries can share a selection. Values are always
 * the title entities themselves (the item classes are never instantiated).
 */
export const TitleMediaTypeScalar = enumScalar('TitleMediaType', [
  ...ANIME_MEDIA_TYPES,
  ...MANGA_MEDIA_TYPES,
  ...NOVEL_MEDIA_TYPES,
]);

@ObjectType({ description: 'An anime in a list that mixes title kinds.' })
export class AnimeItem extends Anime {
  @Field(() => TitleMediaTypeScalar, { nullable: true })
  override media_type: AnimeMediaType | null = null;
}

@ObjectType({ description: 'A manga in a list that mixes title kinds.' })
export class MangaItem extends Manga {
  @Field(() => TitleMediaTypeScalar, { nullable: true })
  override media_type: MangaMediaType | null = null;
}

@ObjectType({ description: 'A novel in a list that mixes title kinds.' })
export class NovelItem extends Novel {
  @Field(() => TitleMediaTypeScalar, { nullable: true })
  override media_type: NovelMediaType | null = null;
}

/** An anime, a manga or a novel: an item of the edit to-do list (#6). */
export const TodoItem = createUnionType({
  name: 'TodoItem',
  types: () => [AnimeItem, MangaItem, NovelItem] as const,
  resolveType: (value) =>
    value instanceof Anime ? AnimeItem : value instanceof Manga ? MangaItem : NovelItem,
});

/** A manga or a novel, shown as a summary (#18). */
export const ReadItem = createUnionType({
  name: 'ReadItem',
  types: () => [MangaItem, NovelItem] as const,
  resolveType: (value) => (value instanceof Manga ? MangaItem : NovelItem),
});

/** The same selection as `of`, on another type (an item type inherits every field of its title). */
export function fragmentOn(of: Fragment, name: string, on: string): Fragment {
  return fragment(name, on, of.text.slice(of.text.indexOf('{')), of.uses);
}
