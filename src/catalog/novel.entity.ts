import { Entity, Index, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import type { NovelMediaType } from '../common/enums';
import { TitleMediaTypeEnum } from '../common/scalars';
import { sqlFields, sqlValue, type SqlForm } from '../graphql/sql-plan/fields';
import { ReadableTitle } from './readable-title.entity';

@ObjectType()
@Entity()
@Index({ properties: ['media_type'] })
export class Novel extends ReadableTitle {
  @Field(() => String)
  get data_type(): 'novel' {
    return 'novel';
  }

  @Field(() => TitleMediaTypeEnum, { nullable: true })
  @Property({ type: 'text', nullable: true })
  media_type: NovelMediaType | null = null;
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const novelEntitySqlForms: readonly SqlForm[] = [
  sqlFields(Novel, { data_type: sqlValue(() => `'novel'`) }),
];
