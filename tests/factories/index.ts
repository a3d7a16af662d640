import { randomUUID } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { RequiredEntityData } from '@mikro-orm/core';
import { AuthToken } from '../../src/accounts/auth-token.entity';
import { User } from '../../src/accounts/user.entity';
import { AiringEpisode, Anime } from '../../src/catalog/anime.entity';
import { AnimeCompany, Company } from '../../src/catalog/company.entity';
import type { CompanyRole } from '../../src/common/enums';
import { Genre } from '../../src/catalog/genre.entity';
import { Magazine } from '../../src/catalog/magazine.entity';
import { Manga } from '../../src/catalog/manga.entity';
import { Novel } from '../../src/catalog/novel.entity';
import { Appearance } from '../../src/characters/appearance.entity';
import { Character } from '../../src/characters/character.entity';
import { Client } from '../../src/clients/client.entity';
import { newTokenSecret, hashSecret } from '../../src/common/auth/secrets';
import { Franchise } from '../../src/franchises/franchise.entity';
import { ReadEntry } from '../../src/lists/read-entry.entity';
import { WatchEntry } from '../../src/lists/watch-entry.entity';
import { Credit } from '../../src/people/credit.entity';
import { Person } from '../../src/people/person.entity';
import { Role } from '../../src/people/role.entity';
import { testClientSecrets } from '../setup/client-secrets';

/**
 * One place that knows how to make valid rows. Each builder persists and flushes
 * its row in a fresh entity manager and returns it; overrides win over defaults.
 */
let sequence = 0;
const next = () => (sequence += 1);

async function persist<T extends object>(orm: MikroORM, entity: { new (): T }, data: Partial<T>): Promise<T> {
  const em = orm.em.fork();
  const row = em.create(entity, data as unknown as RequiredEntityData<T>);
  await em.flush();
  return row;
}

export const buildGenre = (orm: MikroORM, o: Partial<Genre> = {}) =>
  persist(orm, Genre, { slug: `genre-${next()}`, name_en: 'Genre', type: 'genre', ...o });

export const buildMagazine = (orm: MikroORM, o: Partial<Magazine> = {}) =>
  persist(orm, Magazine, { slug: `magazine-${next()}`, name_en: 'Magazine', ...o });

export const buildFranchise = (orm: MikroORM, o: Partial<Franchise> = {}) =>
  persist(orm, Franchise, { key: `franchise-${next()}`, ...o });

function titleDefaults(kind: string) {
  const n = next();
  return {
    slug: `${kind}-${n}`,
    extcat_id: n,
    title_en: `${kind} ${n}`,
    score: 7,
    scored_by: 100,
    created: new Date('2024-01-01T00:00:00Z'),
    updated: new Date('2024-01-02T00:00:00Z'),
  };
}

export const buildAnime = (orm: MikroORM, o: Partial<Anime> = {}) =>
  persist(orm, Anime, { ...titleDefaults('anime'), media_type: 'tv', ...o });

export const buildManga = (orm: MikroORM, o: Partial<Manga> = {}) =>
  persist(orm, Manga, { ...titleDefaults('manga'), media_type: 'manga', ...o });

export const buildNovel = (orm: MikroORM, o: Partial<Novel> = {}) =>
  persist(orm, Novel, { ...titleDefaults('novel'), media_type: 'light_novel', ...o });

export const buildPerson = (orm: MikroORM, o: Partial<Person> = {}) =>
  persist(orm, Person, { slug: `person-${next()}`, name_en: 'Person', ...o });

export const buildRole = (orm: MikroORM, o: Partial<Role> = {}) =>
  persist(orm, Role, { slug: `role-${next()}`, name_en: 'Role', name_ua: 'Роль', weight: 10, ...o });

export const buildCharacter = (orm: MikroORM, o: Partial<Character> = {}) =>
  persist(orm, Character, { slug: `character-${next()}`, name_en: `Character ${next()}`, ...o });

type TitleOfLink = { anime?: Anime; manga?: Manga; novel?: Novel };

/** The `anime`/`manga`/`novel` columns of a row that belongs to one title. */
const titleReferences = (title: TitleOfLink) => ({
  anime: title.anime?.reference ?? null,
  manga: title.manga?.reference ?? null,
  novel: title.novel?.reference ?? null,
});

/** A credit of `person` on one title, with roles. */
export async function buildCredit(
  orm: MikroORM,
  person: Person,
  title: TitleOfLink,
  roles: Role[],
): Promise<Credit> {
  const em = orm.em.fork();
  const credit = em.create(Credit, {
    person: person.reference,
    ...titleReferences(title),
  } as RequiredEntityData<Credit>);
  roles.forEach((role) => credit.roles.add(em.getReference(Role, role.reference)));
  await em.flush();
  return credit;
}

export async function buildAppearance(
  orm: MikroORM,
  character: Character,
  title: TitleOfLink,
  main = false,
): Promise<Appearance> {
  return persist(orm, Appearance, {
    character: character.reference,
    ...titleReferences(title),
    main,
  } as unknown as Partial<Appearance>);
}

