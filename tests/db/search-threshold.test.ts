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
    } finally {
      await orm.close();
    }
  });
});
