import { Arg, Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import { TITLE_CONTENT_TYPES, type TitleContentType } from '../common/enums';
import { TitleContentTypeEnum, UnixTime } from '../common/scalars';
import type { RequestContext } from '../context';
import { sqlRoot, sqlRowType, type SqlForm } from '../graphql/sql-plan/fields';

/** One title of a sitemap (pages.md "Sitemaps"). */
@ObjectType()
export class SitemapEntry {
  @Field(() => String)
  slug!: string;

  @Field(() => UnixTime, { nullable: true, description: 'When the title last changed.' })
  updated_at!: Date | null;
}

/**
 * Every live title of one kind (`kind`: SQL of the content type), by score, scored_by,
 * then reference; the branches of the other kinds fall away as the statement starts.
 */
const sitemapSql = (kind: string): string =>
  TITLE_CONTENT_TYPES.map(
    (table) =>
      `select t.slug, t.updated as updated_at, t.score, t.scored_by, t.reference
         from ${table} t where ${kind} = '${table}' and not t.deleted`,
  ).join(' union all ');

const SITEMAP_ORDER = (entry: string) => `${entry}.score desc, ${entry}.scored_by desc, ${entry}.reference`;

@Resolver()
export class SitemapResolver {
  @Query(() => [SitemapEntry], {
    description: 'GET /sitemap/sitemap_{content_type}.json: every live title of a kind, for search engines.',
  })
  sitemap(
    @Arg('content_type', () => TitleContentTypeEnum) kind: TitleContentType,
    @Ctx() ctx: RequestContext,
  ): Promise<SitemapEntry[]> {
    return ctx.em.execute<SitemapEntry[]>(
      `select e.slug, e.updated_at from (${sitemapSql('?')}) e order by ${SITEMAP_ORDER('e')}`,
      TITLE_CONTENT_TYPES.map(() => kind),
    );
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const sitemapSqlForms: readonly SqlForm[] = [
  sqlRowType(SitemapEntry),
  sqlRoot('sitemap', {
    kind: 'list',
    type: {
      argument: 'content_type',
      items: { anime: SitemapEntry, manga: SitemapEntry, novel: SitemapEntry },
    },
    rows: (entry, args) => ({
      from: `(${sitemapSql(args.content_type)}) ${entry}`,
      orderBy: SITEMAP_ORDER(entry),
    }),
  }),
];