/** Links genres or magazines to a title through its M:N collection. */
export async function linkTitle(
  orm: MikroORM,
  title: Anime | Manga | Novel,
  links: { genres?: Genre[]; magazines?: Magazine[] },
): Promise<void> {
  const em: EntityManager = orm.em.fork();
  const entity = title.constructor as typeof Manga;
  const loaded = await em.findOneOrFail(
    entity,
    { reference: title.reference },
    // Anime have no magazines: only what is linked is loaded.
    { populate: (links.magazines ? ['genres', 'magazines'] : ['genres']) as never },
  );
  links.genres?.forEach((g) => loaded.genres.add(em.getReference(Genre, g.reference)));
  links.magazines?.forEach((m) => loaded.magazines.add(em.getReference(Magazine, m.reference)));
  await em.flush();
}

export const buildUser = (orm: MikroORM, o: Partial<User> = {}) => {
  const n = next();
  return persist(orm, User, {
    username: `user_${n}_${randomUUID().slice(0, 6)}`,
    email: `user${n}@example.com`,
    password_hash: 'not-a-real-hash',
    role: 'user',
    email_confirmed: true,
    ...o,
  });
};

/** A valid first-party token for `user` (or a third-party one with `client` and `scope`); returns the secret. */
export async function buildToken(
  orm: MikroORM,
  user: User,
  o: { client?: Client; scope?: string[]; expiration?: Date } = {},
): Promise<string> {
  const secret = newTokenSecret();
  await persist(orm, AuthToken, {
    secret_hash: hashSecret(secret),
    user: user.reference,
    client: o.client?.reference ?? null,
    scope: o.scope ?? [],
    expiration: o.expiration ?? new Date(Date.now() + 60 * 60 * 1000),
  } as unknown as Partial<AuthToken>);
  return secret;
}

/** A client with its plaintext `secret`, which is stored sealed as the service seals it. */
export type TestClient = Client & { secret: string };

export async function buildClient(
  orm: MikroORM,
  owner: User,
  { secret = 'x'.repeat(128), ...o }: Partial<Client> & { secret?: string } = {},
): Promise<TestClient> {
  const reference = o.reference ?? randomUUID();
  const client = await persist(orm, Client, {
    reference,
    user: owner.reference,
    name: `client ${next()}`,
    description: 'A client',
    endpoint: 'https://example.com/',
    sealed_secret: testClientSecrets().seal(secret, reference),
    ...o,
  } as unknown as Partial<Client>);
  return Object.assign(client, { secret });
}

export async function buildReadEntry(
  orm: MikroORM,
  user: User,
  title: { manga?: Manga; novel?: Novel },
  o: Partial<ReadEntry> = {},
): Promise<ReadEntry> {
  return persist(orm, ReadEntry, {
    user: user.reference,
    content_type: title.manga ? 'manga' : 'novel',
    manga: title.manga?.reference ?? null,
    novel: title.novel?.reference ?? null,
    status: 'reading',
    ...o,
  } as unknown as Partial<ReadEntry>);
}

export async function buildWatchEntry(
  orm: MikroORM,
  user: User,
  anime: Anime,
  o: Partial<WatchEntry> = {},
): Promise<WatchEntry> {
  return persist(orm, WatchEntry, {
    user: user.reference,
    anime: anime.reference,
    status: 'watching',
    ...o,
  } as unknown as Partial<WatchEntry>);
}

/** A UUID whose order among its kind is given by `n`, for tests that pin the reference tie-break. */
export const orderedReference = (n: number): string =>
  `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A third-party token of `user` holding `scope`, issued by a client that another user owns; returns the secret. */
export async function buildThirdPartyToken(orm: MikroORM, user: User, scope: string[]): Promise<string> {
  const client = await buildClient(orm, await buildUser(orm));
  return buildToken(orm, user, { client, scope });
}

/** A well-formed UUID that no factory gives a row: the path of a missing thing. */
export const MISSING_REFERENCE = '00000000-0000-4000-8000-000000000000';

/** One scheduled episode of `anime` (a given reference keeps a tie's order known). */
export async function buildAiringEpisode(
  orm: MikroORM,
  anime: Anime,
  episode: number,
  airingAt: Date,
  reference?: string,
): Promise<AiringEpisode> {
  const em = orm.em.fork();
  const row = em.create(AiringEpisode, {
    anime: anime.reference,
    episode,
    airing_at: airingAt,
    ...(reference ? { reference } : {}),
  } as unknown as RequiredEntityData<AiringEpisode>);
  await em.flush();
  return row;
}

/** Links `anime` to the company `slug` (made on first use, named after its slug) as `role`. */
export async function linkCompany(
  orm: MikroORM,
  anime: Anime,
  slug: string,
  role: CompanyRole,
  o: Partial<Company> = {},
): Promise<AnimeCompany> {
  const em = orm.em.fork();
  const company = (await em.findOne(Company, { slug })) ?? em.create(Company, { slug, name: slug, ...o });
  const link = em.create(AnimeCompany, {
    anime: anime.reference,
    company,
    role,
  } as unknown as RequiredEntityData<AnimeCompany>);
  await em.flush();
  return link;
}
