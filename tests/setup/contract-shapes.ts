/**
 * The contract's resources (/work/shared/spec/api-contract.md, "Resources and their fields"),
 * written once with the JSON types of semantics §1.6. Tests check key sets with `keysOf`
 * and full bodies with `shapeProblems`.
 */

export type Kind = 'string' | 'integer' | 'number' | 'boolean';
export type FieldType = Kind | { object: Shape } | { arrayOf: Kind | Shape };
export interface Shape {
  [field: string]: FieldType;
}

/** The field names of `shape`, sorted: compare with `sortedKeys` of a body. */
export const keysOf = (shape: Shape): string[] => Object.keys(shape).sort();

// ---------------------------------------------------------------------------
// Resources.

export const PERSON: Shape = {
  data_type: 'string',
  name_native: 'string',
  name_ua: 'string',
  name_en: 'string',
  image: 'string',
  slug: 'string',
  description_ua: 'string',
  synonyms: { arrayOf: 'string' },
};

export const CHARACTER: Shape = {
  data_type: 'string',
  name_ua: 'string',
  name_en: 'string',
  name_ja: 'string',
  image: 'string',
  slug: 'string',
  synonyms: { arrayOf: 'string' },
};

export const PAGINATION: Shape = { total: 'integer', pages: 'integer', page: 'integer' };

export const WATCH_ENTRY: Shape = {
  reference: 'string',
  note: 'string',
  updated: 'integer',
  created: 'integer',
  status: 'string',
  rewatches: 'integer',
  duration: 'integer',
  episodes: 'integer',
  score: 'integer',
};

export const READ_ENTRY: Shape = {
  reference: 'string',
  note: 'string',
  updated: 'integer',
  created: 'integer',
  status: 'string',
  chapters: 'integer',
  volumes: 'integer',
  rereads: 'integer',
  score: 'integer',
};

/** Anime summary without the optional `watch`. */
export const ANIME_SUMMARY: Shape = {
  data_type: 'string',
  media_type: 'string',
  status: 'string',
  season: 'string',
  source: 'string',
  rating: 'string',
  title_ua: 'string',
  title_en: 'string',
  title_ja: 'string',
  episodes_released: 'string',
  episodes_total: 'string',
  image: 'string',
  native_scored_by: 'integer',
  scored_by: 'integer',
  native_score: 'number',
  score: 'number',
  slug: 'string',
  start_date: 'integer',
  end_date: 'integer',
  created: 'integer',
  updated: 'integer',
  translated_ua: 'boolean',
  year: 'integer',
  extcat_id: 'integer',
};

/** Anime summary with the viewer's `watch` entries. */
export const ANIME_SUMMARY_WITH_WATCH: Shape = { ...ANIME_SUMMARY, watch: { arrayOf: WATCH_ENTRY } };

/** Manga and Novel summary (the same shape for both) without the optional `read`. */
export const READABLE_SUMMARY: Shape = {
  data_type: 'string',
  media_type: 'string',
  status: 'string',
  title_original: 'string',
  title_ua: 'string',
  title_en: 'string',
  chapters: 'integer',
  volumes: 'integer',
  translated_ua: 'boolean',
  native_score: 'number',
  score: 'number',
  native_scored_by: 'integer',
  scored_by: 'integer',
  image: 'string',
  year: 'integer',
  extcat_id: 'integer',
  slug: 'string',
  start_date: 'integer',
  end_date: 'integer',
  created: 'integer',
  updated: 'integer',
};

/** Manga and Novel summary with the viewer's `read` entries. */
export const READABLE_SUMMARY_WITH_READ: Shape = { ...READABLE_SUMMARY, read: { arrayOf: READ_ENTRY } };

const STATS: Shape = Object.fromEntries(
  [
    'completed',
    'reading',
    'on_hold',
    'dropped',
    'planned',
    ...Array.from({ length: 10 }, (_, i) => `score_${i + 1}`),
  ].map((key): [string, FieldType] => [key, 'integer']),
);

/** Manga full record (#16): every Manga summary field except `read`, plus these. */
export const MANGA_FULL: Shape = {
  ...READABLE_SUMMARY,
  authors: {
    arrayOf: {
      roles: { arrayOf: { name_ua: 'string', name_en: 'string', slug: 'string', weight: 'integer' } },
      person: { object: PERSON },
    },
  },
  magazines: { arrayOf: { name_en: 'string', slug: 'string' } },
  external: { arrayOf: { url: 'string', text: 'string', type: 'string' } },
  genres: { arrayOf: { name_ua: 'string', name_en: 'string', slug: 'string', type: 'string' } },
  stats: { object: STATS },
  synopsis_en: 'string',
  synopsis_ua: 'string',
  synonyms: { arrayOf: 'string' },
  comments_count: 'integer',
  has_franchise: 'boolean',
  nsfw: 'boolean',
};

