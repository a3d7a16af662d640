import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClientSecretBox, keyIdOf } from '../../src/clients/client-secret-box';
import { openClientSecretBox } from '../../src/clients/client-secret-keys';
import { ConfigError, loadConfig } from '../../src/config';

/** Sealing of client secrets (AES-256-GCM), CLIENT_SECRET_KEY and the generated key file. */
const SECRET = randomBytes(96).toString('base64url');
const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];

describe('ClientSecretBox', () => {
  it('seals a secret into v1.<key id>.<nonce>.<ciphertext>, which opens to it for its client only', () => {
    const box = new ClientSecretBox([oldKey]);
    const client = randomUUID();
    const sealed = box.seal(SECRET, client);
    expect(sealed).toMatch(new RegExp(`^v1\\.${keyIdOf(oldKey)}\\.[A-Za-z0-9_-]{16}\\.[A-Za-z0-9_-]+$`));
    expect(sealed).not.toContain(SECRET.slice(0, 16));
    expect(box.open(sealed, client)).toBe(SECRET);
    // A fresh nonce every time: equal secrets do not look equal.
    expect(box.seal(SECRET, client)).not.toBe(sealed);
    expect(() => box.open(sealed, randomUUID())).toThrow(/does not open: it was altered or moved/);
  });

  it('refuses an altered value instead of answering a wrong secret', () => {
    const box = new ClientSecretBox([oldKey]);
    const client = randomUUID();
    const sealed = box.seal(SECRET, client);
    const last = sealed.at(-2) === 'A' ? 'B' : 'A';
    const altered = `${sealed.slice(0, -2)}${last}${sealed.at(-1)}`;
    expect(() => box.open(altered, client)).toThrow(/altered/);
  });

  it('names CLIENT_SECRET_KEY and the key id for a value sealed under a key it lacks', () => {
    const client = randomUUID();
    const sealed = new ClientSecretBox([oldKey]).seal(SECRET, client);
    const other = new ClientSecretBox([newKey]);
    expect(() => other.open(sealed, client)).toThrow(
      `CLIENT_SECRET_KEY: a client secret is sealed under key ${keyIdOf(oldKey)}, which it does not list`,
    );
    expect(other.stateOf(sealed)).toEqual({ kind: 'unreadable', keyId: keyIdOf(oldKey) });
  });

  it('seals under the first key and opens under every listed one (rotation)', () => {
    const client = randomUUID();
    const underOld = new ClientSecretBox([oldKey]).seal(SECRET, client);
    const rotating = new ClientSecretBox([newKey, oldKey]);
    expect(rotating.open(underOld, client)).toBe(SECRET);
    expect(rotating.stateOf(underOld)).toEqual({ kind: 'older_key' });
    const underNew = rotating.seal(SECRET, client);
    expect(underNew.split('.')[1]).toBe(keyIdOf(newKey));
    expect(rotating.stateOf(underNew)).toEqual({ kind: 'current' });
    expect(new ClientSecretBox([newKey]).open(underNew, client)).toBe(SECRET);
  });

  it('tells plaintext from before sealing, and values in no known form', () => {
    const box = new ClientSecretBox([oldKey]);
    expect(box.stateOf(SECRET)).toEqual({ kind: 'plaintext' });
    expect(box.stateOf('v2.0123456789abcdef.x.y')).toEqual({ kind: 'unreadable', keyId: null });
  });
});

describe('CLIENT_SECRET_KEY', () => {
  it('reads comma-separated 32-byte keys in base64, base64url or hex; unset is empty', () => {
    const keys = [oldKey.toString('base64'), newKey.toString('base64url'), oldKey.toString('hex')];
    expect(loadConfig({ CLIENT_SECRET_KEY: ` ${keys.join(' , ')} ` }).clientSecretKeys).toEqual([
      oldKey,
      newKey,
      oldKey,
    ]);
    expect(loadConfig({}).clientSecretKeys).toEqual([]);
  });

  it.each([
    ['too short', randomBytes(16).toString('base64')],
    ['too long', randomBytes(33).toString('hex')],
    ['not base64', `${'!'.repeat(43)}=`],
  ])('refuses a key that is %s, naming the variable and the entry but not the value', (_, bad) => {
    const env = { CLIENT_SECRET_KEY: `${oldKey.toString('base64')},${bad}` };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(
      'CLIENT_SECRET_KEY entry 2 must be a 32-byte key in base64 or hex (openssl rand -base64 32)',
    );
    try {
      loadConfig(env);
    } catch (error) {
      expect(String(error)).not.toContain(bad);
    }
  });
});

describe('the key file (CLIENT_SECRET_KEY unset)', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'client-secret-key-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('is generated once, readable by its owner only, says so, and is reused on later starts', () => {
    const keyFile = join(folder, '.data', 'client-secret.key');
    const notices: string[] = [];
    const first = openClientSecretBox(loadConfig({}), { keyFile, onGenerated: (m) => notices.push(m) });
    expect(notices).toEqual([
      `CLIENT_SECRET_KEY is unset: generated a key into ${keyFile}, which seals client secrets. ` +
        'Keep it with the database; instances that share the database need the same key.',
    ]);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const key = Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64');
    expect(key).toHaveLength(32);
    expect(first.sealingKeyId).toBe(keyIdOf(key));

    const again = openClientSecretBox(loadConfig({}), { keyFile, onGenerated: (m) => notices.push(m) });
    expect(again.sealingKeyId).toBe(first.sealingKeyId);
    expect(notices).toHaveLength(1);
  });

  it('is ignored when CLIENT_SECRET_KEY is set, and may list keys for rotation as the variable does', () => {
    const keyFile = join(folder, 'client-secret.key');
    const fromEnv = openClientSecretBox(loadConfig({ CLIENT_SECRET_KEY: newKey.toString('hex') }), {
      keyFile,
    });
    expect(fromEnv.sealingKeyId).toBe(keyIdOf(newKey));
    writeFileSync(keyFile, `${newKey.toString('base64')},${oldKey.toString('base64')}\n`);
    const fromFile = openClientSecretBox(loadConfig({}), { keyFile });
    expect(fromFile.sealingKeyId).toBe(keyIdOf(newKey));
    const client = randomUUID();
    expect(fromFile.open(new ClientSecretBox([oldKey]).seal(SECRET, client), client)).toBe(SECRET);
  });

  it('refuses an empty or malformed file, naming it', () => {
    const keyFile = join(folder, 'client-secret.key');
    writeFileSync(keyFile, '\n');
    expect(() => openClientSecretBox(loadConfig({}), { keyFile })).toThrow(`${keyFile} holds no key`);
    writeFileSync(keyFile, 'not a key\n');
    expect(() => openClientSecretBox(loadConfig({}), { keyFile })).toThrow(
      `${keyFile} entry 1 must be a 32-byte key`,
    );
  });
});
