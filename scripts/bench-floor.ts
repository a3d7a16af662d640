import { readFileSync } from 'node:fs';
import express from 'express';
import pg from 'pg';

/**
 * The benchmark's floor (npm run bench): express and pg answering each read's path with
 * one prepared statement that builds the service's exact JSON, as text, and each write's
 * path (POST) with the write's own statements, sent one after another in one transaction
 * (its BEGIN with the first one, as the service sends it);
 * those of a write that cannot repeat on one subject with the next subject's values in
 * place of the captured one's. Not part of the service: it shows what the database work
 * alone costs.
 */
interface Statement {
  text: string;
  values: unknown[];
}

const floors = JSON.parse(readFileSync(process.env.FLOOR_STATEMENTS!, 'utf8')) as {
  path: string;
  statements: Statement[];
  write?: boolean;
  subjects?: { first: string[]; others: string[][] };
}[];

/** `statements` with each of `first`'s values (in the text, or a value) replaced by `other`'s. */
function onSubject(statements: readonly Statement[], first: readonly string[], other: readonly string[]) {
  const swap = (value: unknown) => {
    const i = typeof value === 'string' ? first.indexOf(value) : -1;
    return i < 0 ? value : other[i];
  };
  return statements.map(({ text, values }) => ({
    text: first.reduce((out, value, i) => out.replaceAll(value, other[i]), text),
    values: values.map(swap),
  }));
}
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = express();
app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' });
});
floors.forEach(({ path, statements, write, subjects }, i) => {
  if (!write) {
    const [{ text, values }] = statements;
    app.get(path, async (_req, res) => {
      const { rows } = await pool.query<{ json: string }>({ name: `floor_${i}`, text, values });
      res.type('json').send(rows[0].json);
    });
    return;
  }
  let written = 0;
  app.post(path, async (_req, res) => {
    let replay = statements;
    if (subjects) {
      const other = subjects.others[written++];
      if (!other) {
        res.status(500).json({ error: 'out of subjects' });
        return;
      }
      replay = onSubject(statements, subjects.first, other);
    }
    const client = await pool.connect();
    try {
      // BEGIN goes with the first statement when its values are in its text, as the service sends it.
      const [first, ...rest] = replay;
      if (first.values.length === 0) await client.query(`begin;${first.text}`);
      else {
        await client.query('begin');
        await client.query(first);
      }
      for (const { text, values } of rest) await client.query({ text, values });
      await client.query('commit');
      res.json({});
    } catch (error) {
      await client.query('rollback');
      res.status(500).json({ error: String(error) });
    } finally {
      client.release();
    }
  });
});
app.listen(Number(process.env.PORT), '127.0.0.1');
