import type { EntityManager } from '@mikro-orm/postgresql';
import { Franchise } from '../franchises/franchise.entity';
import { inBatches, type ApplyContext } from './apply-context';
import { pgArray, runSql, updateRows } from './bulk-sql';
import { TITLE_SECTIONS, type TitleSection } from './import-schema';
import { readRecords } from './import-validation';

/** A franchise of the batch and the titles of one kind it lists (undefined: list not given, membership kept). */
interface Listing {
  franchise: string;
  slugs: readonly string[] | undefined;
}

/**
 * Franchises, keyed by `key`. A list that is given replaces the franchise's titles of
 * that kind; a title listed elsewhere moves; franchises left with no titles are removed.
 */
export async function applyFranchises(context: ApplyContext): Promise<void> {
  const { em } = context;
  const counts = context.counts('franchises');
  const createdKeys = new Set<string>();
  const total = context.facts.sections.franchises?.length ?? 0;
  await inBatches(context, 'franchises', total, async (start, end) => {
    const records = readRecords(context.facts, 'franchises', start, end).map(({ record }) => record);
    const stored = await em.find(Franchise, { key: { $in: records.map((record) => record.key) } });
    const byKey = new Map(stored.map((franchise) => [franchise.key, franchise]));
    const franchises = records.map(
      (record) => byKey.get(record.key) ?? createFranchise(em, record.key, createdKeys),
    );
    // New franchises must exist before titles point at them.
    await em.flush();
    const changed = new Set<string>();
    for (const kind of TITLE_SECTIONS) {
      const listings = records.map((record, i) => ({
        franchise: franchises[i].reference,
        slugs: record[kind],
      }));
      await syncMembers(em, kind, listings, changed);
    }
    for (const franchise of franchises) {
      if (createdKeys.has(franchise.key)) counts.created += 1;
      else if (changed.has(franchise.reference)) {
        franchise.updated = context.now;
        counts.updated += 1;
      } else counts.unchanged += 1;
    }
    await em.flush();
    em.clear();
  });
  for (const key of await removeEmptyFranchises(em)) {
    // A franchise created by this import with no titles was never really there.
    if (createdKeys.has(key)) counts.created -= 1;
    else counts.removed += 1;
  }
}

function createFranchise(em: EntityManager, key: string, createdKeys: Set<string>): Franchise {
  const franchise = new Franchise();
  franchise.key = key;
  em.persist(franchise);
  createdKeys.add(key);
  return franchise;
}

/**
 * Points the listed titles of one kind at their franchise and detaches the titles a
 * given list no longer holds. Adds every franchise whose membership changes to `changed`.
 */
async function syncMembers(
  em: EntityManager,
  kind: TitleSection,
  listings: readonly Listing[],
  changed: Set<string>,
): Promise<void> {
  const given = listings.filter((listing) => listing.slugs !== undefined);
  if (given.length === 0) return;
  const wanted = new Map<string, string>();
  for (const listing of given) for (const slug of listing.slugs ?? []) wanted.set(slug, listing.franchise);
  const members = await runSql<{ reference: string; slug: string; franchise: string }>(
    em,
    `select reference, slug, franchise_reference as franchise from "${kind}" where franchise_reference = any(?::uuid[])`,
    [pgArray(given.map((listing) => listing.franchise))],
  );
  const detached = members.filter((member) => !wanted.has(member.slug));
  detached.forEach((member) => changed.add(member.franchise));
  const listed = await runSql<{ reference: string; slug: string; franchise: string | null }>(
    em,
    `select reference, slug, franchise_reference as franchise from "${kind}" where slug = any(?::text[])`,
    [pgArray(wanted.keys())],
  );
  const moves = listed.flatMap((title) => {
    const target = wanted.get(title.slug);
    return target !== undefined && target !== title.franchise ? [{ title, target }] : [];
  });
  for (const { title, target } of moves) {
    changed.add(target);
    if (title.franchise !== null) changed.add(title.franchise);
  }
  if (detached.length > 0) {
    await runSql(em, `update "${kind}" set franchise_reference = null where reference = any(?::uuid[])`, [
      pgArray(detached.map((member) => member.reference)),
    ]);
  }
  await updateRows(
    em,
    kind,
    { reference: 'uuid', franchise_reference: 'uuid' },
    moves.map(({ title, target }) => ({ reference: title.reference, franchise_reference: target })),
  );
}

/** Deletes every franchise without titles; returns their keys. */
async function removeEmptyFranchises(em: EntityManager): Promise<string[]> {
  const rows = await runSql<{ key: string }>(
    em,
    `delete from franchise f
     where not exists (select 1 from anime t where t.franchise_reference = f.reference)
       and not exists (select 1 from manga t where t.franchise_reference = f.reference)
       and not exists (select 1 from novel t where t.franchise_reference = f.reference)
     returning key`,
    [],
  );
  return rows.map((row) => row.key);
}
