import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import type { RequestContext } from '../context';
import { sqlRoot, type SqlForm } from '../graphql/sql-plan/fields';
import { findTitleBySlug, moduleSlug } from './catalog.service';
import { Manga } from './manga.entity';
import { ReadableTitleFields, readableTitleSqlForms } from './title-fields';

@Resolver(() => Manga)
export class MangaResolver extends ReadableTitleFields(Manga) {
  /** #16 GET /manga/{slug}: no authentication. */
  @Query(() => Manga, { description: 'Manga info (contract #16): the full record.' })
  manga(@Arg('slug', () => String) slug: string, @Ctx() ctx: RequestContext): Promise<Manga> {
    return findTitleBySlug(ctx.em, 'manga', slug, 'manga:not_found');
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const mangaSqlForms: readonly SqlForm[] = [
  // The same look-up in SQL (src/graphql/sql-plan).
  sqlRoot('manga', {
    kind: 'one',
    type: Manga,
    // findTitleBySlug: the module slug, deleted titles never found.
    rows: (manga, { slug }) => ({
      from: `manga ${manga}`,
      where: `${manga}.slug = ${slug} and not ${manga}.deleted`,
    }),
    values: ({ slug }) => ({ slug: moduleSlug(String(slug)) }),
    notFound: 'manga:not_found',
  }),
  ...readableTitleSqlForms(Manga, 'manga'),
];
