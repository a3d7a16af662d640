import {
  Collection as OrmCollection,
  Entity,
  Index,
  ManyToOne,
  OneToMany,
  OptionalProps,
  Property,
  Unique,
} from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity';
import type { CollectionContentType, CollectionVisibility } from '../common/enums';
import { UnixTime } from '../common/scalars';
import { now, ReferencedEntity } from '../db/base.entity';
import { sqlFields, sqlValue, type SqlForm } from '../graphql/sql-plan/fields';
import { CollectionContentTypeEnum, CollectionVisibilityEnum } from './collection.enums';

/**
 * A user's published list of catalog items, optionally grouped by labels. `author`,
 * `my_score` and `collection` (the items) are resolved per request by the collection
 * resolvers (batched).
 */
@ObjectType({ description: 'A collection (semantics §1.6).' })
@Entity()
@Index({ properties: ['system_ranking', 'created'] })
export class Collection extends ReferencedEntity {
  [OptionalProps]?:
    | 'data_type'
    | 'labels_order'
    | 'tags'
    | 'spoiler'
    | 'nsfw'
    | 'entries'
    | 'vote_score'
    | 'system_ranking'
    | 'comments_count'
    | 'deleted'
    | 'created'
    | 'updated';

  @Field(() => String)
  get data_type(): 'collection' {
    return 'collection';
  }

  @ManyToOne(() => User, { deleteRule: 'cascade', index: true })
  author!: User;

  @Field(() => String)
  @Property({ type: 'text' })
  title!: string;

  @Field(() => String)
  @Property({ type: 'text' })
  description!: string;

  @Field(() => CollectionContentTypeEnum)
  @Property({ type: 'text' })
  content_type!: CollectionContentType;

  @Field(() => CollectionVisibilityEnum)
  @Property({ type: 'text' })
  visibility!: CollectionVisibility;

  @Field(() => [String])
  @Property({ type: 'text[]' })
  labels_order: string[] = [];

  @Field(() => [String])
  @Property({ type: 'text[]' })
  tags: string[] = [];

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  spoiler: boolean = false;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  nsfw: boolean = false;

  /** Items whose content is not deleted. */
  @Field(() => Int, { description: 'Items whose content is not deleted.' })
  @Property({ type: 'integer' })
  entries: number = 0;

  @Field(() => Int)
  @Property({ type: 'integer' })
  vote_score: number = 0;

  /** Equal to `vote_score`, kept current (semantics §6.4). */
  @Field(() => Int, { description: 'Equal to vote_score (GraphQL extra).' })
  @Property({ type: 'integer' })
  system_ranking: number = 0;

  @Field(() => Int)
  @Property({ type: 'integer' })
  comments_count: number = 0;

  @Property({ type: 'boolean' })
  deleted: boolean = false;

  @OneToMany(() => CollectionItem, (item) => item.collection)
  items = new OrmCollection<CollectionItem>(this);

  @Field(() => UnixTime)
  @Property({ type: 'datetime', onCreate: now })
  created!: Date;

  @Field(() => UnixTime)
  @Property({ type: 'datetime', onCreate: now, onUpdate: now })
  updated!: Date;
}

@ObjectType({ description: 'One item of a collection; `content` is resolved per request.' })
@Entity()
@Unique({ properties: ['collection', 'order'] })
@Index({ properties: ['content_type', 'content_reference'] })
export class CollectionItem extends ReferencedEntity {
  @ManyToOne(() => Collection, { deleteRule: 'cascade' })
  collection!: Collection;

  @Field(() => CollectionContentTypeEnum)
  @Property({ type: 'text' })
  content_type!: CollectionContentType;

  @Property({ type: 'uuid' })
  content_reference!: string;

  @Field(() => Int)
  @Property({ type: 'integer' })
  order!: number;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  comment: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  label: string | null = null;
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const collectionEntitySqlForms: readonly SqlForm[] = [
  sqlFields(Collection, { data_type: sqlValue(() => `'collection'`) }),
];
