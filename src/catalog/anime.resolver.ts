import { Arg, Ctx, Field, FieldResolver, Int, ObjectType, Query, Resolver, Root } from 'type-graphql';
import type { AnimeOstType, AnimeVideoType } from '../common/enums';
import { groupedLoader } from '../common/loaders';
import { AnimeOstTypeEnum, AnimeVideoTypeEnum } from '../common/scalars';
import { compareSlugs } from '../common/sorting';
import type { RequestContext } from '../context';
import { sqlFields, sqlRowType, sqlRows, type SqlForm } from '../graphql/sql-plan/fields';
import { AiringEpisode, Anime } from './anime.entity';
import { findTitleBySlug } from './catalog.service';
import { AnimeCompany } from './company.entity';
import { ExternalLink } from './readable-title.entity';
import { CatalogTitleFields, catalogTitleSqlForms, titleBySlugSqlRoot } from './title-fields';

/** A promotional or music video of an anime. The service stores none yet: the import format has no field for them. */
@ObjectType()
export class AnimeVideo {
  @Field(() => String) url!: string;
  @Field(() => String, { nullable: true }) title!: string | null;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => AnimeVideoTypeEnum) video_type!: AnimeVideoType;
}

/** An opening or ending theme of an anime. The service stores none yet: the import format has no field for them. */
@ObjectType()
export class AnimeOst {
  @Field(() => Int) index!: number;
  @Field(() => String, { nullable: true }) title!: string | null;
  @Field(() => String, { nullable: true }) author!: string | null;
  @Field(() => String, { nullable: true }) spotify!: string | null;
  @Field(() => AnimeOstTypeEnum) ost_type!: AnimeOstType;
}

/** An anime's company links with their companies, studios first, then producers, each by company slug. */
const companyLinks = (ctx: RequestContext) =>
  groupedLoader(
    ctx,
    'anime:companies',
    async (anime) => {
      const links = await ctx.em.find(
        AnimeCompany,
        { anime: { $in: [...anime] } },
        { populate: ['company'] },
      );
      return links.sort(
        (a, b) =>
          Number(b.role === 'studio') - Number(a.role === 'studio') ||
          compareSlugs(a.company.slug, b.company.slug),
      );
    },
    (link) => link.anime.reference,
  );

/** An anime's airing episodes (semantics §6.5), by episode. */
const airingEpisodes = (ctx: RequestContext) =>
  groupedLoader(
    ctx,
    'anime:schedule',
    (anime) => ctx.em.find(AiringEpisode, { anime: { $in: [...anime] } }, { orderBy: { episode: 'asc' } }),
    (episode) => episode.anime.reference,
  );

@Resolver(() => Anime)
export class AnimeResolver extends CatalogTitleFields(Anime) {
  /** GET /anime/{slug}: no authentication. */
  @Query(() => Anime, { description: 'GET /anime/{slug}: an anime’s full record.' })
  anime(@Arg('slug', () => String) slug: string, @Ctx() ctx: RequestContext): Promise<Anime> {
    return findTitleBySlug(ctx.em, 'anime', slug, 'anime:not_found');
  }

  @FieldResolver(() => [AnimeCompany], {
    description: 'Studios first, then producers, each by company slug.',
  })
  companies(@Root() anime: Anime, @Ctx() ctx: RequestContext): Promise<AnimeCompany[]> {
    return companyLinks(ctx).load(anime.reference);
  }

  @FieldResolver(() => [AiringEpisode], { description: 'The airing episodes, by episode.' })
  schedule(@Root() anime: Anime, @Ctx() ctx: RequestContext): Promise<AiringEpisode[]> {
    return airingEpisodes(ctx).load(anime.reference);
  }

  @FieldResolver(() => [ExternalLink], { description: 'Always empty: the service stores no anime links.' })
  external(): ExternalLink[] {
    return [];
  }

  @FieldResolver(() => [AnimeVideo], { description: 'Always empty: the service stores no anime videos.' })
  videos(): AnimeVideo[] {
    return [];
  }

  @FieldResolver(() => [AnimeOst], { description: 'Always empty: the service stores no soundtracks.' })
  ost(): AnimeOst[] {
    return [];
  }
}

/** A list with no rows, for the fields the service stores nothing for: `columns` name the row's columns. */
const noRows = (columns: string) =>
  sqlRows((_anime, row) => ({ from: `(select ${columns} where false) ${row}` }));

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const animeSqlForms: readonly SqlForm[] = [
  titleBySlugSqlRoot(Anime, 'anime', 'anime:not_found'),
  ...catalogTitleSqlForms(Anime, 'anime'),
  sqlRowType(AnimeVideo),
  sqlRowType(AnimeOst),
  sqlFields(Anime, {
    companies: sqlRows((anime, link) => ({
      from: `anime_company ${link}`,
      where: `${link}.anime_reference = ${anime}.reference`,
      orderBy: `${link}.role = 'studio' desc,
        (select c.slug from company c where c.reference = ${link}.company_reference) collate "C"`,
    })),
    schedule: sqlRows((anime, episode) => ({
      from: `airing_episode ${episode}`,
      where: `${episode}.anime_reference = ${anime}.reference`,
      orderBy: `${episode}.episode`,
    })),
    // ExternalLink's fields read `<alias>.link` (title-fields.ts).
    external: noRows('null::jsonb as link'),
    videos: noRows(
      'null::text as url, null::text as title, null::text as description, null::text as video_type',
    ),
    ost: noRows(
      'null::integer as index, null::text as title, null::text as author, null::text as spotify, null::text as ost_type',
    ),
  }),
];
