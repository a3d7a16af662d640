import { IsolationLevel } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/postgresql';
import { sentToPostgres as wire } from '../setup/db';
import { useTestApp } from '../setup/harness';

/** A transaction's BEGIN goes with its first statement (src/db/deferred-begin.ts). */
describe('deferred BEGIN', () => {
  const t = useTestApp();

  const openTransactions = async (): Promise<number> => {
    const [{ open }] = await t.orm.em.getConnection().execute<{ open: number }[]>(
      `select count(*)::int as open from pg_stat_activity
        where datname = current_database() and state like 'idle in transaction%'`,
    );
    return open;
  };

  it("sends BEGIN in the first statement's round trip, which answers that statement's rows", async () => {
    let rows: unknown[] = [];
    const sent = await wire(() =>
      t.orm.em.fork().transactional(async (tx) => {
        rows = [await tx.execute('select 1 as one'), await tx.execute('select 2 as two; select 3 as three')];
      }),
    );
    expect(sent).toEqual(['BEGIN;select 1 as one', 'select 2 as two; select 3 as three', 'COMMIT;']);
    expect(rows).toEqual([[{ one: 1 }], [[{ two: 2 }], [{ three: 3 }]]]);
  });

  it('ends a transaction that sent no statement without a round trip, committed or rolled back', async () => {
    expect(await wire(() => t.orm.em.fork().transactional(async () => undefined))).toEqual([]);
    const failed = wire(() =>
      t.orm.em.fork().transactional(async () => {
        throw new Error('refused before any statement');
      }),
    );
    await expect(failed).rejects.toThrow('refused before any statement');
    // The connection went back to the pool with nothing pending: the next statement on it begins nothing.
    expect(await wire(() => t.orm.em.fork().execute('select 1 as one'))).toEqual(['select 1 as one']);
    expect(await openTransactions()).toBe(0);
  });

  it('rolls back a transaction whose first statement failed, and leaves no transaction open', async () => {
    const sent = await wire(async () => {
      await expect(
        t.orm.em
          .fork()
          .transactional((tx) =>
            tx.execute("insert into tag (reference, name) values (gen_random_uuid(), 'x'); select 1 / 0"),
          ),
      ).rejects.toThrow(/division by zero/);
    });
    expect(sent).toEqual([
      "BEGIN;insert into tag (reference, name) values (gen_random_uuid(), 'x'); select 1 / 0",
      'ROLLBACK',
    ]);
    expect(await t.orm.em.fork().execute('select count(*)::int as tags from tag')).toEqual([{ tags: 0 }]);
    expect(await openTransactions()).toBe(0);
  });

  it('sends BEGIN with a savepoint that comes first, and keeps the transaction open after it', async () => {
    const sent = await wire(() =>
      t.orm.em.fork().transactional(async (outer) => {
        await outer.transactional((inner) => inner.execute('select 1 as one'));
        await outer.execute('select 2 as two');
      }),
    );
    expect(sent.map((text) => text.replace(/trx\d+/, 'trx'))).toEqual([
      'BEGIN;SAVEPOINT trx;',
      'select 1 as one',
      'RELEASE SAVEPOINT trx;',
      'select 2 as two',
      'COMMIT;',
    ]);
    expect(await openTransactions()).toBe(0);
  });

  it('sends BEGIN on its own before a first statement with separate values', async () => {
    let rows: unknown;
    const sent = await wire(() =>
      t.orm.em.fork().transactional(async (tx) => {
        const knex = tx.getTransactionContext<Knex.Transaction>()!;
        rows = (await knex.raw('select ?::int as value', [5])).rows;
      }),
    );
    expect(sent).toEqual(['BEGIN;', 'select $1::int as value', 'COMMIT;']);
    expect(rows).toEqual([{ value: 5 }]);
  });

  it('begins a transaction with an isolation level as knex does, on its own', async () => {
    const sent = await wire(() =>
      t.orm.em.fork().transactional((tx) => tx.execute('select 1 as one'), {
        isolationLevel: IsolationLevel.SERIALIZABLE,
      }),
    );
    expect(sent).toEqual(['BEGIN TRANSACTION ISOLATION LEVEL serializable;', 'select 1 as one', 'COMMIT;']);
  });
});
