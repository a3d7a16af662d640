import { randomUUID } from 'node:crypto';
import { executeInOrder, sql } from '../../src/db/sql';
import { useTestApp } from '../setup/harness';

/** Several statements in one round trip (src/db/sql.ts): what a write's last round trip sends. */
describe('executeInOrder', () => {
  const t = useTestApp();

  const insertTag = (name: string) =>
    sql(
      'insert into tag (reference, name, content_count) values (?, ?, 1) returning name',
      randomUUID(),
      name,
    );

  it("answers each statement's rows, each seeing what the ones before it wrote, in one round trip", async () => {
    const em = t.orm.em.fork();
    const sent = await t.queries.count(async () => {
      const results = await em.transactional((tx) =>
        executeInOrder(tx, [
          insertTag('first'),
          sql(
            'update tag set content_count = content_count + 9 where name = ? returning content_count',
            'first',
          ),
          sql('select count(*)::int as tags, sum(content_count)::int as total from tag'),
        ]),
      );
      expect(results).toEqual([[{ name: 'first' }], [{ content_count: 10 }], [{ tags: 1, total: 10 }]]);
    });
    expect(sent).toBe(3); // begin, the statements, commit (BEGIN goes in the statements' round trip)
    expect(await executeInOrder(em, [sql('select ? as one', 1)])).toEqual([[{ one: 1 }]]);
    expect(await executeInOrder(em, [])).toEqual([]);
  });

  it('writes none of them when one fails, outside a transaction too', async () => {
    const em = t.orm.em.fork();
    await expect(executeInOrder(em, [insertTag('twice'), insertTag('twice')])).rejects.toThrow(
      /duplicate key/,
    );
    expect(await em.execute('select count(*)::int as tags from tag')).toEqual([{ tags: 0 }]);
  });
});
