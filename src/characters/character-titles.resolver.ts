import { Arg, Args, Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import { Anime } from '../catalog/anime.entity';
import { Manga } from '../catalog/manga.entity';
import { Novel } from '../catalog/novel.entity';
import type { TitleContentType } from '../common/enums';
import type { Page } from '../common/pagination/pagination';
import { PageArgs, PagedType } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { sqlFields, sqlRoot, sqlRows, sqlValue, type SqlForm } from '../graphql/sql-plan/fields';
import { Appearance } from './appearance.entity';
import {
  characterSubject,
  characterTitles,
  characterTitlesQuery,
  findCharacterBySlug,
} from './character-titles.service';

const MAIN = 'Whether the character is a main character of the title.';

// Each item is a view of an appearance row: `main` and the title under its kind's name.
@ObjectType({ description: 'An anime a character appears in.' })
export class CharacterAnimeItem {
  @Field(() => Boolean, { description: MAIN }) main!: boolean;
  @Field(() => Anime) anime!: Anime;
}

@ObjectType({ description: 'A manga a character appears in.' })
export class CharacterMangaItem {
  @Field(() => Boolean, { description: MAIN }) main!: boolean;
  @Field(() => Manga) manga!: Manga;
}

@ObjectType({ description: 'A novel a character appears in.' })
export class CharacterNovelItem {
  @Field(() => Boolean, { description: MAIN }) main!: boolean;
  @Field(() => Novel) novel!: Novel;
}

@ObjectType()
export class CharacterAnimePage extends PagedType(CharacterAnimeItem) {}

@ObjectType()
export class CharacterMangaPage extends PagedType(CharacterMangaItem) {}

@ObjectType()
export class CharacterNovelPage extends PagedType(CharacterNovelItem) {}

/** What the caller's entries on each kind's items need from a third-party token (none for anime, as the original). */
const SCOPES: Record<TitleContentType, readonly string[]> = {
  anime: [],
  manga: ['read:readlist'],
  novel: ['read:readlist'],
};

const ORDER = 'by title score, scored_by and reference, all desc';

/**
 * The titles a character appears in, one root per kind: optional authentication; the
 * character is found before a third-party token's scopes are checked. The page's items
 * are the appearances themselves, whose `main` and title the item types read.
 */
@Resolver()
export class CharacterTitlesResolver {
  /** GET /characters/{slug}/anime: no scope. */
  @Query(() => CharacterAnimePage, { description: `Anime of a character, ${ORDER}.` })
  characterAnime(
    @Arg('slug', () => String) slug: string,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<Page<Appearance>> {
    return pageOf(ctx, 'anime', slug, page);
  }

  /** GET /characters/{slug}/manga: scope `read:readlist`. */
  @Query(() => CharacterMangaPage, { description: `Manga of a character, ${ORDER}.` })
  characterManga(
    @Arg('slug', () => String) slug: string,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<Page<Appearance>> {
    return pageOf(ctx, 'manga', slug, page);
  }

  /** #8 GET /characters/{slug}/novel: scope `read:readlist`. */
  @Query(() => CharacterNovelPage, { description: `Novels of a character (contract #8), ${ORDER}.` })
  characterNovels(
    @Arg('slug', () => String) slug: string,
    @Args(() => PageArgs) page: PageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<Page<Appearance>> {
    return pageOf(ctx, 'novel', slug, page);
  }
}

async function pageOf(ctx: RequestContext, kind: TitleContentType, slug: string, page: PageArgs) {
  await ctx.auth.optional();
  const character = await findCharacterBySlug(ctx.em, slug);
  await ctx.auth.optional(SCOPES[kind]);
  return characterTitles(ctx.em, kind, character, page);
}

/** `kind`'s root in one SQL statement (src/graphql/sql-plan), its items views of appearance rows. */
const characterTitlesSql = (field: string, kind: TitleContentType, Item: new () => object): SqlForm[] => [
  sqlRoot(field, {
    kind: 'page',
    item: Appearance,
    view: Item,
    subject: (args) => characterSubject(String(args.slug)),
    query: async (_ctx, _args, character) => characterTitlesQuery(kind, character),
    scopes: SCOPES[kind],
  }),
  sqlFields(Item, {
    main: sqlValue((appearance) => `${appearance}.main`),
    [kind]: sqlRows((appearance, title) => ({
      from: `${kind} ${title}`,
      where: `${title}.reference = ${appearance}.${kind}_reference`,
    })),
  }),
];

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const characterTitlesSqlForms: readonly SqlForm[] = [
  ...characterTitlesSql('characterAnime', 'anime', CharacterAnimeItem),
  ...characterTitlesSql('characterManga', 'manga', CharacterMangaItem),
  ...characterTitlesSql('characterNovels', 'novel', CharacterNovelItem),
];
