import { Index } from '@mikro-orm/core';

/**
 * A GIN trigram index on a lower-cased text column (or, for a `text[]` of names, on their
 * joined text), which the typo-tolerant text queries use (src/common/text-match.ts).
 */
export function TrigramIndex(property: string, kind: 'text' | 'names' = 'text'): ClassDecorator {
  const text = kind === 'text' ? `"${property}"` : `catalog_synonyms_text("${property}")`;
  const index = Index({
    properties: [property] as never,
    expression: (table, _columns, name) =>
      `create index "${name}" on ${table} using gin (lower(${text}) gin_trgm_ops)`,
  });
  return (target) => {
    index(target as never);
  };
}
