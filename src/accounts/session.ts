import type { EntityClass, EntityManager } from '@mikro-orm/postgresql';
import { AuthToken } from './auth-token.entity';
import { User } from './user.entity';
import type { Client } from '../clients/client.entity';
import { entityColumns, mapEntityRow, statementText } from '../db/entity-rows';
import { queryRows, sql } from '../db/sql';
import { AppError } from '../common/errors/app-error';
import { coversScopes } from '../common/auth/scopes';
import { hashSecret } from '../common/auth/secrets';

export interface Viewer {
  user: User;
  token: AuthToken;
}

type Resolution =
  { kind: 'missing' | 'invalid' | 'expired' | 'banned' | 'deleted' } | { kind: 'ok'; viewer: Viewer };

const DAY_MS = 24 * 60 * 60 * 1000;
export const TOKEN_SLIDING_LIFETIME_MS = 30 * DAY_MS;
const SLIDE_SLACK_MS = 5 * 60 * 1000;
const LAST_ACTIVE_STEP_MS = 5 * 60 * 1000;

/**
 * The entity a token's `client` points to, from the ORM's metadata: the clients domain
 * sits above accounts (a client belongs to a user), so accounts do not import it.
 */
function clientEntity(em: EntityManager): EntityClass<Client> {
  return em.getMetadata().get<AuthToken>(AuthToken.name).properties.client.targetMeta!
    .class as EntityClass<Client>;
}

/** The token look-up (a hot path: every request with a token). */
function tokenLookUp(em: EntityManager): string {
  return statementText(
    em,
    'auth:token',
    () => `select ${entityColumns(em, AuthToken, 't')}, ${entityColumns(em, User, 'u')}, ${entityColumns(em, clientEntity(em), 'c')}
      from auth_token t join "user" u on u.reference = t.user_reference
      left join client c on c.reference = t.client_reference
      where t.secret_hash = ?`,
  );
}

/**
 * The caller of one request, resolved lazily from the raw `auth` value: routes
 * without authentication never resolve it (no errors, no side effects).
 */
export class AuthSession {
  private stored?: Promise<AuthToken | null>;
  private resolution?: Promise<Resolution>;

  constructor(
    /** The request's entity manager, asked for only when a token is looked up. */
    private readonly entityManager: () => EntityManager,
    /** The raw `auth` header, or else cookie, value. */
    readonly rawToken: string | undefined,
    /** `recordUse: false` only checks the token (a live connection's re-check): no sliding, no activity. */
    private readonly options: { recordUse: boolean } = { recordUse: true },
  ) {}

  private get em(): EntityManager {
    return this.entityManager();
  }

  /** Required authentication: every resolution failure is an error (semantics §1.2). */
  async required(): Promise<Viewer> {
    const result = await this.resolve();
    switch (result.kind) {
      case 'ok':
        return result.viewer;
      case 'missing':
        throw new AppError('auth:missing_token');
      case 'invalid':
        throw new AppError('auth:invalid_token');
      case 'expired':
        throw new AppError('auth:token_expired');
      case 'banned':
        throw new AppError('auth:banned');
      case 'deleted':
        throw new AppError('user:deleted');
    }
  }

  /**
   * Optional authentication: a bad or missing token means anonymous, a deleted
   * account is an error, and a third-party token lacking `scopes` is refused.
   */
  async optional(scopes: readonly string[] = []): Promise<Viewer | null> {
    const result = await this.resolve();
    if (result.kind === 'deleted') throw new AppError('user:deleted');
    if (result.kind !== 'ok') return null;
    requireScopes(result.viewer, scopes);
    return result.viewer;
  }

  /** The caller's user reference under optional authentication; null when anonymous. */
  async viewerReference(): Promise<string | null> {
    return (await this.optional())?.user.reference ?? null;
  }

  /**
   * Whose rate-limit budget a request spends: the client of a live third-party token,
   * else the live first-party token itself, else nobody (an unknown or expired token
   * counts as none). Only a look-up, shared with the later resolution: no side effects.
   */
  async budgetHolder(): Promise<{ client: string } | { token: true } | null> {
    const token = await this.find();
    if (!token || Date.now() > token.expiration.getTime()) return null;
    return token.client ? { client: token.client.reference } : { token: true };
  }

