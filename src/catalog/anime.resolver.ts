import { Resolver } from 'type-graphql';
import type { SqlForm } from '../graphql/sql-plan/fields';
import { Anime } from './anime.entity';
import { CatalogTitleFields, catalogTitleSqlForms } from './title-fields';

@Resolver(() => Anime)
export class AnimeResolver extends CatalogTitleFields(Anime) {}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const animeSqlForms: readonly SqlForm[] = catalogTitleSqlForms(Anime, 'anime');
