import { concatSql, numbered, sql, StatementTexts } from '../../src/db/sql';

describe('SQL fragments', () => {
  it('numbers placeholders outside quotes, one per value, a list taking one per element', () => {
    expect(numbered(sql(`select '?' as "a?", ? as b where c in (?)`, 1, ['x', 'y']))).toEqual({
      text: `select '?' as "a?", $1 as b where c in ($2, $3)`,
      values: [1, 'x', 'y'],
    });
    // Beyond int4: a literal, which compares as a number.
    expect(numbered(sql('year >= ?', 3000000000))).toEqual({ text: 'year >= 3000000000', values: [] });
  });

  it('keeps one text per key, and takes each request its own values', () => {
    const texts = new StatementTexts();
    const build = (where: string, value: number) =>
      texts.concat(where, 'select * from t where ', sql(where, value), ' limit 1');
    expect(build('a = ?', 1)).toEqual({ sql: 'select * from t where a = ? limit 1', params: [1] });
    expect(build('a = ?', 2)).toEqual({ sql: 'select * from t where a = ? limit 1', params: [2] });
    expect(build('b = ?', 3)).toEqual(concatSql('select * from t where ', sql('b = ?', 3), ' limit 1'));
    // The text comes from the key: pieces that vary must be named in it.
    expect(texts.concat('b = ?', 'select 1 where ', sql('c = ?', 4)).sql).toBe(
      'select * from t where b = ? limit 1',
    );
  });
});
