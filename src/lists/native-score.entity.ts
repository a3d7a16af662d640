import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import type { TitleContentType } from '../common/enums';

/**
 * Per content type, the sum and number of positive list scores: the mean `C` of the
 * native score formula (semantics §6.1), kept current with every entry change.
 */
@Entity()
export class NativeScoreBaseline {
  @PrimaryKey({ type: 'text' })
  content_type!: TitleContentType;

  @Property({ type: 'bigint' })
  total: string = '0';

  @Property({ type: 'integer' })
  count: number = 0;
}
