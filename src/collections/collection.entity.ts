import {
  Collection as OrmCollection,
  Entity,
  Index,
  ManyToOne,
  OneToMany,
  Property,
  Unique,
} from '@mikro-orm/core';
import { User } from '../accounts/user.entity';
import type { CollectionContentType, CollectionVisibility } from '../common/enums';
import { now, ReferencedEntity } from '../db/base.entity';

/** A user's published list of catalog items, optionally grouped by labels. */
@Entity()
@Index({ properties: ['system_ranking', 'created'] })
export class Collection extends ReferencedEntity {
  @ManyToOne(() => User, { deleteRule: 'cascade', index: true })
  author!: User;

  @Property({ type: 'text' })
  title!: string;

  @Property({ type: 'text' })
  description!: string;

  @Property({ type: 'text' })
  content_type!: CollectionContentType;

  @Property({ type: 'text' })
  visibility!: CollectionVisibility;

  @Property({ type: 'text[]' })
  labels_order: string[] = [];

  @Property({ type: 'text[]' })
  tags: string[] = [];

  @Property({ type: 'boolean' })
  spoiler: boolean = false;

  @Property({ type: 'boolean' })
  nsfw: boolean = false;

  /** Items whose content is not deleted. */
  @Property({ type: 'integer' })
  entries: number = 0;

  @Property({ type: 'integer' })
  vote_score: number = 0;

  /** Equal to `vote_score`, kept current (semantics §6.4). */
  @Property({ type: 'integer' })
  system_ranking: number = 0;

  @Property({ type: 'integer' })
  comments_count: number = 0;

  @Property({ type: 'boolean' })
  deleted: boolean = false;

  @OneToMany(() => CollectionItem, (item) => item.collection)
  items = new OrmCollection<CollectionItem>(this);

  @Property({ type: 'datetime', onCreate: now })
  created!: Date;

  @Property({ type: 'datetime', onCreate: now, onUpdate: now })
  updated!: Date;
}

@Entity()
@Unique({ properties: ['collection', 'order'] })
@Index({ properties: ['content_type', 'content_reference'] })
export class CollectionItem extends ReferencedEntity {
  @ManyToOne(() => Collection, { deleteRule: 'cascade' })
  collection!: Collection;

  @Property({ type: 'text' })
  content_type!: CollectionContentType;

  @Property({ type: 'uuid' })
  content_reference!: string;

  @Property({ type: 'integer' })
  order!: number;

  @Property({ type: 'text', nullable: true })
  comment: string | null = null;

  @Property({ type: 'text', nullable: true })
  label: string | null = null;
}
