import { type Fragment, fragment } from '../rest/fragments';

/** The accounts' contract resources (src/rest/fragments.ts). */
export const accountFragments: readonly Fragment[] = [
  /** Contract User fields without `is_followed` (semantics §1.6). */
  fragment(
    'UserFields',
    'User',
    '{ reference created updated description username avatar cover active role }',
  ),
  /** TokenResponse `{secret, created, expiration}`. */
  fragment('TokenResponseFields', 'TokenResponse', '{ secret created expiration }'),
];
