import 'reflect-metadata';
import { buildOpenApiDocument } from '../src/rest/openapi';
import { restRoutes } from '../src/routes';
import { buildAppSchema } from '../src/schema';
import { run, writeOrCheck } from './generated-file';

/** Writes openapi.json (what GET /openapi.json serves); with --check, fails on drift. */
run(async () => {
  const document = buildOpenApiDocument(await buildAppSchema(), restRoutes);
  writeOrCheck('openapi.json', `${JSON.stringify(document, null, 2)}\n`, 'npm run openapi:emit');
});
