import { Entity, Property, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { ImageUrl } from '../common/scalars';
import { sqlFields, sqlValue, type SqlForm } from '../graphql/sql-plan/fields';
import { ReferencedEntity } from '../db/base.entity';
import { TrigramIndex } from '../db/trigram-index';

@ObjectType()
@Entity()
// Trigram indexes for the typo-tolerant name search of POST /people (pages.md "Catalogs").
@TrigramIndex('name_native')
@TrigramIndex('name_ua')
@TrigramIndex('name_en')
@TrigramIndex('synonyms', 'names')
export class Person extends ReferencedEntity {
  @Field(() => String)
  get data_type(): 'person' {
    return 'person';
  }

  @Field(() => String)
  @Property({ type: 'text' })
  @Unique()
  slug!: string;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  name_native: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  name_ua: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  name_en: string | null = null;

  @Field(() => ImageUrl, { nullable: true })
  @Property({ type: 'text', nullable: true })
  image: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  description_ua: string | null = null;

  @Field(() => [String])
  @Property({ type: 'text[]' })
  synonyms: string[] = [];

  @Field(() => Int)
  @Property({ type: 'integer' })
  comments_count: number = 0;
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const personEntitySqlForms: readonly SqlForm[] = [
  sqlFields(Person, { data_type: sqlValue(() => `'person'`) }),
];
