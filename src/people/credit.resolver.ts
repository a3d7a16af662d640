import { FieldResolver, Resolver, Root } from 'type-graphql';
import { Credit } from './credit.entity';
import { Person } from './person.entity';
import { compareRoles, Role } from './role.entity';

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
