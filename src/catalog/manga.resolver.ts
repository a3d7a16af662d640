import { Arg, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../context';
import { sqlFields, type SqlForm } from '../graphql/sql-plan/fields';
import { findTitleBySlug } from './catalog.service';
import { Manga } from './manga.entity';
import { ExternalLink } from './readable-title.entity';
import {
  displayedExternalLinks,
  displayedExternalLinksSql,
  ReadableTitleFields,
  readableTitleSqlForms,
  titleBySlugSqlRoot,
} from './title-fields';

@Resolver(() => Manga)
export class MangaResolver extends ReadableTitleFields(Manga) {
  /** #16 GET /manga/{slug}: no authentication. */
  @Query(() => Manga, { description: 'Manga info (contract #16): the full record.' })
  manga(@Arg('slug', () => String) slug: string, @Ctx() ctx: RequestContext): Promise<Manga> {
    return findTitleBySlug(ctx.em, 'manga', slug, 'manga:not_found');
  }

  @FieldResolver(() => [ExternalLink], {
    description: '`general` links, then `read` links with `Dengeki` first; other types left out.',
  })
  external(@Root() manga: Manga): ExternalLink[] {
    return displayedExternalLinks(manga.external);
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const mangaSqlForms: readonly SqlForm[] = [
  titleBySlugSqlRoot(Manga, 'manga', 'manga:not_found'),
  ...readableTitleSqlForms(Manga, 'manga'),
  sqlFields(Manga, { external: displayedExternalLinksSql }),
];
