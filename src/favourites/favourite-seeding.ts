import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { User } from '../accounts/user.entity';
import { liveAppearanceSql } from '../characters/characters.service';
import type { FavouriteContentType } from '../common/enums';
import type { SeededRandom } from '../import/demo-catalog';
import { Favourite } from './favourite.entity';

const HOUR_MS = 60 * 60 * 1000;

/** How many favourites of each kind a demo account keeps at most. */
const PER_USER: Record<FavouriteContentType, number> = {
  anime: 6,
  manga: 4,
  novel: 3,
  character: 4,
  collection: 2,
};

/** The items of each kind a favourite can be of: live, and for collections not private. */
const CANDIDATES: Record<FavouriteContentType, string> = {
  anime: 'select reference from anime where not deleted order by score desc, reference limit 200',
  manga: 'select reference from manga where not deleted order by score desc, reference limit 200',
  novel: 'select reference from novel where not deleted order by score desc, reference limit 200',
  character: `select reference from "character" c where ${liveAppearanceSql('c.reference')} order by reference limit 200`,
  collection: `select reference from "collection" where not deleted and visibility <> 'private' order by reference`,
};

/**
 * Demo favourites, so that profiles' favourites tabs and the title pages' buttons show
 * content: each active account keeps a few of the best-scored titles, characters and
 * others' public collections, added over the last two months, each with its
 * `favourite_add` action. Runs once: nothing happens when favourites exist.
 */
export async function seedDemoFavourites(em: EntityManager, random: SeededRandom): Promise<number> {
  if ((await em.count(Favourite, {})) > 0) return 0;
  const users = await em.find(
    User,
    { role: { $nin: ['deleted', 'not_activated'] }, banned: false },
    { orderBy: { username: 'asc' } },
  );
  const connection = em.getConnection();
  const now = Date.now();
  const rows: { reference: string; user: string; kind: string; content: string; at: string }[] = [];
  for (const [kind, query] of Object.entries(CANDIDATES) as [FavouriteContentType, string][]) {
    const candidates = (await connection.execute<{ reference: string }[]>(query)).map((row) => row.reference);
    for (const user of users) {
      for (const content of random.sample(candidates, random.int(0, PER_USER[kind]))) {
        const at = new Date(now - random.int(1, 60 * 24) * HOUR_MS).toISOString();
        rows.push({ reference: randomUUID(), user: user.reference, kind, content, at });
      }
    }
  }
  if (rows.length === 0) return 0;
  await connection.execute(
    `with added as (
       insert into favourite (reference, user_reference, content_type, content_reference, created)
       select reference, "user", kind, content, at from jsonb_to_recordset(?::jsonb)
         as f(reference uuid, "user" uuid, kind text, content uuid, at timestamptz)
       returning user_reference, content_reference, created
     )
     insert into action_record (type, user_reference, target, created)
     select 'favourite_add', user_reference, content_reference::text, created from added`,
    [JSON.stringify(rows)],
  );
  return rows.length;
}
