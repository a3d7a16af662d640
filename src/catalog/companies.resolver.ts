import { Arg, Args, Ctx, Field, InputType, ObjectType, Query, Resolver } from 'type-graphql';
import { COMPANY_ROLES, type CompanyRole } from '../common/enums';
import { type ListQuery, listPage } from '../common/pagination/paged-query';
import { PageArgs, PagedType } from '../common/pagination/pagination';
import { CompanyRoleEnum } from '../common/scalars';
import { textMatchCondition, textMatchRank } from '../common/text-match';
import { registerInputSpec } from '../common/validation/input-specs';
import { nullableEnumValue, nullableText } from '../common/validation/schemas';
import type { RequestContext } from '../context';
import { concatSql, joinSql, sql } from '../db/sql';
import { sqlRoot, type SqlForm } from '../graphql/sql-plan/fields';
import { Company } from './company.entity';

/** The body of POST /companies (pages.md "Catalogs"). */
@InputType('CompanySearchInput', { description: 'A name query and the role companies must have.' })
export class CompanySearchInput {
  @Field(() => String, { nullable: true, description: 'Typo-tolerant name search, 2..255 characters.' })
  query?: string | null;

  @Field(() => CompanyRoleEnum, {
    nullable: true,
    description: 'Only companies that are this to at least one anime (deleted anime not counted).',
  })
  type?: CompanyRole | null;
}

export const COMPANY_SEARCH_SPEC = registerInputSpec(CompanySearchInput, {
  properties: { query: nullableText(2, 255), type: nullableEnumValue(COMPANY_ROLES) },
});

@ObjectType()
export class CompanyPage extends PagedType(Company) {}

/**
 * Companies with the number of live anime linked to each (in the role asked for, else in
 * any): those with a role keep only companies that have it at least once; with a name
 * query, by match rank, then reference desc; otherwise by that number desc, then slug.
 */
export function companySearchQuery(input: CompanySearchInput): ListQuery {
  const role = input.type ? sql(' and l.role = ?', input.type) : sql('');
  const linked = concatSql(
    `left join lateral (select count(distinct l.anime_reference)::int as anime from anime_company l
       join anime a on a.reference = l.anime_reference where l.company_reference = c.reference and not a.deleted`,
    role,
    ') k on true',
  );
  const searched = { texts: ['c.name'] };
  const { query } = input;
  return {
    reference: 'c.reference',
    from: 'company c',
    join: linked,
    where: joinSql([
      ...(query ? [textMatchCondition(searched, query)] : []),
      ...(input.type ? [sql('k.anime > 0')] : []),
    ]),
    orderBy: query
      ? concatSql(textMatchRank(searched, query), ' desc, c.reference desc')
      : sql('k.anime desc, c.slug collate "C"'),
  };
}

@Resolver()
export class CompaniesResolver {
  @Query(() => CompanyPage, {
    description: 'POST /companies: studios and producers, by name or by how many anime.',
  })
  companies(
    @Args(() => PageArgs) page: PageArgs,
    @Arg('input', () => CompanySearchInput, { nullable: true }) input: CompanySearchInput | null | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<CompanyPage> {
    return listPage(ctx.em, Company, companySearchQuery(input ?? {}), page);
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const companiesSqlForms: readonly SqlForm[] = [
  sqlRoot('companies', {
    kind: 'page',
    item: Company,
    query: async (_ctx, args) => companySearchQuery((args.input ?? {}) as CompanySearchInput),
  }),
];
