import { type Fragment, fragment } from '../rest/fragments';

/** The clients' contract resources (src/rest/fragments.ts). */
export const clientFragments: readonly Fragment[] = [
  /** The contract's Client (semantics §1.6): `secret` is always selected, null for non-owners. */
  fragment(
    'ClientFields',
    'Client',
    '{ reference name description endpoint verified user { ...UserFields } created updated secret }',
  ),
  /** A token as GET /auth/token/info shows it (semantics §3.1). */
  fragment(
    'TokenInfoFields',
    'TokenInfo',
    '{ reference created client { ...ClientFields } scope expiration used }',
  ),
];
