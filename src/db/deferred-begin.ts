import { PostgreSqlKnexDialect } from '@mikro-orm/postgresql';
import type { QueryResult } from 'pg';

/**
 * A transaction's BEGIN goes with its first statement, in one round trip.
 *
 * knex sends BEGIN as a statement of its own and waits for it before the transaction's
 * first statement: under load, each round trip waits for a turn of a busy event loop
 * while the transaction holds its pooled connection. Every statement MikroORM sends
 * has its values written into its text (the simple protocol, which takes several
 * statements in one message), so BEGIN can precede the first one in its message; its
 * answer is then the statement's own. A transaction that ends before any statement
 * ends without a round trip (nothing began). A statement with separate values (not
 * MikroORM's) still gets a BEGIN of its own first. Savepoints, isolation levels and
 * read-only transactions begin as knex begins them.
 */

/** A pg client of knex's pool. */
type Connection = object;

interface KnexQuery {
  sql: string;
  bindings?: unknown[];
  response?: unknown;
}

/** What of knex's transaction this reads. */
interface KnexTransaction {
  /** The transaction a savepoint is in; null for a transaction. */
  outerTx: KnexTransaction | null;
  isolationLevel?: string;
  readOnly?: boolean;
  begin(conn: Connection): Promise<unknown>;
  acquireConnection(config: unknown, use: (conn: Connection) => Promise<unknown>): Promise<unknown>;
}

/** Connections held by a transaction that has not sent its BEGIN yet. */
const unbegun = new WeakSet<Connection>();

const ENDS_TRANSACTION = /^\s*(commit|rollback)\b/i;

let installed = false;

/** Installs the deferred BEGIN for every PostgreSQL transaction of this process's knex. */
export function deferTransactionBegin(): void {
  if (installed) return;
  installed = true;

  // MikroORM's dialect of knex, which its connections use (MikroORM patches knex's dialects too).
  const dialect = PostgreSqlKnexDialect.prototype as unknown as {
    transaction(...args: unknown[]): KnexTransaction;
    _query(conn: Connection, obj: KnexQuery): Promise<KnexQuery>;
  };
  const transaction = dialect.transaction;
  dialect.transaction = function transactionBegunLater(...args) {
    const created = transaction.apply(this, args);
    if (created.outerTx || created.isolationLevel || created.readOnly) return created;
    // knex takes a connection, then calls `begin`, once this has returned.
    const acquireConnection = created.acquireConnection;
    created.acquireConnection = (config, use) =>
      acquireConnection.call(created, config, async (conn) => {
        try {
          return await use(conn);
        } finally {
          // Before the connection goes back to the pool, whatever ended the transaction.
          unbegun.delete(conn);
        }
      });
    created.begin = (conn) => {
      unbegun.add(conn);
      return Promise.resolve();
    };
    return created;
  };

  const query = dialect._query;
  dialect._query = async function queryAfterBegin(conn, obj) {
    if (!unbegun.has(conn)) return query.call(this, conn, obj);
    unbegun.delete(conn);
    const ending = ENDS_TRANSACTION.exec(obj.sql);
    if (ending) {
      obj.response = { command: ending[1].toUpperCase(), rowCount: null, rows: [], fields: [] };
      return obj;
    }
    if (obj.bindings && obj.bindings.length > 0) {
      await query.call(this, conn, { sql: 'BEGIN;' });
      return query.call(this, conn, obj);
    }
    const begun = await query.call(this, conn, { ...obj, sql: `BEGIN;${obj.sql}` });
    const [, ...results] = begun.response as QueryResult[];
    obj.response = results.length === 1 ? results[0] : results;
    return obj;
  };
}
