import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { hashPassword } from '../accounts/passwords';
import { User } from '../accounts/user.entity';
import { Anime } from '../catalog/anime.entity';
import { generateDemoCatalog, SeededRandom } from './demo-catalog';
import { refreshPlannerStatistics } from '../db/database';
import { importCatalog } from './importer';
import { seedDemoArticles } from '../articles/demo-articles';
import { seedDemoClients } from '../clients/demo-clients';
import { seedDemoCollections } from '../collections/demo-collections';
import { seedDemoComments } from '../comments/comment-seeding';
import { seedDemoFollowsAndNotifications } from '../follows/follow-seeding';
import { seedDemoListEntries } from './demo-list-entries';
import { WatchEntry } from '../lists/watch-entry.entity';

export const DEMO_PASSWORD = 'demo-password';
export const DEMO_ACCOUNTS = ['demo_user', 'demo_moderator', 'demo_admin'] as const;

export interface DemoDataOptions {
  seed?: number;
  scale?: number;
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

/**
 * Deterministic demo data: the catalog and the accounts go through the importer, so
 * they obey the import rules. Later domains add their community data here through
 * their own services.
 */
export async function seedDemoData(orm: MikroORM, log: Logger, options: DemoDataOptions = {}): Promise<void> {
  const seed = options.seed ?? 20261122;
  const scale = options.scale ?? 1;
  const now = Math.floor(Date.now() / 1000);
  const catalog = generateDemoCatalog({ seed, scale, now });
  // One hash for every demo account: hashing thousands of passwords would dominate the load time.
  const users = demoUsers(new SeededRandom(seed + 1), scale, await hashPassword(DEMO_PASSWORD));
  const report = await importCatalog(orm, { ...catalog, users });
  log.info({ report }, 'demo catalog and accounts loaded');
  await seedCommunity(orm, log, new SeededRandom(seed + 2), scale);
  await refreshPlannerStatistics(orm);
}

/**
 * Community data, created through each domain's own services so that every rule and
 * derived value holds. Added only once: a database that has list entries keeps its own.
 */
async function seedCommunity(orm: MikroORM, log: Logger, random: SeededRandom, scale: number): Promise<void> {
  const em = orm.em.fork();
  if ((await em.count(WatchEntry, {})) > 0) return;
  const lists = await seedDemoListEntries(em, random, {
    watch: Math.round(25 * scale),
    read: Math.round(15 * scale),
  });
  log.info({ lists }, 'demo list entries loaded');
  await seedDemoClients(orm.em.fork());
  const follows = await seedDemoFollowsAndNotifications(orm.em.fork(), random);
  log.info({ follows }, 'demo clients, follows and notifications loaded');
  await seedDemoArticles(orm.em.fork(), random);
  await seedDemoCollections(orm.em.fork(), random);
  await seedDemoComments(orm.em.fork(), random);
  log.info('demo articles, collections and comments loaded');
}

/** `npm start` on an empty database loads the demo data (unless DEMO_DATA=off). */
export async function seedDemoDataIfEmpty(orm: MikroORM, log: Logger): Promise<void> {
  const em = orm.em.fork();
  const [anime, users] = await Promise.all([em.count(Anime, {}), em.count(User, {})]);
  if (anime > 0 || users > 0) return;
  log.info('empty database: loading demo data');
  await seedDemoData(orm, log);
}
