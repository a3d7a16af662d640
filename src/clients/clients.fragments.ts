import { TokenResponseFields, UserFields } from '../accounts/accounts.fragments';
import { fragment } from '../rest/fragments';

export { TokenResponseFields };

/** The contract's Client (semantics §1.6): `secret` is always selected, null for non-owners. */
export const ClientFields = fragment(
  'ClientFields',
  'Client',
  '{ reference name description endpoint verified user { ...UserFields } created updated secret }',
  [UserFields],
);

/** A token as GET /auth/token/info shows it (semantics §3.1). */
export const TokenInfoFields = fragment(
  'TokenInfoFields',
  'TokenInfo',
  '{ reference created client { ...ClientFields } scope expiration used }',
  [ClientFields],
);
