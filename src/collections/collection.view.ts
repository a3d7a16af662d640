import type { Collection } from './collection.entity';

/** Marks a served collection whose `collection` field is the #15 preview, not every item. */
const PREVIEW = Symbol('collection preview');

/** At most this many items in a #15 preview (semantics §2 #15). */
export const PREVIEW_SIZE = 6;

type Viewed = Collection & { [PREVIEW]?: boolean };

/**
 * A view of `collection` whose `collection` field is the preview. The view inherits
 * every field from the entity, so one entity can be served in full and as a preview
 * in the same request without the two answers interfering. A collection served as
 * itself shows every live item (#14 and the writes).
 */
export function markPreview(collection: Collection): Collection {
  const view = Object.create(collection) as Viewed;
  view[PREVIEW] = true;
  return view;
}

/** Whether the collection is served as a preview (the first items) rather than in full. */
export const isPreview = (collection: Collection): boolean => (collection as Viewed)[PREVIEW] === true;
