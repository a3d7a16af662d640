import { dirname } from 'node:path';
import type { Response, Router } from 'express';

/** A file a browser page needs, served from node_modules. */
export interface AssetFile {
  path: string;
  /** The content type, as express's `res.type` takes it (`js`, `css`, `png`). */
  type: string;
}

/** The folder of an installed package. */
export const packageDir = (name: string): string => dirname(require.resolve(`${name}/package.json`));

/** The folder of a package's main module. */
export const moduleDir = (name: string): string => dirname(require.resolve(name));

/** Assets may be cached for an hour: their URLs do not change when a package is upgraded. */
const ASSET_MAX_AGE = '1h';

/** Sends a page or script this service writes itself; revalidated on every load. */
export function sendFresh(res: Response, type: string, body: string): void {
  res.setHeader('Cache-Control', 'no-cache');
  res.type(type).send(body);
}

/**
 * Serves a page's assets under `prefix`: its bootstrap script as `{prefix}/{name}`, and
 * the files of a fixed allow-list; any other name falls through to the app's 404, so
 * nothing else in node_modules is reachable.
 */
export function mountPageAssets(
  router: Router,
  prefix: string,
  bootstrap: { name: string; source: string },
  files: ReadonlyMap<string, AssetFile>,
): void {
  router.get(`${prefix}/${bootstrap.name}`, (_req, res) => sendFresh(res, 'js', bootstrap.source));
  router.get(`${prefix}/:file`, (req, res, next) => {
    const asset = files.get(req.params.file);
    if (!asset) {
      next();
      return;
    }
    res.type(asset.type);
    res.sendFile(asset.path, { maxAge: ASSET_MAX_AGE }, (error) => {
      if (error && !res.headersSent) next(error);
    });
  });
}
