import type { EntityManager } from '@mikro-orm/postgresql';
import { findUserByUsername } from '../accounts/users.service';
import { animeFilters } from '../catalog/catalog-list.inputs';
import { titleConditions, titleSortColumn } from '../catalog/title-filters';
import { type ListQuery, listPage } from '../common/pagination/paged-query';
import { concatSql, joinSql, sql, type SqlFragment } from '../db/sql';
import type { Page, PageArgs } from '../common/pagination/pagination';
import { orderBySql, parseSort } from '../common/sorting';
import { DEFAULT_WATCH_LIST_SORT, type WatchListInput, type WatchListSortField } from './watch-list.inputs';
import { WatchEntry } from './watch-entry.entity';

const ENTRY_COLUMNS = {
  watch_episodes: 'w.episodes',
  watch_updated: 'w.updated',
  watch_created: 'w.created',
  watch_score: 'w.score',
} as const;

const sortColumn = (field: WatchListSortField): string =>
  field in ENTRY_COLUMNS
    ? ENTRY_COLUMNS[field as keyof typeof ENTRY_COLUMNS]
    : titleSortColumn('anime', 'a', field as Exclude<WatchListSortField, keyof typeof ENTRY_COLUMNS>);

/**
 * #21 POST /watch/{username}/list, after validation: the entries of the user (`user`: the
 * SQL of its reference) whose anime is not deleted and matches the anime filters of §1.9
 * (no NSFW hiding), ordered by the sort entries, then anime reference desc. No token is
 * ever read.
 */
export function watchListQuery(user: SqlFragment, input: WatchListInput): ListQuery {
  const entries = parseSort<WatchListSortField>(input.sort ?? DEFAULT_WATCH_LIST_SORT);
  return {
    reference: 'w.reference',
    from: 'watch_entry w join anime a on a.reference = w.anime_reference',
    where: joinSql([
      concatSql('w.user_reference = ', user),
      ...(input.watch_status ? [sql('w.status = ?', input.watch_status)] : []),
      ...titleConditions('anime', 'a', animeFilters(input)),
    ]),
    orderBy: sql([...orderBySql(entries, sortColumn), 'a.reference desc'].join(', ')),
  };
}

/** A page of {@link watchListQuery} with each entry's anime, after the user's look-up. */
export async function watchList(
  em: EntityManager,
  username: string,
  input: WatchListInput,
  args: PageArgs,
): Promise<Page<WatchEntry>> {
  const user = await findUserByUsername(em, username);
  return listPage(em, WatchEntry, watchListQuery(sql('?', user.reference), input), args, ['anime']);
}
