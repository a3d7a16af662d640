import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { ClientSecretBox } from '../src/clients/client-secret-box';
import { hashSecret, newTokenSecret } from '../src/common/auth/secrets';

/**
 * The contract's writes for `npm run bench`, with what they need in the bench database:
 * tokens of `demo_user` (its notification for #22, a client of its own for #12), of
 * `demo_moderator` (#5) and of a published article's author (#4); and, for the writes
 * that cannot repeat on one subject, a subject per request: accounts owning one client
 * each (#11, for the service and for its floor), accounts with an activation to resend
 * (#1). Made anew on each run (a run's leftovers removed first) with set-based SQL.
 */

/** Requests one write scenario may send in all (its runs of BENCH_SECONDS each), generously. */
const SUBJECTS = 30_000;
/** Requests the floor of a write that cannot repeat may answer in all: it is faster than the service. */
export const FLOOR_SUBJECTS = 60_000;
const BENCH_NAME = 'bench write';

export interface WriteSubjects {
  token: string;
  /** A token of `demo_moderator`: staff create articles without the hourly limit (#5). */
  staffToken: string;
  /** A published article and a token of its author. */
  article: string;
  authorToken: string;
  notification: string;
  /** A client of `demo_user`. */
  client: string;
  /** Clients to delete, one per request, each with a token of its owner (an account of its own). */
  doomed: DoomedClient[];
  /** More of them, for the floor of #11. */
  floorDoomed: DoomedClient[];
  /** Tokens of accounts whose email is unconfirmed and have no pending link, one per request. */
  unactivatedTokens: string[];
}

export interface DoomedClient {
  client: string;
  token: string;
  /** The token's and its owner's references. */
  tokenReference: string;
  user: string;
}

type Db = pg.Client;

async function one<Row extends pg.QueryResultRow>(
  db: Db,
  label: string,
  text: string,
  values: unknown[] = [],
) {
  const {
    rows: [row],
  } = await db.query<Row>(text, values);
  if (!row) throw new Error(`the demo data has no ${label}`);
  return row;
}

/** Tokens (a day long) for these accounts, in one statement: their secrets and references. */
async function issueTokens(
  db: Db,
  users: readonly string[],
): Promise<{ secret: string; reference: string }[]> {
  const tokens = users.map(() => ({ secret: newTokenSecret(), reference: randomUUID() }));
  await db.query(
    `insert into auth_token (reference, secret_hash, user_reference, client_reference, scope, created, expiration)
       select s.reference, s.hash, s.user_reference, null, '{}', now(), now() + interval '1 day'
       from unnest($1::uuid[], $2::text[], $3::uuid[]) as s(reference, hash, user_reference)`,
    [tokens.map((token) => token.reference), tokens.map((token) => hashSecret(token.secret)), users],
  );
  return tokens;
}

/** `count` accounts named `<prefix><n>`, copies of `template` but for `changes`, and a token of each. */
async function benchAccounts(
  db: Db,
  template: string,
  prefix: string,
  count: number,
  changes: Record<string, unknown>,
): Promise<{ user: string; token: string; tokenReference: string }[]> {
  const users = Array.from({ length: count }, () => randomUUID());
  await db.query(
    `insert into "user" select (jsonb_populate_record(null::"user", to_jsonb(u) || $3::jsonb || jsonb_build_object(
       'reference', s.reference, 'username', $4 || s.n, 'email', $4 || s.n || '@example.invalid'))).*
     from "user" u, unnest($2::uuid[]) with ordinality as s(reference, n) where u.reference = $1`,
    [template, users, JSON.stringify(changes), prefix],
  );
  const tokens = await issueTokens(db, users);
  return users.map((user, i) => ({ user, token: tokens[i].secret, tokenReference: tokens[i].reference }));
}

/** Copies of client `template`, one owned by each of `owners`, each with a secret sealed for it. */
async function benchClients(
  db: Db,
  secrets: ClientSecretBox,
  template: string,
  owners: readonly string[],
): Promise<string[]> {
  const clients = owners.map(() => randomUUID());
  const secret = newTokenSecret();
  await db.query(
    `insert into client select (jsonb_populate_record(null::client, to_jsonb(c) || jsonb_build_object(
       'reference', s.reference, 'user_reference', s.owner, 'name', '${BENCH_NAME} ' || s.n, 'sealed_secret', s.sealed))).*
     from client c, unnest($2::uuid[], $3::uuid[], $4::text[]) with ordinality as s(reference, owner, sealed, n)
     where c.reference = $1`,
    [template, clients, owners, clients.map((reference) => secrets.seal(secret, reference))],
  );
  return clients;
}

/** `secrets` seals the clients' secrets as the service started on `url` opens them. */
export async function prepareWriteSubjects(url: string, secrets: ClientSecretBox): Promise<WriteSubjects> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    await db.query('begin');
    await db.query(`delete from client where name like '${BENCH_NAME}%'`);
    await db.query(`delete from "user" where username like 'bench\\_%'`);
    const writer = await one<{ reference: string }>(
      db,
      'demo_user',
      `select reference from "user" where username = 'demo_user'`,
    );
    const staff = await one<{ reference: string }>(
      db,
      'demo_moderator',
      `select reference from "user" where username = 'demo_moderator'`,
    );
    const notification = await one<{ reference: string }>(
      db,
      'notification of demo_user',
      `select reference from notification where user_reference = $1 order by created desc limit 1`,
      [writer.reference],
    );
    const template = await one<{ reference: string }>(
      db,
      'client',
      `select reference from client order by created limit 1`,
    );
    const article = await one<{ slug: string; author: string }>(
      db,
      'published original article',
      `select slug, author_reference as author from article
        where category = 'original' and not draft and not deleted order by created, slug limit 1`,
    );
    const [client] = await benchClients(db, secrets, template.reference, [writer.reference]);
    const owners = await benchAccounts(db, writer.reference, 'bench_owner_', SUBJECTS + FLOOR_SUBJECTS, {});
    const doomedClients = await benchClients(
      db,
      secrets,
      template.reference,
      owners.map((owner) => owner.user),
    );
    const unactivated = await benchAccounts(db, writer.reference, 'bench_unactivated_', SUBJECTS, {
      email_confirmed: false,
      role: 'not_activated',
      activation_token_hash: null,
      activation_expires: null,
    });
    const [token, staffToken, authorToken] = (
      await issueTokens(db, [writer.reference, staff.reference, article.author])
    ).map((issued) => issued.secret);
    await db.query('commit');
    await db.query('analyze client, "user", auth_token');
    const doomed = doomedClients.map((client, i) => ({ client, ...owners[i] }));
    return {
      token,
      staffToken,
      article: article.slug,
      authorToken,
      notification: notification.reference,
      client,
      doomed: doomed.slice(0, SUBJECTS),
      floorDoomed: doomed.slice(SUBJECTS),
      unactivatedTokens: unactivated.map((account) => account.token),
    };
  } finally {
    await db.end();
  }
}
