import type { EntityClass } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TitleContentType } from '../common/enums';
import { AppError } from '../common/errors/app-error';
import { entityColumns, mapEntityRow, statementText } from '../db/entity-rows';
import { sql } from '../db/sql';
import type { SqlSubject } from '../graphql/sql-plan/fields';
import type { ErrorCode } from '../common/errors/catalog';
import { Anime } from './anime.entity';
import type { CatalogTitle } from './catalog-title.entity';
import { Manga } from './manga.entity';
import { Novel } from './novel.entity';

const TITLE_ENTITIES = { anime: Anime, manga: Manga, novel: Novel } as const;

/** The entity of each title kind. */
export interface TitleOf {
  anime: Anime;
  manga: Manga;
  novel: Novel;
}

/**
 * The entity class of a title kind. Queries through it use only the columns every
 * title has (CatalogTitle), which TypeScript cannot see through the union.
 */
export function titleEntity<K extends TitleContentType>(kind: K): EntityClass<TitleOf[K]> {
  return TITLE_ENTITIES[kind] as EntityClass<CatalogTitle> as EntityClass<TitleOf[K]>;
}

/** The slug a module look-up searches for (semantics §1.8): lower-cased first. */
export const moduleSlug = (slug: string): string => slug.toLowerCase();

/** Module look-up (semantics §1.8): see {@link moduleSlug}; deleted titles are never found. */
export function findTitleBySlug<K extends TitleContentType>(
  em: EntityManager,
  kind: K,
  slug: string,
  notFound: ErrorCode,
): Promise<TitleOf[K]> {
  return findTitle(em, kind, moduleSlug(slug), notFound);
}

/** {@link findTitleBySlug} as a list's subject (src/graphql/sql-plan): the title's reference. */
export function titleSubject(kind: TitleContentType, slug: string, notFound: ErrorCode): SqlSubject {
  return exactTitleSubject(kind, moduleSlug(slug), notFound);
}

/** {@link findTitle} as a compiled root's subject: the title's reference. */
export function exactTitleSubject(kind: TitleContentType, slug: string, notFound: ErrorCode): SqlSubject {
  return {
    select: sql(`select reference, null::text as refused from ${kind} where slug = ? and not deleted`, slug),
    notFound,
  };
}

/** Look-up by content type and slug (semantics §1.8): exact, case-sensitive slug; not deleted. */
export async function findTitle<K extends TitleContentType>(
  em: EntityManager,
  kind: K,
  slug: string,
  notFound: ErrorCode,
): Promise<TitleOf[K]> {
  const entity = titleEntity(kind);
  const find = statementText(
    em,
    `catalog:title:${kind}`,
    () => `select ${entityColumns(em, entity, 't')} from "${kind}" t where t.slug = ? and not t.deleted`,
  );
  const [row] = await em.execute<Record<string, unknown>[]>(find, [slug]);
  if (!row) throw new AppError(notFound);
  return mapEntityRow(em, entity, row, 't')!;
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
