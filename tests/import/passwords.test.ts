import bcrypt from 'bcryptjs';
import { hashPassword, isSupportedPasswordHash, verifyPassword } from '../../src/accounts/passwords';

describe('passwords', () => {
  it('hashes with argon2id, salted, and verifies only the right password', async () => {
    const first = await hashPassword('correct horse');
    const second = await hashPassword('correct horse');

    expect(first).toMatch(/^\$argon2id\$/);
    expect(second).not.toBe(first);
    expect(await verifyPassword('correct horse', first)).toBe(true);
    expect(await verifyPassword('wrong horse', first)).toBe(false);
  });

  it.each(['$2a$', '$2b$', '$2y$'])('verifies bcrypt hashes with the %s prefix', async (prefix) => {
    const hash = bcrypt.hashSync('imported-secret', 4).replace(/^\$2[aby]\$/, prefix);

    expect(isSupportedPasswordHash(hash)).toBe(true);
    expect(await verifyPassword('imported-secret', hash)).toBe(true);
    expect(await verifyPassword('imported-secreT', hash)).toBe(false);
  });

  it('recognises only bcrypt and argon2id hashes', async () => {
    const argon2i = (await hashPassword('x')).replace('$argon2id$', '$argon2i$');
    for (const hash of [
      'plain text',
      '$1$abc$def',
      argon2i,
      '$2x$10$' + 'a'.repeat(53),
      '$argon2id$v=19$broken',
    ]) {
      expect(isSupportedPasswordHash(hash)).toBe(false);
      expect(await verifyPassword('x', hash)).toBe(false);
    }
  });
});
