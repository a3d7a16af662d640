import 'reflect-metadata';
import { createOrm, migrate } from '../../src/orm';
import { testClientSecrets } from './client-secrets';

/**
 * Migrates the template database named by argv[2]. It runs in its own process:
 * MikroORM metadata built in jest's global-setup realm breaks the test realm's ORM.
 */
async function main(): Promise<void> {
  const orm = await createOrm(process.argv[2]);
  try {
    await migrate(orm, testClientSecrets());
  } finally {
    await orm.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
