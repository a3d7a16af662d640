import { queryRows, sql } from '../../src/db/sql';
import { openTestOrm } from '../setup/db';

describe('database sessions', () => {
  it('use the configured trigram word-similarity threshold (default 0.3)', async () => {
    const orm = await openTestOrm();
    try {
      const [row] = await orm.em
        .getConnection()
        .execute<{ threshold: string }[]>(
          `select current_setting('pg_trgm.word_similarity_threshold') as threshold`,
        );
      expect(Number(row.threshold)).toBe(0.3);
      // The statement pool of compiled reads starts its sessions the same way.
      const [compiled] = await queryRows<{ threshold: string }>(
        orm.em,
        sql(`select current_setting('pg_trgm.word_similarity_threshold') as threshold`),
      );
      expect(Number(compiled.threshold)).toBe(0.3);
    } finally {
      await orm.close();
    }
  });
});
