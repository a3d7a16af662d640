import {
  AGE_RATINGS,
  ANIME_MEDIA_TYPES,
  MANGA_MEDIA_TYPES,
  NOVEL_MEDIA_TYPES,
  RELEASE_STATUSES,
  SEASONS,
  SOURCES,
} from '../common/enums';

/** A small deterministic PRNG (mulberry32), so the same seed always yields the same data. */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /**
   * `count` distinct items in the order drawn: each draw takes the i-th of the items not
   * drawn yet, for a uniform i, as splicing from a copy of `items` would (the same seed
   * gives the same demo data as that did). An index tree finds the i-th remaining item,
   * so a draw costs O(log n) instead of a splice's O(n): at scale 50 the list entries
   * draw 1,250 of 35,000 anime and 750 of 65,000 manga and novels for each user.
   */
  sample<T>(items: readonly T[], count: number): T[] {
    const remaining = new RemainingPositions(items.length);
    const result: T[] = [];
    while (result.length < count && remaining.size > 0)
      result.push(items[remaining.take(Math.floor(this.next() * remaining.size))]);
    return result;
  }
}

/**
 * Positions 0 … n-1 of which some were taken, as a Fenwick tree counting the taken
 * positions at or below each node (zeros at first, so no O(n) set-up beyond the array).
 */
class RemainingPositions {
  private readonly taken: Int32Array;
  /** The highest power of two not above n: where the search down the tree starts. */
  private readonly highestStep: number;
  size: number;

  constructor(private readonly length: number) {
    this.taken = new Int32Array(length + 1);
    this.highestStep = length === 0 ? 0 : 2 ** Math.floor(Math.log2(length));
    this.size = length;
  }

  /** Takes the remaining position of the given rank (0 = the lowest) and returns it. */
  take(rank: number): number {
    // Descends to the last node whose prefix holds at most `rank` remaining positions;
    // a node of span `step` holds `step` positions minus those taken.
    let node = 0;
    let before = rank;
    for (let step = this.highestStep; step > 0; step >>= 1) {
      const next = node + step;
      if (next <= this.length && step - this.taken[next] <= before) {
        node = next;
        before -= step - this.taken[next];
      }
    }
    for (let index = node + 1; index <= this.length; index += index & -index) this.taken[index] += 1;
    this.size -= 1;
    return node;
  }
}

type Row = Record<string, unknown>;
type DemoSection =
  'genres' | 'magazines' | 'companies' | 'people' | 'characters' | 'anime' | 'manga' | 'novel' | 'franchises';
/** One import document of the demo catalog: some of its sections. */
export type DemoCatalogPart = Partial<Record<DemoSection, Row[]>>;
type TitleKind = 'anime' | 'manga' | 'novel';

const GENRES: ReadonlyArray<[string, string, string, string]> = [
  ['action', 'Action', 'Бойовик', 'genre'],
  ['adventure', 'Adventure', 'Пригоди', 'genre'],
  ['comedy', 'Comedy', 'Комедія', 'genre'],
  ['drama', 'Drama', 'Драма', 'genre'],
  ['fantasy', 'Fantasy', 'Фентезі', 'genre'],
  ['horror', 'Horror', 'Жахи', 'genre'],
  ['mystery', 'Mystery', 'Містика', 'genre'],
  ['romance', 'Romance', 'Романтика', 'genre'],
  ['sci-fi', 'Sci-Fi', 'Наукова фантастика', 'genre'],
  ['slice-of-life', 'Slice of Life', 'Буденність', 'genre'],
  ['sports', 'Sports', 'Спорт', 'genre'],
  ['supernatural', 'Supernatural', 'Надприродне', 'genre'],
  ['ecchi', 'Ecchi', 'Еччі', 'explicit'],
  ['erotica', 'Erotica', 'Еротика', 'explicit'],
  ['hentai', 'Hentai', 'Хентай', 'explicit'],
  ['historical', 'Historical', 'Історичне', 'theme'],
  ['isekai', 'Isekai', 'Ісекай', 'theme'],
  ['mecha', 'Mecha', 'Меха', 'theme'],
  ['military', 'Military', 'Військове', 'theme'],
  ['music', 'Music', 'Музика', 'theme'],
  ['mythology', 'Mythology', 'Міфологія', 'theme'],
  ['school', 'School', 'Школа', 'theme'],
  ['space', 'Space', 'Космос', 'theme'],
  ['time-travel', 'Time Travel', 'Подорожі в часі', 'theme'],
  ['josei', 'Josei', 'Дзьосей', 'demographic'],
  ['kids', 'Kids', 'Дитяче', 'demographic'],
  ['seinen', 'Seinen', 'Сейнен', 'demographic'],
  ['shoujo', 'Shoujo', 'Сьодзьо', 'demographic'],
  ['shounen', 'Shounen', 'Сьонен', 'demographic'],
];
const EXPLICIT = new Set(['ecchi', 'erotica', 'hentai']);

