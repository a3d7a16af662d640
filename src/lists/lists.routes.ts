import { AnimeSummary, MangaSummary, NovelSummary } from '../catalog/catalog.fragments';
import { READ_CONTENT_TYPES } from '../common/enums';
import { documentOf, fragment } from '../rest/fragments';
import type { RestRoute } from '../rest/route';
import { oneOf, slugParam } from '../rest/schemas';
import { ReadEntryFields, WatchEntryFields } from './list.fragments';
import { READ_ENTRY_BODY } from './read.types';
import { WATCH_ENTRY_BODY } from './watch.types';

/** WatchEntry fields plus `anime` (Anime summary without `watch`). */
const WatchEntryWithAnime = fragment(
  'WatchEntryWithAnime',
  'WatchEntry',
  '{ ...WatchEntryFields anime { ...AnimeSummary } }',
  [WatchEntryFields, AnimeSummary],
);

/** ReadEntry fields plus `content` (Manga or Novel summary without `read`). */
const ReadEntryWithContent = fragment(
  'ReadEntryWithContent',
  'ReadEntry',
  `{ ...ReadEntryFields
    content { ... on Manga { ...MangaSummary } ... on Novel { ...NovelSummary } } }`,
  [ReadEntryFields, MangaSummary, NovelSummary],
);

const watchParams = { slug: slugParam };
const readParams = { content_type: oneOf(READ_CONTENT_TYPES), slug: slugParam };

/** The caller's watch and read entries (semantics §3.3, §3.4); authentication required. */
export const listRoutes: RestRoute[] = [
  {
    method: 'PUT',
    path: '/watch/{slug}',
    auth: 'required',
    params: watchParams,
    body: WATCH_ENTRY_BODY,
    rootField: 'saveWatchEntry',
    document: documentOf(
      `mutation SaveWatchEntry($slug: String!, $input: WatchEntryInput!) {
        saveWatchEntry(slug: $slug, input: $input) { ...WatchEntryWithAnime }
      }`,
      WatchEntryWithAnime,
    ),
  },
  {
    method: 'GET',
    path: '/watch/{slug}',
    auth: 'required',
    params: watchParams,
    rootField: 'watchEntry',
    document: documentOf(
      `query WatchEntry($slug: String!) {
        watchEntry(slug: $slug) { ...WatchEntryWithAnime }
      }`,
      WatchEntryWithAnime,
    ),
  },
  {
    method: 'DELETE',
    path: '/watch/{slug}',
    auth: 'required',
    params: watchParams,
    rootField: 'deleteWatchEntry',
    document: `mutation DeleteWatchEntry($slug: String!) {
      deleteWatchEntry(slug: $slug) { success }
    }`,
  },
  {
    method: 'PUT',
    path: '/read/{content_type}/{slug}',
    auth: 'required',
    params: readParams,
    body: READ_ENTRY_BODY,
    rootField: 'saveReadEntry',
    document: documentOf(
      `mutation SaveReadEntry($content_type: ReadContentType!, $slug: String!, $input: ReadEntryInput!) {
        saveReadEntry(content_type: $content_type, slug: $slug, input: $input) { ...ReadEntryWithContent }
      }`,
      ReadEntryWithContent,
    ),
  },
  {
    method: 'GET',
    path: '/read/{content_type}/{slug}',
    auth: 'required',
    params: readParams,
    rootField: 'readEntry',
    document: documentOf(
      `query ReadEntry($content_type: ReadContentType!, $slug: String!) {
        readEntry(content_type: $content_type, slug: $slug) { ...ReadEntryWithContent }
      }`,
      ReadEntryWithContent,
    ),
  },
  {
    method: 'DELETE',
    path: '/read/{content_type}/{slug}',
    auth: 'required',
    params: readParams,
    rootField: 'deleteReadEntry',
    document: `mutation DeleteReadEntry($content_type: ReadContentType!, $slug: String!) {
      deleteReadEntry(content_type: $content_type, slug: $slug) { success }
    }`,
  },
];
