import { Entity, ManyToOne, Property } from '@mikro-orm/core';
import type { Client } from '../clients/client.entity';
import { now, ReferencedEntity } from '../db/base.entity';
import { User } from './user.entity';

/**
 * A session or third-party token. Only the SHA-256 of the secret is stored;
 * a first-party token has no client and an empty scope list.
 */
@Entity()
export class AuthToken extends ReferencedEntity {
  @Property({ type: 'text', unique: true, hidden: true })
  secret_hash!: string;

  @ManyToOne(() => User, { deleteRule: 'cascade', index: true })
  user!: User;

  @ManyToOne({ entity: 'Client', nullable: true, deleteRule: 'cascade', index: true })
  client: Client | null = null;

  @Property({ type: 'text[]' })
  scope: string[] = [];

  @Property({ type: 'datetime', onCreate: now })
  created!: Date;

  @Property({ type: 'datetime' })
  expiration!: Date;

  @Property({ type: 'datetime', nullable: true })
  used: Date | null = null;
}
