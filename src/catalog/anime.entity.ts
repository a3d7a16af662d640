import { Collection, Entity, Index, ManyToOne, OneToMany, Property, Unique } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import type { AgeRating, AnimeMediaType, Season, Source } from '../common/enums';
import { AgeRatingEnum, TitleMediaTypeEnum, SeasonEnum, SourceScalar, UnixTime } from '../common/scalars';
import { ReferencedEntity } from '../db/base.entity';
import { TrigramIndex } from '../db/trigram-index';
import { CatalogTitle } from './catalog-title.entity';
import { sqlFields, sqlValue, type SqlForm } from '../graphql/sql-plan/fields';
import { AnimeCompany } from './company.entity';

@ObjectType()
@Entity()
@Index({ properties: ['media_type'] })
@TrigramIndex('title_ja')
export class Anime extends CatalogTitle {
  @Field(() => String)
  get data_type(): 'anime' {
    return 'anime';
  }

  @Field(() => String, { nullable: true })
  @Property({ type: 'text', nullable: true })
  title_ja: string | null = null;

  @Field(() => TitleMediaTypeEnum, { nullable: true })
  @Property({ type: 'text', nullable: true })
  media_type: AnimeMediaType | null = null;

  @Field(() => SeasonEnum, { nullable: true })
  @Property({ type: 'text', nullable: true })
  season: Season | null = null;

  @Field(() => SourceScalar, { nullable: true })
  @Property({ type: 'text', nullable: true })
  source: Source | null = null;

  @Field(() => AgeRatingEnum, { nullable: true })
  @Property({ type: 'text', nullable: true })
  rating: AgeRating | null = null;

  @Property({ type: 'integer', nullable: true })
  episodes_released: number | null = null;

  @Property({ type: 'integer', nullable: true })
  episodes_total: number | null = null;

  @Field(() => Int, { nullable: true, description: 'Minutes per episode.' })
  @Property({ type: 'integer', nullable: true })
  duration: number | null = null;

  // The contract types episode counts as strings; the columns stay integers.
  @Field(() => String, { name: 'episodes_released', nullable: true })
  get episodesReleasedText(): string | null {
    return this.episodes_released === null ? null : String(this.episodes_released);
  }

  @Field(() => String, { name: 'episodes_total', nullable: true })
  get episodesTotalText(): string | null {
    return this.episodes_total === null ? null : String(this.episodes_total);
  }

  @OneToMany(() => AnimeCompany, (link) => link.anime)
  companies = new Collection<AnimeCompany>(this);

  @OneToMany(() => AiringEpisode, (episode) => episode.anime)
  schedule = new Collection<AiringEpisode>(this);
}

/** One scheduled episode of an anime (semantics §6.5). */
@ObjectType()
@Entity()
@Unique({ properties: ['anime', 'episode'] })
@Index({ properties: ['anime', 'airing_at'] })
export class AiringEpisode extends ReferencedEntity {
  @ManyToOne(() => Anime, { deleteRule: 'cascade' })
  anime!: Anime;

  @Field(() => Int)
  @Property({ type: 'integer' })
  episode!: number;

  @Field(() => UnixTime)
  @Property({ type: 'datetime' })
  @Index()
  airing_at!: Date;
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const animeEntitySqlForms: readonly SqlForm[] = [
  sqlFields(Anime, {
    data_type: sqlValue(() => `'anime'`),
    episodes_released: sqlValue((anime) => `${anime}.episodes_released::text`),
    episodes_total: sqlValue((anime) => `${anime}.episodes_total::text`),
  }),
];
