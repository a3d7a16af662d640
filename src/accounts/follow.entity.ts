import { Entity, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { now, ReferencedEntity } from '../db/base.entity';
import { User } from './user.entity';

@Entity()
@Unique({ properties: ['follower', 'followed'] })
export class Follow extends ReferencedEntity {
  @ManyToOne(() => User, { deleteRule: 'cascade' })
  follower!: User;

  @ManyToOne(() => User, { deleteRule: 'cascade', index: true })
  followed!: User;

  @Property({ type: 'datetime', onCreate: now })
  created!: Date;
}
