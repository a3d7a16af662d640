import { LRUCache } from 'lru-cache';
import type { TitleContentType } from '../common/enums';
import { type SearchedTexts, textMatchCondition, textMatchRank } from '../common/text-match';
import type { RequestContext } from '../context';
import { queryRows, sql, type SqlFragment, stringBytes } from '../db/sql';
import { searchedTitles } from './title-filters';

/**
 * The typo-tolerant text query of the catalog lists (semantics §1.9), as a join.
 *
 * Deciding what a query matches costs a trigram word similarity per title text, for
 * every candidate the trigram indexes give: for a query like "blade of" that is nearly
 * every title, tens of milliseconds. So what a query matches among the titles of a
 * kind — all of them, deleted ones too, best match first — is computed once and kept
 * (per database, in this process) for as long as `title_search_version` says no title
 * text of that kind changed (its triggers renew the version with every such change).
 * Each request reads the version (one short statement; with the matches when they must
 * be computed), and its list statement joins the kept matches to the titles, where
 * every other filter and the deleted flag apply as they are now.
 */

/** A query's matches: the titles' `extcat_id`s (unique per kind), best match first, as a PostgreSQL `int[]` literal. */
interface Matches {
  version: string | null;
  ids: string;
}

/**
 * Kept matches are bounded by the heap they take (src/heap-budget.ts counts it): a query
 * matching 6,000 titles keeps about 40 kB; one matching none, its key and a few hundred
 * bytes of bookkeeping.
 */
export const TITLE_SEARCH_BYTES = 4 * 1024 * 1024;
/** What lru-cache and the Matches object take for an entry beside its strings. */
const ENTRY_BYTES = 200;
/** A match list larger than this is used for its request only. */
const LARGEST_KEPT = 1024 * 1024;

/** What a kept query's matches are computed from, when they must be. */
interface MatchesRequest {
  ctx: RequestContext;
  kind: TitleContentType;
  query: string;
}

const keptPerDatabase = new WeakMap<object, LRUCache<string, Matches, MatchesRequest>>();

function keptMatches(ctx: RequestContext): LRUCache<string, Matches, MatchesRequest> {
  const database = ctx.sharedEm.getConnection('write');
  let kept = keptPerDatabase.get(database);
  if (!kept) {
    kept = new LRUCache<string, Matches, MatchesRequest>({
      maxSize: TITLE_SEARCH_BYTES,
      maxEntrySize: LARGEST_KEPT,
      sizeCalculation: (matches, key) =>
        ENTRY_BYTES + stringBytes(key) + stringBytes(matches.ids) + stringBytes(matches.version ?? ''),
      // Concurrent requests for the same query wait for one computation.
      fetchMethod: async (_key, _stale, { context: { ctx, kind, query } }) => {
        const [computed] = await queryRows<Matches>(
          ctx.sharedEm,
          computeMatches(kind, query),
          ctx.readConnectionType,
        );
        return computed;
      },
    });
    keptPerDatabase.set(database, kept);
  }
  return kept;
}

/** What a text query searches in a title of `kind` under alias `t`: its titles and synonyms. */
const searchedTexts = (kind: TitleContentType, t: string): SearchedTexts => ({
  texts: searchedTitles(kind).map((column) => `${t}.${column}`),
  synonyms: `${t}.synonyms`,
});

/** The version of a kind's title texts: null while the table has no row for it, which is a version too. */
const VERSION = `select version::text from title_search_version where kind = ?`;

/** The version of `kind`'s title texts, and what `query` matches there read in the same snapshot. */
function computeMatches(kind: TitleContentType, query: string): SqlFragment {
  const rank = textMatchRank(searchedTexts(kind, 't'), query);
  const condition = textMatchCondition(searchedTexts(kind, 't'), query);
  return sql(
    `select (${VERSION}) as version, (select coalesce(array_agg(m.extcat_id order by m.rank desc, m.reference desc), '{}')::text
        from (select t.extcat_id, t.reference, ${rank.sql} as rank from ${kind} t where ${condition.sql}) m) as ids`,
    kind,
    ...rank.params,
    ...condition.params,
  );
}

async function matchesOf(ctx: RequestContext, kind: TitleContentType, query: string): Promise<Matches> {
  const kept = keptMatches(ctx);
  const key = `${kind}\n${query}`;
  const known = kept.get(key);
  if (known) {
    const [current] = await queryRows<{ version: string | null }>(
      ctx.sharedEm,
      sql(`select (${VERSION}) as version`, kind),
      ctx.readConnectionType,
    );
    if (current.version === known.version) return known;
  }
  const computed = await kept.fetch(key, {
    forceRefresh: known !== undefined,
    context: { ctx, kind, query },
  });
  if (!computed) throw new Error(`the matches of a ${kind} query were not computed`);
  return computed;
}

/** The alias of the joined matches: `search.position` is a title's place in the match order (1 = best). */
export const SEARCH = 'search';

/**
 * The titles `query` matches, as a join onto the titles under alias `t`: `join`
 * restricts a list to them and `search.position` orders by match rank, best first, ties
 * by reference desc.
 */
export async function titleSearchJoin(
  ctx: RequestContext,
  kind: TitleContentType,
  t: string,
  query: string,
): Promise<SqlFragment> {
  const { ids } = await matchesOf(ctx, kind, query);
  return sql(
    `join unnest(?::int[]) with ordinality as ${SEARCH}(extcat_id, position) on ${SEARCH}.extcat_id = ${t}.extcat_id`,
    ids,
  );
}
