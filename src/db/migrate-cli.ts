import 'reflect-metadata';
import { ConfigError, loadConfig } from '../config';
import { ADVISORY_LOCKS, withSessionLock } from './advisory-locks';
import { createOrm, migrate, openDatabase } from './database';

/** `npm run migrate`: applies pending committed migrations to DATABASE_URL (or the embedded database). */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl });
  const orm = await createOrm(database.url);
  try {
    // Under the lock instances migrate under at start, so that neither races the other.
    const applied = await withSessionLock(orm, ADVISORY_LOCKS.startup, () => migrate(orm));
    console.log(applied.length === 0 ? 'No pending migrations.' : `Applied: ${applied.join(', ')}`);
  } finally {
    await orm.close();
    await database.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : error);
  process.exit(error instanceof ConfigError ? 2 : 1);
});
