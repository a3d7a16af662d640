import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildAppSchema, printAppSchema } from './schema';

/** Writes schema.graphql, or with --check fails when the committed file differs from the code. */
async function main(): Promise<void> {
  const file = resolve(__dirname, '..', 'schema.graphql');
  const printed = printAppSchema(await buildAppSchema());
  if (!process.argv.includes('--check')) {
    writeFileSync(file, printed);
    console.log(`Wrote ${file}`);
    return;
  }
  let committed = '';
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    // A missing file is drift too.
  }
  if (committed !== printed) {
    console.error('schema.graphql is out of date: run `npm run schema:emit` and commit the result.');
    process.exit(1);
  }
  console.log('schema.graphql matches the code.');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
