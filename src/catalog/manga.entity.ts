import { Entity, Index, Property } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import type { MangaMediaType } from '../common/enums';
import { MangaMediaTypeScalar } from '../common/scalars';
import { ReadableTitle } from './readable-title.entity';

@ObjectType()
@Entity()
@Index({ properties: ['media_type'] })
export class Manga extends ReadableTitle {
  @Field(() => String)
  get data_type(): 'manga' {
    return 'manga';
  }

  @Field(() => MangaMediaTypeScalar, { nullable: true })
  @Property({ type: 'text', nullable: true })
  media_type: MangaMediaType | null = null;
}
