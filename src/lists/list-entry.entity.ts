import { Index, ManyToOne, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity';
import { UnixTime } from '../common/scalars';
import { now, ReferencedEntity } from '../db/base.entity';

/** Columns shared by watch and read entries. */
@ObjectType()
export abstract class ListEntry extends ReferencedEntity {
  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  note: string | null = null;

  /** 0..10, 0 = unscored. */
  @Field(() => Int)
  @Property({ type: 'smallint' })
  score: number = 0;

  @Property({ type: 'datetime', nullable: true })
  start_date: Date | null = null;

  @Property({ type: 'datetime', nullable: true })
  end_date: Date | null = null;

  @Field(() => UnixTime)
  @Property({ type: 'datetime', onCreate: now })
  @Index()
  created!: Date;

  @Field(() => UnixTime)
  @Property({ type: 'datetime', onCreate: now, onUpdate: now })
  updated!: Date;
}
