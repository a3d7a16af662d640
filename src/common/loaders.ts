import DataLoader from 'dataloader';
import type { RequestContext } from '../context';

/**
 * A request-scoped loader that fetches the rows of many parents in one batch and
 * hands each parent its own rows (in the batch's order), `[]` when it has none.
 */
export function groupedLoader<Row>(
  ctx: RequestContext,
  key: string,
  fetch: (parents: readonly string[]) => Promise<Row[]>,
  parentOf: (row: Row) => string,
): DataLoader<string, Row[]> {
  return ctx.loader(
    key,
    () =>
      new DataLoader<string, Row[]>(async (parents) => {
        const groups = new Map<string, Row[]>(parents.map((parent) => [parent, []]));
        for (const row of await fetch(parents)) groups.get(parentOf(row))?.push(row);
        return parents.map((parent) => groups.get(parent) ?? []);
      }),
  );
}
