import { Entity, Index, ManyToOne, Property, Unique } from '@mikro-orm/core';
import { Field, ObjectType } from 'type-graphql';
import type { CompanyRole } from '../common/enums';
import { CompanyRoleEnum, ImageUrl } from '../common/scalars';
import { ReferencedEntity } from '../db/base.entity';
import { TrigramIndex } from '../db/trigram-index';
import type { Anime } from './anime.entity';

@ObjectType()
@Entity()
// For the typo-tolerant name search of POST /companies (pages.md "Catalogs").
@TrigramIndex('name')
export class Company extends ReferencedEntity {
  @Field(() => String)
  @Property({ type: 'text' })
  @Unique()
  slug!: string;

  @Field(() => String)
  @Property({ type: 'text' })
  name!: string;

  @Field(() => ImageUrl, { nullable: true })
  @Property({ type: 'text', nullable: true })
  image: string | null = null;
}

/** An anime's producer or studio (a CompanyLink of the anime's full record). */
@ObjectType('CompanyLink')
@Entity()
@Unique({ properties: ['anime', 'company', 'role'] })
@Index({ properties: ['company', 'role'] })
export class AnimeCompany extends ReferencedEntity {
  @ManyToOne({ entity: 'Anime', deleteRule: 'cascade' })
  anime!: Anime;

  @Field(() => Company)
  @ManyToOne(() => Company, { deleteRule: 'cascade' })
  company!: Company;

  @Field(() => CompanyRoleEnum, { name: 'type' })
  @Property({ type: 'text' })
  role!: CompanyRole;
}
