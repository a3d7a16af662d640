import { ReadEntryFields, WatchEntryFields } from '../lists/list.fragments';
import { fragment } from '../rest/fragments';

const ANIME_SUMMARY = `data_type media_type status season source rating title_ua title_en title_ja
  episodes_released episodes_total image native_scored_by scored_by native_score score slug
  start_date end_date created updated translated_ua year extcat_id`;

/** Manga and novel summary fields, for selections that extend the summary (the #16 full record). */
export const READABLE_SUMMARY_FIELDS = `data_type media_type status title_original title_ua title_en chapters volumes
  translated_ua native_score score native_scored_by scored_by image year extcat_id slug
  start_date end_date created updated`;

/** Contract Anime summary, without `watch`. */
export const AnimeSummary = fragment('AnimeSummary', 'Anime', `{ ${ANIME_SUMMARY} }`);
/** Contract Anime summary with the caller's `watch` array. */
export const AnimeWithWatch = fragment(
  'AnimeWithWatch',
  'Anime',
  `{ ${ANIME_SUMMARY} watch { ...WatchEntryFields } }`,
  [WatchEntryFields],
);

/** Contract Manga summary, without `read`. */
export const MangaSummary = fragment('MangaSummary', 'Manga', `{ ${READABLE_SUMMARY_FIELDS} }`);
export const MangaWithRead = fragment(
  'MangaWithRead',
  'Manga',
  `{ ${READABLE_SUMMARY_FIELDS} read { ...ReadEntryFields } }`,
  [ReadEntryFields],
);

/** Contract Novel summary (the same shape as manga), without `read`. */
export const NovelSummary = fragment('NovelSummary', 'Novel', `{ ${READABLE_SUMMARY_FIELDS} }`);
export const NovelWithRead = fragment(
  'NovelWithRead',
  'Novel',
  `{ ${READABLE_SUMMARY_FIELDS} read { ...ReadEntryFields } }`,
  [ReadEntryFields],
);
