import type { EntityManager } from '@mikro-orm/postgresql';
import { findUserByUsername } from '../accounts/users.service';
import { readableFilters } from '../catalog/catalog-list.inputs';
import { titleConditions, titleSortColumn, type TitleSortField } from '../catalog/title-filters';
import { MANGA_MEDIA_TYPES, NOVEL_MEDIA_TYPES, type ReadContentType } from '../common/enums';
import { validationError } from '../common/errors/app-error';
import { type ListQuery, listPage } from '../common/pagination/paged-query';
import type { Page, PageArgs } from '../common/pagination/pagination';
import { orderBySql, parseSort } from '../common/sorting';
import { concatSql, joinSql, sql, type SqlFragment } from '../db/sql';
import { DEFAULT_READ_LIST_SORT, type ReadListInput, type ReadListSortField } from './read-list.inputs';
import { ReadEntry } from './read-entry.entity';

const MEDIA_TYPES: Record<ReadContentType, readonly string[]> = {
  manga: MANGA_MEDIA_TYPES,
  novel: NOVEL_MEDIA_TYPES,
};

const ENTRY_COLUMNS: Partial<Record<ReadListSortField, string>> = {
  read_chapters: 'e.chapters',
  read_volumes: 'e.volumes',
  read_updated: 'e.updated',
  read_created: 'e.created',
  read_score: 'e.score',
};

/**
 * The one body rule a schema shared by both kinds cannot hold: media types of the list's
 * kind. It runs once the body has its shape, so a body that also breaks a later field
 * reports that field (the one exception to the field order of §1.1.1).
 */
export function checkReadListInput(kind: ReadContentType, input: ReadListInput): void {
  if ((input.media_type ?? []).some((type) => !MEDIA_TYPES[kind].includes(type))) {
    throw validationError('body', 'media_type');
  }
}

/**
 * POST /read/{content_type}/{username}/list, after validation (pages.md "User profile"):
 * the user's (`user`: the SQL of its reference) entries of that kind
 * whose title is not deleted and matches the filters of §1.9 (no NSFW hiding), ordered by
 * the sort entries, then title reference desc.
 */
export function readListQuery(kind: ReadContentType, user: SqlFragment, input: ReadListInput): ListQuery {
  const entries = parseSort<ReadListSortField>(input.sort ?? DEFAULT_READ_LIST_SORT);
  const column = (field: ReadListSortField): string =>
    ENTRY_COLUMNS[field] ?? titleSortColumn(kind, 't', field as TitleSortField);
  return {
    reference: 'e.reference',
    from: `read_entry e join ${kind} t on t.reference = e.${kind}_reference`,
    where: joinSql([
      concatSql('e.user_reference = ', user),
      sql('e.content_type = ?', kind),
      ...(input.read_status ? [sql('e.status = ?', input.read_status)] : []),
      ...titleConditions(kind, 't', { ...readableFilters(input), hide_nsfw: false }),
    ]),
    orderBy: sql([...orderBySql(entries, column), 't.reference desc'].join(', ')),
  };
}

/** A page of {@link readListQuery} with each entry's title: validation, the user's look-up, the list. */
export async function readList(
  em: EntityManager,
  kind: ReadContentType,
  username: string,
  input: ReadListInput,
  args: PageArgs,
): Promise<Page<ReadEntry>> {
  checkReadListInput(kind, input);
  const user = await findUserByUsername(em, username);
  return listPage(em, ReadEntry, readListQuery(kind, sql('?', user.reference), input), args, [kind]);
}
