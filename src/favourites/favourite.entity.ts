import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity';
import type { FavouriteContentType } from '../common/enums';
import { UnixTime } from '../common/scalars';
import { now, ReferencedEntity } from '../db/base.entity';

/**
 * A user's favourite: an anime, manga, novel, character or collection (pages.md "Anime
 * page"), once per user and item. The item is named by kind and reference, as votes name
 * theirs; a list joins the kind's table, so deleted items drop out of it.
 */
@ObjectType('Favourite', { description: 'That the caller keeps an item as a favourite, since when.' })
@Entity()
@Unique({ properties: ['user', 'content_type', 'content_reference'] })
@Index({ properties: ['user', 'content_type', 'created'] })
export class Favourite extends ReferencedEntity {
  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Property({ type: 'text' })
  content_type!: FavouriteContentType;

  @Property({ type: 'uuid' })
  content_reference!: string;

  @Field(() => UnixTime)
  @Property({ type: 'datetime', onCreate: now })
  created!: Date;
}
