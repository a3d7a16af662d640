import { readFileSync } from 'node:fs';
import express from 'express';
import pg from 'pg';

/**
 * The benchmark's floor (npm run bench): express and pg answering each read's path with
 * one prepared statement that builds the service's exact JSON, as text, and each write's
 * path (POST) with the write's own statements, sent one after another in one transaction.
 * Not part of the service: it shows what the database work alone costs.
 */
const floors = JSON.parse(readFileSync(process.env.FLOOR_STATEMENTS!, 'utf8')) as {
  path: string;
  statements: { text: string; values: unknown[] }[];
  write?: boolean;
}[];
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = express();
app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' });
});
floors.forEach(({ path, statements, write }, i) => {
  if (!write) {
    const [{ text, values }] = statements;
    app.get(path, async (_req, res) => {
      const { rows } = await pool.query<{ json: string }>({ name: `floor_${i}`, text, values });
      res.type('json').send(rows[0].json);
    });
    return;
  }
  app.post(path, async (_req, res) => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      for (const { text, values } of statements) await client.query({ text, values });
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
