import { GraphQLError, GraphQLScalarType, valueFromASTUntyped } from 'graphql';
import { Field, InputType } from 'type-graphql';
import {
  AGE_RATINGS,
  ANIME_MEDIA_TYPES,
  type AgeRating,
  type AnimeMediaType,
  MANGA_MEDIA_TYPES,
  type MangaMediaType,
  RELEASE_STATUSES,
  type ReleaseStatus,
  SEASONS,
  type Season,
  SOURCES,
  type Source,
} from '../common/enums';
import {
  AgeRatingEnum,
  AnimeMediaTypeEnum,
  IntegerInput,
  MangaMediaTypeEnum,
  ReleaseStatusEnum,
  SeasonEnum,
  SourceScalar,
} from '../common/scalars';
import { registerInputSpec } from '../common/validation/input-specs';
import type { JsonSchema, ObjectSpec } from '../common/validation/json-schema';
import {
  booleanField,
  enumArray,
  nullableText,
  optionalRangePair,
  rangePair,
  sortField,
  stringArray,
  yearsOrSeasonPairs,
} from '../common/validation/schemas';
import { type Bounds, TITLE_SORT_FIELDS, type TitleFilters, yearsFilter } from './title-filters';

/*
 * GraphQL inputs of the catalog lists. Each input type is registered with the JSON
 * Schema of its REST body, and the GraphQL types are at least as permissive as those
 * schemas, so both doors reject the same values with `Invalid field <name> in request body`.
 */

/** Anime `years`: one of two shapes, so a scalar; the request schema checks the shape. */
export const YearsOrSeasonsScalar = new GraphQLScalarType<unknown[], unknown[]>({
  name: 'YearsOrSeasons',
  description:
    '`[]`, `[y0, y1]` (integers > 0 or nulls, y0 ≤ y1) or `[[season, year], [season, year]]` ' +
    '(the first pair not later than the second).',
  serialize: (value) => value as unknown[],
  parseValue(value) {
    if (!Array.isArray(value)) throw new GraphQLError('YearsOrSeasons must be an array');
    return value;
  },
  parseLiteral(ast, variables) {
    const value: unknown = valueFromASTUntyped(ast, variables);
    if (!Array.isArray(value)) throw new GraphQLError('YearsOrSeasons must be an array');
    return value;
  },
});

const bounds = (pair: readonly (number | null)[] | null | undefined): Bounds | undefined =>
  pair ? [pair[0] ?? null, pair[1] ?? null] : undefined;

// ---------------------------------------------------------------------------
// Manga and novels (#3 and `mangaList`).

/** Filters of manga and novel titles (semantics §2 #3, §1.9); subclasses add `media_type` and more. */
@InputType()
export abstract class ReadableFilterFields {
  @Field(() => [IntegerInput], {
    nullable: 'itemsAndList',
    description: 'null, `[]` or `[y0, y1]`: integers > 0 or nulls, y0 ≤ y1.',
  })
  years?: (number | string | null)[] | null;

  @Field(() => [ReleaseStatusEnum], { nullable: true })
  status?: ReleaseStatus[];

  @Field(() => Boolean, { nullable: true })
  only_translated?: boolean;

  @Field(() => [String], { nullable: true, description: 'Magazine slugs; any of them.' })
  magazines?: string[];

  @Field(() => [String], {
    nullable: true,
    description: 'Genre slugs the title has, or lacks with a `-` prefix.',
  })
  genres?: string[];

  @Field(() => [IntegerInput], { nullable: 'itemsAndList', description: '`[min, max]`, 0..10 or null.' })
  score?: (number | null)[];

  @Field(() => [IntegerInput], { nullable: 'itemsAndList', description: '`[min, max]`, 0..10 or null.' })
  native_score?: (number | null)[];
}

/** Filters of manga and novel catalog lists (semantics §2 #3): a text query and the #3 sorts. */
@InputType()
export abstract class ReadableListFields extends ReadableFilterFields {
  @Field(() => String, { nullable: true, description: 'Typo-tolerant title search, 2..255 characters.' })
  query?: string | null;

  @Field(() => [String], {
    nullable: true,
    description: `\`field:asc|desc\` entries over ${TITLE_SORT_FIELDS.join(', ')}.`,
  })
  sort?: string[];
}

/** The manga and novel filter fields of a body, in the contract's order of #3. */
export function readableFilterProperties(mediaTypes: readonly string[]): Record<string, JsonSchema> {
  return {
    years: optionalRangePair(1),
    media_type: enumArray(mediaTypes),
    status: enumArray(RELEASE_STATUSES),
    only_translated: booleanField,
    magazines: stringArray(),
    genres: stringArray(),
    score: rangePair(0, 10),
    native_score: rangePair(0, 10),
  };
}

/** The body of a manga or novel list, in the contract's order of #3. */
export function readableListSpec(mediaTypes: readonly string[]): ObjectSpec {
  return {
    properties: {
      ...readableFilterProperties(mediaTypes),
      query: nullableText(2, 255),
      sort: sortField(TITLE_SORT_FIELDS),
    },
  };
}

