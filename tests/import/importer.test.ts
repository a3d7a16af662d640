import type { MikroORM } from '@mikro-orm/postgresql';
import { User } from '../../src/accounts/user.entity';
import { writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AiringEpisode, Anime } from '../../src/catalog/anime.entity';
import { Genre } from '../../src/catalog/genre.entity';
import { Manga } from '../../src/catalog/manga.entity';
import { Novel } from '../../src/catalog/novel.entity';
import { Appearance } from '../../src/characters/appearance.entity';
import { Collection, CollectionItem } from '../../src/collections/collection.entity';
import { Franchise } from '../../src/franchises/franchise.entity';
import { WatchEntry } from '../../src/lists/watch-entry.entity';
import { Credit } from '../../src/people/credit.entity';
import { Person } from '../../src/people/person.entity';
import { Role } from '../../src/people/role.entity';
import { ImportDataError, importCatalog, summaryLines } from '../../src/import/importer';
import { buildUser, buildWatchEntry } from '../factories';
import { openTestOrm, resetDatabase } from '../setup/db';
import {
  animeRecord,
  APR_2020,
  catalog,
  catalogRowCounts,
  genres,
  importFailure,
  issueLines,
  JAN_2020,
  mangaRecord,
  rowCount,
  WEEK,
  type Json,
} from './helpers';

let orm: MikroORM;

beforeAll(async () => {
  orm = await openTestOrm();
});
beforeEach(async () => {
  await resetDatabase(orm);
});
afterAll(async () => {
  await orm.close();
});

const findAnime = (slug = 'show-one') =>
  orm.em.fork().findOneOrFail(Anime, { slug }, { populate: ['genres'] });
const findManga = (slug = 'book-one') =>
  orm.em.fork().findOneOrFail(Manga, { slug }, { populate: ['genres', 'magazines'] });
const genreSlugs = (title: Anime | Manga) =>
  title.genres
    .getItems()
    .map((genre) => genre.slug)
    .sort();

/** The file with one anime replaced by `overrides` on top of the base record. */
const withAnime = (overrides: Json, base: Json = catalog()): Json => ({
  ...base,
  anime: [animeRecord(overrides)],
});

