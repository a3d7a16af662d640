import 'reflect-metadata';
import { MikroORM } from '@mikro-orm/postgresql';
import options from '../mikro-orm.config';

/**
 * Writes a migration for the difference between the entities and the database in
 * DATABASE_URL (migrate that database first). Usage: npm run migration:create [-- --initial]
 */
async function main(): Promise<void> {
  const orm = await MikroORM.init(options);
  try {
    const initial = process.argv.includes('--initial');
    const result = await orm.migrator.createMigration(undefined, false, initial);
    if (!result.fileName) {
      console.log('No changes: the entities match the database.');
      return;
    }
    console.log(`Wrote src/db/migrations/${result.fileName}; add it to src/db/migrations/index.ts.`);
  } finally {
    await orm.close();
  }
}

void main();
