import { Arg, Ctx, Field, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { ActionType } from '../common/enums';
import type { RequestContext } from '../context';
import { sqlRoot, sqlRowType, type SqlForm } from '../graphql/sql-plan/fields';
import { findUserByUsername, userSubject } from './users.service';

/** One UTC day of a user's activity (pages.md ActivityDay). */
@ObjectType()
export class ActivityDay {
  @Field(() => Int, { description: 'The day’s start, 00:00 UTC, in Unix seconds.' })
  timestamp!: number;

  @Field(() => Int, { description: 'The actions that day.' })
  actions!: number;
}

/** Actions that count each time. */
const COUNTED: readonly ActionType[] = [
  'comment_write',
  'watch_create',
  'watch_update',
  'read_create',
  'read_update',
  'collection_create',
  'article_create',
];
/** Actions that count once per distinct target a day. */
const COUNTED_ONCE_PER_TARGET: readonly ActionType[] = ['follow', 'favourite_add'];

const listed = (types: readonly string[]) => types.map((type) => `'${type}'`).join(', ');

/**
 * A user's (`user`: SQL of the reference) activity over the 365 UTC days ending on the
 * day of `now` (SQL), oldest first, every day of them, or no day at all when none has an
 * action. Counted live from the action records (pages.md "User profile").
 */
const activitySql = (user: string, now: string): string =>
  `with window_days as (
     select generate_series(date_trunc('day', ${now} at time zone 'UTC') - interval '364 days',
                            date_trunc('day', ${now} at time zone 'UTC'), interval '1 day') as day
   ),
   counted as (
     select date_trunc('day', a.created at time zone 'UTC') as day,
            (count(*) filter (where a.type in (${listed(COUNTED)}))
              + ${COUNTED_ONCE_PER_TARGET.map((type) => `count(distinct a.target) filter (where a.type = '${type}')`).join(' + ')})::int as actions
       from action_record a
      where a.user_reference = ${user}
        and a.type in (${listed([...COUNTED, ...COUNTED_ONCE_PER_TARGET])})
        and a.created >= (date_trunc('day', ${now} at time zone 'UTC') - interval '364 days') at time zone 'UTC'
        and a.created < (date_trunc('day', ${now} at time zone 'UTC') + interval '1 day') at time zone 'UTC'
      group by 1
   )
   select extract(epoch from w.day at time zone 'UTC')::int as timestamp, coalesce(c.actions, 0) as actions
     from window_days w left join counted c on c.day = w.day
    where exists (select 1 from counted)`;

@Resolver()
export class ActivityResolver {
  @Query(() => [ActivityDay], {
    description:
      "GET /user/{username}/activity: a user's actions per UTC day over the last 365 days, oldest first ([] when none).",
  })
  async userActivity(
    @Arg('username', () => String) username: string,
    @Ctx() ctx: RequestContext,
  ): Promise<ActivityDay[]> {
    const user = await findUserByUsername(ctx.em, username);
    return ctx.em.execute<ActivityDay[]>(
      `select d.timestamp, d.actions from (select ?::uuid as "user", ?::timestamptz as now) p
         cross join lateral (${activitySql('p."user"', 'p.now')}) d order by d.timestamp`,
      [user.reference, ctx.now],
    );
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const activitySqlForms: readonly SqlForm[] = [
  sqlRowType(ActivityDay),
  sqlRoot('userActivity', {
    kind: 'list',
    type: ActivityDay,
    subject: (args) => userSubject(String(args.username)),
    rows: (day, _args, user, _table, { now }) => ({
      from: `(${activitySql(user, now)}) ${day}`,
      orderBy: `${day}.timestamp`,
    }),
  }),
];
