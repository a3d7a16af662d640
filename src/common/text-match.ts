import { joinSql, sql, type SqlFragment } from '../db/sql';
import { likeLiteral } from './like';

/**
 * The typo-tolerant text query of semantics §1.9, over any texts: a row matches when the
 * query is a substring of one of them or its trigram word similarity with one reaches
 * `pg_trgm.word_similarity_threshold` (set per session); its rank is the best similarity,
 * 1 for a substring. Texts are compared lower-cased, as the trigram indexes hold them.
 */
export interface SearchedTexts {
  /** Text columns (SQL over the row's alias). */
  texts: readonly string[];
  /** A `text[]` column of further names (synonyms), each tested on its own. */
  synonyms?: string;
}

const lowered = ({ texts }: SearchedTexts): string[] => texts.map((text) => `lower(${text})`);

/** Whether the row matches `query`; each test on the joined synonyms is indexed and checked per synonym. */
export function textMatchCondition(searched: SearchedTexts, query: string): SqlFragment {
  const pattern = `'%' || lower(?) || '%'`;
  const like = likeLiteral(query);
  const texts = lowered(searched);
  const synonymTests = (() => {
    if (!searched.synonyms) return [];
    const joined = `lower(catalog_synonyms_text(${searched.synonyms}))`;
    const anySynonym = (test: string) =>
      `exists (select 1 from unnest(${searched.synonyms}) as syn(v) where ${test})`;
    return [
      sql(`${joined} like ${pattern} and ${anySynonym(`lower(syn.v) like ${pattern}`)}`, like, like),
      sql(`lower(?) <% ${joined} and ${anySynonym(`lower(?) <% lower(syn.v)`)}`, query, query),
    ];
  })();
  return joinSql(
    [
      ...texts.map((text) => sql(`${text} like ${pattern}`, like)),
      ...(synonymTests[0] ? [synonymTests[0]] : []),
      ...texts.map((text) => sql(`lower(?) <% ${text}`, query)),
      ...(synonymTests[1] ? [synonymTests[1]] : []),
    ],
    ' or ',
  );
}

/** The row's match rank: the best word similarity over the texts, 1 for a substring. */
export function textMatchRank(searched: SearchedTexts, query: string): SqlFragment {
  const like = likeLiteral(query);
  const score = (text: string) =>
    sql(
      `case when ${text} like '%' || lower(?) || '%' then 1 else word_similarity(lower(?), ${text}) end`,
      like,
      query,
    );
  const parts = lowered(searched).map(score);
  if (searched.synonyms) {
    const synonym = score('lower(syn.v)');
    parts.push(
      sql(`(select max(${synonym.sql}) from unnest(${searched.synonyms}) as syn(v))`, ...synonym.params),
    );
  }
  return sql(`greatest(${parts.map((p) => p.sql).join(', ')})`, ...parts.flatMap((p) => p.params));
}
