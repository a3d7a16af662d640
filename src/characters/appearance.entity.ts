import { Check, Entity, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import type { Anime } from '../catalog/anime.entity';
import type { Manga } from '../catalog/manga.entity';
import type { Novel } from '../catalog/novel.entity';
import { ReferencedEntity } from '../db/base.entity';
import { Character } from './character.entity';

/** A character's appearance in one title, as a main or a supporting character. */
@ObjectType()
@Entity()
@Check({
  name: 'appearance_one_title',
  expression: 'num_nonnulls(anime_reference, manga_reference, novel_reference) = 1',
})
@Unique({ properties: ['character', 'anime'] })
@Unique({ properties: ['character', 'manga'] })
@Unique({ properties: ['character', 'novel'] })
export class Appearance extends ReferencedEntity {
  @Field(() => Character)
  @ManyToOne(() => Character, { deleteRule: 'cascade', index: true })
  character!: Character;

  @ManyToOne({ entity: 'Anime', nullable: true, deleteRule: 'cascade', index: true })
  anime: Anime | null = null;

  @ManyToOne({ entity: 'Manga', nullable: true, deleteRule: 'cascade', index: true })
  manga: Manga | null = null;

  @ManyToOne({ entity: 'Novel', nullable: true, deleteRule: 'cascade', index: true })
  novel: Novel | null = null;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  main: boolean = false;
}
