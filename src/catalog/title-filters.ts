import { SEASONS, type Season, type TitleContentType } from '../common/enums';
import { orderBySql, parseSort } from '../common/sorting';
import { joinSql, sql, type SqlFragment } from '../db/sql';
import { nativeScoreSql } from './catalog-title.entity';

/**
 * The one SQL builder for catalog title filters, search and sorts (semantics §1.9,
 * §1.10), shared by #3 novel search, #21 watch lists and the GraphQL catalog lists.
 * Every function takes the SQL alias of the title table, so a caller may join the
 * titles to something else (#21 joins them to watch entries).
 */

/** A piece of SQL with `?` placeholders and their values, in order. */
/** `[min, max]`, null meaning an open bound. */
export type Bounds = readonly [number | null, number | null];
export type SeasonPair = readonly [Season, number];

/** `years` as given: integer bounds, or two `[season, year]` pairs (anime only). */
export type YearsFilter =
  | { form: 'years'; from: number | null; to: number | null }
  | { form: 'seasons'; from: SeasonPair; to: SeasonPair };

/** A validated `years` value: null and `[]` mean no bounds (semantics §2 #3, #21). */
export function yearsFilter(years: readonly unknown[] | null | undefined): YearsFilter {
  if (!years || years.length === 0) return { form: 'years', from: null, to: null };
  const [from, to] = years;
  if (Array.isArray(from)) {
    return { form: 'seasons', from: from as unknown as SeasonPair, to: to as SeasonPair };
  }
  return { form: 'years', from: from as number | null, to: to as number | null };
}

/** Validated filter values; absent or empty filters impose nothing. */
export interface TitleFilters {
  years?: YearsFilter;
  /** Anime: with integer years, also match anime that aired in a listed season of those years. */
  include_multiseason?: boolean;
  media_type?: readonly string[];
  status?: readonly string[];
  rating?: readonly string[];
  source?: readonly string[];
  season?: readonly string[];
  only_translated?: boolean;
  score?: Bounds;
  native_score?: Bounds;
  /** Slugs; the title has any of them (manga and novels). */
  magazines?: readonly string[];
  /** Slugs, `-slug` for an exclusion. */
  genres?: readonly string[];
  /** Company slugs; the anime has any of them in that role. */
  producers?: readonly string[];
  studios?: readonly string[];
  query?: string | null;
  /** Hide titles with an explicit genre (ecchi, erotica, hentai). */
  hide_nsfw?: boolean;
  /** Hide anime rated `rx` (null ratings stay): the anime catalog's rule (pages.md decision 1). */
  hide_rx?: boolean;
}

/** Genres whose titles the NSFW auto-hide removes (semantics §1.9); SQL `nsfw_genre_slugs()` holds the same. */
export const NSFW_GENRES = ['ecchi', 'erotica', 'hentai'] as const;

/** `genres` entries split into required and excluded slugs, `-` prefixes removed, each once. */
export function splitGenres(genres: readonly string[] = []): { include: string[]; exclude: string[] } {
  const include = new Set<string>();
  const exclude = new Set<string>();
  for (const entry of genres) {
    if (entry.startsWith('-')) exclude.add(entry.slice(1));
    else include.add(entry);
  }
  return { include: [...include], exclude: [...exclude] };
}

/** Tables and searchable columns of each title kind. */
const KINDS = {
  anime: { genres: 'anime_genres', magazines: null, titles: ['title_ua', 'title_en', 'title_ja'] },
  manga: {
    genres: 'manga_genres',
    magazines: 'manga_magazines',
    titles: ['title_ua', 'title_en', 'title_original'],
  },
  novel: {
    genres: 'novel_genres',
    magazines: 'novel_magazines',
    titles: ['title_ua', 'title_en', 'title_original'],
  },
} as const;

function boundsConditions(column: string, bounds: Bounds | undefined): SqlFragment[] {
  const [min, max] = bounds ?? [null, null];
  return [
    ...(min === null ? [] : [sql(`${column} >= ?`, min)]),
    ...(max === null ? [] : [sql(`${column} <= ?`, max)]),
  ];
}

/** `column in (values)`, or no condition for no values. */
export const listed = (column: string, values: readonly string[] | undefined): SqlFragment[] =>
  values && values.length > 0 ? [sql(`${column} in (?)`, [...values])] : [];

