import { createHash, timingSafeEqual } from 'node:crypto';
import { ForeignKeyConstraintViolationException, LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { recordAction } from '../accounts/actions';
import type { TokenResponse } from '../accounts/accounts.types';
import { AuthToken } from '../accounts/auth-token.entity';
import { issueToken, requireFirstParty } from '../accounts/tokens';
import { User } from '../accounts/user.entity';
import { isScopeOrGroup } from '../common/auth/scopes';
import type { Viewer } from '../accounts/session';
import { AppError } from '../common/errors/app-error';
import { type Page, type PageArgs, pageWindow, toPage } from '../common/pagination/pagination';
import { notify } from '../notifications/notify';
import { Client } from './client.entity';
import type { ClientSecretBox } from './client-secret-box';
import type { TokenExchangeInput, TokenRequestInput } from './client.inputs';
import { findClient } from './clients.service';
import { TokenRequest } from './token-request.entity';

/** A token request can be exchanged for one minute (semantics §3.2). */
export const TOKEN_REQUEST_LIFETIME_MS = 60 * 1000;

/**
 * The requested scopes, checked and without duplicates (first occurrence kept):
 * an entry that is neither a scope nor a group → 400 `auth:invalid_scope`; an empty
 * list → 400 `auth:scope_empty`.
 */
export function requestedScopes(scope: readonly string[]): string[] {
  if (scope.some((name) => !isScopeOrGroup(name))) throw new AppError('auth:invalid_scope');
  if (scope.length === 0) throw new AppError('auth:scope_empty');
  return [...new Set(scope)];
}

/**
 * POST /auth/token/request/{client_reference} (semantics §3.2), in the check order of
 * §1.1.2: the client named in the path (404 `auth:client_not_found`), then the
 * first-party rule (403 `permission:denied`), then the scopes (400). Creates the
 * caller's request, valid for one minute.
 */
export function createTokenRequest(
  em: EntityManager,
  viewer: Viewer,
  clientReference: string,
  input: TokenRequestInput,
): Promise<TokenRequest> {
  return em.transactional(async (tx) => {
    const client = await findClient(tx, clientReference, { notFound: 'auth:client_not_found' });
    requireFirstParty(viewer);
    return createTokenRequestFor(tx, viewer.user, client, input.scope);
  });
}

/**
 * The business rules and effect of a token request by `user` for `client`, without
 * the caller's checks (the demo seeder uses it): checked, de-duplicated scopes and a
 * request that expires in one minute, in the caller's unit of work.
 */
export function createTokenRequestFor(
  em: EntityManager,
  user: User,
  client: Client,
  scope: readonly string[],
): TokenRequest {
  const created = new Date();
  return em.create(TokenRequest, {
    client,
    user: em.getReference(User, user.reference),
    scope: requestedScopes(scope),
    created,
    expiration: new Date(created.getTime() + TOKEN_REQUEST_LIFETIME_MS),
    used: false,
  });
}

/** `<endpoint>?reference=<request reference>`: where the user's consent sends them. */
export function redirectUrl(client: Client, request: TokenRequest): string {
  return `${client.endpoint}?reference=${request.reference}`;
}

/** Compares secrets in constant time (digests have equal lengths whatever the input). */
function sameSecret(stored: string, given: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(stored), digest(given));
}

/**
 * POST /auth/token (no authentication): unknown or used request → 400
 * `auth:invalid_token_request`; expired → 400 `auth:token_request_expired`; a secret
 * that is not the client's current one → 401 `auth:invalid_client_credentials`.
 * Consumes the request and issues a third-party token bound to the client and the
 * requested scopes (30 minutes until its first use), with the action
 * `login_thirdparty` and the `thirdparty_login` notification in the same transaction.
 */
export async function exchangeToken(
  em: EntityManager,
  input: TokenExchangeInput,
  secrets: ClientSecretBox,
): Promise<TokenResponse> {
  try {
    return await em.transactional(async (tx) => {
      // The row lock makes a request single-use even under concurrent exchanges.
      const request = await tx.findOne(
        TokenRequest,
        { reference: input.request_reference.toLowerCase() },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (!request || request.used) throw new AppError('auth:invalid_token_request');
      if (Date.now() > request.expiration.getTime()) throw new AppError('auth:token_request_expired');
      const client = await tx.findOneOrFail(Client, { reference: request.client.reference });
      if (!sameSecret(secrets.open(client.sealed_secret, client.reference), input.client_secret)) {
        throw new AppError('auth:invalid_client_credentials');
      }
      const user = await tx.findOneOrFail(User, { reference: request.user.reference });
      request.used = true;
      const token = issueToken(tx, user, { client, scope: request.scope });
      recordAction(tx, user, 'login_thirdparty', client.reference);
      await notify(tx, {
        recipient: user,
        type: 'thirdparty_login',
        initiator: null,
        data: {
          client: { name: client.name, description: client.description, reference: client.reference },
          scope: request.scope,
        },
        eventKey: `thirdparty_login:${request.reference}`,
      });
      return token;
    });
  } catch (error) {
    // The client was deleted while this exchange ran: its requests are gone with it.
    if (error instanceof ForeignKeyConstraintViolationException) {
      throw new AppError('auth:invalid_token_request');
    }
    throw error;
  }
}

/** GET /auth/token/thirdparty: the caller's unexpired third-party tokens, newest first. */
export async function listThirdPartyTokens(
  em: EntityManager,
  viewer: Viewer,
  page: PageArgs,
): Promise<Page<AuthToken>> {
  const where = {
    user: viewer.user.reference,
    client: { $ne: null },
    expiration: { $gte: new Date() },
  };
  const { offset, limit } = pageWindow(page);
  const [list, total] = await em.findAndCount(AuthToken, where, {
    orderBy: { created: 'desc', reference: 'desc' },
    populate: ['client'],
    offset,
    limit,
  });
  return toPage(list, total, page);
}
