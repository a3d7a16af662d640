export interface SortEntry<F extends string> {
  field: F;
  direction: 'asc' | 'desc';
}

/** Parses validated `field:direction` entries (see `sortField` in common/validation/schemas). */
export function parseSort<F extends string>(entries: readonly string[]): SortEntry<F>[] {
  return entries.map((entry) => {
    const [field, direction] = entry.split(':');
    return { field: field as F, direction: direction as 'asc' | 'desc' };
  });
}

/**
 * SQL `order by` items for sort entries: `start_date desc` puts nulls last; everything
 * else keeps PostgreSQL's defaults (nulls first for desc, last for asc), as §1.10 says.
 */
export function orderBySql<F extends string>(
  entries: readonly SortEntry<F>[],
  columnOf: (field: F) => string,
): string[] {
  return entries.map(({ field, direction }) => {
    const nulls = field === 'start_date' && direction === 'desc' ? ' nulls last' : '';
    return `${columnOf(field)} ${direction}${nulls}`;
  });
}

/**
 * Slug order: code-point order, as PostgreSQL's "C" collation sorts (UTF-8 bytes compare
 * as code points do; JavaScript's `<` compares UTF-16 units, which differs beyond U+FFFF).
 */
export const compareSlugs = (a: string, b: string): number =>
  a === b ? 0 : Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
