import 'reflect-metadata';
import { openClientSecretBox } from './clients/client-secret-keys';
import { ConfigError, loadConfig } from './config';
import { ADVISORY_LOCKS, withSessionLock } from './db/advisory-locks';
import { openDatabase } from './db/database';
import { createOrm, migrate } from './orm';

/**
 * `npm run migrate`: applies pending committed migrations to DATABASE_URL (or the
 * embedded database), and seals or re-seals stored client secrets (key rotation).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const clientSecrets = openClientSecretBox(config);
  const database = await openDatabase({ databaseUrl: config.databaseUrl });
  const orm = await createOrm(database.url);
  try {
    // Under the lock instances migrate under at start, so that neither races the other.
    const { migrations, sealedClientSecrets } = await withSessionLock(orm, ADVISORY_LOCKS.startup, () =>
      migrate(orm, clientSecrets),
    );
    console.log(migrations.length === 0 ? 'No pending migrations.' : `Applied: ${migrations.join(', ')}`);
    if (sealedClientSecrets > 0)
      console.log(`Sealed ${sealedClientSecrets} client secrets under key ${clientSecrets.sealingKeyId}.`);
  } finally {
    await orm.close();
    await database.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : error);
  process.exit(error instanceof ConfigError ? 2 : 1);
});
