import 'reflect-metadata';
import { ConfigError, loadConfig } from '../config';
import { createOrm, migrate, openDatabase } from './database';

/** `npm run migrate`: applies pending committed migrations to DATABASE_URL (or the embedded database). */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl });
  const orm = await createOrm(database.url);
  try {
    const applied = await migrate(orm);
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
