import { fragment } from '../rest/fragments';

/** Contract WatchEntry fields. */
export const WatchEntryFields = fragment(
  'WatchEntryFields',
  'WatchEntry',
  '{ reference note updated created status rewatches duration episodes score }',
);

/** Contract ReadEntry fields. */
export const ReadEntryFields = fragment(
  'ReadEntryFields',
  'ReadEntry',
  '{ reference note updated created status chapters volumes rereads score }',
);