describe('creating and re-importing', () => {
  it('creates every section from a file and maps the fields onto the model', async () => {
    const report = await importCatalog(orm, catalog());

    expect(report.sections).toMatchObject({
      genres: { created: 3, updated: 0, unchanged: 0 },
      magazines: { created: 1 },
      companies: { created: 2 },
      people: { created: 2 },
      characters: { created: 2 },
      roles: { created: 2 },
      anime: { created: 1 },
      manga: { created: 1 },
      novel: { created: 1 },
      franchises: { created: 1 },
    });
    const anime = await findAnime();
    expect(anime).toMatchObject({
      extcat_id: 1,
      title_en: 'Show One',
      synonyms: ['S1'],
      media_type: 'tv',
      rating: 'pg_13',
      duration: 24,
      score: 8.5,
      translated_ua: true,
      native_score: 0,
      native_scored_by: 0,
      deleted: false,
    });
    expect(anime.start_date).toEqual(new Date(JAN_2020 * 1000));
    expect(anime.end_date).toEqual(new Date(APR_2020 * 1000));
    expect(anime.created).toBeInstanceOf(Date);
    expect(anime.updated).toEqual(anime.created);
    expect(genreSlugs(anime)).toEqual(['action']);
    const manga = await findManga();
    expect(manga.external).toEqual([{ url: 'https://example.com/book', text: 'Site', type: 'general' }]);
    expect(manga.magazines.getItems().map((m) => m.slug)).toEqual(['jump']);
    expect(await rowCount(orm, 'anime_company')).toBe(2);
    expect(await rowCount(orm, 'airing_episode')).toBe(2);
    const em = orm.em.fork();
    const appearances = await em.find(Appearance, { anime: anime.reference }, { populate: ['character'] });
    expect(appearances.map((a) => [a.character.slug, a.main]).sort()).toEqual([
      ['hero', true],
      ['villain', false],
    ]);
    const credit = await em.findOneOrFail(
      Credit,
      { manga: manga.reference },
      { populate: ['person', 'roles'] },
    );
    expect(credit.person.slug).toBe('writer-b');
    expect(credit.roles.getItems().map((r) => [r.slug, r.name_en, r.name_ua, r.weight])).toEqual([
      ['story', 'Story', null, null],
    ]);
    const franchise = await em.findOneOrFail(Franchise, { key: 'saga' });
    expect((await em.findOneOrFail(Anime, { slug: 'show-one' })).franchise?.reference).toBe(
      franchise.reference,
    );
    expect((await em.findOneOrFail(Novel, { slug: 'novel-one' })).franchise).toBeNull();
  });

  it('reports everything unchanged on a second import and touches no row', async () => {
    await importCatalog(orm, catalog());
    const before = await findAnime();
    const rowsBefore = await catalogRowCounts(orm);
    const episodesBefore = await orm.em.fork().find(AiringEpisode, {}, { orderBy: { episode: 'asc' } });

    const report = await importCatalog(orm, catalog());

    for (const counts of Object.values(report.sections)) {
      expect(counts).toMatchObject({ created: 0, updated: 0 });
      expect(counts.unchanged).toBeGreaterThan(0);
    }
    expect(summaryLines(report)).toContain('anime: 0 created, 0 updated, 1 unchanged');
    const after = await findAnime();
    expect(after.reference).toBe(before.reference);
    expect(after.updated).toEqual(before.updated);
    expect(await catalogRowCounts(orm)).toEqual(rowsBefore);
    const episodesAfter = await orm.em.fork().find(AiringEpisode, {}, { orderBy: { episode: 'asc' } });
    expect(episodesAfter.map((e) => e.reference)).toEqual(episodesBefore.map((e) => e.reference));
  });

  it('updates a changed record in place, keeping its reference and what users attached to it', async () => {
    await importCatalog(orm, catalog());
    const before = await findAnime();
    const user = await buildUser(orm);
    await buildWatchEntry(orm, user, before);
    const untouchedManga = await findManga();

    const report = await importCatalog(
      orm,
      withAnime({ title_en: 'Show One (renamed)', genres: ['action', 'comedy'] }),
    );

    expect(report.sections.anime).toMatchObject({ created: 0, updated: 1, unchanged: 0 });
    expect(report.sections.manga).toMatchObject({ updated: 0, unchanged: 1 });
    const after = await findAnime();
    expect(after.reference).toBe(before.reference);
    expect(after.title_en).toBe('Show One (renamed)');
    expect(genreSlugs(after)).toEqual(['action', 'comedy']);
    expect(after.created).toEqual(before.created);
    expect(after.updated!.getTime()).toBeGreaterThan(before.updated!.getTime());
    expect((await findManga()).updated).toEqual(untouchedManga.updated);
    expect(await orm.em.fork().count(WatchEntry, { anime: before.reference })).toBe(1);
  });

  it('counts a change of links alone as an update', async () => {
    await importCatalog(orm, catalog());
    const report = await importCatalog(orm, withAnime({ producers: [] }));
    expect(report.sections.anime).toMatchObject({ updated: 1, unchanged: 0 });
    expect(await rowCount(orm, 'anime_company')).toBe(1);
  });

  it('reads a JSON file from a path, and a broken file is a data error', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'import-test-'));
    const good = join(directory, 'good.json');
    const broken = join(directory, 'broken.json');
    await writeFile(good, JSON.stringify({ genres: genres() }));
    await writeFile(broken, '{"genres": [');

    const report = await importCatalog(orm, good);
    const error = await importCatalog(orm, broken).catch((e: unknown) => e);

    expect(report.sections.genres?.created).toBe(3);
    expect(error).toBeInstanceOf(ImportDataError);
    expect(issueLines(error as ImportDataError)[0]).toMatch(/^\$: invalid JSON/);
  });

  it('gives the same result whatever the batch size', async () => {
    const many = Array.from({ length: 5 }, (_, i) =>
      animeRecord({
        slug: `show-${i}`,
        extcat_id: 100 + i,
        schedule: [{ episode: 1, airing_at: JAN_2020 + i }],
      }),
    );
    const document = { ...catalog({ franchises: [] }), anime: many };

    const progress: string[] = [];
    const first = await importCatalog(orm, document, {
      batchSize: 2,
      onProgress: ({ section, done, total }) => progress.push(`${section} ${done}/${total}`),
    });
    const second = await importCatalog(orm, document, { batchSize: 2 });

    expect(progress.filter((line) => line.startsWith('anime'))).toEqual([
      'anime 2/5',
      'anime 4/5',
      'anime 5/5',
    ]);
    expect(first.sections.anime).toMatchObject({ created: 5 });
    expect(second.sections.anime).toMatchObject({ created: 0, updated: 0, unchanged: 5 });
    expect(await rowCount(orm, 'appearance')).toBe(5 * 2 + 1);
    expect(await rowCount(orm, 'airing_episode')).toBe(5);
  });
});

