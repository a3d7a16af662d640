import { type Fragment, fragment } from '../rest/fragments';

/** Contract User fields without `is_followed` (semantics §1.6), also for types that extend User. */
export const USER_FIELDS = 'reference created updated description username avatar cover active role';

/** The accounts' contract resources (src/rest/fragments.ts). */
export const accountFragments: readonly Fragment[] = [
  fragment('UserFields', 'User', `{ ${USER_FIELDS} }`),
  /** GET /user/me: the User fields and the email (the caller's own account is a type of its own). */
  fragment('OwnAccountFields', 'UserWithEmail', `{ ${USER_FIELDS} email }`),
  /** TokenResponse `{secret, created, expiration}`. */
  fragment('TokenResponseFields', 'TokenResponse', '{ secret created expiration }'),
];
