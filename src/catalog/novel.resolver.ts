import { Arg, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../context';
import { sqlFields, type SqlForm } from '../graphql/sql-plan/fields';
import { findTitleBySlug } from './catalog.service';
import { Novel } from './novel.entity';
import { ExternalLink } from './readable-title.entity';
import {
  ReadableTitleFields,
  readableTitleSqlForms,
  storedExternalLinksSql,
  titleBySlugSqlRoot,
} from './title-fields';

@Resolver(() => Novel)
export class NovelResolver extends ReadableTitleFields(Novel) {
  /** GET /novel/{slug}: no authentication. */
  @Query(() => Novel, { description: 'GET /novel/{slug}: a novel’s full record.' })
  novel(@Arg('slug', () => String) slug: string, @Ctx() ctx: RequestContext): Promise<Novel> {
    return findTitleBySlug(ctx.em, 'novel', slug, 'novel:not_found');
  }

  @FieldResolver(() => [ExternalLink], {
    description: 'Every link in stored order (novel links are not reordered).',
  })
  external(@Root() novel: Novel): ExternalLink[] {
    return novel.external;
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const novelSqlForms: readonly SqlForm[] = [
  titleBySlugSqlRoot(Novel, 'novel', 'novel:not_found'),
  ...readableTitleSqlForms(Novel, 'novel'),
  sqlFields(Novel, { external: storedExternalLinksSql }),
];
