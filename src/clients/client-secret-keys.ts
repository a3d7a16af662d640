import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type Config, ConfigError, parseClientSecretKeys } from '../config';
import { ClientSecretBox } from './client-secret-box';

/** Where the key lives when `CLIENT_SECRET_KEY` is unset: the service's data folder. */
export const CLIENT_SECRET_KEY_FILE = '.data/client-secret.key';

export interface ClientSecretKeyOptions {
  /** The key file used when `CLIENT_SECRET_KEY` is unset ({@link CLIENT_SECRET_KEY_FILE}). */
  keyFile?: string;
  /** Told once, when the key file is created (by default on stderr). */
  onGenerated?: (message: string) => void;
}

/**
 * The box that seals registered clients' secrets: under the keys `CLIENT_SECRET_KEY`
 * lists or, when it is unset, under the key file, generated with a random key on first
 * use and read on every later start (it may list several keys, as the variable does).
 */
export function openClientSecretBox(
  config: Pick<Config, 'clientSecretKeys'>,
  { keyFile = CLIENT_SECRET_KEY_FILE, onGenerated = console.error }: ClientSecretKeyOptions = {},
): ClientSecretBox {
  if (config.clientSecretKeys.length > 0) return new ClientSecretBox(config.clientSecretKeys);
  if (createKeyFile(keyFile)) {
    onGenerated(
      `CLIENT_SECRET_KEY is unset: generated a key into ${keyFile}, which seals client secrets. ` +
        'Keep it with the database; instances that share the database need the same key.',
    );
  }
  const keys = parseClientSecretKeys(readFileSync(keyFile, 'utf8'), keyFile);
  if (keys.length === 0)
    throw new ConfigError(`${keyFile} holds no key: set CLIENT_SECRET_KEY, or restore the file`);
  return new ClientSecretBox(keys);
}

/**
 * Creates `file` (mode 0600) with a random key unless it exists; true when it did. The
 * key is written to a file of its own first and then linked into place, so that two
 * instances starting together never read a half-written key: the second link fails.
 */
function createKeyFile(file: string): boolean {
  if (existsSync(file)) return false;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const draft = `${file}.${process.pid}.new`;
  writeFileSync(draft, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  try {
    linkSync(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}
