import { Arg, Ctx, Field, InputType, Query, Resolver } from 'type-graphql';
import { textMatchCondition, textMatchRank } from '../common/text-match';
import { registerInputSpec } from '../common/validation/input-specs';
import type { RequestContext } from '../context';
import { entityColumns, mapEntityRow } from '../db/entity-rows';
import { User } from './user.entity';

/** The body of POST /user/list (pages.md "Catalogs"). */
@InputType('UserSearchInput', { description: 'A username query.' })
export class UserSearchInput {
  @Field(() => String, { description: 'Part of a username, or close to one: 3..255 characters.' })
  query!: string;
}

export const USER_SEARCH_SPEC = registerInputSpec(UserSearchInput, {
  properties: { query: { type: 'string', minLength: 3, maxLength: 255 } },
  required: ['query'],
});

/** How many users a search answers. */
const FOUND = 15;

@Resolver()
export class UserSearchResolver {
  /**
   * POST /user/list: no authentication. The best username matches (substring or trigram
   * word similarity, ignoring case), deleted and banned accounts left out, shown by last
   * activity, then username. One statement; not compiled (its input is an object).
   */
  @Query(() => [User], {
    description: `POST /user/list: up to ${FOUND} users whose username matches, the most recently active first.`,
  })
  async users(
    @Arg('input', () => UserSearchInput) input: UserSearchInput,
    @Ctx() ctx: RequestContext,
  ): Promise<User[]> {
    const searched = { texts: ['u.username'] };
    const condition = textMatchCondition(searched, input.query);
    const rank = textMatchRank(searched, input.query);
    const rows = await ctx.em.execute<Record<string, unknown>[]>(
      `select ${entityColumns(ctx.em, User, 'f')} from (
         select u.* from "user" u
          where u.role <> 'deleted' and not u.banned and (${condition.sql})
          order by ${rank.sql} desc, u.username collate "C" limit ${FOUND}
       ) f order by f.last_active desc, f.username collate "C"`,
      [...condition.params, ...rank.params],
    );
    return rows.map((row) => mapEntityRow(ctx.em, User, row, 'f')!);
  }
}
