import { Entity, Property, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { ReferencedEntity } from '../db/base.entity';

/** A global staff/author role (e.g. "story", "art"), keyed by slug; null weights sort last. */
@ObjectType('PersonRole')
@Entity()
export class Role extends ReferencedEntity {
  @Field(() => String)
  @Property({ type: 'text' })
  @Unique()
  slug!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  name_en: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  name_ua: string | null = null;

  @Field(() => Int, { nullable: true })
  @Property({ type: 'integer', nullable: true })
  weight: number | null = null;
}

/** Role order everywhere: weight desc with null weights last, then slug. */
export function compareRoles(a: Role, b: Role): number {
  if (a.weight !== b.weight) {
    if (a.weight === null) return 1;
    if (b.weight === null) return -1;
    return b.weight - a.weight;
  }
  return a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0;
}
