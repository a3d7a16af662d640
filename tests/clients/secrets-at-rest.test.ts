import { randomBytes, randomUUID } from 'node:crypto';
import type { RequestListener } from 'node:http';
import type { MikroORM } from '@mikro-orm/postgresql';
import { buildApp } from '../../src/app';
import { ClientSecretBox, keyIdOf } from '../../src/clients/client-secret-box';
import { ConfigError, loadConfig } from '../../src/config';
import { createOrm, migrate } from '../../src/orm';
import { createLogger } from '../../src/logger';
import { User } from '../../src/accounts/user.entity';
import { buildToken } from '../factories';
import { rest } from '../setup/clients';
import { useEmptyDatabase } from '../setup/instances';
import { databaseUrl } from '../setup/names';
import { expectNotStored, storedText } from '../setup/stored-text';

/**
 * Secrets stored before sealing are sealed by the migrations' data step; a key the
 * instance lacks is refused; rotation re-seals under the new key. On a database of its
 * own, migrated to just before sealing and given plaintext secrets as they were stored
 * then. The tests run in order on it: each starts where the one before left it.
 */
const BEFORE_SEALING = 'Migration20261125160000_nsfw_genre_flag';
const [oldKey, newKey, strangerKey] = [randomBytes(32), randomBytes(32), randomBytes(32)];
const legacy = [
  { reference: randomUUID(), name: 'Legacy tracker', secret: randomBytes(96).toString('base64url') },
  { reference: randomUUID(), name: 'Legacy reader', secret: randomBytes(96).toString('base64url') },
];
const name = useEmptyDatabase('sealing');

let orm: MikroORM;
let owner: { token: string };
let consenting: { token: string };
const logLines: string[] = [];

/** The app on this database, sealing with `keys`; its log lines go to `logLines`. */
async function appWith(keys: Buffer[]): Promise<{ app: RequestListener; stop: () => Promise<void> }> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'info' });
  const log = createLogger(config, { destination: { write: (line: string) => void logLines.push(line) } });
  return buildApp({ orm, config, log, clientSecrets: new ClientSecretBox(keys) });
}

const storedRows = async () =>
  orm.em
    .getConnection()
    .execute<{ reference: string; sealed_secret: string }[]>('select reference, sealed_secret from client');

/** The full client as its owner reads it, and a token exchange with `secret`. */
async function useClient(app: RequestListener, reference: string, secret: string) {
  const full = await rest(app, 'GET', `/client/${reference}/full`, undefined, owner);
  const request = await rest(
    app,
    'POST',
    `/auth/token/request/${reference}`,
    { scope: ['readlist'] },
    consenting,
  );
  const exchange = await rest(app, 'POST', '/auth/token', {
    request_reference: request.body.reference,
    client_secret: secret,
  });
  return { full, exchange };
}

/**
 * An account as a row of the schema before sealing (the entity has columns that later
 * migrations add, so it cannot write one there).
 */
async function legacyUser(): Promise<User> {
  const reference = randomUUID();
  const username = `legacy_${reference.slice(0, 8)}`;
  await orm.em.getConnection().execute(
    `insert into "user" (reference, username, email, email_confirmed, password_hash, role, created, last_active,
       banned, forbidden_actions, ignored_notifications)
     values (?, ?, ?, true, 'not-a-real-hash', 'user', now(), now(), false, '{}', '{}')`,
    [reference, username, `${username}@example.com`],
  );
  return orm.em.fork().getReference(User, reference);
}

beforeAll(async () => {
  orm = await createOrm(databaseUrl(name), { poolMax: 4 });
  await orm.migrator.up({ to: BEFORE_SEALING });
  const user = await legacyUser();
  owner = { token: await buildToken(orm, user) };
  consenting = { token: await buildToken(orm, await legacyUser()) };
  for (const client of legacy) {
    await orm.em.getConnection().execute(
      `insert into client (reference, user_reference, name, description, endpoint, secret, verified, created, updated)
       values (?, ?, ?, 'd', 'https://legacy.example/', ?, false, now(), now())`,
      [client.reference, user.reference, client.name, client.secret],
    );
  }
}, 60_000);

