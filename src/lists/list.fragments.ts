import { type Fragment, fragment } from '../rest/fragments';

/** The lists' contract resources, and the catalog's titles with the caller's entries (src/rest/fragments.ts). */
export const listFragments: readonly Fragment[] = [
  /** Contract WatchEntry fields. */
  fragment(
    'WatchEntryFields',
    'WatchEntry',
    '{ reference note updated created status rewatches duration episodes score }',
  ),
  /** Contract ReadEntry fields. */
  fragment(
    'ReadEntryFields',
    'ReadEntry',
    '{ reference note updated created status chapters volumes rereads score }',
  ),
  /** WatchEntry fields plus `anime` (Anime summary without `watch`). */
  fragment('WatchEntryWithAnime', 'WatchEntry', '{ ...WatchEntryFields anime { ...AnimeSummary } }'),
  /** ReadEntry fields plus `content` (Manga or Novel summary without `read`). */
  fragment(
    'ReadEntryWithContent',
    'ReadEntry',
    '{ ...ReadEntryFields content { ... on Manga { ...MangaSummary } ... on Novel { ...NovelSummary } } }',
  ),
  /** Contract Anime summary with the caller's `watch` array. */
  fragment('AnimeWithWatch', 'Anime', '{ ...AnimeSummary watch { ...WatchEntryFields } }'),
  /** Contract Manga summary with the caller's `read` array. */
  fragment('MangaWithRead', 'Manga', '{ ...MangaSummary read { ...ReadEntryFields } }'),
  /** Contract Novel summary with the caller's `read` array. */
  fragment('NovelWithRead', 'Novel', '{ ...NovelSummary read { ...ReadEntryFields } }'),
];