// ---------------------------------------------------------------------------
// The page resources of ../shared/spec/pages.md.

/** User (semantics §2), without `is_followed`. */
export const USER: Shape = {
  reference: 'string',
  created: 'integer',
  updated: 'integer',
  description: 'string',
  username: 'string',
  avatar: 'string',
  cover: 'string',
  active: 'boolean',
  role: 'string',
};

/** GET /user/me: User with email. */
export const USER_WITH_EMAIL: Shape = { ...USER, email: 'string' };

/** GET /user/{username}: User with is_followed. */
export const USER_WITH_FOLLOWED: Shape = { ...USER, is_followed: 'boolean' };

const GENRE: Shape = { name_ua: 'string', name_en: 'string', slug: 'string', type: 'string' };
const SCORES = Array.from({ length: 10 }, (_, i) => `score_${i + 1}`);
const integers = (keys: string[]): Shape =>
  Object.fromEntries(keys.map((key): [string, FieldType] => [key, 'integer']));
const REVIEW_STATS: Shape = integers(['yes', 'no', 'maybe']);

/** Anime full record (GET /anime/{slug}). */
export const ANIME_FULL: Shape = {
  ...ANIME_SUMMARY,
  synopsis_en: 'string',
  synopsis_ua: 'string',
  duration: 'integer',
  synonyms: { arrayOf: 'string' },
  nsfw: 'boolean',
  has_franchise: 'boolean',
  comments_count: 'integer',
  genres: { arrayOf: GENRE },
  companies: {
    arrayOf: { company: { object: { image: 'string', slug: 'string', name: 'string' } }, type: 'string' },
  },
  external: { arrayOf: { url: 'string', text: 'string', type: 'string' } },
  videos: { arrayOf: { url: 'string', title: 'string', description: 'string', video_type: 'string' } },
  ost: {
    arrayOf: { index: 'integer', title: 'string', author: 'string', spotify: 'string', ost_type: 'string' },
  },
  stats: { object: integers(['completed', 'watching', 'planned', 'on_hold', 'dropped', ...SCORES]) },
  review_stats: { object: REVIEW_STATS },
  schedule: { arrayOf: { episode: 'integer', airing_at: 'integer' } },
};

/** Novel full record (GET /novel/{slug}): the Manga full record's shape and review_stats. */
export const NOVEL_FULL: Shape = { ...MANGA_FULL, review_stats: { object: REVIEW_STATS } };

/** Person full record (GET /people/{slug}). */
export const PERSON_FULL: Shape = {
  ...PERSON,
  ...integers(['anime_count', 'manga_count', 'novel_count', 'characters_count', 'comments_count']),
};

/** Character full record (GET /characters/{slug}); `description_ua` is always null. */
export const CHARACTER_FULL: Shape = {
  ...CHARACTER,
  description_ua: 'string',
  ...integers(['anime_count', 'manga_count', 'novel_count', 'voices_count', 'comments_count']),
};

// ---------------------------------------------------------------------------
// Checking a body against a shape.

export const kindOf = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : typeof value === 'number' && Number.isInteger(value)
        ? 'integer'
        : typeof value;

const isKind = (value: unknown, kind: Kind): boolean =>
  kind === 'number' ? typeof value === 'number' : kindOf(value) === kind;

/**
 * Every problem of `value` against `shape`: missing or extra keys, wrong JSON types,
 * nulls, and (unless `allowEmpty`) empty arrays, so a fixture must fill every field.
 */
export function shapeProblems(
  value: unknown,
  shape: Shape,
  where: string,
  allowEmpty: readonly string[] = [],
): string[] {
  if (kindOf(value) !== 'object') return [`${where} is ${kindOf(value)}, not an object`];
  const record = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of Object.keys(record))
    if (!(key in shape)) problems.push(`${where}.${key} is not a contract field`);
  for (const [key, type] of Object.entries(shape)) {
    const at = `${where}.${key}`;
    if (!(key in record)) {
      problems.push(`${at} is missing`);
      continue;
    }
    const field = record[key];
    if (typeof type === 'string') {
      if (!isKind(field, type)) problems.push(`${at} is ${kindOf(field)}, not ${type}`);
    } else if ('object' in type) {
      problems.push(...shapeProblems(field, type.object, at, allowEmpty));
    } else if (!Array.isArray(field)) {
      problems.push(`${at} is ${kindOf(field)}, not an array`);
    } else {
      if (field.length === 0 && !allowEmpty.includes(key))
        problems.push(`${at} is empty: the fixture should fill it`);
      field.forEach((element, i) => {
        const item = type.arrayOf;
        if (typeof item === 'string') {
          if (!isKind(element, item)) problems.push(`${at}[${i}] is ${kindOf(element)}, not ${item}`);
        } else problems.push(...shapeProblems(element, item, `${at}[${i}]`, allowEmpty));
      });
    }
  }
  return problems;
}
