import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { openClientSecretBox } from '../clients/client-secret-keys';
import { loadConfig } from '../config';
import { createOrm, migrate, openDatabase } from '../db/database';
import { createLogger } from '../logger';
import { seedDemoData } from './demo-data';

/** `npm run demo -- [--scale N] [--seed N]`: loads deterministic demo data into the database. */
async function main(): Promise<number> {
  const { values } = parseArgs({ options: { scale: { type: 'string' }, seed: { type: 'string' } } });
  const scale = Number(values.scale ?? '1');
  const seed = Number(values.seed ?? '20261122');
  if (!(scale > 0) || !Number.isInteger(seed)) {
    console.error('Usage: npm run demo -- [--scale <positive number>] [--seed <integer>]');
    return 2;
  }
  const config = loadConfig();
  const log = createLogger(config);
  const clientSecrets = openClientSecretBox(config);
  const database = await openDatabase({ databaseUrl: config.databaseUrl });
  const orm = await createOrm(database.url, { log });
  try {
    await migrate(orm, clientSecrets);
    const started = Date.now();
    await seedDemoData(orm, log, clientSecrets, { scale, seed });
    console.log(`demo data (scale ${scale}) loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return 0;
  } finally {
    await orm.close();
    await database.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
