import { USER_FIELDS } from '../accounts/accounts.fragments';
import { type Fragment, fragment } from '../rest/fragments';

/** The follows' resources (src/rest/fragments.ts): followed users with their entry for a title. */
export const followFragments: readonly Fragment[] = [
  fragment('FollowedWatcherFields', 'FollowedWatcher', `{ ${USER_FIELDS} watch { ...WatchEntryFields } }`),
  fragment('FollowedReaderFields', 'FollowedReader', `{ ${USER_FIELDS} read { ...ReadEntryFields } }`),
];
