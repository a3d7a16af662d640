import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../src/rest/openapi';
import { restRoutes } from '../src/rest/routes';
import { buildAppSchema } from '../src/schema';

/** Writes the OpenAPI document to the file given as the first argument (or stdout). */
async function main(): Promise<void> {
  const document = buildOpenApiDocument(await buildAppSchema(), restRoutes);
  const text = `${JSON.stringify(document, null, 2)}\n`;
  const [target] = process.argv.slice(2);
  if (target) writeFileSync(target, text);
  else process.stdout.write(text);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
