import { randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../accounts/user.entity';
import { lockUserRow } from '../accounts/users.service';
import { hasPermissions, requirePermissions } from '../common/auth/permissions';
import { requireScopes, type Viewer } from '../accounts/session';
import { AppError } from '../common/errors/app-error';
import type { ErrorCode } from '../common/errors/catalog';
import { type Page, type PageArgs, pageWindow, toPage } from '../common/pagination/pagination';
import { Client } from './client.entity';
import type { ClientSecretBox } from './client-secret-box';
import {
  cleanText,
  type ClientSearchInput,
  type CreateClientInput,
  normalizeEndpoint,
  type UpdateClientInput,
} from './client.inputs';
import { likeLiteral } from '../common/like';
import { entityColumns, mapEntityRow, statementText } from '../db/entity-rows';
import { executeInOrder, sql } from '../db/sql';

/** A user owns at most this many clients (semantics §3.2). */
export const MAX_CLIENTS = 10;

/** 96 random bytes in base64url: a 128-character client secret (semantics §1.6), sealed for `reference`. */
function newSealedSecret(secrets: ClientSecretBox, reference: string): string {
  return secrets.seal(randomBytes(96).toString('base64url'), reference);
}

/**
 * A client by reference, with its owner loaded (every answer shows `user`), in one
 * statement; `lock`: with the client's row locked. Callers pass a well-formed UUID (the
 * resolvers check it as a path parameter).
 */
export async function findClient(
  em: EntityManager,
  reference: string,
  { notFound = 'client:not_found', lock = false }: { notFound?: ErrorCode; lock?: boolean } = {},
): Promise<Client> {
  const read = statementText(
    em,
    'clients:find',
    () => `select ${entityColumns(em, Client, 'c')}, ${entityColumns(em, User, 'u')}
      from client c join "user" u on u.reference = c.user_reference where c.reference = ?`,
  );
  const [row] = await em.execute<Record<string, unknown>[]>(lock ? `${read} for update of c` : read, [
    reference.toLowerCase(),
  ]);
  if (!row) throw new AppError(notFound);
  mapEntityRow(em, User, row, 'u');
  return mapEntityRow(em, Client, row, 'c')!;
}

const owns = (viewer: Viewer, client: Client): boolean => client.user.reference === viewer.user.reference;

/** Whether another client of `owner` has `name`, ignoring case (semantics §7.18). */
async function nameTaken(em: EntityManager, owner: string, name: string): Promise<boolean> {
  const query = em
    .createQueryBuilder(Client)
    .where({ user: owner })
    .andWhere('lower(name) = lower(?)', [name]);
  return (await query.getCount()) > 0;
}

/**
 * POST /client (semantics §3.2): permission `client:create`, scope `create:client`;
 * then 409 `client:already_exists` and 400 `client:max_clients`.
 */
export function createClient(
  em: EntityManager,
  viewer: Viewer,
  input: CreateClientInput,
  secrets: ClientSecretBox,
): Promise<Client> {
  requirePermissions(viewer.user, ['client:create']);
  requireScopes(viewer, ['create:client']);
  return createClientFor(em, viewer.user, input, secrets);
}

/**
 * The business rules and effects of POST /client for `owner`, without the caller's
 * checks (the demo seeder creates clients this way): a cleaned, unique name, at most
 * 10 clients, `verified: false` and a fresh 128-character secret, stored sealed.
 */
export function createClientFor(
  em: EntityManager,
  owner: User,
  input: CreateClientInput,
  secrets: ClientSecretBox,
): Promise<Client> {
  return em.transactional(async (tx) => {
    // One owner's client writes run one after another: the name and count checks see every committed client.
    await lockUserRow(tx, owner.reference);
    const name = cleanText(input.name);
    if (await nameTaken(tx, owner.reference, name)) throw new AppError('client:already_exists');
    if ((await tx.count(Client, { user: owner.reference })) >= MAX_CLIENTS) {
      throw new AppError('client:max_clients');
    }
    const at = new Date();
    // Chosen here: the sealed secret is bound to its client's reference.
    const reference = randomUUID();
    return tx.create(Client, {
      reference,
      user: tx.getReference(User, owner.reference),
      name,
      description: cleanText(input.description),
      endpoint: normalizeEndpoint(input.endpoint),
      sealed_secret: newSealedSecret(secrets, reference),
      verified: false,
      created: at,
      updated: at,
    });
  });
}

/** GET /client/{client_reference} (no authentication): 404 `client:not_found`. */
export function getClient(em: EntityManager, reference: string): Promise<Client> {
  return findClient(em, reference);
}

/** GET /client/{client_reference}/full: 404, then scope `read:client`, then owner only. */
export async function getOwnClient(em: EntityManager, viewer: Viewer, reference: string): Promise<Client> {
  const client = await findClient(em, reference);
  requireScopes(viewer, ['read:client']);
  if (!owns(viewer, client)) throw new AppError('client:not_owner');
  return client;
}

/** Clients in a fixed, total order: oldest first, reference as the tie-break. */
const CLIENT_ORDER = { created: 'asc', reference: 'asc' } as const;

async function clientPage(
  em: EntityManager,
  where: Record<string, unknown>,
  extra: { sql: string; params: unknown[] } | null,
  page: PageArgs,
): Promise<Page<Client>> {
  const query = em.createQueryBuilder(Client, 'c').where(where);
  if (extra) query.andWhere(extra.sql, extra.params);
  const total = await query.clone().getCount();
  const { offset, limit } = pageWindow(page);
  const list = await query.orderBy(CLIENT_ORDER).offset(offset).limit(limit).getResultList();
  await em.populate(list, ['user']);
  return toPage(list, total, page);
}

/** GET /client: the caller's clients, `created` ascending (scope `read:client:list`). */
export function listOwnClients(em: EntityManager, viewer: Viewer, page: PageArgs): Promise<Page<Client>> {
  requireScopes(viewer, ['read:client:list']);
  return clientPage(em, { user: viewer.user.reference }, null, page);
}

/**
 * POST /client/all (permission `client:list_all`): every client whose name contains
 * `query`, ignoring case; all clients without one. Same order as GET /client.
 */
export function listAllClients(
  em: EntityManager,
  viewer: Viewer,
  input: ClientSearchInput,
  page: PageArgs,
): Promise<Page<Client>> {
  requirePermissions(viewer.user, ['client:list_all']);
  const query = input.query ?? '';
  const filter = query
    ? { sql: `lower(c.name) like lower(?) escape '\\'`, params: [`%${likeLiteral(query)}%`] }
    : null;
  return clientPage(em, {}, filter, page);
}

/**
 * #12 PUT /client/{client_reference}: 404 → permission `client:update` and scope
 * `update:client` → owner only (no admin override) → 409 `client:already_exists`.
 * Applies the non-null fields, cleaned; `revoke_secret` replaces the secret, so the
 * old one fails the next exchange (tokens already issued stay valid); `updated` = now.
 */
export function updateClient(
  em: EntityManager,
  viewer: Viewer,
  reference: string,
  input: UpdateClientInput,
  secrets: ClientSecretBox,
): Promise<Client> {
  return em.transactional(async (tx) => {
    const client = await findClient(tx, reference);
    requirePermissions(viewer.user, ['client:update']);
    requireScopes(viewer, ['update:client']);
    if (!owns(viewer, client)) throw new AppError('client:not_owner');
    await lockUserRow(tx, client.user.reference);
    // Once the owner's clients are locked: the name check and the change in one statement.
    const update = statementText(
      tx,
      'clients:update',
      () => `update client c set name = coalesce(?, c.name), description = coalesce(?, c.description),
          endpoint = coalesce(?, c.endpoint), sealed_secret = coalesce(?, c.sealed_secret), updated = ?
        where c.reference = ? and not exists (select 1 from client other
          where other.user_reference = c.user_reference and other.reference <> c.reference
            and lower(other.name) = lower(?::text))
        returning ${entityColumns(tx, Client, 'c')}`,
    );
    const name = input.name == null ? null : cleanText(input.name);
    const [row] = await tx.execute<Record<string, unknown>[]>(update, [
      name,
      input.description == null ? null : cleanText(input.description),
      input.endpoint == null ? null : normalizeEndpoint(input.endpoint),
      input.revoke_secret ? newSealedSecret(secrets, client.reference) : null,
      new Date(),
      client.reference,
      name,
    ]);
    if (!row) throw new AppError('client:already_exists');
    return mapEntityRow(tx, Client, row, 'c')!;
  });
}

/**
 * #11 DELETE /client/{client_reference}: 404 → permission `client:delete` and scope
 * `delete:client` → the owner or `client:delete_admin` (403 `client:not_owner`).
 * The client goes for good with its token requests and every token issued for it,
 * which therefore stop working at once. Answers the client as it was.
 */
export function deleteClient(em: EntityManager, viewer: Viewer, reference: string): Promise<Client> {
  return em.transactional(async (tx) => {
    const client = await findClient(tx, reference);
    requirePermissions(viewer.user, ['client:delete']);
    requireScopes(viewer, ['delete:client']);
    if (!owns(viewer, client) && !hasPermissions(viewer.user, ['client:delete_admin'])) {
      throw new AppError('client:not_owner');
    }
    // The foreign keys cascade too; deleting explicitly keeps the effect visible here.
    // In one round trip, the client last.
    await executeInOrder(tx, [
      sql('delete from auth_token where client_reference = ?', client.reference),
      sql('delete from token_request where client_reference = ?', client.reference),
      sql('delete from client where reference = ?', client.reference),
    ]);
    return client;
  });
}

/**
 * POST /client/{client_reference}/verify: 404 → permission `client:verify` and scope
 * `verify:client` → 400 `client:already_verified`. Sets `verified: true`.
 */
export function verifyClient(em: EntityManager, viewer: Viewer, reference: string): Promise<Client> {
  return em.transactional(async (tx) => {
    const client = await findClient(tx, reference, { lock: true });
    requirePermissions(viewer.user, ['client:verify']);
    requireScopes(viewer, ['verify:client']);
    if (client.verified) throw new AppError('client:already_verified');
    client.verified = true;
    client.updated = new Date();
    return client;
  });
}