/**
 * The titles of `kind` linked to any of `slugs` (to all of them with `allOf`), as an
 * uncorrelated subquery: PostgreSQL runs it once and probes a hash per row, where a
 * correlated one would look up every candidate's genres. The hash holds while the linked
 * titles fit in work_mem (about 120,000 at PostgreSQL's default 4 MB); past that `not in`
 * rescans the list per title, and exclusions would want `not exists` instead.
 */
function titlesWithGenres(kind: TitleContentType, slugs: readonly string[], allOf = false): SqlFragment {
  const title = `tg.${kind}_reference`;
  const linked = `select ${title} from ${KINDS[kind].genres} tg join genre g on g.reference = tg.genre_reference
      where g.slug in (?)`;
  // (title, genre) pairs are unique and so are slugs: a count equal to the list's length finds them all.
  if (allOf) return sql(`${linked} group by ${title} having count(*) = ?`, [...slugs], slugs.length);
  return sql(linked, [...slugs]);
}

function genreConditions(kind: TitleContentType, t: string, filters: TitleFilters): SqlFragment[] {
  const { include, exclude } = splitGenres(filters.genres);
  // Title references are never null, so `not in` means "linked to none of them".
  const linked = (test: 'in' | 'not in', slugs: readonly string[], allOf = false): SqlFragment => {
    const titles = titlesWithGenres(kind, slugs, allOf);
    return sql(`${t}.reference ${test} (${titles.sql})`, ...titles.params);
  };
  return [
    ...(include.length > 0 ? [linked('in', include, true)] : []),
    ...(exclude.length > 0 ? [linked('not in', exclude)] : []),
    // The flag the database keeps from the genre links (catalog-title.entity.ts).
    ...(filters.hide_nsfw ? [sql(`not ${t}.has_nsfw_genre`)] : []),
    ...(filters.hide_rx ? [sql(`${t}.rating is distinct from 'rx'`)] : []),
  ];
}

function magazineConditions(kind: TitleContentType, t: string, slugs: readonly string[] = []): SqlFragment[] {
  const table = KINDS[kind].magazines;
  if (!table || slugs.length === 0) return [];
  return [
    sql(
      `exists (select 1 from ${table} tm join magazine m on m.reference = tm.magazine_reference
        where tm.${kind}_reference = ${t}.reference and m.slug in (?))`,
      [...slugs],
    ),
  ];
}

function companyConditions(
  t: string,
  role: 'producer' | 'studio',
  slugs: readonly string[] = [],
): SqlFragment[] {
  if (slugs.length === 0) return [];
  return [
    sql(
      `exists (select 1 from anime_company ac join company c on c.reference = ac.company_reference
        where ac.anime_reference = ${t}.reference and ac.role = ? and c.slug in (?))`,
      role,
      [...slugs],
    ),
  ];
}

/** `year ≥ from`, `year ≤ to` for integer bounds (manga and novels). */
function yearConditions(t: string, years: YearsFilter | undefined): SqlFragment[] {
  if (!years || years.form !== 'years') return [];
  return boundsConditions(`${t}.year`, [years.from, years.to]);
}

const seasonIndex = (season: Season): number => SEASONS.indexOf(season);

/**
 * The anime aired (§6.5, SQL `anime_aired_in`) in one of `seasons` of a year between
 * `from` and `to` whose `year * 4 + season index` lies in `[keys.first, keys.last]`.
 * Candidate years are limited to the anime's own airing years, so wide bounds cost nothing.
 */
function airedIn(
  t: string,
  years: { from: number; to: number },
  seasons: readonly Season[],
  keys: { first: number; last: number },
): SqlFragment {
  const startYear = `extract(year from ${t}.start_date at time zone 'UTC')::int`;
  const lastYear = `extract(year from coalesce(${t}.end_date, now()) at time zone 'UTC')::int`;
  return sql(
    `${t}.start_date is not null and exists (
      select 1 from generate_series(greatest(?, ${startYear}), least(?, ${lastYear})) as y(year)
        cross join unnest(array[?]::text[]) as s(season)
      where y.year * 4 + array_position(array[?]::text[], s.season) - 1 between ? and ?
        and anime_aired_in(${t}.start_date, ${t}.end_date, s.season, y.year::int))`,
    years.from,
    years.to,
    [...seasons],
    [...SEASONS],
    keys.first,
    keys.last,
  );
}

