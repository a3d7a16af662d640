import { type Fragment, fragment } from '../rest/fragments';

/** Manga and novel summary fields, for selections that extend the summary (the #16 full record, favourites). */
export const READABLE_SUMMARY_FIELDS = `data_type media_type status title_original title_ua title_en chapters volumes
  translated_ua native_score score native_scored_by scored_by image year extcat_id slug
  start_date end_date created updated`;

/** Anime summary fields, for selections on types that extend Anime (a favourite anime). */
export const ANIME_SUMMARY_FIELDS = `data_type media_type status season source rating title_ua title_en title_ja
  episodes_released episodes_total image native_scored_by scored_by native_score score slug
  start_date end_date created updated translated_ua year extcat_id`;

/** The catalog's contract resources (src/rest/fragments.ts). */
export const catalogFragments: readonly Fragment[] = [
  /** Contract Anime summary, without `watch`. */
  fragment('AnimeSummary', 'Anime', `{ ${ANIME_SUMMARY_FIELDS} }`),
  /** Genre (pages.md). */
  fragment('GenreFields', 'Genre', '{ name_ua name_en slug type }'),
  /** Company (pages.md). */
  fragment('CompanyFields', 'Company', '{ image slug name }'),
  /** Contract Manga summary, without `read`. */
  fragment('MangaSummary', 'Manga', `{ ${READABLE_SUMMARY_FIELDS} }`),
  /** Contract Novel summary (the same shape as manga), without `read`. */
  fragment('NovelSummary', 'Novel', `{ ${READABLE_SUMMARY_FIELDS} }`),
];