  /**
   * Looks the token up now, if one was sent: before a mutation's transaction begins, so
   * that the look-up runs on the statement pool and the transaction does not hold its
   * connection for it. A failure is kept for whoever resolves the caller.
   */
  async lookUpAhead(): Promise<void> {
    await this.find().catch(() => undefined);
  }

  /** Forgets the look-up and its outcome: the next question looks the token up again (a mutation run afresh). */
  forget(): void {
    this.stored = undefined;
    this.resolution = undefined;
  }

  private find(): Promise<AuthToken | null> {
    this.stored ??= this.rawToken ? this.findStored(hashSecret(this.rawToken)) : Promise.resolve(null);
    return this.stored;
  }

  /**
   * The token with its user and client, in one statement: outside a transaction on the
   * statement pool (`queryRows`), so that a read with a token never waits for a
   * connection of the entity manager's pool, which write transactions hold under load;
   * inside one on the transaction's connection (a mutation looks it up ahead of its
   * transaction, {@link lookUpAhead}).
   */
  private async findStored(secretHash: string): Promise<AuthToken | null> {
    const em = this.em;
    const [row] = em.getTransactionContext()
      ? await em.execute<Record<string, unknown>[]>(tokenLookUp(em), [secretHash])
      : await queryRows<Record<string, unknown>>(em, sql(tokenLookUp(em), secretHash));
    if (!row) return null;
    mapEntityRow(em, User, row, 'u');
    mapEntityRow(em, clientEntity(em), row, 'c');
    return mapEntityRow(em, AuthToken, row, 't');
  }

  private resolve(): Promise<Resolution> {
    this.resolution ??= this.lookUp();
    return this.resolution;
  }

  private async lookUp(): Promise<Resolution> {
    if (!this.rawToken) return { kind: 'missing' };
    const token = await this.find();
    if (!token) return { kind: 'invalid' };
    const now = Date.now();
    if (now > token.expiration.getTime()) return { kind: 'expired' };
    const user = token.user;
    if (user.banned) return { kind: 'banned' };
    if (user.role === 'deleted') return { kind: 'deleted' };
    if (this.options.recordUse) await this.recordUse(token, user, now);
    return { kind: 'ok', viewer: { user, token } };
  }

  /**
   * Slides the expiry and `last_active` only when they are stale, to avoid a write per
   * request. The refresh is one statement of its own on the primary (inside the request's
   * transaction when a mutation has one open: a second connection per request could
   * exhaust the pool under load), never through the unit of work: the loaded token and
   * user take the new values as their stored state, so nothing is left for a later query
   * of the request to flush.
   */
  private async recordUse(token: AuthToken, user: User, now: number): Promise<void> {
    const slide = token.expiration.getTime() < now + TOKEN_SLIDING_LIFETIME_MS - SLIDE_SLACK_MS;
    const activate = user.last_active.getTime() <= now - LAST_ACTIVE_STEP_MS;
    if (!slide && !activate) return;
    const at = new Date(now);
    const expiration = new Date(now + TOKEN_SLIDING_LIFETIME_MS);
    await this.em.getConnection('write').execute(
      `with slid as (
         update auth_token set expiration = ?, used = ? where reference = ? and ?
       )
       update "user" set last_active = ? where reference = ? and ? and last_active < ?`,
      [expiration, at, token.reference, slide, at, user.reference, activate, at],
      'run',
      this.em.getTransactionContext(),
    );
    if (slide)
      this.em.merge(AuthToken, { reference: token.reference, expiration, used: at }, { refresh: true });
    if (activate) this.em.merge(User, { reference: user.reference, last_active: at }, { refresh: true });
  }
}

/** First-party tokens pass every scope check; third-party ones need the scopes (semantics §1.4). */
export function requireScopes(viewer: Viewer, scopes: readonly string[]): void {
  if (!viewer.token.client || scopes.length === 0) return;
  if (!coversScopes(viewer.token.scope, scopes)) throw new AppError('permission:denied');
}