describe('absent, null and lists', () => {
  it('on create, omitted optional fields get null, [], false or 0', async () => {
    await importCatalog(orm, { anime: [{ slug: 'bare', extcat_id: 9 }] });
    const anime = await findAnime('bare');
    expect(anime).toMatchObject({
      title_en: null,
      synonyms: [],
      media_type: null,
      score: 0,
      scored_by: 0,
      start_date: null,
      nsfw: false,
      translated_ua: false,
      deleted: false,
    });
    expect(anime.genres.count()).toBe(0);
  });

  it('on update, absent keeps, null clears and a given list replaces', async () => {
    await importCatalog(orm, catalog());
    const kept = catalog();
    kept.anime = [{ slug: 'show-one', extcat_id: 1 }];

    const keptReport = await importCatalog(orm, kept);
    const afterAbsent = await findAnime();

    expect(keptReport.sections.anime).toMatchObject({ unchanged: 1 });
    expect(afterAbsent.title_en).toBe('Show One');
    expect(afterAbsent.synonyms).toEqual(['S1']);
    expect(genreSlugs(afterAbsent)).toEqual(['action']);
    expect(await rowCount(orm, 'airing_episode')).toBe(2);

    const cleared = catalog({ franchises: [] });
    cleared.anime = [
      {
        slug: 'show-one',
        extcat_id: 1,
        title_en: null,
        synonyms: null,
        score: null,
        translated_ua: null,
        genres: [],
        studios: null,
        characters: [],
        staff: [],
        schedule: [],
      },
    ];
    const clearedReport = await importCatalog(orm, cleared);
    const afterNull = await findAnime();

    expect(clearedReport.sections.anime).toMatchObject({ updated: 1 });
    expect(afterNull).toMatchObject({
      title_en: null,
      synonyms: [],
      score: 0,
      translated_ua: false,
      title_ja: 'ショー',
    });
    expect(afterNull.genres.count()).toBe(0);
    expect(await rowCount(orm, 'appearance')).toBe(1); // the manga's
    expect(await rowCount(orm, 'airing_episode')).toBe(0);
    // `studios: null` cleared the studio only; producers were absent and stay.
    expect(await orm.em.getConnection().execute(`select role from anime_company`)).toEqual([
      { role: 'producer' },
    ]);
    expect(await orm.em.fork().count(Credit, { anime: afterNull.reference })).toBe(0);
  });

  it('rejects null for a required field and for fields that cannot be cleared', async () => {
    const error = await importFailure(orm, {
      genres: [{ slug: 'action', name_en: null, type: 'genre' }],
      anime: [animeRecord({ schedule: [{ episode: 1, airing_at: null }] })],
    });
    expect(issueLines(error)).toEqual(
      expect.arrayContaining([
        'genres[0].name_en: must not be null',
        'anime[0].schedule[0].airing_at: must not be null',
      ]),
    );
  });
});