/**
 * The filters of manga or novel titles. Catalog lists hide explicit titles unless genres
 * or a query are given (§1.9); a user's list hides nothing and has no query.
 */
export function readableFilters(
  input: ReadableFilterFields & { media_type?: readonly string[]; query?: string | null },
): TitleFilters {
  return {
    years: yearsFilter(input.years),
    media_type: input.media_type,
    status: input.status,
    only_translated: input.only_translated,
    magazines: input.magazines,
    genres: input.genres,
    score: bounds(input.score),
    native_score: bounds(input.native_score),
    query: input.query,
    hide_nsfw: (input.genres ?? []).length === 0 && !input.query,
  };
}

@InputType('MangaListInput', { description: 'Filters of `mangaList`: those of #3, with manga media types.' })
export class MangaListInput extends ReadableListFields {
  @Field(() => [MangaMediaTypeEnum], { nullable: true })
  media_type?: MangaMediaType[];
}
/** POST /manga's body: #3's, with manga media types. */
export const MANGA_LIST_SPEC = registerInputSpec(MangaListInput, readableListSpec(MANGA_MEDIA_TYPES));

// ---------------------------------------------------------------------------
// Anime (#21 and `animeList`).

/** Anime filters of #21 (semantics §2 #21, §1.9); subclasses add the sort and more. */
@InputType()
export abstract class AnimeFilterFields {
  @Field(() => YearsOrSeasonsScalar, { nullable: true })
  years?: unknown[];

  @Field(() => Boolean, {
    nullable: true,
    description: 'With integer years and seasons, also anime that aired in those seasons.',
  })
  include_multiseason?: boolean;

  @Field(() => Boolean, { nullable: true })
  only_translated?: boolean;

  @Field(() => [IntegerInput], { nullable: 'itemsAndList', description: '`[min, max]`, 0..10 or null.' })
  score?: (number | null)[];

  @Field(() => [IntegerInput], { nullable: 'itemsAndList', description: '`[min, max]`, 0..10 or null.' })
  native_score?: (number | null)[];

  @Field(() => [AnimeMediaTypeEnum], { nullable: true })
  media_type?: AnimeMediaType[];

  @Field(() => [AgeRatingEnum], { nullable: true })
  rating?: AgeRating[];

  @Field(() => [ReleaseStatusEnum], { nullable: true })
  status?: ReleaseStatus[];

  @Field(() => [SourceScalar], { nullable: true })
  source?: Source[];

  @Field(() => [SeasonEnum], { nullable: true })
  season?: Season[];

  @Field(() => [String], { nullable: true, description: 'Company slugs; any of them as producer.' })
  producers?: string[];

  @Field(() => [String], { nullable: true, description: 'Company slugs; any of them as studio.' })
  studios?: string[];

  @Field(() => [String], {
    nullable: true,
    description: 'Genre slugs the anime has, or lacks with a `-` prefix.',
  })
  genres?: string[];
}

/** The anime filter fields of a body, in the contract's order of #21. */
export function animeFilterProperties(): Record<string, JsonSchema> {
  return {
    years: yearsOrSeasonPairs(SEASONS),
    include_multiseason: booleanField,
    only_translated: booleanField,
    score: rangePair(0, 10),
    native_score: rangePair(0, 10),
    media_type: enumArray(ANIME_MEDIA_TYPES),
    rating: enumArray(AGE_RATINGS),
    status: enumArray(RELEASE_STATUSES),
    source: enumArray(SOURCES),
    season: enumArray(SEASONS),
    producers: stringArray(),
    studios: stringArray(),
    genres: stringArray(),
  };
}

/** The filters of an anime list. */
export function animeFilters(
  input: AnimeFilterFields,
  extra: Pick<TitleFilters, 'query' | 'hide_nsfw' | 'hide_rx'> = {},
): TitleFilters {
  return {
    years: yearsFilter(input.years),
    include_multiseason: input.include_multiseason,
    only_translated: input.only_translated,
    score: bounds(input.score),
    native_score: bounds(input.native_score),
    media_type: input.media_type,
    rating: input.rating,
    status: input.status,
    source: input.source,
    season: input.season,
    producers: input.producers,
    studios: input.studios,
    genres: input.genres,
    ...extra,
  };
}

@InputType('AnimeListInput', {
  description: 'Filters of `animeList`: those of #21, a text query and the #3 sorts.',
})
export class AnimeListInput extends AnimeFilterFields {
  @Field(() => String, { nullable: true, description: 'Typo-tolerant title search, 2..255 characters.' })
  query?: string | null;

  @Field(() => [String], {
    nullable: true,
    description: `\`field:asc|desc\` entries over ${TITLE_SORT_FIELDS.join(', ')}.`,
  })
  sort?: string[];
}
/** POST /anime's body: #21's filters without `watch_status`, a text query and the #3 sorts. */
export const ANIME_LIST_SPEC = registerInputSpec(AnimeListInput, {
  properties: {
    ...animeFilterProperties(),
    query: nullableText(2, 255),
    sort: sortField(TITLE_SORT_FIELDS),
  },
});
