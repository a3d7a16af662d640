import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { User } from '../accounts/user.entity';
import type { VoteContentType } from '../common/enums';
import { now, ReferencedEntity } from '../db/base.entity';

/** A user's −1/0/1 vote on a collection, comment or article. */
@Entity()
@Unique({ properties: ['user', 'content_type', 'content_reference'] })
@Index({ properties: ['content_type', 'content_reference'] })
export class Vote extends ReferencedEntity {
  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Property({ type: 'text' })
  content_type!: VoteContentType;

  @Property({ type: 'uuid' })
  content_reference!: string;

  @Property({ type: 'smallint' })
  score!: number;

  @Property({ type: 'datetime', onCreate: now })
  created!: Date;

  @Property({ type: 'datetime', onCreate: now, onUpdate: now })
  updated!: Date;
}
