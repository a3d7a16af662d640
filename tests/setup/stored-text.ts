import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';

/** What a database holds, as text, for tests that prove a secret is not stored. */
export interface StoredText {
  /** Every row of every table of the `public` schema, as JSON. */
  rows: string;
  /** The database's `pg_dump` (schema and data); null when no pg_dump binary is installed. */
  dump: string | null;
}

const DEBIAN_POSTGRESQL = '/usr/lib/postgresql';

/** The newest Debian pg_dump (a newer one dumps an older server, not the other way round). */
function pgDumpBinary(): string | null {
  if (!existsSync(DEBIAN_POSTGRESQL)) return null;
  const versions = readdirSync(DEBIAN_POSTGRESQL)
    .filter((version) => existsSync(join(DEBIAN_POSTGRESQL, version, 'bin', 'pg_dump')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(DEBIAN_POSTGRESQL, versions[0], 'bin', 'pg_dump') : null;
}

export async function storedText(orm: MikroORM): Promise<StoredText> {
  const connection = orm.em.getConnection();
  const tables = await connection.execute<{ tablename: string }[]>(
    `select tablename from pg_tables where schemaname = 'public' order by tablename`,
  );
  const rows: string[] = [];
  for (const { tablename } of tables) {
    const found = await connection.execute<{ row: string }[]>(
      `select row_to_json(t)::text as row from "${tablename}" t`,
    );
    rows.push(...found.map((r) => r.row));
  }
  const pgDump = pgDumpBinary();
  const dump = pgDump
    ? execFileSync(pgDump, ['--dbname', orm.config.get('clientUrl')!], { maxBuffer: 1 << 28 }).toString()
    : null;
  return { rows: rows.join('\n'), dump };
}

/** `secret` as written, and in the other encodings its bytes could be stored in. */
export function encodingsOf(secret: string): string[] {
  const encodings = [secret, Buffer.from(secret).toString('hex'), Buffer.from(secret).toString('base64')];
  // A base64url secret (client secrets, tokens) could also be stored as the bytes it encodes.
  if (/^[A-Za-z0-9_-]+$/.test(secret)) {
    const bytes = Buffer.from(secret, 'base64url');
    encodings.push(bytes.toString('hex'), bytes.toString('base64'));
  }
  return encodings;
}

/**
 * Fails unless the rows (and the dump, if any) hold `present`, which shows that the scan
 * sees the data, and hold none of `secrets` in any encoding.
 */
export function expectNotStored(stored: StoredText, present: string, secrets: readonly string[]): void {
  const places = { rows: stored.rows, ...(stored.dump !== null && { dump: stored.dump }) };
  for (const [place, text] of Object.entries(places)) {
    // Named and shortened: a failure shows where, and not the whole dump.
    expect({ place, holdsData: text.includes(present) }).toEqual({ place, holdsData: true });
    const found = secrets.flatMap(encodingsOf).filter((encoded) => text.includes(encoded));
    expect({ place, found }).toEqual({ place, found: [] });
  }
}
