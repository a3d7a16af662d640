import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildOpenApiDocument } from '../src/rest/openapi';
import { restRoutes } from '../src/rest/routes';
import { buildAppSchema } from '../src/schema';

/**
 * Writes openapi.json (the document GET /openapi.json serves), or with --check fails when
 * the committed file differs from what the route table and the schema give.
 */
async function main(): Promise<void> {
  const file = resolve(__dirname, '..', 'openapi.json');
  const document = buildOpenApiDocument(await buildAppSchema(), restRoutes);
  const text = `${JSON.stringify(document, null, 2)}\n`;
  if (!process.argv.includes('--check')) {
    writeFileSync(file, text);
    console.log(`Wrote ${file}`);
    return;
  }
  let committed = '';
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    // A missing file is drift too.
  }
  if (committed !== text) {
    console.error('openapi.json is out of date: run `npm run openapi:emit` and commit the result.');
    process.exit(1);
  }
  console.log('openapi.json matches the code.');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