describe('all or nothing', () => {
  it('writes nothing when one reference is unknown, naming its JSON path', async () => {
    const document = catalog();
    document.manga = [
      mangaRecord(),
      mangaRecord({ slug: 'book-two', extcat_id: 2, genres: ['action', 'sci-fi'] }),
    ];

    const error = await importFailure(orm, document);

    expect(issueLines(error)).toEqual(['manga[1].genres[1]: unknown genre "sci-fi"']);
    expect(Object.values(await catalogRowCounts(orm)).every((n) => n === 0)).toBe(true);
  });

  it('reports every kind of unknown reference', async () => {
    const error = await importFailure(orm, {
      anime: [
        animeRecord({
          genres: ['nope'],
          studios: ['no-studio'],
          producers: [],
          characters: [{ slug: 'nobody' }],
          staff: [{ person: 'no-one', roles: [] }],
        }),
      ],
      manga: [mangaRecord({ genres: [], magazines: ['no-mag'], authors: [], characters: [] })],
      franchises: [{ key: 'f', novel: ['no-novel'] }],
    });
    expect(issueLines(error)).toEqual([
      'anime[0].genres[0]: unknown genre "nope"',
      'anime[0].characters[0].slug: unknown character "nobody"',
      'anime[0].studios[0]: unknown company "no-studio"',
      'anime[0].staff[0].person: unknown person "no-one"',
      'manga[0].magazines[0]: unknown magazine "no-mag"',
      'franchises[0].novel[0]: unknown novel "no-novel"',
    ]);
  });

  it('accepts references to records that exist only in the database', async () => {
    await importCatalog(orm, catalog({ anime: [], manga: [], novel: [], franchises: [] }));

    const report = await importCatalog(orm, {
      anime: [animeRecord()],
      franchises: [{ key: 'solo', anime: ['show-one'] }],
    });

    expect(report.sections.anime?.created).toBe(1);
    expect(genreSlugs(await findAnime())).toEqual(['action']);
  });

  it('lists the first 20 errors and counts the rest', async () => {
    const bad = Array.from({ length: 25 }, (_, i) => ({ slug: `genre-${i}`, name_en: 'G', type: 'mood' }));

    const error = await importFailure(orm, { genres: bad });

    expect(error.errors).toHaveLength(20);
    expect(error.totalErrors).toBe(25);
    expect(issueLines(error)[19]).toBe(
      'genres[19].type: unknown genre type "mood" (expected one of genre, theme, demographic, explicit)',
    );
    expect(error.message).toContain('... and 5 more');
    expect(await rowCount(orm, 'genre')).toBe(0);
  });

  it('fails on a value only wrong against the stored record, and undoes the sections already written', async () => {
    await importCatalog(orm, catalog());
    const document = withAnime({ episodes_total: undefined, episodes_released: 13 });
    document.genres = [...genres(), { slug: 'drama', name_en: 'Drama', type: 'genre' }];

    const error = await importFailure(orm, document);

    expect(issueLines(error)).toEqual([
      'anime[0].episodes_released: episodes_released 13 exceeds episodes_total 12',
    ]);
    expect(await orm.em.fork().count(Genre, { slug: 'drama' })).toBe(0);
    expect((await findAnime()).episodes_released).toBe(12);
  });
});

