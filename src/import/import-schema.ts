import { isEmail } from 'class-validator';
import { ALL_PERMISSIONS } from '../common/auth/permissions';
import {
  AGE_RATINGS,
  ANIME_MEDIA_TYPES,
  EXTERNAL_LINK_TYPES,
  GENRE_TYPES,
  MANGA_MEDIA_TYPES,
  NOTIFICATION_TYPES,
  NOVEL_MEDIA_TYPES,
  RELEASE_STATUSES,
  SEASONS,
  SOURCES,
  type Role,
} from '../common/enums';
import {
  bool,
  clearable,
  count,
  INVALID,
  int32,
  listOf,
  nonEmptyText,
  objectOf,
  oneOf,
  optional,
  nullable,
  required,
  score,
  slug,
  slugList,
  text,
  timestamp,
  type Parsed,
  type Rule,
} from './import-rules';

/**
 * The record shapes of import-format.md, one spec per section. Field names equal
 * the entity property names except where the section's applier maps them.
 */

/** Sections in the order they are applied (dependencies first), whatever their order in the file. */
export const SECTION_ORDER = [
  'genres',
  'magazines',
  'companies',
  'people',
  'characters',
  'anime',
  'manga',
  'novel',
  'franchises',
  'users',
] as const;
export type SectionName = (typeof SECTION_ORDER)[number];
export type TitleSection = 'anime' | 'manga' | 'novel';
export const TITLE_SECTIONS: readonly TitleSection[] = ['anime', 'manga', 'novel'];

const nullableText = nullable(text);
/** `image`, `avatar`, `cover`: a path (served under the image base URL) or an absolute URL, never empty. */
const imagePath = nullable(nonEmptyText);
const nullableCount = nullable(count);
const nullableTime = nullable(timestamp);
const stringList = clearable(listOf(text), []);

export const genreSpec = {
  slug: required(slug),
  name_en: required(nonEmptyText),
  name_ua: nullableText,
  type: required(oneOf(GENRE_TYPES, 'genre type')),
};

export const magazineSpec = {
  slug: required(slug),
  name_en: required(nonEmptyText),
};

export const companySpec = {
  slug: required(slug),
  name: required(nonEmptyText),
  image: imagePath,
};

export const personSpec = {
  slug: required(slug),
  name_native: nullableText,
  name_ua: nullableText,
  name_en: nullableText,
  image: imagePath,
  description_ua: nullableText,
  synonyms: stringList,
};

export const characterSpec = {
  slug: required(slug),
  name_ua: nullableText,
  name_en: nullableText,
  name_ja: nullableText,
  image: imagePath,
  synonyms: stringList,
};

/** `{slug, name_en, name_ua, weight}`: a global role, defined where it is used. */
export const roleSpec = {
  slug: required(slug),
  name_en: nullableText,
  name_ua: nullableText,
  weight: nullable(int32),
};
export type RoleRecord = Parsed<typeof roleSpec>;

const creditItem = objectOf({
  person: required(text),
  roles: clearable(listOf(objectOf(roleSpec), { key: (role) => role.slug, label: 'role' }), []),
});
const credits = clearable(listOf(creditItem, { key: (credit) => credit.person, label: 'person' }), []);
const appearances = clearable(
  listOf(objectOf({ slug: required(text), main: clearable(bool, false) }), {
    key: (item) => item.slug,
    label: 'character',
  }),
  [],
);

/** Fields shared by anime, manga and novels. */
const titleFields = {
  slug: required(slug),
  extcat_id: required(count),
  title_ua: nullableText,
  title_en: nullableText,
  synonyms: stringList,
  status: nullable(oneOf(RELEASE_STATUSES, 'status')),
  year: nullable(int32),
  image: imagePath,
  score: clearable(score, 0),
  scored_by: clearable(count, 0),
  start_date: nullableTime,
  end_date: nullableTime,
  translated_ua: clearable(bool, false),
  nsfw: clearable(bool, false),
  synopsis_en: nullableText,
  synopsis_ua: nullableText,
  genres: clearable(slugList('genre'), []),
  characters: appearances,
  deleted: clearable(bool, false),
};

export const animeSpec = {
  ...titleFields,
  title_ja: nullableText,
  media_type: nullable(oneOf(ANIME_MEDIA_TYPES, 'media type')),
  season: nullable(oneOf(SEASONS, 'season')),
  source: nullable(oneOf(SOURCES, 'source')),
  rating: nullable(oneOf(AGE_RATINGS, 'rating')),
  episodes_released: nullableCount,
  episodes_total: nullableCount,
  duration: nullableCount,
  studios: clearable(slugList('studio'), []),
  producers: clearable(slugList('producer'), []),
  staff: credits,
  schedule: clearable(
    listOf(objectOf({ episode: required(count), airing_at: required(timestamp) }), {
      key: (entry) => entry.episode,
      label: 'episode',
    }),
    [],
  ),
};

