import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../common/errors/app-error';
import type { Page, PageArgs } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { readableFilters } from './catalog-list.inputs';
import { listTitles } from './catalog-list.service';
import type { Novel } from './novel.entity';
import type { NovelSearchInput } from './novel-search.inputs';
import { splitGenres } from './title-filters';

/** The slugs among `slugs` that name a row of `table`. */
async function existingSlugs(em: EntityManager, table: 'magazine' | 'genre', slugs: readonly string[]) {
  if (slugs.length === 0) return new Set<string>();
  const rows = await em
    .getConnection()
    .execute<{ slug: string }[]>(`select slug from ${table} where slug in (?)`, [[...slugs]]);
  return new Set(rows.map((row) => row.slug));
}

/** Every magazine slug names a magazine and is given once, else `novel:unknown_magazine`. */
async function checkMagazines(em: EntityManager, magazines: readonly string[]): Promise<void> {
  const found = await existingSlugs(em, 'magazine', magazines);
  if (new Set(magazines).size !== magazines.length || magazines.some((slug) => !found.has(slug))) {
    throw new AppError('novel:unknown_magazine');
  }
}

/** After removing `-` prefixes and duplicates, every genre slug names a genre, else `novel:unknown_genre`. */
async function checkGenres(em: EntityManager, genres: readonly string[]): Promise<void> {
  const { include, exclude } = splitGenres(genres);
  const slugs = [...new Set([...include, ...exclude])];
  const found = await existingSlugs(em, 'genre', slugs);
  if (slugs.some((slug) => !found.has(slug))) throw new AppError('novel:unknown_genre');
}

/**
 * #3 POST /novel, after validation: the scope of a third-party token (`read:readlist`),
 * then the magazine and genre look-ups, then the list (semantics §2 #3).
 */
export async function searchNovels(
  ctx: RequestContext,
  input: NovelSearchInput,
  args: PageArgs,
): Promise<Page<Novel>> {
  await ctx.auth.optional(['read:readlist']);
  await checkMagazines(ctx.em, input.magazines ?? []);
  await checkGenres(ctx.em, input.genres ?? []);
  return listTitles(ctx.em, 'novel', readableFilters(input), input.sort, args);
}
