import { Entity, ManyToOne, Property } from '@mikro-orm/core';
import { User } from '../accounts/user.entity';
import { now, ReferencedEntity } from '../db/base.entity';

/** A registered third-party API client. */
@Entity()
export class Client extends ReferencedEntity {
  @ManyToOne(() => User, { deleteRule: 'cascade', index: true })
  user!: User;

  @Property({ type: 'text' })
  name!: string;

  @Property({ type: 'text' })
  description!: string;

  @Property({ type: 'text' })
  endpoint!: string;

  /** Shown to the owner only (semantics §1.6); 128 random characters. */
  @Property({ type: 'text', hidden: true })
  secret!: string;

  @Property({ type: 'boolean' })
  verified: boolean = false;

  @Property({ type: 'datetime', onCreate: now })
  created!: Date;

  @Property({ type: 'datetime', onCreate: now, onUpdate: now })
  updated!: Date;
}
