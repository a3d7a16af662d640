import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../common/errors/app-error';
import { type ListQuery, listPage } from '../common/pagination/paged-query';
import type { Page, PageArgs } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { readConnection } from '../db/entity-manager';
import { joinSql, sql } from '../db/sql';
import { readableFilters } from './catalog-list.inputs';
import { titleListQuery } from './catalog-list.service';
import { Novel } from './novel.entity';
import type { NovelSearchInput } from './novel-search.inputs';
import { splitGenres } from './title-filters';

/** Which of the given magazine and genre slugs name a row, in one query. */
async function existingSlugs(em: EntityManager, magazines: readonly string[], genres: readonly string[]) {
  const found = { magazine: new Set<string>(), genre: new Set<string>() };
  const lookups = [
    ...(magazines.length > 0
      ? [sql(`select 'magazine' as kind, slug from magazine where slug in (?)`, [...magazines])]
      : []),
    ...(genres.length > 0
      ? [sql(`select 'genre' as kind, slug from genre where slug in (?)`, [...genres])]
      : []),
  ];
  if (lookups.length === 0) return found;
  const statement = joinSql(lookups, ' union all ');
  const rows = await readConnection(em).execute<{ kind: 'magazine' | 'genre'; slug: string }[]>(
    statement.sql,
    statement.params,
  );
  for (const row of rows) found[row.kind].add(row.slug);
  return found;
}

/**
 * #3's look-ups (semantics §2 #3): every magazine slug names a magazine and is given
 * once, else `novel:unknown_magazine`; after removing `-` prefixes and duplicates, every
 * genre slug names a genre, else `novel:unknown_genre`.
 */
async function checkSlugs(em: EntityManager, magazines: readonly string[], genres: readonly string[]) {
  const { include, exclude } = splitGenres(genres);
  const genreSlugs = [...new Set([...include, ...exclude])];
  const found = await existingSlugs(em, magazines, genreSlugs);
  if (new Set(magazines).size !== magazines.length || magazines.some((slug) => !found.magazine.has(slug)))
    throw new AppError('novel:unknown_magazine');
  if (genreSlugs.some((slug) => !found.genre.has(slug))) throw new AppError('novel:unknown_genre');
}

/**
 * #3 POST /novel, after validation: the scope of a third-party token (`read:readlist`),
 * then the magazine and genre look-ups (one query, only when given), then the list
 * (semantics §2 #3).
 */
export async function novelSearchQuery(ctx: RequestContext, input: NovelSearchInput): Promise<ListQuery> {
  await ctx.auth.optional(['read:readlist']);
  const magazines = input.magazines ?? [];
  const genres = input.genres ?? [];
  // Without slugs to check, the request's entity manager is not needed (nor forked).
  if (magazines.length > 0 || genres.length > 0) await checkSlugs(ctx.em, magazines, genres);
  return titleListQuery(ctx, 'novel', readableFilters(input), input.sort);
}

export async function searchNovels(
  ctx: RequestContext,
  input: NovelSearchInput,
  args: PageArgs,
): Promise<Page<Novel>> {
  return listPage(ctx.em, Novel, await novelSearchQuery(ctx, input), args);
}
