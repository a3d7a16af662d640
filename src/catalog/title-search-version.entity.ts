import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import type { TitleContentType } from '../common/enums';

/**
 * Per title kind, a version that triggers renew with every change to what a text query
 * can match (migration `title_search_version`); src/catalog/title-search.ts keeps a
 * query's matches while it holds. Written by the database only.
 */
@Entity()
export class TitleSearchVersion {
  @PrimaryKey({ type: 'text' })
  kind!: TitleContentType;

  @Property({ type: 'uuid', defaultRaw: 'gen_random_uuid()' })
  version!: string;
}
