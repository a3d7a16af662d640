import { READ_CONTENT_TYPES } from '../common/enums';
import type { RestRoute } from '../rest/route';
import { oneOf, slugParam } from '../rest/schemas';
import { READ_ENTRY_BODY } from './read.types';
import { WATCH_ENTRY_BODY } from './watch.types';

const watchParams = { slug: slugParam };
const readParams = { content_type: oneOf(READ_CONTENT_TYPES), slug: slugParam };

/** The caller's watch and read entries (semantics §3.3, §3.4); authentication required. */
export const listRoutes: RestRoute[] = [
  {
    method: 'PUT',
    path: '/watch/{slug}',
    summary: 'Save your watch entry for an anime',
    description:
      "Creates or replaces the caller's entry for an anime: status, episodes, rewatches, score, note and dates; omitted fields take their defaults. The anime's native score follows. Answers the entry with its anime.",
    auth: 'required',
    params: watchParams,
    body: WATCH_ENTRY_BODY,
    rootField: 'saveWatchEntry',
    document: `mutation SaveWatchEntry($slug: String!, $input: WatchEntryInput!) {
        saveWatchEntry(slug: $slug, input: $input) { ...WatchEntryWithAnime }
      }`,
  },
  {
    method: 'GET',
    path: '/watch/{slug}',
    summary: 'Your watch entry for an anime',
    description: "The caller's entry for an anime, with the anime.",
    auth: 'required',
    params: watchParams,
    rootField: 'watchEntry',
    document: `query WatchEntry($slug: String!) {
        watchEntry(slug: $slug) { ...WatchEntryWithAnime }
      }`,
  },
  {
    method: 'DELETE',
    path: '/watch/{slug}',
    summary: 'Remove your watch entry for an anime',
    description: "Deletes the caller's entry for an anime; the anime's native score follows.",
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
    summary: 'Save your read entry for a manga or novel',
    description:
      "Creates or replaces the caller's entry for a manga or novel: status, chapters, volumes, rereads, score, note and dates; omitted fields take their defaults. The title's native score and reading statistics follow. Answers the entry with its title.",
    auth: 'required',
    params: readParams,
    body: READ_ENTRY_BODY,
    rootField: 'saveReadEntry',
    document: `mutation SaveReadEntry($content_type: ReadContentType!, $slug: String!, $input: ReadEntryInput!) {
        saveReadEntry(content_type: $content_type, slug: $slug, input: $input) { ...ReadEntryWithContent }
      }`,
  },
  {
    method: 'GET',
    path: '/read/{content_type}/{slug}',
    summary: 'Your read entry for a manga or novel',
    description: "The caller's entry for a manga or novel, with the title.",
    auth: 'required',
    params: readParams,
    rootField: 'readEntry',
    document: `query ReadEntry($content_type: ReadContentType!, $slug: String!) {
        readEntry(content_type: $content_type, slug: $slug) { ...ReadEntryWithContent }
      }`,
  },
  {
    method: 'DELETE',
    path: '/read/{content_type}/{slug}',
    summary: 'Remove your read entry for a manga or novel',
    description:
      "Deletes the caller's entry for a manga or novel; the title's native score and reading statistics follow.",
    auth: 'required',
    params: readParams,
    rootField: 'deleteReadEntry',
    document: `mutation DeleteReadEntry($content_type: ReadContentType!, $slug: String!) {
      deleteReadEntry(content_type: $content_type, slug: $slug) { success }
    }`,
  },
];
