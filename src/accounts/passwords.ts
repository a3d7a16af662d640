import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';

/** `$2a$`/`$2b$`/`$2y$`, a two-digit cost, then 22 characters of salt and 31 of digest. */
const BCRYPT_HASH = /^\$2[aby]\$(0[4-9]|[12]\d|3[01])\$[./A-Za-z0-9]{53}$/;
/** PHC string of argon2id: version, parameters, base64 salt and digest. */
const ARGON2ID_HASH = /^\$argon2id\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+={0,2}\$[A-Za-z0-9+/]+={0,2}$/;

/** True for the hash formats this service can verify: bcrypt and argon2id. */
export function isSupportedPasswordHash(hash: string): boolean {
  return BCRYPT_HASH.test(hash) || ARGON2ID_HASH.test(hash);
}

/** Hashes a password for storage with argon2id (the library's default algorithm and parameters). */
export async function hashPassword(plain: string): Promise<string> {
  return argon2Hash(plain);
}

/**
 * Checks a password against a stored hash. bcrypt hashes come from imported
 * accounts; new ones are argon2id. A malformed or unsupported hash never matches.
 */
export async function verifyPassword(plain: string, hash: string): Promise<boolean> {
  if (BCRYPT_HASH.test(hash)) return bcrypt.compare(plain, hash);
  if (!ARGON2ID_HASH.test(hash)) return false;
  try {
    return await argon2Verify(hash, plain);
  } catch {
    // The library rejects hashes it cannot decode; treat them as a mismatch.
    return false;
  }
}