describe('validation', () => {
  it('rejects unknown keys and unknown sections', async () => {
    const error = await importFailure(orm, {
      ...catalog(),
      anime: [animeRecord({ titel_en: 'typo' })],
      mangas: [],
    });
    expect(issueLines(error)).toEqual([
      'mangas: unknown section "mangas"',
      'anime[0].titel_en: unknown field "titel_en"',
    ]);
  });

  it('rejects unknown enum values', async () => {
    const error = await importFailure(orm, withAnime({ media_type: 'tvv', season: 'monsoon' }));
    expect(issueLines(error)).toEqual([
      'anime[0].media_type: unknown media type "tvv" (expected one of tv, movie, ova, ona, special, music)',
      'anime[0].season: unknown season "monsoon" (expected one of winter, spring, summer, fall)',
    ]);
  });

  it('checks slugs against the slug pattern', async () => {
    const error = await importFailure(orm, {
      genres: [{ slug: 'Sci_Fi', name_en: 'Sci-Fi', type: 'genre' }],
    });
    expect(issueLines(error)).toEqual([
      'genres[0].slug: invalid slug "Sci_Fi" (expected ^[a-z0-9][a-z0-9-]*$)',
    ]);
  });

  it('rejects a slug repeated within a section', async () => {
    const error = await importFailure(orm, {
      genres: [...genres(), { slug: 'action', name_en: 'Again', type: 'genre' }],
    });
    expect(issueLines(error)).toEqual(['genres[3].slug: duplicate slug "action" (also genres[0])']);
  });

  it('rejects an extcat_id repeated within a content type, but not across types', async () => {
    const document = catalog();
    document.anime = [animeRecord(), animeRecord({ slug: 'show-two', extcat_id: 1 })];
    document.manga = [mangaRecord({ extcat_id: 1 })];

    const error = await importFailure(orm, document);

    expect(issueLines(error)).toEqual(['anime[1].extcat_id: duplicate extcat_id 1 (also anime[0])']);
  });

  it('rejects an extcat_id stored for another title that the file does not move', async () => {
    await importCatalog(orm, catalog());
    const document = { ...catalog({ franchises: [] }), anime: [animeRecord({ slug: 'show-two' })] };

    const error = await importFailure(orm, document);

    expect(issueLines(error)).toEqual([
      'anime[0].extcat_id: extcat_id 1 already belongs to anime "show-one"',
    ]);
  });

  it('lets two stored titles swap extcat ids in one import', async () => {
    const pair = (a: number, b: number) =>
      catalog({
        franchises: [],
        anime: [animeRecord({ extcat_id: a }), animeRecord({ slug: 'show-two', extcat_id: b, schedule: [] })],
      });
    await importCatalog(orm, pair(1, 2));

    const report = await importCatalog(orm, pair(2, 1));

    expect(report.sections.anime).toMatchObject({ updated: 2 });
    expect((await findAnime('show-one')).extcat_id).toBe(2);
    expect((await findAnime('show-two')).extcat_id).toBe(1);
  });

  it('checks numeric ranges and timestamp types', async () => {
    const error = await importFailure(
      orm,
      withAnime({ score: 10.5, scored_by: -1, episodes_total: -2, start_date: 1577836800.5, year: '2020' }),
    );
    expect(issueLines(error)).toEqual([
      'anime[0].year: expected an integer, got "2020"',
      'anime[0].score: score 10.5 is outside 0..10',
      'anime[0].scored_by: -1 is out of range (expected an integer ≥ 0)',
      'anime[0].start_date: expected an integer Unix time in seconds, got 1577836800.5',
      'anime[0].episodes_total: -2 is out of range (expected an integer ≥ 0)',
    ]);
  });

  it('rejects more episodes released than in total', async () => {
    const error = await importFailure(orm, withAnime({ episodes_released: 13, episodes_total: 12 }));
    expect(issueLines(error)).toEqual([
      'anime[0].episodes_released: episodes_released 13 exceeds episodes_total 12',
    ]);
  });

  it('rejects a start date after the end date', async () => {
    const error = await importFailure(orm, withAnime({ start_date: APR_2020, end_date: JAN_2020 }));
    expect(issueLines(error)).toEqual(['anime[0].start_date: start_date is after end_date']);
  });

  it('rejects repeated items in lists that are sets', async () => {
    const error = await importFailure(
      orm,
      withAnime({
        genres: ['action', 'action'],
        schedule: [
          { episode: 1, airing_at: JAN_2020 },
          { episode: 1, airing_at: APR_2020 },
        ],
      }),
    );
    expect(issueLines(error)).toEqual([
      'anime[0].genres[1]: duplicate genre "action"',
      'anime[0].schedule[1]: duplicate episode 1',
    ]);
  });

  it('rejects a document that is not an object and sections that are not lists', async () => {
    expect(issueLines(await importFailure(orm, [1, 2]))).toEqual(['$: the file must hold one JSON object']);
    expect(issueLines(await importFailure(orm, { genres: {} }))).toEqual([
      'genres: a section must be a list of records',
    ]);
  });
});

describe('deleted', () => {
  it('soft-deletes and restores, and collection entry counts follow', async () => {
    await importCatalog(orm, catalog());
    const anime = await findAnime();
    const em = orm.em.fork();
    const collection = Object.assign(new Collection(), {
      author: await em.findOneOrFail(User, { reference: (await buildUser(orm)).reference }),
      title: 'Mine',
      description: '',
      content_type: 'anime',
      visibility: 'public',
      entries: 1,
    });
    const item = Object.assign(new CollectionItem(), {
      collection,
      content_type: 'anime',
      content_reference: anime.reference,
      order: 1,
    });
    await em.persist([collection, item]).flush();
    const entries = async () =>
      (await orm.em.fork().findOneOrFail(Collection, { reference: collection.reference })).entries;

    const deleted = await importCatalog(orm, withAnime({ deleted: true }));
    const afterDelete = await findAnime();
    const entriesWhileDeleted = await entries();
    const restored = await importCatalog(orm, withAnime({ deleted: false }));

    expect(deleted.sections.anime).toMatchObject({ updated: 1 });
    expect(afterDelete.deleted).toBe(true);
    expect(afterDelete.reference).toBe(anime.reference);
    expect(entriesWhileDeleted).toBe(0);
    expect(restored.sections.anime).toMatchObject({ updated: 1 });
    expect((await findAnime()).deleted).toBe(false);
    expect(await entries()).toBe(1);
  });

  it('creates a record already deleted', async () => {
    await importCatalog(orm, { novel: [{ slug: 'gone', extcat_id: 5, deleted: true }] });
    expect((await orm.em.fork().findOneOrFail(Novel, { slug: 'gone' })).deleted).toBe(true);
  });
});

