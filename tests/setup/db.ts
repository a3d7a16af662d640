import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import type { Logger } from 'pino';
import { ensureDatabase } from '../../src/db/database';
import { createOrm } from '../../src/orm';
import { statementsInOrder } from '../../src/db/sql';
import { adminUrl, templateDatabase, testDatabasePrefix } from './names';

/** Counts SQL statements, so that tests can prove a request runs a bounded number of queries. */
export class QueryCounter {
  private statements: string[] = [];
  private active = false;

  record = (message: string): void => {
    if (this.active && /^\[query\]/.test(message)) this.statements.push(message);
  };

  /** Runs `work` and returns how many statements it sent. */
  async count(work: () => Promise<unknown>): Promise<number> {
    this.statements = [];
    this.active = true;
    try {
      await work();
    } finally {
      this.active = false;
    }
    return this.statements.length;
  }

  get last(): readonly string[] {
    return this.statements;
  }

  /**
   * Runs `work` and names each round trip it sent, in order: `token` for the token
   * look-up and `token use` for its first use's slide (src/common/auth/session.ts);
   * `kindOf` names those it recognises (given the statement's text); the first word
   * stands for the others (`commit`, `insert`, ...). Several statements sent in one
   * round trip (`executeInOrder`, src/db/sql.ts) are named together, joined by `+`, as is
   * a transaction's BEGIN with the statement it goes with (src/db/deferred-begin.ts).
   */
  async kinds(
    work: () => Promise<unknown>,
    kindOf: (statement: string) => string | undefined,
  ): Promise<string[]> {
    await this.count(work);
    const name = (statement: string): string => {
      if (statement.includes('from auth_token t')) return 'token';
      if (statement.startsWith('with slid')) return 'token use';
      return kindOf(statement) ?? statement.split(' ')[0];
    };
    const trips = this.statements.map((line) =>
      statementsInOrder(line.replace(/^\[query\] /, ''))
        .map(name)
        .join('+'),
    );
    return trips.flatMap((trip, i) => {
      if (trip === 'begin' && i + 1 < trips.length) return [];
      return trips[i - 1] === 'begin' ? [`begin+${trip}`] : [trip];
    });
  }
}

/**
 * The texts pg sends to the server while `work` runs, one per round trip, as sent (the
 * entity manager's values written in, BEGIN with a transaction's first statement),
 * whitespace collapsed.
 */
export async function sentToPostgres(work: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function capture(this: pg.Client, ...args: unknown[]) {
    const [config] = args as [string | { text: string }];
    sent.push((typeof config === 'string' ? config : config.text).replace(/\s+/g, ' ').trim());
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await work();
  } finally {
    pg.Client.prototype.query = query;
  }
  return sent;
}

/** This worker's own database, cloned from the migrated template on first use. */
export async function workerDatabaseUrl(): Promise<string> {
  const worker = process.env.JEST_WORKER_ID ?? '1';
  return ensureDatabase(adminUrl(), `${testDatabasePrefix()}w${worker}`, templateDatabase());
}

/** `log` gets the driver's own messages (knex's, which it would print on the console). */
export async function openTestOrm(counter?: QueryCounter, log?: Logger): Promise<MikroORM> {
  return createOrm(await workerDatabaseUrl(), { onQuery: counter?.record, poolMax: 5, log });
}

let tableList: string[] | undefined;

/**
 * Empties every table (except the migrations log) so that each test starts clean.
 * DELETE with foreign-key triggers off is much faster than TRUNCATE on small tables.
 */
export async function resetDatabase(orm: MikroORM): Promise<void> {
  const connection = orm.em.getConnection();
  tableList ??= (
    await connection.execute<{ tablename: string }[]>(
      `select tablename from pg_tables where schemaname = 'public' and tablename <> 'mikro_orm_migrations'`,
    )
  ).map((t) => `delete from "${t.tablename}";`);
  await connection.execute(
    `set session_replication_role = replica; ${tableList.join(' ')} set session_replication_role = origin;`,
  );
}

/**
 * Runs `run` while a trigger with `body` (a PL/pgSQL block that may raise, and `return
 * new` to let the row in) runs before every insert into `action_record`, the last write
 * of most write requests.
 */
async function withActionRecordTrigger<T>(orm: MikroORM, body: string, run: () => Promise<T>): Promise<T> {
  const connection = orm.em.getConnection();
  await connection.execute(`create sequence test_action_inserts`);
  await connection.execute(`create function test_action_trigger() returns trigger language plpgsql as $$
    begin ${body} end $$`);
  await connection.execute(`create trigger test_action_trigger before insert on action_record
    for each row execute function test_action_trigger()`);
  try {
    return await run();
  } finally {
    await connection.execute('drop trigger test_action_trigger on action_record');
    await connection.execute('drop function test_action_trigger()');
    await connection.execute('drop sequence test_action_inserts');
  }
}

/**
 * Runs `run` while every insert into `action_record` fails with a database error whose
 * message says `injected failure`.
 */
export function withFailingActionRecords<T>(orm: MikroORM, run: () => Promise<T>): Promise<T> {
  return withActionRecordTrigger(orm, `raise exception 'injected failure';`, run);
}

/**
 * Runs `run` while the first `times` inserts into `action_record` fail as PostgreSQL
 * fails a transaction it aborted to resolve a conflict (SQLSTATE `sqlstate`: `40P01`
 * deadlock_detected, `40001` serialization_failure); later inserts succeed.
 */
export function withConflictingActionRecords<T>(
  orm: MikroORM,
  conflict: { sqlstate: '40P01' | '40001'; times: number },
  run: () => Promise<T>,
): Promise<T> {
  return withActionRecordTrigger(
    orm,
    `if nextval('test_action_inserts') <= ${Number(conflict.times)} then
       raise exception 'injected conflict' using errcode = '${conflict.sqlstate}';
     end if;
     return new;`,
    run,
  );
}
