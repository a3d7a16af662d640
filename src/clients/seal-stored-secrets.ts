import type { MikroORM } from '@mikro-orm/postgresql';
import { ConfigError } from '../config';
import { type ClientSecretBox, unreadableMessage } from './client-secret-box';

/**
 * The data step of the migrations that needs the service's key, run right after them
 * (src/db/database.ts `migrate`) under the start lock. It seals the plaintext secrets
 * stored before sealing (Migration20261128000500_sealed_client_secrets) and re-seals
 * under the first key those sealed under another listed one (key rotation). Idempotent.
 *
 * It first refuses, changing nothing, when a stored secret is sealed under a key the box
 * lacks: an instance with another key would otherwise start and fail every use of them.
 * Each row is replaced only if it still holds what was read, so a secret replaced
 * meanwhile by a running instance (`revoke_secret`) is kept. Returns how many needed sealing.
 */
export async function sealStoredClientSecrets(orm: MikroORM, box: ClientSecretBox): Promise<number> {
  return orm.em.fork().transactional(async (tx) => {
    const rows = await tx.execute<{ reference: string; sealed_secret: string }[]>(
      'select reference, sealed_secret from client',
    );
    const unreadable = new Map<string | null, number>();
    const toSeal: { reference: string; stored: string; secret: string }[] = [];
    for (const { reference, sealed_secret: stored } of rows) {
      const state = box.stateOf(stored);
      if (state.kind === 'unreadable') unreadable.set(state.keyId, (unreadable.get(state.keyId) ?? 0) + 1);
      else if (state.kind === 'plaintext') toSeal.push({ reference, stored, secret: stored });
      else if (state.kind === 'older_key')
        toSeal.push({ reference, stored, secret: box.open(stored, reference) });
    }
    const [first] = unreadable;
    if (first) throw new ConfigError(unreadableMessage(...first));
    for (const { reference, stored, secret } of toSeal) {
      await tx.execute('update client set sealed_secret = ? where reference = ? and sealed_secret = ?', [
        box.seal(secret, reference),
        reference,
        stored,
      ]);
    }
    return toSeal.length;
  });
}
