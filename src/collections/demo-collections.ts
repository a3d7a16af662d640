import type { EntityManager } from '@mikro-orm/postgresql';
import { User } from '../accounts/user.entity';
import type { CollectionContentType, CollectionVisibility } from '../common/enums';
import type { SeededRandom } from '../import/demo-catalog';
import { Collection } from './collection.entity';
import type { CollectionInput } from './collection.inputs';
import { createCollectionFor } from './collection.service';

const HOUR_MS = 60 * 60 * 1000;
const TITLES = [
  'Comfort picks',
  'Hidden gems',
  'Start here',
  'Weekend marathon',
  'Найкраще за рік',
  'Улюблене',
];
const TAGS = ['топ', 'classic', 'романтика', 'action', 'драма'];

/** Slugs of up to `limit` live items of a content type, by the catalog's own order. */
async function slugsOf(em: EntityManager, type: CollectionContentType, limit: number): Promise<string[]> {
  const soft = type === 'anime' || type === 'manga' || type === 'novel';
  const rows = await em
    .getConnection()
    .execute<{ slug: string }[]>(
      `select slug from "${type}" ${soft ? 'where not deleted' : ''} order by slug limit ?`,
      [limit],
    );
  return rows.map((row) => row.slug);
}

/**
 * Demo collections of the active demo accounts, created through the collection
 * service (every rule and derived value holds): each of a handful of users gets one
 * to three collections over anime, manga, novels, characters or people, some
 * labelled, most public. Runs once: nothing happens when collections exist.
 */
export async function seedDemoCollections(
  em: EntityManager,
  random: SeededRandom,
): Promise<{ collections: number }> {
  if ((await em.count(Collection, {})) > 0) return { collections: 0 };
  const users = await em.find(
    User,
    { role: { $nin: ['deleted', 'not_activated'] }, banned: false },
    { orderBy: { username: 'asc' } },
  );
  const pools = new Map<CollectionContentType, string[]>();
  for (const type of ['anime', 'manga', 'novel', 'character', 'person'] as const) {
    pools.set(type, await slugsOf(em, type, 60));
  }
  const types = [...pools.keys()].filter((type) => (pools.get(type) ?? []).length > 0);
  if (types.length === 0 || users.length === 0) return { collections: 0 };

  const named = users.filter((user) => user.username.startsWith('demo_'));
  const authors = [...named, ...random.sample(users, Math.min(10, users.length))];
  const now = Date.now();
  let created = 0;
  for (const author of new Set(authors)) {
    for (let n = random.int(1, 3); n > 0; n -= 1) {
      const content_type = random.pick(types);
      const slugs = random.sample(pools.get(content_type)!, random.int(3, 12));
      const labelled = random.chance(0.3);
      const labels = ['must see', 'also good'];
      const content = slugs.map((slug, i) => ({
        slug,
        order: i + 1,
        ...(random.chance(0.3) ? { comment: 'A personal favourite.' } : {}),
        ...(labelled ? { label: labels[i % 2] } : {}),
      }));
      const visibility: CollectionVisibility = random.chance(0.8)
        ? 'public'
        : random.chance(0.5)
          ? 'unlisted'
          : 'private';
      const input: CollectionInput = {
        title: random.pick(TITLES),
        description: 'A few titles I keep coming back to, and why.',
        tags: random.sample(TAGS, random.int(0, 3)),
        visibility,
        content_type,
        labels_order: labelled ? labels.slice(0, Math.min(2, content.length)) : [],
        spoiler: random.chance(0.1),
        nsfw: false,
        content,
      };
      await createCollectionFor(em, author, input, new Date(now - random.int(1, 30 * 24) * HOUR_MS));
      created += 1;
    }
  }
  return { collections: created };
}
