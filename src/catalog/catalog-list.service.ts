import type { EntityClass } from '@mikro-orm/core';
import type { TitleContentType } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import type { ErrorCode } from '../common/errors/catalog';
import { readConnection } from '../db/entity-manager';
import { type ListQuery, listPage } from '../common/pagination/paged-query';
import type { Page, PageArgs } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { joinSql, sql } from '../db/sql';
import { titleEntity, type TitleOf } from './catalog.service';
import {
  animeFilters,
  type AnimeListInput,
  type MangaListInput,
  readableFilters,
} from './catalog-list.inputs';
import { NSFW_GENRES, splitGenres, titleConditions, titleOrder, type TitleFilters } from './title-filters';
import { SEARCH, titleSearchJoin } from './title-search';

/** The slugs a catalog list's filters name. */
export interface ListSlugs {
  magazines?: readonly string[] | null;
  genres?: readonly string[] | null;
  producers?: readonly string[] | null;
  studios?: readonly string[] | null;
}

type SlugKind = 'magazine' | 'genre' | 'producer' | 'studio';

/** The error an unknown slug of each kind answers, per list, in the order they are checked. */
const UNKNOWN_SLUG: Record<TitleContentType, readonly [SlugKind, ErrorCode][]> = {
  anime: [
    ['producer', 'anime:unknown_producer'],
    ['studio', 'anime:unknown_studio'],
    ['genre', 'anime:unknown_genre'],
  ],
  manga: [
    ['magazine', 'manga:unknown_magazine'],
    ['genre', 'manga:unknown_genre'],
  ],
  novel: [
    ['magazine', 'novel:unknown_magazine'],
    ['genre', 'novel:unknown_genre'],
  ],
};

/** The table each kind of slug names a row of. */
const SLUG_TABLE: Record<SlugKind, string> = {
  magazine: 'magazine',
  genre: 'genre',
  producer: 'company',
  studio: 'company',
};

/**
 * The look-ups of a catalog list (semantics §2 #3, pages.md "Catalogs"): every
 * magazine slug names a magazine and is given once; every producer and studio slug names
 * a company; after removing `-` prefixes and duplicates, every genre slug names a genre.
 * The first kind with an unknown slug answers its error; one query for all, only when
 * slugs are given (without them the request's entity manager is not even forked).
 */
export async function checkListSlugs(ctx: RequestContext, kind: TitleContentType, slugs: ListSlugs) {
  const { include, exclude } = splitGenres(slugs.genres ?? []);
  const given: Record<SlugKind, readonly string[]> = {
    magazine: slugs.magazines ?? [],
    genre: [...new Set([...include, ...exclude])],
    producer: slugs.producers ?? [],
    studio: slugs.studios ?? [],
  };
  const checked = UNKNOWN_SLUG[kind].filter(([slugKind]) => given[slugKind].length > 0);
  if (checked.length === 0) return;
  const lookUps = checked.map(([slugKind]) =>
    sql(`select '${slugKind}' as kind, slug from ${SLUG_TABLE[slugKind]} where slug in (?)`, [
      ...given[slugKind],
    ]),
  );
  const statement = joinSql(lookUps, ' union all ');
  const rows = await readConnection(ctx.em).execute<{ kind: SlugKind; slug: string }[]>(
    statement.sql,
    statement.params,
  );
  for (const [slugKind, error] of checked) {
    const found = new Set(rows.filter((row) => row.kind === slugKind).map((row) => row.slug));
    const slugsOfKind = given[slugKind];
    const repeated = slugKind === 'magazine' && new Set(slugsOfKind).size !== slugsOfKind.length;
    if (repeated || slugsOfKind.some((slug) => !found.has(slug))) throw new AppError(error);
  }
}

/**
 * Non-deleted titles of one kind matching `filters`, ordered as §1.10 says: with a text
 * query and no `sort`, by match rank (best first, then reference desc); otherwise by
 * the sort entries.
 */
export async function titleListQuery(
  ctx: RequestContext,
  kind: TitleContentType,
  filters: TitleFilters,
  sort: readonly string[] | undefined,
): Promise<ListQuery> {
  const query = filters.query || undefined;
  return {
    reference: 't.reference',
    from: `${kind} t`,
    join: query === undefined ? undefined : await titleSearchJoin(ctx, kind, 't', query),
    where: joinSql(titleConditions(kind, 't', filters)),
    orderBy:
      query !== undefined && sort === undefined
        ? sql(`${SEARCH}.position, t.reference desc`)
        : titleOrder(kind, 't', sort),
  };
}

/** A page of the titles a list query selects: two queries whatever the page size. */
export function listTitles<K extends TitleContentType>(
  ctx: RequestContext,
  kind: K,
  query: ListQuery,
  args: PageArgs,
): Promise<Page<TitleOf[K]>> {
  return listPage(ctx.em, titleEntity(kind) as EntityClass<TitleOf[K]>, query, args);
}

/**
 * POST /anime, after validation (pages.md "Catalogs"): the caller (optional, no scope),
 * the company and genre look-ups, then the list. Anime rated `rx` are hidden (null
 * ratings stay) unless a rating is asked for, an explicit genre is named without `-`, or
 * a text query is given (decision 1); there is no genre auto-hide.
 */
export async function animeListQuery(ctx: RequestContext, input: AnimeListInput): Promise<ListQuery> {
  await ctx.auth.optional();
  await checkListSlugs(ctx, 'anime', input);
  const { query, sort } = input;
  const namesExplicitGenre = splitGenres(input.genres ?? []).include.some((slug) =>
    (NSFW_GENRES as readonly string[]).includes(slug),
  );
  const asksForRx = (input.rating ?? []).length > 0 || namesExplicitGenre || Boolean(query);
  return titleListQuery(ctx, 'anime', animeFilters(input, { query, hide_rx: !asksForRx }), sort ?? undefined);
}

/** POST /manga, after validation: #3's look-ups, filters and auto-hide for manga; optional caller, no scope. */
export async function mangaListQuery(ctx: RequestContext, input: MangaListInput): Promise<ListQuery> {
  await ctx.auth.optional();
  await checkListSlugs(ctx, 'manga', input);
  return titleListQuery(ctx, 'manga', readableFilters(input), input.sort);
}
