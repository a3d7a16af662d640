import { fragment } from '../rest/fragments';

/** Contract User fields without `is_followed` (semantics §1.6). */
export const UserFields = fragment(
  'UserFields',
  'User',
  '{ reference created updated description username avatar cover active role }',
);

/** TokenResponse `{secret, created, expiration}`. */
export const TokenResponseFields = fragment(
  'TokenResponseFields',
  'TokenResponse',
  '{ secret created expiration }',
);