describe('schedule and credits', () => {
  it('matches schedule entries by episode so kept entries keep their references', async () => {
    await importCatalog(orm, catalog());
    const before = await orm.em.fork().find(AiringEpisode, {}, { orderBy: { episode: 'asc' } });

    const report = await importCatalog(
      orm,
      withAnime({
        schedule: [
          { episode: 1, airing_at: JAN_2020 },
          { episode: 2, airing_at: JAN_2020 + 2 * WEEK },
          { episode: 3, airing_at: JAN_2020 + 3 * WEEK },
        ],
      }),
    );
    const after = await orm.em.fork().find(AiringEpisode, {}, { orderBy: { episode: 'asc' } });

    expect(report.sections.anime).toMatchObject({ updated: 1 });
    expect(after.map((e) => e.episode)).toEqual([1, 2, 3]);
    expect(after[0].reference).toBe(before[0].reference);
    expect(after[1].reference).toBe(before[1].reference);
    expect(after[1].airing_at).toEqual(new Date((JAN_2020 + 2 * WEEK) * 1000));

    await importCatalog(orm, withAnime({ schedule: [{ episode: 3, airing_at: JAN_2020 + 3 * WEEK }] }));
    const remaining = await orm.em.fork().find(AiringEpisode, {});
    expect(remaining.map((e) => e.reference)).toEqual([after[2].reference]);
  });

  it('keeps a credit per person and replaces its roles', async () => {
    await importCatalog(orm, catalog());
    const anime = await findAnime();
    const before = await orm.em.fork().findOneOrFail(Credit, { anime: anime.reference });

    await importCatalog(
      orm,
      withAnime({
        staff: [
          { person: 'director-a', roles: [{ slug: 'storyboard', name_en: 'Storyboard' }] },
          { person: 'writer-b', roles: [{ slug: 'story', name_en: 'Story' }] },
        ],
      }),
    );
    const credits = await orm.em
      .fork()
      .find(Credit, { anime: anime.reference }, { populate: ['person', 'roles'] });

    const director = credits.find((c) => c.person.slug === 'director-a');
    expect(director?.reference).toBe(before.reference);
    expect(director?.roles.getItems().map((r) => r.slug)).toEqual(['storyboard']);
    expect(credits.map((c) => c.person.slug).sort()).toEqual(['director-a', 'writer-b']);
    // Roles are global: the unused one stays.
    expect(await orm.em.fork().count(Role, { slug: 'director' })).toBe(1);
  });
});

describe('roles', () => {
  const staffWith = (roles: Json[][]): Json =>
    withAnime({ staff: roles.map((r, i) => ({ person: i === 0 ? 'director-a' : 'writer-b', roles: r })) });

  it('rejects one role slug with different names or weights in one file', async () => {
    const error = await importFailure(
      orm,
      staffWith([
        [{ slug: 'director', name_en: 'Director', weight: 600 }],
        [{ slug: 'director', name_en: 'Director', weight: 500 }],
      ]),
    );
    expect(issueLines(error)).toEqual([
      'anime[0].staff[1].roles[0].weight: role "director" has weight 500 here but 600 at anime[0].staff[0].roles[0]',
    ]);
  });

  it('merges the fields that different uses give, and a later import renames the role', async () => {
    await importCatalog(
      orm,
      staffWith([[{ slug: 'director', name_en: 'Director' }], [{ slug: 'director', weight: 600 }]]),
    );
    const merged = await orm.em.fork().findOneOrFail(Role, { slug: 'director' });

    const report = await importCatalog(
      orm,
      staffWith([[{ slug: 'director', name_en: 'Chief Director' }], []]),
    );
    const renamed = await orm.em.fork().findOneOrFail(Role, { slug: 'director' });

    expect(merged).toMatchObject({ name_en: 'Director', weight: 600, name_ua: null });
    expect(report.sections.roles).toMatchObject({ updated: 1 });
    expect(renamed).toMatchObject({ reference: merged.reference, name_en: 'Chief Director', weight: 600 });
  });
});

