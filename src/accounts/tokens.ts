import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '../clients/client.entity';
import type { Viewer } from './session';
import { hashSecret, newTokenSecret } from '../common/auth/secrets';
import { AppError } from '../common/errors/app-error';
import type { TokenResponse } from './accounts.types';
import { AuthToken } from './auth-token.entity';
import { User } from './user.entity';

/** A new token expires 30 minutes after issue; its first use slides it (semantics §1.2, session.ts). */
export const NEW_TOKEN_LIFETIME_MS = 30 * 60 * 1000;

/**
 * Issues a token for `user` in the caller's unit of work: first-party without a
 * client (signup, login, activation), third-party with a client and scopes. Only the
 * secret's SHA-256 is stored; the returned TokenResponse is the one place it appears.
 */
export function issueToken(
  em: EntityManager,
  user: User | string,
  { client = null, scope = [] }: { client?: Client | null; scope?: string[] } = {},
): TokenResponse {
  const secret = newTokenSecret();
  const created = new Date();
  const expiration = new Date(created.getTime() + NEW_TOKEN_LIFETIME_MS);
  em.create(AuthToken, {
    secret_hash: hashSecret(secret),
    user: em.getReference(User, typeof user === 'string' ? user : user.reference),
    client,
    scope,
    created,
    expiration,
  });
  return { secret, created, expiration };
}

/**
 * DELETE /auth/token/{token_reference} (§3.1): revokes one of the caller's tokens.
 * After authentication and validation: a missing or expired token → 404
 * `auth:invalid_token` (this endpoint's status); a third-party caller → 403
 * `permission:denied` (the first-party-only rule is a step-4 check, after existence);
 * another user's token → 403 `auth:not_token_owner`. `reference` is a lower-case UUID (the
 * resolver's path check).
 */
export async function deleteToken(em: EntityManager, viewer: Viewer, reference: string): Promise<void> {
  const token = await em.findOne(AuthToken, { reference });
  if (!token || Date.now() > token.expiration.getTime()) {
    throw new AppError('auth:invalid_token', {}, 404);
  }
  requireFirstParty(viewer);
  if (token.user.reference !== viewer.user.reference) throw new AppError('auth:not_token_owner');
  await em.nativeDelete(AuthToken, { reference: token.reference });
}

/** Endpoints for first-party tokens only answer 403 `permission:denied` to third-party ones. */
export function requireFirstParty(viewer: Viewer): void {
  if (viewer.token.client) throw new AppError('permission:denied');
}
