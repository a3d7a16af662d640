import bcrypt from 'bcryptjs';
import type { MikroORM } from '@mikro-orm/postgresql';
import { verifyPassword } from '../../src/accounts/passwords';
import { User } from '../../src/accounts/user.entity';
import { importCatalog } from '../../src/import/importer';
import { buildUser } from '../factories';
import { openTestOrm, resetDatabase } from '../setup/db';
import { importFailure, issueLines, type Json } from './helpers';

let orm: MikroORM;

beforeAll(async () => {
  orm = await openTestOrm();
});
beforeEach(async () => {
  await resetDatabase(orm);
});
afterAll(async () => {
  await orm.close();
});

const user = (overrides: Json = {}): Json => ({
  username: 'Alice_1',
  email: 'alice@example.com',
  password: 'open sesame',
  ...overrides,
});
const findUser = (username = 'Alice_1') => orm.em.fork().findOneOrFail(User, { username });

describe('users', () => {
  it('creates an activated account with a hashed password and the defaults', async () => {
    const before = Date.now();
    const report = await importCatalog(orm, { users: [user()] });
    const alice = await findUser();

    expect(report.sections.users).toMatchObject({ created: 1 });
    expect(alice).toMatchObject({
      email: 'alice@example.com',
      role: 'user',
      email_confirmed: true,
      activation_token_hash: null,
      banned: false,
      forbidden_actions: [],
      ignored_notifications: [],
      avatar_path: null,
    });
    expect(alice.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword('open sesame', alice.password_hash)).toBe(true);
    expect(alice.created.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('does not re-hash an unchanged password, and hashes a changed one', async () => {
    await importCatalog(orm, { users: [user()] });
    const first = await findUser();

    const again = await importCatalog(orm, { users: [user()] });
    const second = await findUser();
    const changed = await importCatalog(orm, { users: [user({ password: 'new sesame!' })] });
    const third = await findUser();

    expect(again.sections.users).toMatchObject({ updated: 0, unchanged: 1 });
    expect(second.password_hash).toBe(first.password_hash);
    expect(changed.sections.users).toMatchObject({ updated: 1 });
    expect(third.password_hash).not.toBe(first.password_hash);
    expect(await verifyPassword('new sesame!', third.password_hash)).toBe(true);
  });

  it('stores a bcrypt password_hash as given, which then verifies', async () => {
    const hash = bcrypt.hashSync('from the old site', 4).replace(/^\$2b\$/, '$2y$');

    await importCatalog(orm, { users: [user({ password: undefined, password_hash: hash })] });
    const alice = await findUser();

    expect(alice.password_hash).toBe(hash);
    expect(await verifyPassword('from the old site', alice.password_hash)).toBe(true);
  });

  it('matches usernames ignoring case and updates the same account', async () => {
    await importCatalog(orm, { users: [user()] });
    const first = await findUser();

    const report = await importCatalog(orm, { users: [user({ username: 'alice_1', description: 'Hi' })] });
    const accounts = await orm.em.fork().find(User, {});

    expect(report.sections.users).toMatchObject({ created: 0, updated: 1 });
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ reference: first.reference, username: 'alice_1', description: 'Hi' });
  });

  it('derives email confirmation from the role; not_activated accounts get no pending activation', async () => {
    await importCatalog(orm, {
      users: [
        user({ role: 'moderator' }),
        user({ username: 'Bobby', email: 'bob@example.com', role: 'not_activated', created: 1600000000 }),
      ],
    });
    const bob = await findUser('Bobby');

    expect((await findUser()).email_confirmed).toBe(true);
    expect(bob).toMatchObject({ role: 'not_activated', email_confirmed: false, activation_token_hash: null });
    expect(bob.created).toEqual(new Date(1600000000 * 1000));

    await importCatalog(orm, {
      users: [user({ username: 'Bobby', email: 'bob@example.com', role: 'admin' })],
    });
    expect(await findUser('Bobby')).toMatchObject({ role: 'admin', email_confirmed: true });
  });

  it('maps avatar, moderation fields and notification settings', async () => {
    await importCatalog(orm, {
      users: [
        user({
          avatar: '/avatars/a.png',
          cover: 'https://cdn.example.com/c.png',
          banned: true,
          forbidden_actions: ['comment:write'],
          ignored_notifications: ['follow'],
        }),
      ],
    });
    expect(await findUser()).toMatchObject({
      avatar_path: '/avatars/a.png',
      cover: 'https://cdn.example.com/c.png',
      banned: true,
      forbidden_actions: ['comment:write'],
      ignored_notifications: ['follow'],
    });
  });

  it('applies the signup rules and the password rules', async () => {
    const error = await importFailure(orm, {
      users: [
        user({ username: '1alice' }),
        user({ username: 'Carol', email: 'carol+tag@example.com' }),
        user({ username: 'Dave_', email: 'dave@example.com', password: 'short' }),
        user({ username: 'Erin_', email: 'erin@example.com', password_hash: '$2b$10$abc' }),
        user({
          username: 'Frank',
          email: 'frank@example.com',
          password: undefined,
          password_hash: 'md5:abc',
        }),
        user({ username: 'Gina_', email: 'gina@example.com', role: 'deleted' }),
        user({ username: 'Hank_', email: 'hank@example.com', forbidden_actions: ['fly'] }),
      ],
    });
    expect(issueLines(error)).toEqual([
      'users[0].username: invalid username "1alice" (expected ^[A-Za-z][A-Za-z0-9_]{4,63}$)',
      'users[1].email: invalid email "carol+tag@example.com" (a valid address without "+")',
      'users[2].password: a password has 8 to 256 characters, got 5',
      'users[3]: give either password or password_hash (exactly one)',
      'users[3].password_hash: not a bcrypt ($2a$, $2b$, $2y$) or argon2id ($argon2id$) hash',
      'users[4].password_hash: not a bcrypt ($2a$, $2b$, $2y$) or argon2id ($argon2id$) hash',
      'users[5].role: unknown role "deleted" (expected one of user, moderator, admin, not_activated)',
      expect.stringMatching(/^users\[6\]\.forbidden_actions\[0\]: unknown permission "fly"/),
    ]);
    expect(await orm.em.fork().count(User, {})).toBe(0);
  });

  it('rejects duplicate usernames (ignoring case) and emails within the file', async () => {
    const error = await importFailure(orm, {
      users: [
        user(),
        user({ username: 'ALICE_1', email: 'other@example.com' }),
        user({ username: 'Bobby', email: 'ALICE@example.com' }),
      ],
    });
    expect(issueLines(error)).toEqual([
      'users[1].username: duplicate username "ALICE_1" (also users[0])',
      'users[2].email: email "ALICE@example.com" is already used by user "alice_1" in this file',
    ]);
  });

  it('rejects an email that a stored account not in the file already uses', async () => {
    await buildUser(orm, { username: 'stored_user', email: 'Alice@Example.com' });

    const error = await importFailure(orm, { users: [user()] });

    expect(issueLines(error)).toEqual([
      'users[0].email: email "alice@example.com" already belongs to user "stored_user"',
    ]);
  });

  it('lets two accounts of the file swap their emails', async () => {
    const bob = { username: 'Bobby', email: 'bob@example.com', password: 'bob password' };
    await importCatalog(orm, { users: [user(), bob] });

    const report = await importCatalog(orm, {
      users: [user({ email: 'bob@example.com' }), { ...bob, email: 'alice@example.com' }],
    });

    expect(report.sections.users).toMatchObject({ updated: 2 });
    expect((await findUser()).email).toBe('bob@example.com');
    expect((await findUser('Bobby')).email).toBe('alice@example.com');
  });
});
