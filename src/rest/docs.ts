/**
 * `GET /openapi.json` and the interactive REST reference at `GET /docs`: Swagger UI, with every
 * asset served by this service from node_modules (no CDN, works offline).
 */
import { join } from 'node:path';
import { Router } from 'express';
import type { GraphQLSchema } from 'graphql';
import { type AssetFile, mountPageAssets, packageDir, sendFresh } from '../http/page-assets';
import { buildOpenApiDocument } from './openapi';
import type { RestRoute } from './route';

const ASSETS = '/docs/assets';

/**
 * Served file name → absolute path and content type. A fixed allow-list: nothing else in the
 * package (source maps, the sample initializer pointing at the petstore) is reachable.
 */
function assetTable(): Map<string, AssetFile> {
  const swaggerUi = packageDir('swagger-ui-dist');
  return new Map([
    ['swagger-ui-bundle.js', { path: join(swaggerUi, 'swagger-ui-bundle.js'), type: 'js' }],
    ['swagger-ui.css', { path: join(swaggerUi, 'swagger-ui.css'), type: 'css' }],
    ['favicon-32x32.png', { path: join(swaggerUi, 'favicon-32x32.png'), type: 'png' }],
  ]);
}

/**
 * Swagger UI's options that are plain data. `validatorUrl: null` stops the default badge that
 * sends the document to validator.swagger.io; the standalone preset is left out because its
 * top bar would let the page load any other document by URL. Requests from "Try it out" go to
 * the document's server (`/`), that is to this very service, with the token entered under
 * "Authorize" in the `auth` header; the token is kept across reloads (in the browser's local
 * storage) so that a developer does not paste it again after every change.
 */
const DOCS_CONFIG = {
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  validatorUrl: null,
  deepLinking: true,
  tryItOutEnabled: true,
  docExpansion: 'list',
  persistAuthorization: true,
} as const;

/** The page's bootstrap script (a file of its own, so the page needs no inline script). */
const DOCS_SCRIPT = `(function () {
  'use strict';
  var config = ${JSON.stringify(DOCS_CONFIG)};
  config.presets = [SwaggerUIBundle.presets.apis];
  window.ui = SwaggerUIBundle(config);
})();
`;

const DOCS_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>REST API reference</title>
    <link rel="icon" type="image/png" href="${ASSETS}/favicon-32x32.png" />
    <link rel="stylesheet" href="${ASSETS}/swagger-ui.css" />
    <style>body { margin: 0; background: #fafafa; }</style>
  </head>
  <body>
    <div id="swagger-ui">Loading the API reference…</div>
    <script src="${ASSETS}/swagger-ui-bundle.js"></script>
    <script src="${ASSETS}/docs.js"></script>
  </body>
</html>
`;

/**
 * `GET /openapi.json` (built once, at app start, from the route table and the schema), the
 * reference page at `GET /docs` and its assets under `GET /docs/assets/*`, and at `GET /`
 * the links to them. An unknown asset
 * name falls through to the app's 404.
 */
export function openApiRouter(schema: GraphQLSchema, routes: readonly RestRoute[]): Router {
  const document = JSON.stringify(buildOpenApiDocument(schema, routes));
  const router = Router({ strict: true, caseSensitive: true });
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(document);
  });
  router.get('/docs', (_req, res) => sendFresh(res, 'html', DOCS_HTML));
  // Someone opening the service's root finds where to go next.
  router.get('/', (_req, res) => {
    res.json({ docs: '/docs', openapi: '/openapi.json', graphql: '/graphql', health: '/healthz' });
  });
  mountPageAssets(router, ASSETS, { name: 'docs.js', source: DOCS_SCRIPT }, assetTable());
  return router;
}
