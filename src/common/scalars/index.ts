import { GraphQLScalarType } from 'graphql';
import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import * as E from '../enums';
import { valueListType } from './value-list';

export { UnixTime } from './unix-time.scalar';
export { IntegerInput } from './integer-input.scalar';
export { ImageUrl, imageUrl } from './image-url.scalar';
export { GraphQLJSON as JSONScalar };

/**
 * graphql-scalars' JSONObject with a SQL form (src/graphql/sql-plan): a stored jsonb
 * object as it is (PostgreSQL keeps one key order, the one JSON.parse then sees), and
 * anything else refused, as `serialize` refuses it.
 */
export const JSONObjectScalar = new GraphQLScalarType({
  ...GraphQLJSONObject.toConfig(),
  extensions: {
    ...GraphQLJSONObject.extensions,
    sql: { refuses: (stored: string) => `jsonb_typeof(${stored}) <> 'object'` },
  },
});

export const RoleEnum = valueListType('UserRole', E.ROLES);
/** A notification type (semantics §5). */
export const NotificationTypeEnum = valueListType('NotificationType', E.NOTIFICATION_TYPES);
export const AnimeMediaTypeEnum = valueListType('AnimeMediaType', E.ANIME_MEDIA_TYPES);
export const MangaMediaTypeEnum = valueListType('MangaMediaType', E.MANGA_MEDIA_TYPES);
export const NovelMediaTypeEnum = valueListType('NovelMediaType', E.NOVEL_MEDIA_TYPES);
/** The media type of a manga or a novel: the read lists filter by either, per content type. */
export const ReadMediaTypeEnum = valueListType('ReadMediaType', [
  ...E.MANGA_MEDIA_TYPES,
  ...E.NOVEL_MEDIA_TYPES,
]);
export const ReleaseStatusEnum = valueListType('ReleaseStatus', E.RELEASE_STATUSES);
export const WatchStatusEnum = valueListType('WatchStatus', E.WATCH_STATUSES);
export const ReadStatusEnum = valueListType('ReadStatus', E.READ_STATUSES);
export const SeasonEnum = valueListType('Season', E.SEASONS);
export const SourceScalar = valueListType('Source', E.SOURCES);
export const AgeRatingEnum = valueListType('AgeRating', E.AGE_RATINGS);
/**
 * The media type of any title, as output. One scalar for the three kinds, so that a
 * selection over a union of titles (e.g. `... on Manga { media_type } ... on Novel
 * { media_type }`) does not conflict; inputs keep the per-kind scalars.
 */
export const TitleMediaTypeEnum = valueListType('TitleMediaType', [
  ...E.ANIME_MEDIA_TYPES,
  ...E.MANGA_MEDIA_TYPES,
  ...E.NOVEL_MEDIA_TYPES,
]);
export const TitleContentTypeEnum = valueListType('TitleContentType', E.TITLE_CONTENT_TYPES);
export const ExternalLinkTypeEnum = valueListType('ExternalLinkType', E.EXTERNAL_LINK_TYPES);
export const GenreTypeEnum = valueListType('GenreType', E.GENRE_TYPES);
export const CompanyRoleEnum = valueListType('CompanyRole', E.COMPANY_ROLES);
export const AnimeVideoTypeEnum = valueListType('AnimeVideoType', E.ANIME_VIDEO_TYPES);
export const AnimeOstTypeEnum = valueListType('AnimeOstType', E.ANIME_OST_TYPES);
