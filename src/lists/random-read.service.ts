import type { EntityManager } from '@mikro-orm/postgresql';
import type { User } from '../accounts/user.entity';
import { findUserByUsername } from '../accounts/users.service';
import type { Manga } from '../catalog/manga.entity';
import type { Novel } from '../catalog/novel.entity';
import type { ReadContentType, ReadStatus } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import { ReadEntry } from './read-entry.entity';

/** Attempts before giving up when entries vanish between counting and picking. */
const PICK_ATTEMPTS = 3;

/**
 * The user's entries of one kind and status whose title is live. The title is joined
 * as `t`, and selected too when `withTitle`.
 */
function candidates(
  em: EntityManager,
  user: User,
  kind: ReadContentType,
  status: ReadStatus,
  withTitle: boolean,
) {
  const qb = em.createQueryBuilder(ReadEntry, 'r');
  if (withTitle) qb.select('r.*').joinAndSelect(`r.${kind}`, 't');
  else qb.join(`r.${kind}`, 't');
  return qb.where({ user, content_type: kind, status, 't.deleted': false });
}

/**
 * #18: one of the user's read entries of that kind and status, with a live title,
 * picked uniformly at random: count the candidates, then fetch the one at a random
 * offset in reference order. Memory stays constant however long the list is.
 */
export async function randomReadTitle(
  em: EntityManager,
  username: string,
  kind: ReadContentType,
  status: ReadStatus,
): Promise<Manga | Novel> {
  const user = await findUserByUsername(em, username);
  for (let attempt = 0; attempt < PICK_ATTEMPTS; attempt += 1) {
    const count = await candidates(em, user, kind, status, false).getCount();
    if (count === 0) break;
    const [entry] = await candidates(em, user, kind, status, true)
      .orderBy({ reference: 'asc' })
      .offset(Math.floor(Math.random() * count))
      .limit(1)
      .getResultList();
    const title = entry?.[kind];
    if (title) return title;
    // The list shrank between counting and picking: count again.
  }
  throw new AppError('read:empty_random');
}
