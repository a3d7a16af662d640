import type { EntityClass } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findUserByUsername, userSubject } from '../accounts/users.service';
import { titleEntity, type TitleOf } from '../catalog/catalog.service';
import type { CatalogTitle } from '../catalog/catalog-title.entity';
import type { ReadStatus, TitleContentType, WatchStatus } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import type { ErrorCode } from '../common/errors/catalog';
import { concatSql, sql } from '../db/sql';
import type { SqlSubject } from '../graphql/sql-plan/fields';

/** Where each kind's entries are, and the error an empty pick answers. */
const ENTRIES: Record<TitleContentType, { table: string; ofKind: string; empty: ErrorCode }> = {
  anime: { table: 'watch_entry', ofKind: 'true', empty: 'watch:empty_random' },
  manga: { table: 'read_entry', ofKind: "e.content_type = 'manga'", empty: 'read:empty_random' },
  novel: { table: 'read_entry', ofKind: "e.content_type = 'novel'", empty: 'read:empty_random' },
};

/**
 * A random pick in SQL: the title of one of the user's (`user`: the SQL of its reference)
 * list entries of that kind and status whose title is live, the one at rank
 * floor(`random` × count) in entry reference order, in one statement (a list cannot
 * change between counting and picking); null when there is none. Its placeholders take
 * the status and the random number.
 */
function randomTitleSql(kind: TitleContentType, user: string): string {
  const { table, ofKind } = ENTRIES[kind];
  return `(select c.title from (
      select e.${kind}_reference as title, row_number() over (order by e.reference) - 1 as rank, count(*) over () as total
        from ${table} e join ${kind} t on t.reference = e.${kind}_reference
       where e.user_reference = ${user} and ${ofKind} and e.status = ? and not t.deleted
    ) c where c.rank = floor(?::float8 * c.total))`;
}

/**
 * #18 (manga, novels) and its anime counterpart GET /watch/random/{username}/{status}: a
 * uniformly random live title of the user's list with that kind and status; 400
 * `read:empty_random` or `watch:empty_random` when there is none.
 */
export async function randomListTitle<K extends TitleContentType>(
  em: EntityManager,
  username: string,
  kind: K,
  status: K extends 'anime' ? WatchStatus : ReadStatus,
): Promise<TitleOf[K]> {
  const user = await findUserByUsername(em, username);
  const [row] = await em.execute<{ reference: string | null }[]>(
    `select ${randomTitleSql(kind, '?')} as reference`,
    [user.reference, status, Math.random()],
  );
  const empty = () => new AppError(ENTRIES[kind].empty);
  if (!row?.reference) throw empty();
  const title = await em.findOne(titleEntity(kind) as EntityClass<CatalogTitle>, {
    reference: row.reference,
  });
  if (!title) throw empty();
  return title as TitleOf[K];
}

/**
 * {@link randomListTitle} as a compiled root's subject: the user's look-up and refusal,
 * with the picked title's reference (null for an empty pick).
 */
export function randomListSubject(kind: TitleContentType, username: string, status: string): SqlSubject {
  const user = userSubject(username);
  return {
    select: concatSql(
      sql(
        `select ${randomTitleSql(kind, 's.reference')} as reference, s.refused from (`,
        status,
        Math.random(),
      ),
      user.select,
      ') s',
    ),
    notFound: user.notFound,
  };
}
