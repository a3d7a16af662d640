import { dirname, join } from 'node:path';
import { Router } from 'express';
import { buildAppSchema } from '../schema';
import { buildOpenApiDocument } from './openapi';
import type { RestRoute } from './route';

/** The standalone browser bundle of Scalar's API reference, served from node_modules. */
const SCALAR_BUNDLE = join(dirname(require.resolve('@scalar/api-reference')), 'browser', 'standalone.js');

/**
 * Everything the reference page needs is local: no default fonts, no telemetry, no
 * request proxy, so the page works offline and calls this service directly.
 */
const SCALAR_CONFIG = {
  url: '/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  proxyUrl: '',
  hideClientButton: true,
  showDeveloperTools: 'never',
  agent: { disabled: true },
};

const DOCS_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>REST API reference</title>
    <style>body { margin: 0; font-family: system-ui, sans-serif; }</style>
  </head>
  <body>
    <div id="app"></div>
    <script src="/docs/assets/api-reference.js"></script>
    <script>Scalar.createApiReference('#app', ${JSON.stringify(SCALAR_CONFIG)});</script>
  </body>
</html>
`;

/**
 * `GET /openapi.json` (built once, at app start, from the route table and the schema) and the interactive reference at `GET /docs`.
 */
export async function openApiRouter(routes: readonly RestRoute[]): Promise<Router> {
  const document = JSON.stringify(buildOpenApiDocument(await buildAppSchema(), routes));
  const router = Router({ strict: true, caseSensitive: true });
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(document);
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(DOCS_HTML);
  });
  router.get('/docs/assets/api-reference.js', (_req, res, next) => {
    res.sendFile(SCALAR_BUNDLE, { maxAge: '1d' }, (error) => {
      if (error) next(error);
    });
  });
  return router;
}
