import { LockMode, raw, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Viewer } from './session';
import { hashSecret, newTokenSecret } from '../common/auth/secrets';
import { AppError, type Language } from '../common/errors/app-error';
import type { AccountServices } from './account-services';
import type { ActivationInput, LoginInput, SignupInput, TokenResponse } from './accounts.types';
import { recordAction } from './actions';
import { ACTIVATION_LIFETIME_MS, activationLink, activationMail } from './activation-mail';
import { hashPassword, verifyPassword } from './passwords';
import { issueToken } from './tokens';
import { User } from './user.entity';
import { byLowerUsername } from './users.service';

/** What the account flows need from the request (the RequestContext provides it). */
export interface AccountRequest {
  em: EntityManager;
  accounts: AccountServices;
  language: Language;
  /** Whether the request's `captcha` header passes the configured verifier (true when none is). */
  captchaPasses(): Promise<boolean>;
  /** Runs an effect once the request's transaction has committed. */
  afterCommit(effect: () => void): void;
}

/**
 * The optional captcha of signup and login (§3.1), checked right after validation:
 * when a verifier is configured, a missing or failing `captcha` header → 400 `captcha:invalid`.
 */
async function requireCaptcha(request: AccountRequest): Promise<void> {
  if (!(await request.captchaPasses())) throw new AppError('captcha:invalid');
}

const byLowerEmail = (email: string) => ({ [raw('lower(email)')]: email.toLowerCase() });

/** Whether a non-empty allow-list holds the email, or its `@domain`. */
function allowedToSignUp(allowlist: readonly string[], email: string): boolean {
  if (allowlist.length === 0) return true;
  const address = email.toLowerCase();
  const domain = address.slice(address.lastIndexOf('@'));
  return allowlist.includes(address) || allowlist.includes(domain);
}

/** A pending activation: the secret for the email, its hash and expiry for the account. */
function newActivation(at: number) {
  const token = newTokenSecret();
  return {
    token,
    activation_token_hash: hashSecret(token),
    activation_expires: new Date(at + ACTIVATION_LIFETIME_MS),
  };
}

/**
 * Queues the activation email once the transaction that stored its token has committed:
 * the request's, inside a mutation, of which the service's own is only a savepoint. It
 * goes to the address the link confirms: a pending one (PUT /settings/email), else the email.
 */
export function sendActivation(request: AccountRequest, user: User, token: string): void {
  const { mailer, publicUrl } = request.accounts;
  const to = { email: user.pending_email ?? user.email, username: user.username };
  const mail = activationMail(to, activationLink(publicUrl, token), request.language);
  request.afterCommit(() => mailer.queue(mail, { purpose: 'activation', user: user.reference }));
}

/**
 * POST /auth/signup (§3.1). After validation: captcha → reserved name → username
 * taken → email taken → allow-list. The password is hashed outside the transaction;
 * the unique indexes on lower(username) and lower(email) settle concurrent signups
 * with the same errors the look-ups give.
 */
export async function signup(request: AccountRequest, input: SignupInput): Promise<TokenResponse> {
  await requireCaptcha(request);
  const { em, accounts } = request;
  if (accounts.reservedUsernames.has(input.username.toLowerCase())) {
    throw new AppError('auth:invalid_username');
  }
  if (await em.count(User, byLowerUsername(input.username))) throw new AppError('auth:username_taken');
  if (await em.count(User, byLowerEmail(input.email))) throw new AppError('auth:email_exists');
  if (!allowedToSignUp(accounts.signupAllowlist, input.email)) throw new AppError('auth:not_available');

  const password_hash = await hashPassword(input.password);
  const at = Date.now();
  const { token: activation, ...pending } = newActivation(at);
  let created: { user: User; token: TokenResponse };
  try {
    created = await em.transactional(async (tx) => {
      const user = Object.assign(new User(), {
        email: input.email,
        username: input.username,
        password_hash,
        role: 'not_activated' as const,
        email_confirmed: false,
        ...pending,
        created: new Date(at),
        last_active: new Date(at),
      });
      tx.persist(user);
      recordAction(tx, user, 'signup');
      return { user, token: issueToken(tx, user) };
    });
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      const constraint = (error as { constraint?: string }).constraint ?? '';
      if (constraint.includes('username')) throw new AppError('auth:username_taken');
      if (constraint.includes('email')) throw new AppError('auth:email_exists');
    }
    throw error;
  }
  sendActivation(request, created.user, activation);
  return created.token;
}

