import { Arg, Args, Ctx, Field, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { findTitleBySlug, titleSubject } from '../catalog/catalog.service';
import { type ListQuery, listPage } from '../common/pagination/paged-query';
import { type Page, PageArgs, PagedType } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { concatSql, sql, type SqlFragment } from '../db/sql';
import { sqlFields, sqlRoot, sqlRows, sqlValue, type SqlForm } from '../graphql/sql-plan/fields';
import { Credit } from './credit.entity';
import { creditRolesSql } from './credit.resolver';
import { Person } from './person.entity';
import { compareRoles, Role } from './role.entity';

/** The sum of a credit's (SQL: a `credit` row's alias) role weights; null when none has a weight. */
const weightSql = (credit: string): string =>
  `(select sum(r.weight)::int from credit_roles cr join role r on r.reference = cr.role_reference
     where cr.credit_reference = ${credit}.reference)`;

@ObjectType({ description: 'A person on an anime’s staff, with their roles on it.' })
export class StaffEntry {
  @Field(() => Person) person!: Person;

  @Field(() => [Role], { description: 'By weight desc (null weights last), then slug.' })
  roles!: Role[];

  @Field(() => Int, {
    nullable: true,
    description: 'The sum of the roles’ weights; null when no role has one.',
  })
  weight!: number | null;
}

@ObjectType()
export class AnimeStaffPage extends PagedType(StaffEntry) {}

/**
 * An anime's (`anime`: the SQL of its reference) staff credits, by weight desc (nulls
 * last), then the person's English name (C collation, nulls last), then credit reference.
 */
function animeStaffQuery(anime: SqlFragment): ListQuery {
  return {
    reference: 'c.reference',
    from: 'credit c join person p on p.reference = c.person_reference',
    where: concatSql('c.anime_reference = ', anime),
    orderBy: sql(`${weightSql('c')} desc nulls last, p.name_en collate "C" asc nulls last, c.reference asc`),
  };
}

/** The weight of roles as {@link weightSql} computes it. */
function weightOf(roles: readonly Role[]): number | null {
  const weights = roles.flatMap((role) => (role.weight === null ? [] : [role.weight]));
  return weights.length === 0 ? null : weights.reduce((sum, weight) => sum + weight, 0);
}

@Resolver()
export class StaffResolver {
  /** GET /anime/{slug}/staff: no authentication. */
  @Query(() => AnimeStaffPage, {
    description: 'Staff of an anime: by role weight desc (nulls last), then the person’s English name.',
  })
  async animeStaff(
    @Arg('slug', () => String) slug: string,
    @Args(() => PageArgs) args: PageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<Page<StaffEntry>> {
    const anime = await findTitleBySlug(ctx.em, 'anime', slug, 'anime:not_found');
    const page = await listPage(ctx.em, Credit, animeStaffQuery(sql('?', anime.reference)), args, [
      'person',
      'roles',
    ]);
    const list = page.list.map((credit) => {
      const roles = credit.roles.getItems().sort(compareRoles);
      return { person: credit.person, roles, weight: weightOf(roles) };
    });
    return { ...page, list };
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const staffSqlForms: readonly SqlForm[] = [
  // The same page in one SQL statement: an entry is a view of a credit row.
  sqlRoot('animeStaff', {
    kind: 'page',
    item: Credit,
    view: StaffEntry,
    subject: (args) => titleSubject('anime', String(args.slug), 'anime:not_found'),
    query: async (_ctx, _args, anime) => animeStaffQuery(anime),
  }),
  sqlFields(StaffEntry, {
    person: sqlRows((credit, person) => ({
      from: `person ${person}`,
      where: `${person}.reference = ${credit}.person_reference`,
    })),
    roles: creditRolesSql,
    weight: sqlValue(weightSql, 'integer'),
  }),
];
