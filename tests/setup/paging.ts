/**
 * Query strings a paged route refuses (semantics §7.6: `page` 1..10000 and `size` 1..100,
 * decimal digits without sign or leading zero, given once), each with the field the 400
 * names: `page` first when both are wrong.
 */
export const INVALID_PAGING_QUERIES: readonly (readonly [query: string, field: 'page' | 'size'])[] = [
  ['page=0', 'page'],
  ['page=10001', 'page'],
  ['page=abc', 'page'],
  ['page=01', 'page'],
  ['page=1.0', 'page'],
  ['page=+1', 'page'],
  ['page=-1', 'page'],
  ['page=', 'page'],
  ['page=1&page=2', 'page'],
  ['size=0', 'size'],
  ['size=101', 'size'],
  ['size=abc', 'size'],
  ['size=010', 'size'],
  ['size=', 'size'],
  ['size=1&size=2', 'size'],
  ['page=0&size=0', 'page'],
  ['size=0&page=0', 'page'],
];
