import { Entity, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import type { GenreType } from '../common/enums';
import { GenreTypeEnum } from '../common/scalars';
import { ReferencedEntity } from '../db/base.entity';

@ObjectType()
@Entity()
export class Genre extends ReferencedEntity {
  @Field(() => String)
  @Property({ type: 'text' })
  @Unique()
  slug!: string;

  @Field(() => String)
  @Property({ type: 'text' })
  name_en!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  name_ua: string | null = null;

  @Field(() => GenreTypeEnum)
  @Property({ type: 'text' })
  type!: GenreType;
}