const ROLES = [
  { slug: 'original-creator', name_en: 'Original Creator', name_ua: 'Автор оригіналу', weight: 100 },
  { slug: 'story', name_en: 'Story', name_ua: 'Сценарій', weight: 90 },
  { slug: 'art', name_en: 'Art', name_ua: 'Малюнок', weight: 80 },
  { slug: 'director', name_en: 'Director', name_ua: 'Режисер', weight: 70 },
  { slug: 'character-design', name_en: 'Character Design', name_ua: 'Дизайн персонажів', weight: 50 },
  { slug: 'music', name_en: 'Music', name_ua: 'Музика', weight: 40 },
  { slug: 'assistant', name_en: 'Assistant', name_ua: 'Асистент', weight: null },
];
const AUTHOR_ROLES = ROLES.filter((r) => ['original-creator', 'story', 'art', 'assistant'].includes(r.slug));
const STAFF_ROLES = ROLES.filter((r) =>
  ['original-creator', 'director', 'character-design', 'music'].includes(r.slug),
);

const SYLLABLES = [
  'ka',
  'ze',
  'no',
  'sora',
  'hi',
  'mi',
  'ren',
  'to',
  'yu',
  'ki',
  'sa',
  'ma',
  'ru',
  'shi',
  'ta',
  'ne',
];
const EN_WORDS = [
  'Blade',
  'Sky',
  'Moon',
  'Dragon',
  'Garden',
  'Echo',
  'Star',
  'River',
  'Crown',
  'Shadow',
  'Spring',
];
const UA_WORDS = [
  'Клинок',
  'Небо',
  'Місяць',
  'Дракон',
  'Сад',
  'Відлуння',
  'Зоря',
  'Ріка',
  'Корона',
  'Тінь',
  'Весна',
];
const GIVEN = [
  'Aoi',
  'Haruto',
  'Yui',
  'Sota',
  'Mio',
  'Ren',
  'Hina',
  'Kaito',
  'Sakura',
  'Yuto',
  'Rin',
  'Daiki',
];
const FAMILY = [
  'Sato',
  'Suzuki',
  'Takahashi',
  'Tanaka',
  'Ito',
  'Watanabe',
  'Yamamoto',
  'Nakamura',
  'Kobayashi',
];

const DAY = 24 * 60 * 60;

export interface DemoOptions {
  seed: number;
  /** 1 → about 2,000 titles; 10 → about 20,000. */
  scale: number;
  /** Unix seconds; schedules are laid out around it so the coming week has episodes. */
  now: number;
}

/**
 * Titles per part: a part is one import (one transaction, one validation), and what the
 * importer holds grows with it; 5,000 keeps the load of scale 50 well under a gigabyte
 * while the per-import cost stays small.
 */
export const TITLES_PER_PART = 5000;

