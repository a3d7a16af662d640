import { Field, ObjectType, Query, Resolver, Ctx } from 'type-graphql';
import { compareSlugs } from '../common/sorting';
import type { RequestContext } from '../context';
import { sqlFields, sqlRoot, sqlRows, sqlRowType, type SqlForm } from '../graphql/sql-plan/fields';
import { Genre } from './genre.entity';

/** GET /genres: `{list}` (pages.md "Catalogs"). */
@ObjectType()
export class GenreList {
  @Field(() => [Genre], { description: 'Every genre, by Ukrainian name (none last), then slug.' })
  list!: Genre[];
}

/** The order of the genre list: `name_ua` in the "C" collation, nulls last, then slug. */
const GENRE_ORDER = (genre: string) => `${genre}.name_ua collate "C" nulls last, ${genre}.slug collate "C"`;

@Resolver()
export class GenresResolver {
  @Query(() => GenreList, { description: 'GET /genres: every genre, theme, demographic and explicit genre.' })
  async genres(@Ctx() ctx: RequestContext): Promise<GenreList> {
    return { list: (await ctx.em.find(Genre, {})).sort(byGenreOrder) };
  }
}

/** {@link GENRE_ORDER} in JavaScript: code-point order, as the "C" collation sorts. */
function byGenreOrder(a: Genre, b: Genre): number {
  if (a.name_ua === b.name_ua) return compareSlugs(a.slug, b.slug);
  if (a.name_ua === null) return 1;
  if (b.name_ua === null) return -1;
  return compareSlugs(a.name_ua, b.name_ua);
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const genresSqlForms: readonly SqlForm[] = [
  sqlRowType(GenreList),
  sqlRoot('genres', { kind: 'one', type: GenreList, rows: (list) => ({ from: `(select 1) ${list}` }) }),
  sqlFields(GenreList, {
    list: sqlRows((_list, genre) => ({ from: `genre ${genre}`, orderBy: GENRE_ORDER(genre) })),
  }),
];
