import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { hashPassword } from '../accounts/passwords';
import { User } from '../accounts/user.entity';
import { Anime } from '../catalog/anime.entity';
import { generateDemoCatalog, SeededRandom, TITLES_PER_PART, type DemoCatalogPart } from './demo-catalog';
import { refreshPlannerStatistics } from '../db/database';
import { databaseCause } from '../db/unavailable';
import { importCatalog } from './importer';
import { seedDemoArticles } from '../articles/demo-articles';
import type { ClientSecretBox } from '../clients/client-secret-box';
import { seedDemoClients } from '../clients/demo-clients';
import { seedDemoCollections } from '../collections/demo-collections';
import { seedDemoComments } from '../comments/comment-seeding';
import { seedDemoFollowsAndNotifications } from '../follows/follow-seeding';
import { seedDemoFavourites } from '../favourites/favourite-seeding';
import { seedDemoListEntries } from './demo-list-entries';

export const DEMO_PASSWORD = 'demo-password';
export const DEMO_ACCOUNTS = ['demo_user', 'demo_moderator', 'demo_admin'] as const;

/** What a phase of the demo load wrote, e.g. `['watch entries', 125750]`, in the order to print. */
export type DemoCounts = ReadonlyArray<readonly [what: string, count: number]>;

export interface DemoPhaseReport {
  readonly phase: string;
  readonly counts: DemoCounts;
  readonly seconds: number;
}

export interface DemoDataOptions {
  seed?: number;
  scale?: number;
  /** Titles per import of the catalog (see {@link TITLES_PER_PART}). */
  titlesPerPart?: number;
  /** Told of each phase as it ends; by default each is logged at `info`. */
  onPhase?: (report: DemoPhaseReport) => void;
}

/** `demo: list entries: 125,750 watch entries, 75,450 read entries in 8.1 s` */
export function describePhase({ phase, counts, seconds }: DemoPhaseReport): string {
  const written = counts.map(([what, count]) => `${count.toLocaleString('en-US')} ${what}`).join(', ');
  return `demo: ${phase}${written ? `: ${written}` : ''} in ${seconds.toFixed(1)} s`;
}

/** A phase of the demo load failed: the message names it and gives the cause's own reason. */
export class DemoPhaseError extends Error {
  constructor(
    readonly phase: string,
    cause: unknown,
  ) {
    super(`demo: ${phase} failed: ${reasonOf(cause)}`, { cause });
    this.name = 'DemoPhaseError';
  }
}

/**
 * The reason a cause gives: for the database's own errors only its message, without the
 * statement knex puts before it (for a bulk insert, megabytes of rows).
 */
function reasonOf(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  return 'severity' in cause ? databaseCause(cause) : cause.message;
}

function demoUsers(random: SeededRandom, scale: number, passwordHash: string) {
  const named = DEMO_ACCOUNTS.map((username) => ({
    username,
    email: `${username}@example.com`,
    password_hash: passwordHash,
    role: username.replace('demo_', ''),
    description: 'Demo account',
  }));
  const members = Array.from({ length: Math.max(10, Math.round(50 * scale)) }, (_, i) => ({
    username: `member_${i.toString().padStart(4, '0')}`,
    email: `member_${i}@example.com`,
    password_hash: passwordHash,
    role: random.chance(0.1) ? 'not_activated' : 'user',
    description: random.chance(0.5) ? `Reader number ${i}` : null,
  }));
  return [...named, ...members];
}

/** The seed and scale of the demo data `npm start` and `npm run demo` load unless told otherwise. */
export const DEMO_SEED = 20261122;
export const DEMO_SCALE = 1;

/**
 * Deterministic demo data, loaded in phases that each hold a bounded amount in memory
 * whatever the scale: the catalog goes through the importer part by part, the accounts
 * through it too (so both obey the import rules), the list entries stream into their
 * tables, and the other community data is created through each domain's own services
 * so that every rule and derived value holds. Each phase is reported as it ends; one
 * that fails stops the load with a {@link DemoPhaseError}. Phases that add community
 * data run once (nothing happens when their data exists), so loading again into a
 * database that has the demo data adds nothing, and after a failed phase it carries
 * on from that phase.
 */
