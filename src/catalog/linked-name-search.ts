import { type ListQuery } from '../common/pagination/paged-query';
import { type SearchedTexts, textMatchCondition, textMatchRank } from '../common/text-match';
import { concatSql, joinSql, sql } from '../db/sql';
import type { TitleLinks } from './title-link-counts';

/** A name search over people or characters: what they are linked to titles by, and the names searched. */
export interface LinkedNameSearch {
  links: TitleLinks;
  /** The names a query searches (SQL over alias `p`). */
  names: SearchedTexts;
  /** Whether a row linked to no live title is left out (orphan characters, §1.8). */
  linkedOnly: boolean;
}

/**
 * POST /people and POST /characters (pages.md "Catalogs"): the rows with the number of
 * live titles each is linked to; with a name query, its matches by rank, then reference
 * desc; otherwise all of them by that number desc, then slug.
 */
export function linkedNameSearchQuery(
  { links: { table, of }, names, linkedOnly }: LinkedNameSearch,
  query: string | null | undefined,
): ListQuery {
  return {
    reference: 'p.reference',
    from: `"${of}" p`,
    join: sql(
      `left join lateral (select count(*)::int as titles from ${table} l
         left join anime a on a.reference = l.anime_reference
         left join manga m on m.reference = l.manga_reference
         left join novel n on n.reference = l.novel_reference
        where l.${of}_reference = p.reference and not coalesce(a.deleted, m.deleted, n.deleted)) k on true`,
    ),
    where: joinSql([
      ...(query ? [textMatchCondition(names, query)] : []),
      ...(linkedOnly ? [sql('k.titles > 0')] : []),
    ]),
    orderBy: query
      ? concatSql(textMatchRank(names, query), ' desc, p.reference desc')
      : sql('k.titles desc, p.slug collate "C"'),
  };
}
