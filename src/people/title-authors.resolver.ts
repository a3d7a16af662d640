import { Ctx, FieldResolver, Resolver, Root, type ClassType } from 'type-graphql';
import type { ReadableTitle } from '../catalog/readable-title.entity';
import { Manga } from '../catalog/manga.entity';
import { Novel } from '../catalog/novel.entity';
import type { ReadContentType } from '../common/enums';
import type { RequestContext } from '../context';
import { type SqlForm, sqlFields, sqlRows } from '../graphql/sql-plan/fields';
import { Credit } from './credit.entity';
import { compareCredits, creditsOfTitle } from './credit.loaders';

/** The people credited on a manga or novel: the people domain adds `authors` to the catalog's titles. */
function TitleAuthorsResolver<T extends ReadableTitle>(Title: ClassType<T>, kind: ReadContentType) {
  @Resolver(() => Title)
  class AuthorsResolver {
    @FieldResolver(() => [Credit], {
      description: 'By highest role weight desc (null weights last), then person slug.',
    })
    async authors(@Root() title: T, @Ctx() ctx: RequestContext): Promise<Credit[]> {
      return (await creditsOfTitle(ctx, kind).load(title.reference)).sort(compareCredits);
    }
  }
  return AuthorsResolver;
}

export const MangaAuthorsResolver = TitleAuthorsResolver(Manga, 'manga');
export const NovelAuthorsResolver = TitleAuthorsResolver(Novel, 'novel');

/** `authors` of a title of `kind` in SQL, in {@link compareCredits} order: the highest role weight (nulls last), then the person's slug. */
const authorsSql = (kind: ReadContentType) =>
  sqlRows((title, credit) => ({
    from: `credit ${credit}`,
    where: `${credit}.${kind}_reference = ${title}.reference`,
    orderBy: `(select max(r.weight) from credit_roles cr join role r on r.reference = cr.role_reference
        where cr.credit_reference = ${credit}.reference) desc nulls last,
      (select p.slug from person p where p.reference = ${credit}.person_reference) collate "C"`,
  }));

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const titleAuthorsSqlForms: readonly SqlForm[] = [
  sqlFields(Manga, { authors: authorsSql('manga') }),
  sqlFields(Novel, { authors: authorsSql('novel') }),
];
