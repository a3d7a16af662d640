import { Entity, ManyToOne, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import { User } from '../accounts/user.entity';
import { UnixTime } from '../common/scalars';
import { now, ReferencedEntity } from '../db/base.entity';

/**
 * A registered third-party API client. `user` and `secret` reach GraphQL through
 * field resolvers (clients.resolver.ts): the owner loads through the dataloader and
 * the secret, opened from `sealed_secret`, is shown to its owner only (semantics §1.6).
 */
@ObjectType({ description: 'A registered third-party API client.' })
@Entity()
export class Client extends ReferencedEntity {
  @ManyToOne(() => User, { deleteRule: 'cascade', index: true })
  user!: User;

  @Field(() => String)
  @Property({ type: 'text' })
  name!: string;

  @Field(() => String)
  @Property({ type: 'text' })
  description!: string;

  @Field(() => String, { description: 'Where the user is sent back with `?reference=<token request>`.' })
  @Property({ type: 'text' })
  endpoint!: string;

  /**
   * The 128-character secret, sealed under `CLIENT_SECRET_KEY` (client-secret-box.ts):
   * the owner may see it again (semantics §1.6), so it cannot be kept as a hash.
   */
  @Property({ type: 'text', hidden: true })
  sealed_secret!: string;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  verified: boolean = false;

  @Field(() => UnixTime)
  @Property({ type: 'datetime', onCreate: now })
  created!: Date;

  @Field(() => UnixTime)
  @Property({ type: 'datetime', onCreate: now, onUpdate: now })
  updated!: Date;
}
