import { Entity, ManyToOne, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity';
import { UnixTime } from '../common/scalars';
import { now, ReferencedEntity } from '../db/base.entity';
import { Client } from './client.entity';

/**
 * A user's pending consent for a client, exchanged once for a third-party token.
 * As a GraphQL type it is the answer of POST /auth/token/request/{client_reference}:
 * `reference`, `redirect_url` (a field resolver) and `expiration`.
 */
@ObjectType({ description: 'A pending token request (semantics §3.2).' })
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

  @Field(() => UnixTime, { description: 'The request can be exchanged until this time (1 minute).' })
  @Property({ type: 'datetime' })
  expiration!: Date;

  @Property({ type: 'boolean' })
  used: boolean = false;
}