afterAll(() => orm.close());

it('the migrations seal the stored plaintext secrets; a pg_dump holds none; owners read and use them', async () => {
  const report = await migrate(orm, new ClientSecretBox([oldKey]));
  expectNotStored(
    await storedText(orm),
    'Legacy tracker',
    legacy.map((client) => client.secret),
  );
  expect(report).toEqual({
    // Every migration after BEFORE_SEALING, the sealing one first.
    migrations: expect.arrayContaining(['Migration20261128000500_sealed_client_secrets']),
    sealedClientSecrets: 2,
  });
  expect(report.migrations[0]).toBe('Migration20261128000500_sealed_client_secrets');
  expect((await storedRows()).map((row) => row.sealed_secret.split('.').slice(0, 2).join('.'))).toEqual([
    `v1.${keyIdOf(oldKey)}`,
    `v1.${keyIdOf(oldKey)}`,
  ]);
  // Done once: a later start has nothing to seal.
  expect(await migrate(orm, new ClientSecretBox([oldKey]))).toEqual({
    migrations: [],
    sealedClientSecrets: 0,
  });

  const { app, stop } = await appWith([oldKey]);
  try {
    for (const client of legacy) {
      const { full, exchange } = await useClient(app, client.reference, client.secret);
      expect(full.body).toMatchObject({ name: client.name, secret: client.secret });
      expect(exchange.status).toBe(200);
    }
  } finally {
    await stop();
  }
});

it('an instance without the key that sealed them refuses to start, and fails their use clearly', async () => {
  const before = await storedRows();
  const start = migrate(orm, new ClientSecretBox([strangerKey]));
  await expect(start).rejects.toThrow(ConfigError);
  await expect(start).rejects.toThrow(
    `CLIENT_SECRET_KEY: 2 client secrets are sealed under key ${keyIdOf(oldKey)}, which it does not list ` +
      '(instances that share a database must share the key; list the key that sealed them)',
  );
  expect(await storedRows()).toEqual(before);

  // Had it started anyway: an internal error, logged with the cause, never a wrong answer.
  const { app, stop } = await appWith([strangerKey]);
  try {
    const [client] = legacy;
    const { full, exchange } = await useClient(app, client.reference, client.secret);
    expect([full.status, full.body.code]).toEqual([500, 'system:internal_error']);
    expect([exchange.status, exchange.body.code]).toEqual([500, 'system:internal_error']);
    const causes = logLines.filter((line) => line.includes(`sealed under key ${keyIdOf(oldKey)}`));
    expect(causes).toHaveLength(2);
  } finally {
    await stop();
  }
});

it('rotation: with a new key listed first, the start re-seals every secret under it; then the old key can go', async () => {
  expect(await migrate(orm, new ClientSecretBox([newKey, oldKey]))).toEqual({
    migrations: [],
    sealedClientSecrets: 2,
  });
  expect((await storedRows()).map((row) => row.sealed_secret.split('.')[1])).toEqual([
    keyIdOf(newKey),
    keyIdOf(newKey),
  ]);
  expect(await migrate(orm, new ClientSecretBox([newKey]))).toEqual({
    migrations: [],
    sealedClientSecrets: 0,
  });
  await expect(migrate(orm, new ClientSecretBox([oldKey]))).rejects.toThrow(
    `sealed under key ${keyIdOf(newKey)}, which it does not list`,
  );
  const { app, stop } = await appWith([newKey]);
  try {
    for (const client of legacy) {
      const { full, exchange } = await useClient(app, client.reference, client.secret);
      expect(full.body.secret).toBe(client.secret);
      expect(exchange.status).toBe(200);
    }
  } finally {
    await stop();
  }
  expectNotStored(
    await storedText(orm),
    'Legacy reader',
    legacy.map((client) => client.secret),
  );
});
