import { Entity, Index, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import type { NovelMediaType } from '../common/enums';
import { TitleMediaTypeEnum } from '../common/scalars';
import { sqlFields, sqlValue } from '../graphql/sql-plan/fields';
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

sqlFields(Novel, { data_type: sqlValue(() => `'novel'`) });
