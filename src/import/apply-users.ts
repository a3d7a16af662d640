import { raw } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { hashPassword, verifyPassword } from '../accounts/passwords';
import { User } from '../accounts/user.entity';
import { inBatches, type ApplyContext } from './apply-context';
import { pgArray, runSql } from './bulk-sql';
import { assignChanged } from './entity-patch';
import type { UserRecord } from './import-schema';
import { readRecords } from './import-validation';

/**
 * Accounts, keyed by username ignoring case. Imported accounts are activated unless
 * their role is `not_activated` (which gets no pending activation either).
 */
export async function applyUsers(context: ApplyContext): Promise<void> {
  const { em } = context;
  const counts = context.counts('users');
  await releaseEmails(em, context.preparation.emailHolders);
  const total = context.facts.sections.users?.length ?? 0;
  await inBatches(context, 'users', total, async (start, end) => {
    const records = readRecords(context.facts, 'users', start, end).map(({ record }) => record);
    const names = records.map((record) => record.username.toLowerCase());
    const stored = await em.find(User, { [raw('lower(username)')]: { $in: names } });
    const byName = new Map(stored.map((user) => [user.username.toLowerCase(), user]));
    const existing = records.map((record) => byName.get(record.username.toLowerCase()));
    const hashes = await Promise.all(
      records.map((record, i) => passwordHashFor(record, existing[i]?.password_hash)),
    );
    records.forEach((record, i) => {
      const user = existing[i] ?? new User();
      const changed = assignChanged(
        user,
        userPatch(record, hashes[i], existing[i] === undefined, context.now),
      );
      if (!existing[i]) {
        em.persist(user);
        counts.created += 1;
      } else if (changed) counts.updated += 1;
      else counts.unchanged += 1;
    });
    await em.flush();
    em.clear();
  });
}

/**
 * The hash to store: a given hash as is; a plain password is hashed only when it
 * does not match the stored hash, so re-importing the same file changes nothing.
 */
async function passwordHashFor(
  record: UserRecord,
  storedHash: string | undefined,
): Promise<string | undefined> {
  if (record.password_hash !== undefined) return record.password_hash;
  if (record.password === undefined) return undefined;
  if (storedHash !== undefined && (await verifyPassword(record.password, storedHash))) return storedHash;
  return hashPassword(record.password);
}

function userPatch(
  record: UserRecord,
  passwordHash: string | undefined,
  isNew: boolean,
  now: Date,
): Partial<User> {
  const role = record.role ?? (isNew ? 'user' : undefined);
  const activated = role === undefined ? undefined : role !== 'not_activated';
  return {
    username: record.username,
    email: record.email,
    password_hash: passwordHash,
    role,
    email_confirmed: activated,
    // An activated account has no pending activation; neither has an imported not_activated one.
    ...((activated || isNew) && { activation_token_hash: null, activation_expires: null }),
    description: record.description,
    avatar_path: record.avatar,
    cover: record.cover,
    created: record.created ?? (isNew ? now : undefined),
    banned: record.banned,
    forbidden_actions: record.forbidden_actions,
    ignored_notifications: record.ignored_notifications,
  };
}

/**
 * Stored users whose email another user of the file takes (and who get a new one from
 * the file) first move to a placeholder, so swapped emails never collide mid-import.
 */
async function releaseEmails(em: EntityManager, users: readonly string[]): Promise<void> {
  if (users.length === 0) return;
  await runSql(
    em,
    `update "user" set email = reference::text || '@released.invalid' where reference = any(?::uuid[])`,
    [pgArray(users)],
  );
}