/**
 * Anime years and seasons (semantics §1.9): the season conditions (AND) or the airing
 * conditions (OR), whichever exist, joined by OR when both do. With pairs the season
 * conditions hold only the `season` list: "year ≥ y0 if y0 is an integer" does not apply.
 */
function animeSeasonCondition(t: string, filters: TitleFilters): SqlFragment[] {
  const years = filters.years ?? { form: 'years', from: null, to: null };
  const seasons = (filters.season ?? []) as readonly Season[];
  const seasonConditions = [...yearConditions(t, years), ...listed(`${t}.season`, seasons)];
  let airing: SqlFragment | undefined;
  if (years.form === 'seasons') {
    const [fromSeason, fromYear] = years.from;
    const [toSeason, toYear] = years.to;
    airing = airedIn(t, { from: fromYear, to: toYear }, SEASONS, {
      first: fromYear * 4 + seasonIndex(fromSeason),
      last: toYear * 4 + seasonIndex(toSeason),
    });
  } else if (
    years.from !== null &&
    years.to !== null &&
    filters.include_multiseason === true &&
    seasons.length > 0
  ) {
    airing = airedIn(t, { from: years.from, to: years.to }, seasons, {
      first: years.from * 4,
      last: years.to * 4 + 3,
    });
  }
  if (!airing) return seasonConditions;
  if (seasonConditions.length === 0) return [airing];
  return [joinSql([joinSql(seasonConditions), airing], ' or ')];
}

/** The title columns a text query searches, besides the synonyms (src/catalog/title-search.ts). */
export const searchedTitles = (kind: TitleContentType): readonly string[] => KINDS[kind].titles;

/**
 * Every filter condition for titles of `kind` under alias `t`; deleted titles never match.
 * The text query is not one of them: it is a join (src/catalog/title-search.ts).
 */
export function titleConditions(kind: TitleContentType, t: string, filters: TitleFilters): SqlFragment[] {
  return [
    sql(`not ${t}.deleted`),
    ...(kind === 'anime' ? animeSeasonCondition(t, filters) : yearConditions(t, filters.years)),
    ...listed(`${t}.media_type`, filters.media_type),
    ...listed(`${t}.status`, filters.status),
    ...(kind === 'anime' ? listed(`${t}.rating`, filters.rating) : []),
    ...(kind === 'anime' ? listed(`${t}.source`, filters.source) : []),
    ...(filters.only_translated ? [sql(`${t}.translated_ua`)] : []),
    ...boundsConditions(`${t}.score`, filters.score),
    ...boundsConditions(nativeScoreSql(kind, t), filters.native_score),
    ...magazineConditions(kind, t, filters.magazines),
    ...genreConditions(kind, t, filters),
    ...(kind === 'anime' ? companyConditions(t, 'producer', filters.producers) : []),
    ...(kind === 'anime' ? companyConditions(t, 'studio', filters.studios) : []),
  ];
}

/** Sort fields every catalog list offers (#3's allowlist, semantics §1.10). */
export const TITLE_SORT_FIELDS = [
  'native_scored_by',
  'native_score',
  'media_type',
  'start_date',
  'scored_by',
  'created',
  'updated',
  'score',
] as const;
export type TitleSortField = (typeof TITLE_SORT_FIELDS)[number];

/** The SQL of a title sort field; text sorts use the "C" collation (semantics §7.16). */
export function titleSortColumn(kind: TitleContentType, t: string, field: TitleSortField): string {
  if (field === 'native_score') return nativeScoreSql(kind, t);
  if (field === 'media_type') return `${t}.media_type collate "C"`;
  return `${t}.${field}`;
}

const DEFAULT_TITLE_SORT = ['score:desc', 'scored_by:desc'] as const;

/**
 * The order of a title list by its sort entries (by default score and scored_by desc),
 * ending with reference desc so that the order is total. (A text query without `sort`
 * orders by match rank instead: src/catalog/catalog-list.service.ts.)
 */
export function titleOrder(
  kind: TitleContentType,
  t: string,
  sort: readonly string[] | undefined,
): SqlFragment {
  const entries = parseSort<TitleSortField>(sort ?? DEFAULT_TITLE_SORT);
  return sql(
    [...orderBySql(entries, (field) => titleSortColumn(kind, t, field)), `${t}.reference desc`].join(', '),
  );
}