const readableFields = {
  ...titleFields,
  title_original: nullableText,
  chapters: nullableCount,
  volumes: nullableCount,
  magazines: clearable(slugList('magazine'), []),
  external: clearable(
    listOf(
      objectOf({
        url: required(nonEmptyText),
        text: required(text),
        type: required(oneOf(EXTERNAL_LINK_TYPES, 'link type')),
      }),
    ),
    [],
  ),
  authors: credits,
};

export const mangaSpec = { ...readableFields, media_type: nullable(oneOf(MANGA_MEDIA_TYPES, 'media type')) };
export const novelSpec = { ...readableFields, media_type: nullable(oneOf(NOVEL_MEDIA_TYPES, 'media type')) };

export const franchiseSpec = {
  key: required(nonEmptyText),
  anime: clearable(slugList('anime'), []),
  manga: clearable(slugList('manga'), []),
  novel: clearable(slugList('novel'), []),
};

/** Roles an imported account may have (`deleted` accounts are not imported). */
export const IMPORT_USER_ROLES = [
  'user',
  'moderator',
  'admin',
  'not_activated',
] as const satisfies readonly Role[];

/** Signup rules (semantics §3.1). */
const USERNAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]{4,63}$/;

const username: Rule<string> = (value, path, issues) => {
  const checked = text(value, path, issues);
  if (checked === INVALID) return INVALID;
  if (USERNAME_PATTERN.test(checked)) return checked;
  issues.add(path, `invalid username "${checked}" (expected ${USERNAME_PATTERN.source})`);
  return INVALID;
};

const email: Rule<string> = (value, path, issues) => {
  const checked = text(value, path, issues);
  if (checked === INVALID) return INVALID;
  if (isEmail(checked) && !checked.includes('+')) return checked;
  issues.add(path, `invalid email "${checked}" (a valid address without "+")`);
  return INVALID;
};

const password: Rule<string> = (value, path, issues) => {
  const checked = text(value, path, issues);
  if (checked === INVALID) return INVALID;
  const length = [...checked].length;
  if (length >= 8 && length <= 256) return checked;
  issues.add(path, `a password has 8 to 256 characters, got ${length}`);
  return INVALID;
};

export const userSpec = {
  username: required(username),
  email: required(email),
  password: optional(password),
  password_hash: optional(text),
  role: clearable(oneOf(IMPORT_USER_ROLES, 'role'), 'user'),
  description: nullableText,
  avatar: imagePath,
  cover: imagePath,
  created: optional(timestamp),
  banned: clearable(bool, false),
  forbidden_actions: clearable(
    listOf(oneOf(ALL_PERMISSIONS, 'permission'), { key: (p) => p, label: 'permission' }),
    [],
  ),
  ignored_notifications: clearable(
    listOf(oneOf(NOTIFICATION_TYPES, 'notification type'), { key: (n) => n, label: 'notification type' }),
    [],
  ),
};

export type GenreRecord = Parsed<typeof genreSpec>;
export type MagazineRecord = Parsed<typeof magazineSpec>;
export type CompanyRecord = Parsed<typeof companySpec>;
export type PersonRecord = Parsed<typeof personSpec>;
export type CharacterRecord = Parsed<typeof characterSpec>;
export type AnimeRecord = Parsed<typeof animeSpec>;
export type MangaRecord = Parsed<typeof mangaSpec>;
export type NovelRecord = Parsed<typeof novelSpec>;
export type TitleRecord = AnimeRecord | MangaRecord | NovelRecord;
export type CreditRecord = NonNullable<AnimeRecord['staff']>[number];
export type FranchiseRecord = Parsed<typeof franchiseSpec>;
export type UserRecord = Parsed<typeof userSpec>;

export const SECTION_SPECS = {
  genres: genreSpec,
  magazines: magazineSpec,
  companies: companySpec,
  people: personSpec,
  characters: characterSpec,
  anime: animeSpec,
  manga: mangaSpec,
  novel: novelSpec,
  franchises: franchiseSpec,
  users: userSpec,
} as const satisfies Record<SectionName, unknown>;

export type SectionRecord<S extends SectionName> = Parsed<(typeof SECTION_SPECS)[S]>;
