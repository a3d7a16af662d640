import 'reflect-metadata';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { execFileSync } from 'node:child_process';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../../src/db/embedded';
import { TEST_CLIENT_SECRET_KEY } from './client-secrets';
import { adminUrl, databaseUrl, templateDatabase, testDatabasePrefix } from './names';

declare global {
  var embeddedTestDatabase: EmbeddedDatabase | undefined;
}

/**
 * Builds the template database once per run with the committed migrations; each
 * jest worker clones it (tests/setup/db.ts). Uses DATABASE_URL's server, or an
 * embedded PostgreSQL when DATABASE_URL is unset.
 */
export default async function globalSetup(): Promise<void> {
  // Seen by the template's migration, the workers and the services the tests start.
  process.env.CLIENT_SECRET_KEY ??= TEST_CLIENT_SECRET_KEY;
  if (!process.env.DATABASE_URL) {
    const folder = mkdtempSync(join(tmpdir(), 'catalog-test-'));
    // Enterable by other users: as root, the server runs as the `postgres` OS user and keeps its data here.
    chmodSync(folder, 0o755);
    const dataDir = join(folder, 'db');
    globalThis.embeddedTestDatabase = await startEmbeddedPostgres({ dataDir, persistent: false });
    process.env.DATABASE_URL = globalThis.embeddedTestDatabase.serverUrl;
    process.env.TEST_EMBEDDED_DATABASE = '1';
  }
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    // The prefix covers the template and the workers' clones of the previous run.
    const stale = await admin.query<{ datname: string }>(
      `select datname from pg_database where starts_with(datname, $1)`,
      [testDatabasePrefix()],
    );
    for (const { datname } of stale.rows) {
      await admin.query(`drop database if exists ${admin.escapeIdentifier(datname)} with (force)`);
    }
    const template = templateDatabase();
    await admin.query(`create database ${admin.escapeIdentifier(template)}`);
    execFileSync(
      process.execPath,
      ['-r', '@swc-node/register', join(__dirname, 'migrate-template.ts'), databaseUrl(template)],
      { stdio: 'inherit' },
    );
  } finally {
    await admin.end();
  }
}
