/**
 * The GraphQL playground: GraphiQL at `GET /graphql` for browsers (requests that
 * accept text/html), with every asset served by this service from node_modules
 * (no CDN, works offline). The schema docs come from introspection; the first visit
 * opens the example tabs of `playground-examples.ts`.
 */
import { join } from 'node:path';
import { type RequestHandler, Router } from 'express';
import { type AssetFile, moduleDir, mountPageAssets, packageDir, sendFresh } from '../http/page-assets';
import { PLAYGROUND_EXAMPLES } from './playground-examples';

/** Served file name → absolute path and content type. */
function assetTable(): Map<string, AssetFile> {
  const graphiql = packageDir('graphiql');
  return new Map([
    ['react.js', { path: join(moduleDir('react'), 'umd/react.production.min.js'), type: 'js' }],
    ['react-dom.js', { path: join(moduleDir('react-dom'), 'umd/react-dom.production.min.js'), type: 'js' }],
    ['graphiql.js', { path: join(graphiql, 'graphiql.min.js'), type: 'js' }],
    ['graphiql.css', { path: join(graphiql, 'graphiql.min.css'), type: 'css' }],
  ]);
}

const ASSETS = '/graphql/assets';

/** The page's bootstrap script (a file of its own, so no inline script is needed). */
export const PLAYGROUND_SCRIPT = `(function () {
  'use strict';
  // Plain JSON POSTs to this service's /graphql pass Apollo's CSRF prevention.
  // Subscriptions go over the WebSocket at the same path; GraphiQL sends the Headers
  // tab (e.g. {"auth": "<token>"}) as the connection's payload, where the token belongs.
  var url = window.location.origin + '/graphql';
  var fetcher = GraphiQL.createFetcher({ url: url, subscriptionUrl: url.replace(/^http/, 'ws') });
  // GraphiQL opens these only while the browser has no tabs of its own stored; after
  // that, a visitor's tabs come back as they left them.
  var exampleTabs = ${JSON.stringify(PLAYGROUND_EXAMPLES)};
  ReactDOM.createRoot(document.getElementById('graphiql')).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultTabs: exampleTabs,
      defaultEditorToolsVisibility: true,
    }),
  );
})();
`;

export const PLAYGROUND_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>GraphQL playground</title>
    <link rel="stylesheet" href="${ASSETS}/graphiql.css" />
    <style>html, body, #graphiql { height: 100%; margin: 0; }</style>
  </head>
  <body>
    <div id="graphiql">Loading the playground…</div>
    <script src="${ASSETS}/react.js"></script>
    <script src="${ASSETS}/react-dom.js"></script>
    <script src="${ASSETS}/graphiql.js"></script>
    <script src="${ASSETS}/playground.js"></script>
  </body>
</html>
`;

/** GET /graphql for browsers (the GraphQL door passes them on) and GET /graphql/assets/*. */
export function playgroundRouter(): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const page: RequestHandler = (_req, res) => sendFresh(res, 'html', PLAYGROUND_HTML);
  router.get('/graphql', page);
  mountPageAssets(router, ASSETS, { name: 'playground.js', source: PLAYGROUND_SCRIPT }, assetTable());
  return router;
}
