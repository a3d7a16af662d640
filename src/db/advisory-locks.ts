import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';

/**
 * The PostgreSQL advisory locks by which instances of the service on one database take
 * turns (arbitrary constants of this service, kept in one place so that none collide).
 */
export const ADVISORY_LOCKS = {
  /** One pass of the new-episode job (semantics §7.21). */
  newEpisodes: 7_402_115_001,
  /** Migrations and the demo-data load at start. */
  startup: 7_402_115_002,
} as const;

type AdvisoryLock = (typeof ADVISORY_LOCKS)[keyof typeof ADVISORY_LOCKS];

/**
 * Takes `lock` for the rest of `tx`'s transaction if no other session holds it; false
 * when one does (that instance is doing the work).
 */
export async function tryTransactionLock(tx: EntityManager, lock: AdvisoryLock): Promise<boolean> {
  const [row] = await tx.execute<{ locked: boolean }[]>('select pg_try_advisory_xact_lock(?) as locked', [
    lock,
  ]);
  return row.locked;
}

interface LockConnection {
  query(text: string, values: unknown[]): Promise<unknown>;
}

/**
 * Runs `work` while this instance holds `lock`, waiting for any other instance that
 * holds it. The lock is held by a pooled connection of its own for the whole of `work`,
 * which may use other connections and transactions (migrations commit one by one);
 * it is released when `work` ends or fails, and by PostgreSQL if the process dies.
 */
export async function withSessionLock<T>(
  orm: MikroORM,
  lock: AdvisoryLock,
  work: () => Promise<T>,
): Promise<T> {
  const { client } = orm.em.getConnection().getKnex();
  const connection = (await client.acquireConnection()) as LockConnection;
  try {
    await connection.query('select pg_advisory_lock($1)', [lock]);
    try {
      return await work();
    } finally {
      await connection.query('select pg_advisory_unlock($1)', [lock]);
    }
  } finally {
    await client.releaseConnection(connection);
  }
}
