import { Entity, Property, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { compareSlugs } from '../common/sorting';
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

/** Weight order of roles and credits: higher weights first, null weights last. */
export function compareWeights(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return b - a;
}

/** Role order everywhere: weight desc with null weights last, then slug. */
export function compareRoles(a: Role, b: Role): number {
  return compareWeights(a.weight, b.weight) || compareSlugs(a.slug, b.slug);
}
