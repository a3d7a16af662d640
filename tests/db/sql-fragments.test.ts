import { concatSql, numbered, SharedTexts, sql, StatementTexts, stringBytes } from '../../src/db/sql';

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

  it('reports the bytes of each text it keeps, and gives them all back when it forgets them', () => {
    let held = 0;
    const texts = new StatementTexts({ onHeld: (bytes) => (held += bytes) });
    texts.concat('k0', 'select 0');
    expect(held).toBe(stringBytes('k0') + stringBytes('select 0'));
    texts.concat('k0', 'select 0');
    expect(held).toBe(stringBytes('k0') + stringBytes('select 0'));
    // The 257th text forgets the 256 before it, and their bytes.
    for (let i = 1; i <= 256; i += 1) texts.concat(`k${i}`, `select ${i}`);
    expect(held).toBe(stringBytes('k256') + stringBytes('select 256'));
  });

  it('shares a store bounded by bytes, where the texts used most recently stay', () => {
    const shared = new SharedTexts(64 * 1024);
    const hot = new StatementTexts({ shared });
    const churning = new StatementTexts({ shared });
    const hotText = hot.concat('page', `select ${'x'.repeat(1000)}`).sql;
    // Keys are each builder's own: the same key of another builder is another text.
    expect(churning.concat('page', 'select 1').sql).toBe('select 1');
    for (let i = 0; i < 1000; i += 1) {
      churning.concat(`page ${i}`, `select ${i} ${'y'.repeat(1000)}`);
      // The hot text is kept, not built again, while 1 MB of others comes and goes.
      expect(hot.concat('page', 'not built again').sql).toBe(hotText);
    }
    // The earliest of those are gone: built again from their pieces.
    expect(churning.concat('page 0', 'select again').sql).toBe('select again');
  });
});
