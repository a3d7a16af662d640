import { queryRows, sql } from '../../src/db/sql';
import { statementPoolOf } from '../../src/db/statement-pool';
import { openTestOrm } from '../setup/db';

describe('the statement pool of compiled reads', () => {
  it('reads the database of its ORM, at most the pool size at once, and ends with the ORM', async () => {
    const orm = await openTestOrm();
    const connection = orm.em.getConnection();
    const pool = statementPoolOf(connection);
    try {
      const [row] = await queryRows<{ database: string }>(
        orm.em,
        sql('select current_database() as database'),
      );
      const [own] = await connection.execute<{ database: string }[]>('select current_database() as database');
      expect(row.database).toBe(own.database);
      expect(statementPoolOf(connection)).toBe(pool);
      expect(pool.options.max).toBe(5);
    } finally {
      await orm.close();
    }
    expect(pool.ended).toBe(true);
  });
});
