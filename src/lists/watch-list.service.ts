import type { EntityManager } from '@mikro-orm/postgresql';
import { findUserByUsername } from '../accounts/users.service';
import { animeFilters } from '../catalog/catalog-list.inputs';
import { loadInOrder, pagedReferences } from '../catalog/catalog-list.service';
import { joinSql, sql, titleConditions, titleSortColumn } from '../catalog/title-filters';
import { type Page, type PageArgs, toPage } from '../common/pagination/pagination';
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
 * #21 POST /watch/{username}/list, after validation: the user's entries whose anime is
 * not deleted and matches the anime filters of §1.9 (no NSFW hiding), ordered by the
 * sort entries, then anime reference desc. No token is ever read. Three queries.
 */
export async function watchList(
  em: EntityManager,
  username: string,
  input: WatchListInput,
  args: PageArgs,
): Promise<Page<WatchEntry>> {
  const user = await findUserByUsername(em, username);
  const entries = parseSort<WatchListSortField>(input.sort ?? DEFAULT_WATCH_LIST_SORT);
  const { references, total } = await pagedReferences(
    em,
    {
      reference: 'w.reference',
      from: 'watch_entry w join anime a on a.reference = w.anime_reference',
      where: joinSql([
        sql('w.user_reference = ?', user.reference),
        ...(input.watch_status ? [sql('w.status = ?', input.watch_status)] : []),
        ...titleConditions('anime', 'a', animeFilters(input)),
      ]),
      orderBy: sql([...orderBySql(entries, sortColumn), 'a.reference desc'].join(', ')),
    },
    args,
  );
  const list = await loadInOrder(em, WatchEntry, references, ['anime']);
  return toPage(list, total, args);
}
