/** Database names and URLs used by the test run, derived from DATABASE_URL's server. */

function serverUrl(): URL {
  const raw = process.env.DATABASE_URL;
  if (!raw) throw new Error('DATABASE_URL is set by tests/setup/global-setup.ts');
  return new URL(raw);
}

/** The database named in DATABASE_URL: used only to create and drop the test databases. */
export function adminUrl(): string {
  return serverUrl().toString();
}

/** Prefix of every database of this run (template and workers): `<database in DATABASE_URL>_t_`. */
export function testDatabasePrefix(): string {
  const name = serverUrl().pathname.replace(/^\//, '') || 'postgres';
  return `${name}_t_`;
}

/** The migrated template that each worker's database is cloned from. */
export function templateDatabase(): string {
  return `${testDatabasePrefix()}template`;
}

export function databaseUrl(name: string): string {
  const url = serverUrl();
  url.pathname = `/${name}`;
  return url.toString();
}
