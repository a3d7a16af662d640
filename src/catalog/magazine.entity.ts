import { Entity, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { ReferencedEntity } from '../db/base.entity';

@ObjectType()
@Entity()
export class Magazine extends ReferencedEntity {
  @Field(() => String)
  @Property({ type: 'text' })
  @Unique()
  slug!: string;

  @Field(() => String)
  @Property({ type: 'text' })
  name_en!: string;
}
