import type { EntityClass } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findUserByUsername, userSubject } from '../accounts/users.service';
import { titleEntity } from '../catalog/catalog.service';
import type { CatalogTitle } from '../catalog/catalog-title.entity';
import type { Manga } from '../catalog/manga.entity';
import type { Novel } from '../catalog/novel.entity';
import type { ReadContentType, ReadStatus } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import { concatSql, sql } from '../db/sql';
import type { SqlSubject } from '../graphql/sql-plan/fields';

/**
 * #18 in SQL: the title of one of the user's (`user`: the SQL of its reference) read
 * entries of that kind and status whose title is live, the one at rank
 * floor(`random` × count) in entry reference order, in one statement (a list cannot
 * change between counting and picking); null when there is none. Its placeholders take
 * the kind, the status and the random number.
 */
const randomTitleSql = (kind: ReadContentType, user: string): string =>
  `(select c.title from (
      select e.${kind}_reference as title, row_number() over (order by e.reference) - 1 as rank, count(*) over () as total
        from read_entry e join ${kind} t on t.reference = e.${kind}_reference
       where e.user_reference = ${user} and e.content_type = ? and e.status = ? and not t.deleted
    ) c where c.rank = floor(?::float8 * c.total))`;

/** #18: a uniformly random live title of the user's read list with that kind and status. */
export async function randomReadTitle(
  em: EntityManager,
  username: string,
  kind: ReadContentType,
  status: ReadStatus,
): Promise<Manga | Novel> {
  const user = await findUserByUsername(em, username);
  const [row] = await em.execute<{ reference: string | null }[]>(
    `select ${randomTitleSql(kind, '?')} as reference`,
    [user.reference, kind, status, Math.random()],
  );
  if (!row?.reference) throw new AppError('read:empty_random');
  const title = await em.findOne(titleEntity(kind) as EntityClass<CatalogTitle>, {
    reference: row.reference,
  });
  if (!title) throw new AppError('read:empty_random');
  return title as Manga | Novel;
}

/**
 * {@link randomReadTitle} as a compiled root's subject: the user's look-up and refusal,
 * with the picked title's reference (null for an empty pick).
 */
export function randomReadSubject(username: string, kind: ReadContentType, status: ReadStatus): SqlSubject {
  const user = userSubject(username);
  return {
    select: concatSql(
      sql(
        `select ${randomTitleSql(kind, 's.reference')} as reference, s.refused from (`,
        kind,
        status,
        Math.random(),
      ),
      user.select,
      ') s',
    ),
    notFound: user.notFound,
  };
}