function word(random: SeededRandom): string {
  const parts = random.int(2, 3);
  let text = '';
  for (let i = 0; i < parts; i += 1) text += random.pick(SYLLABLES);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function slugOf(text: string, index: number): string {
  return `${text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}-${index.toString(16).padStart(6, '0')}`;
}

/**
 * A synthetic catalog in the import format: every kind of record the endpoints read,
 * including an airing schedule around `now`, franchises that mix anime, manga and
 * novels, people with manga roles, characters in novels, and a few deleted titles.
 *
 * It comes in parts, generated as they are imported: first the genres, magazines,
 * companies, people and characters the titles refer to, then the anime, manga and
 * novels, at most `titlesPerPart` per part, the last part with the franchises. Only
 * one part's titles exist at a time; the records and their order are those of one
 * whole document, whatever the part size.
 */
export function* generateDemoCatalog(
  { seed, scale, now }: DemoOptions,
  titlesPerPart = TITLES_PER_PART,
): Generator<DemoCatalogPart> {
  const random = new SeededRandom(seed);
  const count = (perScale: number) => Math.max(1, Math.round(perScale * scale));

  const genres = GENRES.map(([slug, name_en, name_ua, type]) => ({ slug, name_en, name_ua, type }));
  const magazines = Array.from({ length: 20 }, (_, i) => {
    const name = `${random.pick(EN_WORDS)} ${word(random)}`;
    return { slug: slugOf(name, i), name_en: name };
  });
  const companies = Array.from({ length: 30 }, (_, i) => {
    const name = `Studio ${word(random)}`;
    return { slug: slugOf(name, i), name, image: `/content/companies/${i}.png` };
  });
  const people = Array.from({ length: count(150) }, (_, i) => {
    const given = random.pick(GIVEN);
    const family = random.pick(FAMILY);
    return {
      slug: slugOf(`${given} ${family}`, i),
      name_en: `${given} ${family}`,
      name_native: random.chance(0.7) ? `${family}${given}` : null,
      name_ua: random.chance(0.5) ? `${given} ${family} (укр.)` : null,
      image: random.chance(0.8) ? `/content/people/${i}.jpg` : null,
      description_ua: random.chance(0.3) ? 'Японський автор і художник.' : null,
      synonyms: random.chance(0.2) ? [`${family} ${given}`] : [],
    };
  });
  const characters = Array.from({ length: count(300) }, (_, i) => {
    const given = random.pick(GIVEN);
    return {
      slug: slugOf(`${given} ${word(random)}`, i),
      name_en: random.chance(0.9) ? `${given} ${word(random)}` : null,
      name_ja: random.chance(0.6) ? `${given}` : null,
      name_ua: random.chance(0.4) ? `${given} (укр.)` : null,
      image: random.chance(0.8) ? `/content/characters/${i}.jpg` : null,
      synonyms: [],
    };
  });

  const pickGenres = () => {
    const chosen = random.sample(genres, random.int(1, 4)).map((g) => g.slug);
    return random.chance(0.05) ? [...new Set([...chosen, random.pick([...EXPLICIT])])] : chosen;
  };
  const castOf = (size: number) =>
    random.sample(characters, size).map((c, i) => ({ slug: c.slug, main: i < 2 }));
  const titleText = (i: number) => {
    const index = random.int(0, EN_WORDS.length - 1);
    return {
      en: `${EN_WORDS[index]} of ${word(random)} ${i % 7 === 0 ? 'II' : ''}`.trim(),
      ua: `${UA_WORDS[index]} ${word(random)}`,
    };
  };
  const dates = () => {
    const start = now - random.int(30, 30 * 365) * DAY;
    const end = random.chance(0.6) ? Math.min(now - DAY, start + random.int(30, 720) * DAY) : null;
    return {
      start_date: start,
      end_date: end && end > start ? end : null,
      year: new Date(start * 1000).getUTCFullYear(),
    };
  };
  const scores = () => ({ score: Math.round(random.next() * 1000) / 100, scored_by: random.int(0, 500000) });

  let extcat = 1;
  const animeRecord = (i: number) => {
    const text = titleText(i);
    const chosenGenres = pickGenres();
    const ongoing = i % 12 === 0;
    const { start_date, end_date, year } = dates();
    const total = random.pick([12, 13, 24, 25, null]);
    const started = ongoing ? now - random.int(1, 8) * 7 * DAY : start_date;
    const released = ongoing ? Math.floor((now - started) / (7 * DAY)) : total;
    return {
      slug: slugOf(text.en, i),
      extcat_id: extcat++,
      title_en: text.en,
      title_ja: `${word(random)} no ${word(random)}`,
      title_ua: random.chance(0.6) ? text.ua : null,
      synonyms: random.chance(0.3) ? [word(random)] : [],
      media_type: random.pick(ANIME_MEDIA_TYPES),
      status: ongoing ? 'ongoing' : random.pick(RELEASE_STATUSES),
      season: random.pick(SEASONS),
      source: random.pick(SOURCES),
      rating: random.pick(AGE_RATINGS),
      year: ongoing ? new Date(started * 1000).getUTCFullYear() : year,
      episodes_released: total === null ? released : Math.min(released ?? 0, total),
      episodes_total: total,
      duration: random.pick([24, 23, 12, 90]),
      image: `/content/anime/${i}.jpg`,
      ...scores(),
      start_date: started,
      end_date: ongoing ? null : end_date,
      translated_ua: random.chance(0.4),
      nsfw: chosenGenres.some((g) => EXPLICIT.has(g)),
      synopsis_en: `An adventure about ${word(random)} and ${word(random)}.`,
      synopsis_ua: random.chance(0.5) ? `Пригоди ${word(random)}.` : null,
      genres: chosenGenres,
      studios: [random.pick(companies).slug],
      producers: random.sample(companies, 2).map((c) => c.slug),
      characters: castOf(random.int(0, 6)),
      staff: random.sample(people, random.int(1, 3)).map((p) => ({
        person: p.slug,
        roles: random.sample(STAFF_ROLES, random.int(1, 2)),
      })),
      schedule: ongoing
        ? Array.from({ length: 12 }, (_, e) => ({
            episode: e + 1,
            airing_at: started + e * 7 * DAY + (i % 7) * 3600,
          }))
        : [],
      deleted: i % 97 === 5,
    };
  };

  const readableRecord = (kind: 'manga' | 'novel', mediaTypes: readonly string[]) => (i: number) => {
    const text = titleText(i);
    const { start_date, end_date, year } = dates();
    return {
      slug: slugOf(`${kind} ${text.en}`, i),
      extcat_id: extcat++,
      title_original: `${word(random)} ${word(random)}`,
      title_en: text.en,
      title_ua: random.chance(0.5) ? text.ua : null,
      synonyms: random.chance(0.3) ? [word(random)] : [],
      media_type: random.pick(mediaTypes),
      status: random.pick(RELEASE_STATUSES),
      year,
      chapters: random.chance(0.8) ? random.int(1, 400) : null,
      volumes: random.chance(0.8) ? random.int(1, 40) : null,
      image: `/content/${kind}/${i}.jpg`,
      ...scores(),
      start_date,
      end_date,
      translated_ua: random.chance(0.3),
      nsfw: false,
      synopsis_en: `A story of ${word(random)}.`,
      synopsis_ua: random.chance(0.5) ? `Історія ${word(random)}.` : null,
      genres: pickGenres(),
      magazines: random.sample(magazines, random.int(0, 2)).map((m) => m.slug),
      external: [
        { url: `https://example.com/${kind}/${i}`, text: 'Official site', type: 'general' },
        ...(random.chance(0.3)
          ? [{ url: `https://read.example.com/${i}`, text: 'Dengeki', type: 'read' }]
          : []),
        { url: `https://read.example.org/${i}`, text: 'Reader', type: 'read' },
      ],
      authors: random.sample(people, random.int(1, 3)).map((p) => ({
        person: p.slug,
        roles: random.sample(AUTHOR_ROLES, random.int(1, 2)),
      })),
      characters: castOf(random.int(0, 8)),
      deleted: i % 101 === 7,
    };
  };

  yield { genres, magazines, companies, people, characters };

  const sections: ReadonlyArray<[TitleKind, number, (i: number) => Row]> = [
    ['anime', count(700), animeRecord],
    ['manga', count(700), readableRecord('manga', MANGA_MEDIA_TYPES)],
    ['novel', count(600), readableRecord('novel', NOVEL_MEDIA_TYPES)],
  ];
  // Every 20th title of each kind joins a franchise that mixes the three kinds (the
  // first two anime of each twenty); only their slugs are kept for the last part.
  const franchiseCount = Math.floor(Math.min(...sections.map(([, total]) => total)) / 20);
  const franchiseSlugs: Record<TitleKind, string[]> = { anime: [], manga: [], novel: [] };
  let part: DemoCatalogPart = {};
  let titlesInPart = 0;
  for (const [kind, total, record] of sections) {
    for (let i = 0; i < total; i += 1) {
      const title = record(i);
      (part[kind] ??= []).push(title);
      if (i % 20 < (kind === 'anime' ? 2 : 1) && i < franchiseCount * 20)
        franchiseSlugs[kind].push(String(title.slug));
      titlesInPart += 1;
      if (titlesInPart === titlesPerPart) {
        yield part;
        part = {};
        titlesInPart = 0;
      }
    }
  }
  const franchises = Array.from({ length: franchiseCount }, (_, f) => ({
    key: `demo-franchise-${f}`,
    anime: franchiseSlugs.anime.slice(f * 2, f * 2 + 2),
    manga: [franchiseSlugs.manga[f]],
    novel: f % 2 === 0 ? [franchiseSlugs.novel[f]] : [],
  }));
  yield { ...part, franchises };
}
