import type { MikroORM } from '@mikro-orm/postgresql';
import { buildThirdPartyToken, buildToken, buildUser } from '../factories';

/**
 * Tokens a route without authentication must ignore (never resolve, never refuse), each
 * with its description: unknown, expired, a banned or deleted account's, a third-party
 * token without the scopes reads would need. `t` is read when a token is made (the test
 * app's ORM exists only once its tests run).
 */
export const tokensToIgnore = (t: { readonly orm: MikroORM }): [string, () => Promise<string>][] => [
  ['an unknown token', async () => 'not-a-token'],
  [
    'an expired token',
    async () => buildToken(t.orm, await buildUser(t.orm), { expiration: new Date(Date.now() - 60_000) }),
  ],
  ['a banned account’s token', async () => buildToken(t.orm, await buildUser(t.orm, { banned: true }))],
  [
    "a deleted account's token (no user:deleted)",
    async () => buildToken(t.orm, await buildUser(t.orm, { role: 'deleted' })),
  ],
  [
    'a third-party token without any read scope (no permission:denied)',
    async () => buildThirdPartyToken(t.orm, await buildUser(t.orm), ['update:watchlist']),
  ],
];
