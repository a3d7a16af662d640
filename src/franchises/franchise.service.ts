import type { EntityManager } from '@mikro-orm/postgresql';
import { findTitle } from '../catalog/catalog.service';
import type { TitleContentType } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import type { Franchise } from './franchise.entity';

/** #13: the franchise of a title found by content type and exact slug. */
export async function franchiseOf(
  em: EntityManager,
  kind: TitleContentType,
  slug: string,
): Promise<Franchise> {
  const title = await findTitle(em, kind, slug, 'related:content_not_found');
  if (!title.franchise) throw new AppError('related:no_franchise');
  return title.franchise;
}
