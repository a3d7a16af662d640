import type { RestRoute } from '../rest/route';
import { READ_IMPORT_SPEC, WATCH_IMPORT_SPEC } from './list-import.types';

/** The settings pages' list imports (pages.md "Settings"). */
export const listImportRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/settings/import/watch',
    summary: 'Import an anime list',
    description:
      'Imports the anime of a MAL list export (`anime`: its records; other keys inside a record are ignored), matched by `extcat_id`; unknown ids are skipped, and an existing entry is replaced only with `overwrite`. Episodes are capped at the anime’s total, rewatches at 100, notes at 2048 characters.',
    auth: 'required',
    params: {},
    body: WATCH_IMPORT_SPEC,
    rootField: 'importWatchList',
    document: `mutation ImportWatchList($input: WatchImportInput!) { importWatchList(input: $input) { success } }`,
  },
  {
    method: 'POST',
    path: '/settings/import/read',
    summary: 'Import a manga and novel list',
    description:
      'Imports the records of a MAL manga list export (`content`; other keys inside a record are ignored) into manga and novels, each id matched against both; unknown ids are skipped, and an existing entry is replaced only with `overwrite`. Chapters and volumes are capped at 10000, rereads at 100, notes at 2048 characters.',
    auth: 'required',
    params: {},
    body: READ_IMPORT_SPEC,
    rootField: 'importReadList',
    document: `mutation ImportReadList($input: ReadImportInput!) { importReadList(input: $input) { success } }`,
  },
];
