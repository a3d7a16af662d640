import { Arg, Args, Ctx, ObjectType, Query, Resolver } from 'type-graphql';
import { titleSubject } from '../catalog/catalog.service';
import type { TitleContentType } from '../common/enums';
import { PageArgs, PagedType } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { sqlRoot, type SqlForm } from '../graphql/sql-plan/fields';
import { Appearance } from './appearance.entity';
import { titleCharacters, titleCharactersQuery } from './characters.service';

@ObjectType()
export class AnimeCharacterPage extends PagedType(Appearance) {}

@ObjectType()
export class MangaCharacterPage extends PagedType(Appearance) {}

@ObjectType()
export class NovelCharacterPage extends PagedType(Appearance) {}

const ORDER = 'main characters first, then by English name and reference';

/** The characters of a title, one root per kind; no authentication. */
@Resolver()
export class CharactersResolver {
  /** GET /anime/{slug}/characters. */
  @Query(() => AnimeCharacterPage, { description: `Characters of an anime: ${ORDER}.` })
  animeCharacters(
    @Arg('slug', () => String) slug: string,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<AnimeCharacterPage> {
    return titleCharacters(ctx.em, 'anime', slug, page);
  }

  /** GET /manga/{slug}/characters. */
  @Query(() => MangaCharacterPage, { description: `Characters of a manga: ${ORDER}.` })
  mangaCharacters(
    @Arg('slug', () => String) slug: string,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<MangaCharacterPage> {
    return titleCharacters(ctx.em, 'manga', slug, page);
  }

  /** #19 GET /novel/{slug}/characters. */
  @Query(() => NovelCharacterPage, { description: `Characters of a novel (contract #19): ${ORDER}.` })
  novelCharacters(
    @Arg('slug', () => String) slug: string,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<NovelCharacterPage> {
    return titleCharacters(ctx.em, 'novel', slug, page);
  }
}

/** The page of `kind`'s root in one SQL statement (src/graphql/sql-plan). */
const titleCharactersSqlRoot = (kind: TitleContentType) =>
  sqlRoot(`${kind}Characters`, {
    kind: 'page',
    item: Appearance,
    subject: (args) => titleSubject(kind, String(args.slug), `${kind}:not_found`),
    query: async (_ctx, _args, title) => titleCharactersQuery(kind, title),
  });

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const charactersSqlForms: readonly SqlForm[] = [
  titleCharactersSqlRoot('anime'),
  titleCharactersSqlRoot('manga'),
  titleCharactersSqlRoot('novel'),
];
