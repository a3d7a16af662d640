import { Collection, Formula, Index, ManyToMany, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, Float, Int, ObjectType } from 'type-graphql';
import type { ReleaseStatus, TitleContentType } from '../common/enums';
import { ImageUrl, ReleaseStatusEnum, UnixTime } from '../common/scalars';
import { ReferencedEntity } from '../db/base.entity';
import { TrigramIndex } from '../db/trigram-index';
import type { Franchise } from '../franchises/franchise.entity';
import { sqlFields, sqlValue, type SqlForm } from '../graphql/sql-plan/fields';
import { Genre } from './genre.entity';

/**
 * The native score (semantics §6.1) of the `kind` title aliased `t`, current when read:
 * the formula inlined, with the type's mean read once per statement (see the migration
 * Migration20261129190000_native_score_inline).
 */
export const nativeScoreSql = (kind: TitleContentType, t: string): string =>
  `native_score_from(${t}."native_scored_by", ${t}."native_score_total", (select native_score_mean('${kind}')))`;

/**
 * Columns shared by anime, manga and novels. Catalog rows come from the importer;
 * `native_*` and `comments_count` are derived values kept current by their writers.
 */
@ObjectType()
// The default catalog order over live rows, and trigram indexes for typo-tolerant search (semantics §1.9).
@Index({
  properties: ['score', 'scored_by', 'reference'],
  expression: (table, _columns, name) =>
    `create index "${name}" on ${table} ("score" desc, "scored_by" desc, "reference" desc) where not "deleted"`,
})
// The same order over the titles the NSFW auto-hide keeps (#3's default list and its count).
@Index({
  properties: ['score', 'scored_by', 'reference', 'has_nsfw_genre'],
  expression: (table, _columns, name) =>
    `create index "${name}" on ${table} ("score" desc, "scored_by" desc, "reference" desc) where not "deleted" and not "has_nsfw_genre"`,
})
@TrigramIndex('title_ua')
@TrigramIndex('title_en')
@TrigramIndex('synonyms', 'names')
export abstract class CatalogTitle extends ReferencedEntity {
  @Field(() => String)
  @Property({ type: 'text' })
  @Unique()
  slug!: string;

  @Field(() => Int)
  @Property({ type: 'integer' })
  @Unique()
  extcat_id!: number;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  title_ua: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  title_en: string | null = null;

  @Field(() => [String])
  @Property({ type: 'text[]' })
  synonyms: string[] = [];

  @Field(() => ReleaseStatusEnum, { nullable: true })
  @Property({ type: 'text', nullable: true })
  status: ReleaseStatus | null = null;

  @Field(() => Int, { nullable: true })
  @Property({ type: 'integer', nullable: true })
  @Index()
  year: number | null = null;

  @Field(() => ImageUrl, { nullable: true })
  @Property({ type: 'text', nullable: true })
  image: string | null = null;

  @Field(() => Float)
  @Property({ type: 'double' })
  score: number = 0;

  @Field(() => Int)
  @Property({ type: 'integer' })
  scored_by: number = 0;

  /**
   * This service's own Bayesian score (semantics §6.1), computed in SQL from the
   * title's own figures and its content type's mean, so it is current whenever read.
   */
  @Field(() => Float)
  @Formula((table) => nativeScoreSql(table.name as TitleContentType, table.alias), { lazy: false })
  native_score!: number;

  /** Number of list entries with a score above 0. */
  @Field(() => Int)
  @Property({ type: 'integer' })
  native_scored_by: number = 0;

  /** Sum of those entries' scores. */
  @Property({ type: 'integer' })
  native_score_total: number = 0;

  @Field(() => UnixTime, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  start_date: Date | null = null;

  @Field(() => UnixTime, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  end_date: Date | null = null;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  translated_ua: boolean = false;

  @Field(() => Boolean)
  @Property({ type: 'boolean' })
  nsfw: boolean = false;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  synopsis_en: string | null = null;

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  synopsis_ua: string | null = null;

  @Field(() => Int)
  @Property({ type: 'integer' })
  comments_count: number = 0;

  @ManyToMany(() => Genre)
  genres = new Collection<Genre>(this);

  @ManyToOne({ entity: 'Franchise', nullable: true, deleteRule: 'set null', index: true })
  franchise: Franchise | null = null;

  @Field(() => Boolean)
  get has_franchise(): boolean {
    return this.franchise !== null;
  }

  /**
   * Whether the title has one of the NSFW genres (NSFW_GENRES), for the NSFW auto-hide
   * (semantics §1.9). Kept by triggers on the genre links and genre slugs (migration
   * 20261125160000), never written by the service.
   */
  @Property({ type: 'boolean', default: false })
  has_nsfw_genre: boolean = false;

  /** Soft delete: a deleted title is never found or listed (semantics §1.8). */
  @Property({ type: 'boolean' })
  deleted: boolean = false;

  @Field(() => UnixTime, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  created: Date | null = null;

  @Field(() => UnixTime, { nullable: true })
  @Property({ type: 'datetime', nullable: true })
  updated: Date | null = null;
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const catalogTitleEntitySqlForms: readonly SqlForm[] = [
  sqlFields(CatalogTitle, { has_franchise: sqlValue((title) => `${title}.franchise_reference is not null`) }),
];
