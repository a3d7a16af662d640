import { FieldResolver, Resolver, Root } from 'type-graphql';
import { sqlFields, sqlRelation, sqlRows, type SqlForm } from '../graphql/sql-plan/fields';
import { Credit } from './credit.entity';
import { Person } from './person.entity';
import { compareRoles, Role } from './role.entity';

/** A credit's roles in SQL (a row of `credit` bound), in {@link compareRoles} order. */
export const creditRolesSql = sqlRows((credit, role) => ({
  from: `credit_roles ${role}_j join role ${role} on ${role}.reference = ${role}_j.role_reference`,
  where: `${role}_j.credit_reference = ${credit}.reference`,
  orderBy: `${role}.weight desc nulls last, ${role}.slug collate "C"`,
}));

/** Credits are loaded with their roles and person populated (see credit.loaders.ts). */
@Resolver(() => Credit)
export class CreditResolver {
  @FieldResolver(() => [Role], { description: 'By weight desc (null weights last), then slug.' })
  roles(@Root() credit: Credit): Role[] {
    return credit.roles.getItems().sort(compareRoles);
  }

  @FieldResolver(() => Person)
  person(@Root() credit: Credit): Person {
    return credit.person;
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const creditSqlForms: readonly SqlForm[] = [
  // The same rows and order in SQL (src/graphql/sql-plan).
  sqlFields(Credit, { roles: creditRolesSql, person: sqlRelation }),
];
