import { Entity, ManyToOne, Property } from '@mikro-orm/core';
import { User } from '../accounts/user.entity';
import { now, ReferencedEntity } from '../db/base.entity';
import { Client } from './client.entity';

/** A user's pending consent for a client, exchanged once for a third-party token. */
@Entity()
export class TokenRequest extends ReferencedEntity {
  @ManyToOne(() => Client, { deleteRule: 'cascade', index: true })
  client!: Client;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: User;

  @Property({ type: 'text[]' })
  scope: string[] = [];

  @Property({ type: 'datetime', onCreate: now })
  created!: Date;

  @Property({ type: 'datetime' })
  expiration!: Date;

  @Property({ type: 'boolean' })
  used: boolean = false;
}
