import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keyIdOf } from '../../src/clients/client-secret-box';
import { createOrm } from '../../src/orm';
import { buildToken, buildUser } from '../factories';
import { type InstanceOptions, startInstance, stop, useEmptyDatabase } from '../setup/instances';
import { databaseUrl } from '../setup/names';
import { validBody } from './helpers';

/**
 * The service started with CLIENT_SECRET_KEY unset generates the key into its data
 * folder and says so (client-secret-box.test.ts shows a later start reading it again); an
 * instance given another key refuses to start on the same database, naming
 * CLIENT_SECRET_KEY and the id of the key that sealed the stored secrets.
 */
const name = useEmptyDatabase('keyfile');
let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'catalog-key-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const started = (env: InstanceOptions['env']) =>
  startInstance(databaseUrl(name), { cwd: folder, demoData: 'off', env });

it('generates the key file on the first start; another key is refused at start', async () => {
  const first = started({ CLIENT_SECRET_KEY: undefined });
  try {
    const base = await first.ready;
    expect(first.lines).toContainEqual(
      expect.stringContaining(
        '"msg":"CLIENT_SECRET_KEY is unset: generated a key into .data/client-secret.key',
      ),
    );
    // A client whose secret is then stored sealed under that key.
    const orm = await createOrm(databaseUrl(name), { poolMax: 2 });
    const token = await buildToken(orm, await buildUser(orm)).finally(() => orm.close());
    const created = await fetch(`${base}/client`, {
      method: 'POST',
      headers: { auth: token, 'content-type': 'application/json' },
      body: JSON.stringify(validBody()),
    });
    expect(created.status).toBe(200);
  } finally {
    await stop(first);
  }
  await first.closed;
  expect(first.lines).toContain(
    'Secrets:    client secrets sealed with the key in .data/client-secret.key (CLIENT_SECRET_KEY is unset)',
  );
  const keyFile = join(folder, '.data', 'client-secret.key');
  expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  const key = Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64');

  const stranger = started({ CLIENT_SECRET_KEY: randomBytes(32).toString('base64') });
  try {
    await expect(stranger.ready).rejects.toThrow('exited with 2 before listening');
    await stranger.closed;
    expect(stranger.lines).toContain(
      `Configuration error: CLIENT_SECRET_KEY: a client secret is sealed under key ${keyIdOf(key)}, ` +
        'which it does not list (instances that share a database must share the key; list the key that sealed them)',
    );
  } finally {
    await stop(stranger);
  }
}, 90_000);
