import { QueryOrder, type EntityClass } from '@mikro-orm/core';
import { Arg, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import { Anime } from '../catalog/anime.entity';
import { titleEntity, type TitleOf } from '../catalog/catalog.service';
import type { CatalogTitle } from '../catalog/catalog-title.entity';
import { Manga } from '../catalog/manga.entity';
import { Novel } from '../catalog/novel.entity';
import type { TitleContentType } from '../common/enums';
import { groupedLoader } from '../common/loaders';
import { TitleContentTypeEnum } from '../common/scalars';
import type { RequestContext } from '../context';
import { sqlFields, sqlRoot, sqlRows, type SqlForm } from '../graphql/sql-plan/fields';
import { Franchise } from './franchise.entity';
import { franchiseOf, franchiseSubject } from './franchise.service';

const TITLE_ORDER = 'start_date desc nulls last, reference asc';

const franchiseTitlesSql = (kind: TitleContentType) =>
  sqlRows((franchise, title) => ({
    from: `${kind} ${title}`,
    where: `${title}.franchise_reference = ${franchise}.reference and not ${title}.deleted`,
    // franchiseTitles' order.
    orderBy: `${title}.start_date desc nulls last, ${title}.reference asc`,
  }));

/** Non-deleted titles of one kind in many franchises, `start_date` desc nulls last, then reference. */
function franchiseTitles<K extends TitleContentType>(ctx: RequestContext, kind: K) {
  return groupedLoader<TitleOf[K]>(
    ctx,
    `franchise:${kind}`,
    async (franchises) => {
      const titles = await ctx.em.find(
        titleEntity(kind) as EntityClass<CatalogTitle>,
        { franchise: { $in: [...franchises] }, deleted: false },
        { orderBy: [{ start_date: QueryOrder.DESC_NULLS_LAST }, { reference: QueryOrder.ASC }] },
      );
      return titles as TitleOf[K][];
    },
    (title) => title.franchise!.reference,
  );
}

@Resolver(() => Franchise)
export class FranchiseResolver {
  /** #13 GET /related/{content_type}/{slug}/franchise: optional authentication, no scope. */
  @Query(() => Franchise, {
    description: `Franchise of a title (contract #13); each list by ${TITLE_ORDER}.`,
  })
  async franchise(
    @Arg('content_type', () => TitleContentTypeEnum) contentType: TitleContentType,
    @Arg('slug', () => String) slug: string,
    @Ctx() ctx: RequestContext,
  ): Promise<Franchise> {
    await ctx.auth.optional();
    return franchiseOf(ctx.em, contentType, slug);
  }

  @FieldResolver(() => [Anime])
  anime(@Root() franchise: Franchise, @Ctx() ctx: RequestContext): Promise<Anime[]> {
    return franchiseTitles(ctx, 'anime').load(franchise.reference);
  }

  @FieldResolver(() => [Manga])
  manga(@Root() franchise: Franchise, @Ctx() ctx: RequestContext): Promise<Manga[]> {
    return franchiseTitles(ctx, 'manga').load(franchise.reference);
  }

  @FieldResolver(() => [Novel])
  novel(@Root() franchise: Franchise, @Ctx() ctx: RequestContext): Promise<Novel[]> {
    return franchiseTitles(ctx, 'novel').load(franchise.reference);
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const franchiseSqlForms: readonly SqlForm[] = [
  // The same look-up and lists in SQL (src/graphql/sql-plan).
  sqlRoot('franchise', {
    kind: 'one',
    type: Franchise,
    rows: (franchise, _args, title) => ({
      from: `franchise ${franchise}`,
      where: `${franchise}.reference = ${title}`,
    }),
    subject: (args) => franchiseSubject(args.content_type as TitleContentType, String(args.slug)),
    scopes: [],
  }),
  sqlFields(Franchise, {
    anime: franchiseTitlesSql('anime'),
    manga: franchiseTitlesSql('manga'),
    novel: franchiseTitlesSql('novel'),
  }),
];
