import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { openClientSecretBox } from '../clients/client-secret-keys';
import { loadConfig } from '../config';
import { openDatabase } from '../db/database';
import { createOrm, migrate } from '../orm';
import { createLogger } from '../logger';
import { DEMO_SCALE, DEMO_SEED, DemoPhaseError, describePhase, seedDemoData } from './demo-data';

/**
 * `npm run demo -- [--scale N] [--seed N]`: loads deterministic demo data into the
 * database, printing one line per phase with what it wrote and its time, and last the
 * total time. A phase that fails prints `demo: <phase> failed: <reason>` on standard
 * error and the exit status is 1.
 */
async function main(): Promise<number> {
  const { values } = parseArgs({ options: { scale: { type: 'string' }, seed: { type: 'string' } } });
  const scale = values.scale === undefined ? DEMO_SCALE : Number(values.scale);
  const seed = values.seed === undefined ? DEMO_SEED : Number(values.seed);
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
    await seedDemoData(orm, log, clientSecrets, {
      scale,
      seed,
      onPhase: (report) => console.log(describePhase(report)),
    });
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
    // A failed phase's message says all; anything else (no database, …) keeps its stack.
    console.error(error instanceof DemoPhaseError ? error.message : error);
    process.exit(1);
  },
);