/**
 * POST /auth/login (§3.1): by email when given, else by username, both ignoring
 * case. Unknown → 404 `auth:user_not_found`; deleted → 400 `user:deleted`; wrong
 * password → 401 `auth:invalid_password`. An imported bcrypt hash is replaced by an
 * argon2id one on the first successful login.
 */
export async function login(request: AccountRequest, input: LoginInput): Promise<TokenResponse> {
  await requireCaptcha(request);
  const { em } = request;
  const where = input.email !== undefined ? byLowerEmail(input.email) : byLowerUsername(input.username ?? '');
  const user = await em.findOne(User, where);
  if (!user) throw new AppError('auth:user_not_found');
  if (user.role === 'deleted') throw new AppError('user:deleted');
  const matches = await verifyPassword(input.password, user.password_hash);
  if (!matches) throw new AppError('auth:invalid_password');

  const upgrade = user.password_hash.startsWith('$argon2id$') ? null : await hashPassword(input.password);
  return em.transactional(async (tx) => {
    if (upgrade) await tx.nativeUpdate(User, { reference: user.reference }, { password_hash: upgrade });
    recordAction(tx, user, 'login');
    return issueToken(tx, user);
  });
}

/**
 * POST /auth/activation (§3.1): no account holds the token → 400
 * `auth:activation_invalid`; deleted account → 400 `user:deleted`; expired → 400
 * `auth:activation_expired`. Confirms the email (a pending one replaces it), promotes
 * `not_activated` to `user` and clears the token (so a link works once).
 */
export function activate(request: AccountRequest, input: ActivationInput): Promise<TokenResponse> {
  return request.em.transactional(async (tx) => {
    const user = await tx.findOne(
      User,
      { activation_token_hash: hashSecret(input.token) },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    if (!user) throw new AppError('auth:activation_invalid');
    if (user.role === 'deleted') throw new AppError('user:deleted');
    if (user.activation_expires === null || Date.now() > user.activation_expires.getTime()) {
      throw new AppError('auth:activation_expired');
    }
    if (user.pending_email !== null) await takePendingEmail(tx, user);
    user.email_confirmed = true;
    if (user.role === 'not_activated') user.role = 'user';
    user.activation_token_hash = null;
    user.activation_expires = null;
    recordAction(tx, user, 'activation');
    return issueToken(tx, user);
  });
}

/**
 * A changed address (PUT /settings/email) becomes the email once its link is opened,
 * unless another account has it by then. Activations of one address take a lock on it
 * first, so that of two at once the second sees the first's address and keeps its own.
 */
async function takePendingEmail(tx: EntityManager, user: User): Promise<void> {
  const pending = user.pending_email!;
  user.pending_email = null;
  await tx.execute('select pg_advisory_xact_lock(hashtext(lower(?)))', [pending]);
  const taken = await tx.count(User, { ...byLowerEmail(pending), reference: { $ne: user.reference } });
  if (taken === 0) user.email = pending;
}

/**
 * #1 POST /auth/activation/resend (§2): the email is already confirmed → 400
 * `auth:already_activated` (the role does not matter); the current link is still
 * valid → 400 `auth:activation_valid`. A new link replaces the old one and is emailed
 * after the commit; the response does not wait for the delivery.
 */
export async function resendActivation(request: AccountRequest, viewer: Viewer): Promise<User> {
  const { user, activation } = await request.em.transactional(async (tx) => {
    const user = await tx.findOneOrFail(
      User,
      { reference: viewer.user.reference },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    );
    if (user.email_confirmed) throw new AppError('auth:already_activated');
    const at = Date.now();
    if (
      user.activation_token_hash !== null &&
      user.activation_expires &&
      at <= user.activation_expires.getTime()
    ) {
      throw new AppError('auth:activation_valid');
    }
    const { token, ...pending } = newActivation(at);
    Object.assign(user, pending);
    recordAction(tx, user, 'activation_resend');
    return { user, activation: token };
  });
  sendActivation(request, user, activation);
  return user;
}
