import type { EntityManager } from '@mikro-orm/postgresql';
import { findTitle } from '../catalog/catalog.service';
import type { Manga } from '../catalog/manga.entity';
import type { Novel } from '../catalog/novel.entity';
import { requireScopes, type Viewer } from '../accounts/session';
import type { ReadContentType } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import { ReadEntry } from './read-entry.entity';
import type { ReadEntryInput } from './read.types';
import {
  deleteListEntry,
  type ListEntryKind,
  listEntryValues,
  lockListsAndFind,
  writeListEntry,
} from './list-entry.service';

const readKind = <K extends ReadContentType>(title: K): ListEntryKind<ReadEntry, K> => ({
  entity: ReadEntry,
  table: 'read_entry',
  title,
  titleColumn: `${title}_reference`,
  fields: ['status', 'note', 'chapters', 'volumes', 'rereads', 'score', 'start_date', 'end_date'],
  notFound: 'read:content_not_found',
  actions: { create: 'read_create', update: 'read_update', delete: 'read_delete' },
});
const READ = { manga: readKind('manga'), novel: readKind('novel') };

/**
 * PUT /read/{content_type}/{slug}: creates or replaces the caller's entry, with the
 * native score, the user's list time and the action record in one transaction.
 * Manga stats (§6.2) are counted from the entries when read, so they follow at once.
 */
export function saveReadEntry(
  em: EntityManager,
  viewer: Viewer,
  kind: ReadContentType,
  slug: string,
  input: ReadEntryInput,
): Promise<ReadEntry> {
  return em.transactional(async (tx) => {
    const at = new Date();
    const { title, entry: existing } = await lockListsAndFind(tx, viewer, READ[kind], slug, at);
    requireScopes(viewer, ['update:readlist']);
    return writeListEntry(tx, viewer, READ[kind], title, existing, {
      chapters: input.chapters ?? 0,
      volumes: input.volumes ?? 0,
      rereads: input.rereads ?? 0,
      ...listEntryValues(existing, input, at),
      ...(existing ? {} : { content_type: kind }),
    });
  });
}

/** GET /read/{content_type}/{slug}: the caller's entry for the title. */
export async function getReadEntry(
  em: EntityManager,
  viewer: Viewer,
  kind: ReadContentType,
  slug: string,
): Promise<ReadEntry> {
  const title: Manga | Novel = await findTitle(em, kind, slug, 'read:content_not_found');
  const entry = await em.findOne(ReadEntry, { user: viewer.user.reference, [kind]: title.reference });
  if (!entry) throw new AppError('read:not_found');
  requireScopes(viewer, ['read:readlist']);
  return entry;
}

/** DELETE /read/{content_type}/{slug}: removes the caller's entry and its share of the native score. */
export function deleteReadEntry(
  em: EntityManager,
  viewer: Viewer,
  kind: ReadContentType,
  slug: string,
): Promise<void> {
  return em.transactional(async (tx) => {
    const { title, entry } = await lockListsAndFind(tx, viewer, READ[kind], slug, new Date());
    if (!entry) throw new AppError('read:not_found');
    requireScopes(viewer, ['update:readlist']);
    await deleteListEntry(tx, viewer, READ[kind], title, entry);
  });
}
