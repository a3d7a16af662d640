import type { EntityManager } from '@mikro-orm/postgresql';
import { recordAction } from '../accounts/actions';
import { User } from '../accounts/user.entity';
import { findTitle } from '../catalog/catalog.service';
import type { Manga } from '../catalog/manga.entity';
import type { Novel } from '../catalog/novel.entity';
import { requireScopes, type Viewer } from '../common/auth/session';
import type { ReadContentType } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import { moveNativeScore } from './native-score.service';
import { ReadEntry } from './read-entry.entity';
import type { ReadEntryInput } from './read.types';
import { applyListEntryInput, entryState, touchLists } from './list-entry.service';

const READ_FIELDS = [
  'status',
  'note',
  'chapters',
  'volumes',
  'rereads',
  'score',
  'start_date',
  'end_date',
] as const;

/** Look-up by content type and exact slug (§1.8), not deleted. */
const findContent = (em: EntityManager, kind: ReadContentType, slug: string): Promise<Manga | Novel> =>
  findTitle(em, kind, slug, 'read:content_not_found');

function findOwnEntry(
  em: EntityManager,
  viewer: Viewer,
  kind: ReadContentType,
  title: Manga | Novel,
): Promise<ReadEntry | null> {
  return em.findOne(ReadEntry, { user: viewer.user.reference, [kind]: title.reference });
}

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
    const title = await findContent(tx, kind, slug);
    requireScopes(viewer, ['update:readlist']);

    const at = new Date();
    await touchLists(tx, viewer, at);
    const existing = await findOwnEntry(tx, viewer, kind, title);
    const entry =
      existing ??
      tx.create(ReadEntry, {
        user: tx.getReference(User, viewer.user.reference),
        content_type: kind,
        manga: kind === 'manga' ? (title as Manga) : null,
        novel: kind === 'novel' ? (title as Novel) : null,
        status: input.status,
        chapters: 0,
        volumes: 0,
        rereads: 0,
        score: 0,
        created: at,
        updated: at,
      });
    const before = existing ? entryState(existing, READ_FIELDS) : null;
    const previousScore = existing?.score ?? 0;

    entry.status = input.status;
    entry.chapters = input.chapters ?? 0;
    entry.volumes = input.volumes ?? 0;
    entry.rereads = input.rereads ?? 0;
    applyListEntryInput(entry, input, {
      created: !existing,
      completed: input.status === 'completed',
      at,
    });

    if (await moveNativeScore(tx, kind, title.reference, previousScore, entry.score)) {
      await tx.refresh(title);
    }
    if (!existing) recordAction(tx, viewer.user, 'read_create', title.reference);
    else if (before !== entryState(entry, READ_FIELDS)) {
      recordAction(tx, viewer.user, 'read_update', title.reference);
    }
    return entry;
  });
}

/** GET /read/{content_type}/{slug}: the caller's entry for the title. */
export async function getReadEntry(
  em: EntityManager,
  viewer: Viewer,
  kind: ReadContentType,
  slug: string,
): Promise<ReadEntry> {
  const title = await findContent(em, kind, slug);
  const entry = await findOwnEntry(em, viewer, kind, title);
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
    const title = await findContent(tx, kind, slug);
    await touchLists(tx, viewer, new Date());
    const entry = await findOwnEntry(tx, viewer, kind, title);
    if (!entry) throw new AppError('read:not_found');
    requireScopes(viewer, ['update:readlist']);
    await moveNativeScore(tx, kind, title.reference, entry.score, 0);
    tx.remove(entry);
    recordAction(tx, viewer.user, 'read_delete', title.reference);
  });
}
