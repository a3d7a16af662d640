import type { EntityManager } from '@mikro-orm/postgresql';
import type { TitleContentType } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import type { ErrorCode } from '../common/errors/catalog';
import { Anime } from './anime.entity';
import { Manga } from './manga.entity';
import { Novel } from './novel.entity';

export const TITLE_ENTITIES = { anime: Anime, manga: Manga, novel: Novel } as const;
export type Title = Anime | Manga | Novel;

/**
 * Module look-up (semantics §1.8): the slug is lower-cased first; deleted titles are
 * never found.
 */
export async function findTitleBySlug<K extends TitleContentType>(
  em: EntityManager,
  kind: K,
  slug: string,
  notFound: ErrorCode,
): Promise<InstanceType<(typeof TITLE_ENTITIES)[K]>> {
  return findTitle(em, kind, slug.toLowerCase(), notFound);
}

/** Look-up by content type and slug (semantics §1.8): exact, case-sensitive slug; not deleted. */
export async function findTitle<K extends TitleContentType>(
  em: EntityManager,
  kind: K,
  slug: string,
  notFound: ErrorCode,
): Promise<InstanceType<(typeof TITLE_ENTITIES)[K]>> {
  const entity = TITLE_ENTITIES[kind] as unknown as typeof Anime;
  const title = await em.findOne(entity, { slug, deleted: false });
  if (!title) throw new AppError(notFound);
  return title as unknown as InstanceType<(typeof TITLE_ENTITIES)[K]>;
}

/** A well-scored live manga with authors, for the example URLs `npm start` prints. */
export async function exampleMangaSlug(em: EntityManager): Promise<string | undefined> {
  const [row] = await em.getConnection().execute<{ slug: string }[]>(
    `select m.slug from manga m
      where not m.deleted and exists (select 1 from credit c where c.manga_reference = m.reference)
      order by m.franchise_reference is null, m.score desc, m.reference limit 1`,
  );
  return row?.slug;
}
