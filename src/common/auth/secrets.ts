import { createHash, randomBytes } from 'node:crypto';

/** A URL-safe random secret of 256 bits (43 characters). */
export function newTokenSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Secrets are stored only as their SHA-256 (hex). */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
