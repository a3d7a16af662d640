import { Resolver } from 'type-graphql';
import type { SqlForm } from '../graphql/sql-plan/fields';
import { Novel } from './novel.entity';
import { ReadableTitleFields, readableTitleSqlForms } from './title-fields';

@Resolver(() => Novel)
export class NovelResolver extends ReadableTitleFields(Novel) {}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const novelSqlForms: readonly SqlForm[] = readableTitleSqlForms(Novel, 'novel');
