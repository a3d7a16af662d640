/** Enumerations of semantics.md §5: one list per enum, used by entities, scalars, schemas and the importer. */
export const ROLES = ['user', 'moderator', 'admin', 'not_activated', 'deleted'] as const;
export const ANIME_MEDIA_TYPES = ['tv', 'movie', 'ova', 'ona', 'special', 'music'] as const;
export const MANGA_MEDIA_TYPES = ['manga', 'manhwa', 'manhua', 'one_shot', 'doujin'] as const;
export const NOVEL_MEDIA_TYPES = ['light_novel', 'novel'] as const;
export const RELEASE_STATUSES = ['announced', 'ongoing', 'finished', 'paused', 'discontinued'] as const;
export const WATCH_STATUSES = ['planned', 'watching', 'completed', 'on_hold', 'dropped'] as const;
export const READ_STATUSES = ['planned', 'reading', 'completed', 'on_hold', 'dropped'] as const;
export const SEASONS = ['winter', 'spring', 'summer', 'fall'] as const;
export const SOURCES = [
  'digital_manga',
  'picture_book',
  'visual_novel',
  '4_koma_manga',
  'light_novel',
  'card_game',
  'web_manga',
  'original',
  'manga',
  'music',
  'novel',
  'other',
  'radio',
  'game',
  'book',
] as const;
export const AGE_RATINGS = ['g', 'pg', 'pg_13', 'r', 'r_plus', 'rx'] as const;
export const COLLECTION_VISIBILITIES = ['public', 'unlisted', 'private'] as const;
export const COLLECTION_CONTENT_TYPES = ['anime', 'manga', 'novel', 'character', 'person'] as const;
export const COMMENT_CONTENT_TYPES = [
  'anime',
  'manga',
  'novel',
  'character',
  'person',
  'collection',
  'article',
  'edit',
] as const;
/** Franchise (#13), edit-todo (#6) and article content types. */
export const TITLE_CONTENT_TYPES = ['anime', 'manga', 'novel'] as const;
export const READ_CONTENT_TYPES = ['manga', 'novel'] as const;
export const ARTICLE_CATEGORIES = ['original', 'reviews', 'system', 'news'] as const;
export const VOTE_CONTENT_TYPES = ['collection', 'comment', 'article'] as const;
/** What a user can keep as a favourite (pages.md "Anime page"). */
export const FAVOURITE_CONTENT_TYPES = ['anime', 'manga', 'novel', 'character', 'collection'] as const;
export const REVIEW_RECOMMENDATIONS = ['yes', 'no', 'maybe'] as const;
export const NOTIFICATION_TYPES = [
  'comment_reply',
  'comment_vote',
  'comment_tag',
  'collection_comment',
  'article_comment',
  'collection_vote',
  'article_vote',
  'edit_comment',
  'edit_accepted',
  'edit_denied',
  'edit_updated',
  'system_update',
  'schedule_anime',
  'follow',
  'thirdparty_login',
] as const;
export const EXTERNAL_LINK_TYPES = ['general', 'watch', 'read'] as const;
export const COMPANY_ROLES = ['producer', 'studio'] as const;
export const GENRE_TYPES = ['genre', 'theme', 'demographic', 'explicit'] as const;
export const ANIME_VIDEO_TYPES = ['video_promo', 'video_music'] as const;
export const ANIME_OST_TYPES = ['opening', 'ending'] as const;
export const ACTION_TYPES = [
  'signup',
  'login',
  'activation',
  'activation_resend',
  'login_thirdparty',
  'article_create',
  'article_update',
  'article_delete',
  'comment_write',
  'comment_edit',
  'comment_hide',
  'vote_set',
  'follow',
  'watch_create',
  'watch_update',
  'watch_delete',
  'read_create',
  'read_update',
  'read_delete',
  'collection_create',
  'collection_update',
  'collection_delete',
  'favourite_add',
  'favourite_remove',
] as const;

export type Role = (typeof ROLES)[number];
export type AnimeMediaType = (typeof ANIME_MEDIA_TYPES)[number];
export type MangaMediaType = (typeof MANGA_MEDIA_TYPES)[number];
export type NovelMediaType = (typeof NOVEL_MEDIA_TYPES)[number];
export type ReleaseStatus = (typeof RELEASE_STATUSES)[number];
export type WatchStatus = (typeof WATCH_STATUSES)[number];
export type ReadStatus = (typeof READ_STATUSES)[number];
export type Season = (typeof SEASONS)[number];
export type Source = (typeof SOURCES)[number];
export type AgeRating = (typeof AGE_RATINGS)[number];
export type CollectionVisibility = (typeof COLLECTION_VISIBILITIES)[number];
export type CollectionContentType = (typeof COLLECTION_CONTENT_TYPES)[number];
export type CommentContentType = (typeof COMMENT_CONTENT_TYPES)[number];
export type TitleContentType = (typeof TITLE_CONTENT_TYPES)[number];
export type ReadContentType = (typeof READ_CONTENT_TYPES)[number];
export type ArticleCategory = (typeof ARTICLE_CATEGORIES)[number];
export type VoteContentType = (typeof VOTE_CONTENT_TYPES)[number];
export type FavouriteContentType = (typeof FAVOURITE_CONTENT_TYPES)[number];
export type ReviewRecommendation = (typeof REVIEW_RECOMMENDATIONS)[number];
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export type ExternalLinkType = (typeof EXTERNAL_LINK_TYPES)[number];
export type CompanyRole = (typeof COMPANY_ROLES)[number];
export type GenreType = (typeof GENRE_TYPES)[number];
export type AnimeVideoType = (typeof ANIME_VIDEO_TYPES)[number];
export type AnimeOstType = (typeof ANIME_OST_TYPES)[number];
export type ActionType = (typeof ACTION_TYPES)[number];
