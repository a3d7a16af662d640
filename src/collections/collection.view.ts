import type { Collection } from './collection.entity';

/** How many items a served collection shows: all of them (#14, writes) or a preview (#15). */
const PREVIEW = Symbol('collection preview');

/** At most this many items in a #15 preview (semantics §2 #15). */
export const PREVIEW_SIZE = 6;

type Viewed = Collection & { [PREVIEW]?: boolean };

/**
 * A view of `collection` whose `collection` field is the preview. The view inherits
 * every field from the entity, so one entity can be served in full and as a preview
 * in the same request without the two answers interfering.
 */
export function markPreview(collection: Collection): Collection {
  const view = Object.create(collection) as Viewed;
  view[PREVIEW] = true;
  return view;
}

/** The collection served with all its items. */
export const markFull = (collection: Collection): Collection => collection;

/** The number of items to serve: every live item, or the preview's first ones. */
export const itemLimitOf = (collection: Collection): number | null =>
  (collection as Viewed)[PREVIEW] ? PREVIEW_SIZE : null;
