import { Entity, Property, Unique } from '@mikro-orm/core';
import { ObjectType } from 'type-graphql';
import { now, ReferencedEntity } from '../db/base.entity';

/** A group of related titles; titles point to it (a title is in at most one franchise). */
@ObjectType()
@Entity()
export class Franchise extends ReferencedEntity {
  /** The stable import key. */
  @Property({ type: 'text' })
  @Unique()
  key!: string;

  @Property({ type: 'datetime', onCreate: now })
  created!: Date;

  @Property({ type: 'datetime', onCreate: now, onUpdate: now })
  updated!: Date;
}
