import { GraphQLScalarType } from 'graphql';
import { GraphQLJSON, GraphQLJSONObject } from 'graphql-scalars';
import * as E from '../enums';
import { enumScalar } from './enum.scalar';

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

export const RoleScalar = enumScalar('UserRole', E.ROLES);
export const AnimeMediaTypeScalar = enumScalar('AnimeMediaType', E.ANIME_MEDIA_TYPES);
export const MangaMediaTypeScalar = enumScalar('MangaMediaType', E.MANGA_MEDIA_TYPES);
export const NovelMediaTypeScalar = enumScalar('NovelMediaType', E.NOVEL_MEDIA_TYPES);
export const ReleaseStatusScalar = enumScalar('ReleaseStatus', E.RELEASE_STATUSES);
export const WatchStatusScalar = enumScalar('WatchStatus', E.WATCH_STATUSES);
export const ReadStatusScalar = enumScalar('ReadStatus', E.READ_STATUSES);
export const SeasonScalar = enumScalar('Season', E.SEASONS);
export const SourceScalar = enumScalar('Source', E.SOURCES);
export const AgeRatingScalar = enumScalar('AgeRating', E.AGE_RATINGS);
/**
 * The media type of any title, as output. One scalar for the three kinds, so that a
 * selection over a union of titles (e.g. `... on Manga { media_type } ... on Novel
 * { media_type }`) does not conflict; inputs keep the per-kind scalars.
 */
export const TitleMediaTypeScalar = enumScalar('TitleMediaType', [
  ...E.ANIME_MEDIA_TYPES,
  ...E.MANGA_MEDIA_TYPES,
  ...E.NOVEL_MEDIA_TYPES,
]);
export const TitleContentTypeScalar = enumScalar('TitleContentType', E.TITLE_CONTENT_TYPES);
export const ExternalLinkTypeScalar = enumScalar('ExternalLinkType', E.EXTERNAL_LINK_TYPES);
export const GenreTypeScalar = enumScalar('GenreType', E.GENRE_TYPES);