describe('franchises', () => {
  const titlesOf = async (key: string) => {
    const em = orm.em.fork();
    const franchise = await em.findOne(Franchise, { key });
    if (!franchise) return null;
    const anime = await em.find(Anime, { franchise: franchise.reference });
    const manga = await em.find(Manga, { franchise: franchise.reference });
    return [...anime, ...manga].map((t) => t.slug).sort();
  };
  const twoAnime = (franchises: Json[]): Json =>
    catalog({
      anime: [animeRecord(), animeRecord({ slug: 'show-two', extcat_id: 2, schedule: [] })],
      franchises,
    });

  it('moves a title listed in another franchise and removes the franchise left empty', async () => {
    await importCatalog(orm, twoAnime([{ key: 'old', anime: ['show-one', 'show-two'] }]));

    const report = await importCatalog(
      orm,
      twoAnime([
        { key: 'old', anime: ['show-one'] },
        { key: 'new', anime: ['show-two'], manga: ['book-one'] },
      ]),
    );

    expect(report.sections.franchises).toMatchObject({ created: 1, updated: 1, unchanged: 0 });
    expect(await titlesOf('old')).toEqual(['show-one']);
    expect(await titlesOf('new')).toEqual(['book-one', 'show-two']);

    const emptied = await importCatalog(orm, twoAnime([{ key: 'new', anime: ['show-one', 'show-two'] }]));

    expect(emptied.sections.franchises).toMatchObject({ updated: 1, removed: 1 });
    expect(await titlesOf('old')).toBeNull();
    // `manga` was absent: book-one stays in its franchise.
    expect(await titlesOf('new')).toEqual(['book-one', 'show-one', 'show-two']);
  });

  it('detaches titles a given list no longer holds', async () => {
    await importCatalog(orm, twoAnime([{ key: 'saga', anime: ['show-one', 'show-two'] }]));
    await importCatalog(orm, twoAnime([{ key: 'saga', anime: ['show-two'] }]));
    expect(await titlesOf('saga')).toEqual(['show-two']);
    expect((await findAnime('show-one')).franchise).toBeNull();
  });

  it('rejects a title listed in two franchises of one file', async () => {
    const error = await importFailure(
      orm,
      twoAnime([
        { key: 'a', anime: ['show-one'] },
        { key: 'b', anime: ['show-one'] },
      ]),
    );
    expect(issueLines(error)).toEqual([
      'franchises[1].anime[0]: anime "show-one" is also listed in franchise "a" (a title belongs to at most one franchise)',
    ]);
  });
});

describe('NSFW warning', () => {
  it('warns without failing when the nsfw flag disagrees with the genres', async () => {
    const document = catalog({
      anime: [
        animeRecord({ genres: ['action', 'hentai'], nsfw: false }),
        animeRecord({ slug: 'show-two', extcat_id: 2, genres: ['comedy'], nsfw: true, schedule: [] }),
        animeRecord({ slug: 'show-three', extcat_id: 3, genres: ['hentai'], nsfw: true, schedule: [] }),
      ],
    });

    const report = await importCatalog(orm, document);

    expect(report.sections.anime?.created).toBe(3);
    expect(report.warnings).toEqual([
      'anime[0]: nsfw is false but its genres include hentai',
      'anime[1]: nsfw is true but none of its genres is ecchi, erotica, hentai',
    ]);
  });

  it('judges an update by the stored genres when the record gives none', async () => {
    await importCatalog(orm, withAnime({ genres: ['hentai'], nsfw: true }));
    const report = await importCatalog(orm, { anime: [{ slug: 'show-one', extcat_id: 1, nsfw: false }] });
    expect(report.warnings).toEqual(['anime[0]: nsfw is false but its genres include hentai']);
  });
});

describe('simple sections', () => {
  it('updates people in place and keeps what the file omits', async () => {
    await importCatalog(orm, catalog());
    const before = await orm.em.fork().findOneOrFail(Person, { slug: 'director-a' });

    const report = await importCatalog(orm, { people: [{ slug: 'director-a', name_ua: 'Режисер А' }] });
    const after = await orm.em.fork().findOneOrFail(Person, { slug: 'director-a' });

    expect(report.sections.people).toMatchObject({ updated: 1 });
    expect(after).toMatchObject({
      reference: before.reference,
      name_en: 'Director A',
      name_ua: 'Режисер А',
      synonyms: ['DA'],
    });
  });
});
