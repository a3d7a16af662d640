import { Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/core';
import type { ActionType } from '../common/enums';
import { now } from '../db/base.entity';
import { User } from './user.entity';

/** One successful write action; these drive the hourly rate limits (semantics §1.11). */
@Entity()
@Index({ properties: ['user', 'type', 'created'] })
export class ActionRecord {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ type: 'text' })
  type!: ActionType;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  /** Reference or slug of the target, when there is one. */
  @Property({ type: 'text', nullable: true })
  target: string | null = null;

  @Property({ type: 'datetime', onCreate: now })
  created!: Date;
}
