import { Check, Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import type { Manga } from '../catalog/manga.entity';
import type { Novel } from '../catalog/novel.entity';
import type { ReadContentType, ReadStatus } from '../common/enums';
import { ReadStatusEnum } from '../common/scalars';
import { ListEntry } from './list-entry.entity';

/** A manga or novel on a user's read list; exactly one of the two links is set. */
@ObjectType()
@Entity()
@Check({
  name: 'read_entry_one_title',
  expression: `(content_type = 'manga' and manga_reference is not null and novel_reference is null) or (content_type = 'novel' and novel_reference is not null and manga_reference is null)`,
})
@Unique({ properties: ['user', 'manga'] })
@Unique({ properties: ['user', 'novel'] })
@Index({ properties: ['user', 'content_type', 'status'] })
export class ReadEntry extends ListEntry {
  @Property({ type: 'text' })
  content_type!: ReadContentType;

  @ManyToOne({ entity: 'Manga', nullable: true, deleteRule: 'cascade', index: true })
  manga: Manga | null = null;

  @ManyToOne({ entity: 'Novel', nullable: true, deleteRule: 'cascade', index: true })
  novel: Novel | null = null;

  @Field(() => ReadStatusEnum)
  @Property({ type: 'text' })
  status!: ReadStatus;

  @Field(() => Int)
  @Property({ type: 'integer' })
  chapters: number = 0;

  @Field(() => Int)
  @Property({ type: 'integer' })
  volumes: number = 0;

  @Field(() => Int)
  @Property({ type: 'smallint' })
  rereads: number = 0;
}
