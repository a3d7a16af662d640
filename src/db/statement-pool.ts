import type { AbstractSqlConnection } from '@mikro-orm/postgresql';
import pg from 'pg';

const pools = new WeakMap<AbstractSqlConnection, pg.Pool>();

/**
 * pg's own pool beside a MikroORM connection (the primary's, or a replica's), for the
 * prepared statements of compiled reads (`queryRows` in ./sql.ts). Handing out a client
 * of knex's pool (tarn) costs a timer and half a dozen promises; on the hottest reads,
 * whose statement is all their database work, that was about a tenth of their CPU.
 * It takes the connection's own settings (server, session options and connect timeout,
 * src/db/orm-options.ts) and pool size, so an instance holds up to twice that size; pg's
 * pool bounds the wait for a free client by the same connect timeout. Made on first
 * use, closed with the ORM (`closeStatementPools`).
 */
export function statementPoolOf(connection: AbstractSqlConnection): pg.Pool {
  let pool = pools.get(connection);
  if (!pool) {
    const { connection: options, pool: settings = {} } = connection.getKnex().client.config as {
      connection: pg.ClientConfig;
      pool?: { max?: number };
    };
    pool = new pg.Pool({
      ...options,
      // knex keeps it, but hides it from enumeration (and so from the spread).
      password: options.password,
      max: settings.max ?? 10,
    });
    // An idle client that breaks (a restart, a lost network) is dropped by the pool and
    // replaced on the next checkout; without a listener the event would end the process.
    pool.on('error', () => undefined);
    pools.set(connection, pool);
  }
  return pool;
}

/** Ends the statement pools of these connections (the ORM is closing); a later use makes a new one. */
export async function closeStatementPools(connections: readonly AbstractSqlConnection[]): Promise<void> {
  await Promise.all(
    connections.map(async (connection) => {
      const pool = pools.get(connection);
      pools.delete(connection);
      await pool?.end();
    }),
  );
}
