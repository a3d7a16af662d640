import { randomUUID } from 'node:crypto';
import { PrimaryKey, PrimaryKeyProp } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';

/**
 * Every row is identified by a UUID `reference`, which is also its public identifier.
 * The `created`/`updated` columns are declared per entity: their meaning differs
 * (imported catalog times are nullable, community times are not).
 */
@ObjectType()
export abstract class ReferencedEntity {
  [PrimaryKeyProp]?: 'reference';

  @Field(() => String)
  @PrimaryKey({ type: 'uuid' })
  reference: string = randomUUID();
}

/** `onCreate`/`onUpdate` rather than initializers, so that no fixed default lands in the schema. */
export const now = (): Date => new Date();
