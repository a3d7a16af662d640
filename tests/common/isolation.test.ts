import { buildManga } from '../factories';
import { useTestApp } from '../setup/harness';

// The same unique slug in two tests: the second insert fails unless the database is reset between tests.
describe('test isolation', () => {
  const t = useTestApp();

  it.each([1, 2])('starts each test with empty tables (%i)', async () => {
    await buildManga(t.orm, { slug: 'isolation-check', extcat_id: 424242 });
    const rows = await t.orm.em
      .getConnection()
      .execute<{ count: number }[]>('select count(*)::int as count from manga');
    expect(rows[0].count).toBe(1);
  });
});
