import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { Anime } from '../catalog/anime.entity';
import type { WatchStatus } from '../common/enums';
import { WatchStatusEnum } from '../common/scalars';
import { ListEntry } from './list-entry.entity';

@ObjectType()
@Entity()
@Unique({ properties: ['user', 'anime'] })
@Index({ properties: ['user', 'status'] })
export class WatchEntry extends ListEntry {
  @ManyToOne(() => Anime, { deleteRule: 'cascade', index: true })
  anime!: Anime;

  @Field(() => WatchStatusEnum)
  @Property({ type: 'text' })
  status!: WatchStatus;

  @Field(() => Int)
  @Property({ type: 'integer' })
  episodes: number = 0;

  @Field(() => Int)
  @Property({ type: 'smallint' })
  rewatches: number = 0;

  /** Minutes watched (semantics §6.3). */
  @Field(() => Int)
  @Property({ type: 'integer' })
  duration: number = 0;
}
