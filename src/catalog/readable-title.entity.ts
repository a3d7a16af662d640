import { Collection, ManyToMany, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import type { ExternalLinkType } from '../common/enums';
import { ExternalLinkTypeEnum } from '../common/scalars';
import { TrigramIndex } from '../db/trigram-index';
import { CatalogTitle } from './catalog-title.entity';
import { Magazine } from './magazine.entity';

@ObjectType()
export class ExternalLink {
  @Field(() => String)
  url!: string;

  @Field(() => String)
  text!: string;

  @Field(() => ExternalLinkTypeEnum)
  type!: ExternalLinkType;
}

/** Manga and novels share one shape (contract: "The same shape for both"). */
@ObjectType()
@TrigramIndex('title_original')
export abstract class ReadableTitle extends CatalogTitle {
  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  title_original: string | null = null;

  @Field(() => Int, { nullable: true })
  @Property({ type: 'integer', nullable: true })
  chapters: number | null = null;

  @Field(() => Int, { nullable: true })
  @Property({ type: 'integer', nullable: true })
  volumes: number | null = null;

  @ManyToMany(() => Magazine)
  magazines = new Collection<Magazine>(this);

  /** Links in stored (import) order. */
  @Property({ type: 'json' })
  external: ExternalLink[] = [];
}
