import { readFileSync } from 'node:fs';
import express from 'express';
import pg from 'pg';

/**
 * The benchmark's floor (npm run bench): express and pg answering each path with one
 * prepared statement that builds the service's exact JSON, as text. Not part of the
 * service: it shows what one round trip with the JSON shaped in PostgreSQL costs.
 */
const statements = JSON.parse(readFileSync(process.env.FLOOR_STATEMENTS!, 'utf8')) as {
  path: string;
  text: string;
  values: unknown[];
}[];
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = express();
app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' });
});
statements.forEach(({ path, text, values }, i) => {
  app.get(path, async (_req, res) => {
    const { rows } = await pool.query<{ json: string }>({ name: `floor_${i}`, text, values });
    res.type('json').send(rows[0].json);
  });
});
app.listen(Number(process.env.PORT), '127.0.0.1');
