import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import type { TitleContentType } from '../common/enums';

/**
 * Per content type, the sum and number of positive list scores: the mean `C` of the
 * native score formula (semantics §6.1), kept current with every entry change. Kept in
 * shards (their sums count): each entry change moves one shard, picked at random, so
 * that concurrent changes seldom wait for one another's row.
 */
@Entity()
export class NativeScoreBaseline {
  @PrimaryKey({ type: 'text' })
  content_type!: TitleContentType;

  @PrimaryKey({ type: 'smallint' })
  shard: number = 0;

  @Property({ type: 'bigint' })
  total: string = '0';

  @Property({ type: 'integer' })
  count: number = 0;
}