export async function seedDemoData(
  orm: MikroORM,
  log: Logger,
  clientSecrets: ClientSecretBox,
  options: DemoDataOptions = {},
): Promise<void> {
  const seed = options.seed ?? DEMO_SEED;
  const scale = options.scale ?? DEMO_SCALE;
  const onPhase =
    options.onPhase ??
    ((report: DemoPhaseReport) =>
      log.info({ phase: report.phase, counts: Object.fromEntries(report.counts) }, describePhase(report)));
  const phase = async (name: string, work: () => Promise<DemoCounts>): Promise<void> => {
    const started = Date.now();
    let counts: DemoCounts;
    try {
      counts = await work();
    } catch (error) {
      throw new DemoPhaseError(name, error);
    }
    onPhase({ phase: name, counts, seconds: (Date.now() - started) / 1000 });
  };

  await phase('catalog', () =>
    importDemoCatalog(
      orm,
      log,
      generateDemoCatalog(
        { seed, scale, now: Math.floor(Date.now() / 1000) },
        options.titlesPerPart ?? TITLES_PER_PART,
      ),
    ),
  );
  await phase('accounts', async () => {
    // One hash for every demo account: hashing thousands of passwords would dominate the load time.
    const users = demoUsers(new SeededRandom(seed + 1), scale, await hashPassword(DEMO_PASSWORD));
    await importCatalog(orm, { users });
    return [['users', users.length]];
  });

  const random = new SeededRandom(seed + 2);
  await phase('list entries', async () => {
    const perUser = { watch: Math.round(25 * scale), read: Math.round(15 * scale) };
    const { watch, read } = await seedDemoListEntries(orm.em.fork(), random, perUser);
    return [
      ['watch entries', watch],
      ['read entries', read],
    ];
  });
  await phase('clients', async () =>
    (await seedDemoClients(orm.em.fork(), clientSecrets)) ? [['client', 1]] : [],
  );
  await phase('follows', async () => {
    const { follows, notifications } = await seedDemoFollowsAndNotifications(orm.em.fork(), random);
    return [
      ['follows', follows],
      ['notifications', notifications],
    ];
  });
  await phase('articles', async () => {
    const { articles, votes } = await seedDemoArticles(orm.em.fork(), random);
    return [
      ['articles', articles],
      ['votes', votes],
    ];
  });
  await phase('collections', async () => [
    ['collections', (await seedDemoCollections(orm.em.fork(), random)).collections],
  ]);
  await phase('comments', async () => [['comments', await seedDemoComments(orm.em.fork(), random)]]);
  await phase('favourites', async () => [['favourites', await seedDemoFavourites(orm.em.fork(), random)]]);
  await phase('planner statistics', async () => {
    await refreshPlannerStatistics(orm);
    return [];
  });
}

/** Imports the parts one by one, each in its own transaction, as they are generated. */
async function importDemoCatalog(
  orm: MikroORM,
  log: Logger,
  parts: Iterable<DemoCatalogPart>,
): Promise<DemoCounts> {
  let titles = 0;
  let franchises = 0;
  let people = 0;
  let characters = 0;
  for (const part of parts) {
    const report = await importCatalog(orm, part);
    if (report.warnings.length > 0) log.warn({ warnings: report.warnings }, 'demo catalog: import warnings');
    titles += (part.anime?.length ?? 0) + (part.manga?.length ?? 0) + (part.novel?.length ?? 0);
    franchises += part.franchises?.length ?? 0;
    people += part.people?.length ?? 0;
    characters += part.characters?.length ?? 0;
  }
  return [
    ['titles', titles],
    ['people', people],
    ['characters', characters],
    ['franchises', franchises],
  ];
}

/** `npm start` on an empty database loads the demo data (unless DEMO_DATA=off). */
export async function seedDemoDataIfEmpty(
  orm: MikroORM,
  log: Logger,
  clientSecrets: ClientSecretBox,
): Promise<void> {
  const em = orm.em.fork();
  const [anime, users] = await Promise.all([em.count(Anime, {}), em.count(User, {})]);
  if (anime > 0 || users > 0) return;
  log.info('empty database: loading demo data');
  await seedDemoData(orm, log, clientSecrets);
}
