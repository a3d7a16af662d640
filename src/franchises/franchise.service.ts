import type { EntityManager } from '@mikro-orm/postgresql';
import { findTitle } from '../catalog/catalog.service';
import type { TitleContentType } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import { sql } from '../db/sql';
import type { SqlSubject } from '../graphql/sql-plan/fields';
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

/** {@link franchiseOf}'s look-up as a compiled root's subject: the title's franchise reference. */
export function franchiseSubject(kind: TitleContentType, slug: string): SqlSubject {
  return {
    select: sql(
      `select franchise_reference as reference,
         case when franchise_reference is null then 'related:no_franchise' end as refused
        from ${kind} where slug = ? and not deleted`,
      slug,
    ),
    notFound: 'related:content_not_found',
  };
}
