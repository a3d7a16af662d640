import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Registered clients' secrets are kept sealed: AES-256-GCM under a key of
 * `CLIENT_SECRET_KEY`, stored as `v1.<key id>.<nonce>.<ciphertext and tag>` (base64url).
 * The key id says which key sealed a value, so that several keys can open (rotation) and
 * a value sealed under a key this instance lacks is refused instead of misread. The
 * version, the key id and the client's reference are authenticated with the value: a
 * sealed secret copied into another client's row does not open there.
 */
const FORMAT = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const SEALED = /^v1\.([0-9a-f]{16})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{22,})$/;

/** The first 8 bytes of the key's SHA-256 (domain-separated), in hex: names a key without revealing it. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update('client-secret-key-id\0').update(key).digest('hex').slice(0, 16);
}

/**
 * What a stored `sealed_secret` holds: a plaintext secret from before sealing
 * (base64url, so without a `.`); a value sealed under the key that seals now; one sealed
 * under another listed key (to be re-sealed); or one this instance cannot open, with the
 * id of the key that sealed it (null when it is not in the v1 form at all).
 */
export type StoredSecretState =
  | { kind: 'plaintext' }
  | { kind: 'current' }
  | { kind: 'older_key' }
  | { kind: 'unreadable'; keyId: string | null };

interface SealedParts {
  keyId: string;
  nonce: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

function partsOf(sealed: string): SealedParts | null {
  const match = SEALED.exec(sealed);
  if (!match) return null;
  const body = Buffer.from(match[3], 'base64url');
  return {
    keyId: match[1],
    nonce: Buffer.from(match[2], 'base64url'),
    ciphertext: body.subarray(0, body.length - TAG_BYTES),
    tag: body.subarray(body.length - TAG_BYTES),
  };
}

/** The version, the key id and the client: authenticated along with the secret. */
const additionalData = (keyId: string, reference: string): Buffer =>
  Buffer.from(`${FORMAT}.${keyId}.${reference}`, 'utf8');

export class ClientSecretBox {
  private readonly keys: ReadonlyMap<string, Buffer>;
  private readonly sealingKey: Buffer;
  /** The id of the key that seals (the first listed). */
  readonly sealingKeyId: string;

  /** `keys`: the first seals, every one opens. */
  constructor(keys: readonly Buffer[]) {
    if (keys.length === 0) throw new Error('ClientSecretBox needs at least one key');
    this.keys = new Map(keys.map((key) => [keyIdOf(key), key]));
    this.sealingKey = keys[0];
    this.sealingKeyId = keyIdOf(keys[0]);
  }

  /** Seals `secret` of the client `reference` under the first key. */
  seal(secret: string, reference: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.sealingKey, nonce);
    cipher.setAAD(additionalData(this.sealingKeyId, reference));
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${FORMAT}.${this.sealingKeyId}.${nonce.toString('base64url')}.${body.toString('base64url')}`;
  }

  /**
   * The secret `sealed` holds for the client `reference`. Throws when it cannot be
   * opened (a key CLIENT_SECRET_KEY does not list, a value altered or taken from another
   * client): never a wrong secret.
   */
  open(sealed: string, reference: string): string {
    const parts = partsOf(sealed);
    const key = parts && this.keys.get(parts.keyId);
    if (!parts || !key) throw new Error(unreadableMessage(parts?.keyId ?? null, 1));
    const decipher = createDecipheriv('aes-256-gcm', key, parts.nonce);
    decipher.setAAD(additionalData(parts.keyId, reference));
    decipher.setAuthTag(parts.tag);
    try {
      return Buffer.concat([decipher.update(parts.ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new Error(`the sealed secret of client ${reference} does not open: it was altered or moved`);
    }
  }

  /** What `stored` is to this box (see {@link StoredSecretState}). */
  stateOf(stored: string): StoredSecretState {
    if (!stored.includes('.')) return { kind: 'plaintext' };
    const keyId = partsOf(stored)?.keyId ?? null;
    if (keyId === null || !this.keys.has(keyId)) return { kind: 'unreadable', keyId };
    return { kind: keyId === this.sealingKeyId ? 'current' : 'older_key' };
  }
}

/** Why `count` stored secrets cannot be opened (sealed under `keyId`, or not sealed in a known form). */
export function unreadableMessage(keyId: string | null, count: number): string {
  const what = count === 1 ? 'a client secret is' : `${count} client secrets are`;
  if (keyId === null) return `${what} stored in a form this version cannot read (not v1)`;
  return (
    `CLIENT_SECRET_KEY: ${what} sealed under key ${keyId}, which it does not list ` +
    '(instances that share a database must share the key; list the key that sealed them)'
  );
}
