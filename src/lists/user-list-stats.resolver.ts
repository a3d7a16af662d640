import { Arg, Ctx, Field, Int, ObjectType, Query, Resolver } from 'type-graphql';
import { findUserByUsername, userSubject } from '../accounts/users.service';
import { READ_STATUSES, type ReadContentType, WATCH_STATUSES } from '../common/enums';
import type { RequestContext } from '../context';
import { sqlRoot, sqlRowType, type SqlForm } from '../graphql/sql-plan/fields';
import { ReadContentTypeEnum } from './read.types';

/** A user's watch list in figures (pages.md WatchStats): minutes watched and entries by status. */
@ObjectType()
export class WatchStats {
  @Field(() => Int, { description: 'Minutes watched: the sum of the entries’ durations.' })
  duration = 0;

  @Field(() => Int) completed = 0;
  @Field(() => Int) watching = 0;
  @Field(() => Int) planned = 0;
  @Field(() => Int) on_hold = 0;
  @Field(() => Int) dropped = 0;
}

/** A user's manga or novel list in figures (pages.md ReadStats): entries by status. */
@ObjectType()
export class ReadStats {
  @Field(() => Int) completed = 0;
  @Field(() => Int) reading = 0;
  @Field(() => Int) planned = 0;
  @Field(() => Int) on_hold = 0;
  @Field(() => Int) dropped = 0;
}

const countsByStatus = (statuses: readonly string[]): string[] =>
  statuses.map((status) => `count(*) filter (where e.status = '${status}')::int as ${status}`);

/**
 * The figures of a user's (`user`: SQL of the reference) watch list, counted from its
 * entries whose anime is not deleted, so they never drift from the list.
 */
const watchStatsSql = (user: string): string =>
  `select coalesce(sum(e.duration), 0)::int as duration, ${countsByStatus(WATCH_STATUSES).join(', ')}
     from watch_entry e join anime t on t.reference = e.anime_reference
    where e.user_reference = ${user} and not t.deleted`;

/**
 * The figures of a user's read list of one kind (`kind`: its SQL, a placeholder or a
 * literal), counted as {@link watchStatsSql} counts.
 */
const readStatsSql = (kind: string, user: string): string =>
  `select ${countsByStatus(READ_STATUSES).join(', ')}
     from read_entry e
     left join manga m on m.reference = e.manga_reference
     left join novel n on n.reference = e.novel_reference
    where e.user_reference = ${user} and e.content_type = ${kind} and not coalesce(m.deleted, n.deleted)`;

/** The profile's list figures (pages.md "User profile"): no authentication, a user look-up. */
@Resolver()
export class UserListStatsResolver {
  @Query(() => WatchStats, { description: "GET /watch/{username}/stats: a user's watch list in figures." })
  async watchStats(
    @Arg('username', () => String) username: string,
    @Ctx() ctx: RequestContext,
  ): Promise<WatchStats> {
    const user = await findUserByUsername(ctx.em, username);
    const [row] = await ctx.em.execute<WatchStats[]>(watchStatsSql('?'), [user.reference]);
    return row;
  }

  @Query(() => ReadStats, {
    description: "GET /read/{content_type}/{username}/stats: a user's manga or novel list in figures.",
  })
  async readStats(
    @Arg('content_type', () => ReadContentTypeEnum) kind: ReadContentType,
    @Arg('username', () => String) username: string,
    @Ctx() ctx: RequestContext,
  ): Promise<ReadStats> {
    const user = await findUserByUsername(ctx.em, username);
    const [row] = await ctx.em.execute<ReadStats[]>(readStatsSql('?', '?'), [user.reference, kind]);
    return row;
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const userListStatsSqlForms: readonly SqlForm[] = [
  sqlRowType(WatchStats),
  sqlRowType(ReadStats),
  sqlRoot('watchStats', {
    kind: 'one',
    type: WatchStats,
    subject: (args) => userSubject(String(args.username)),
    rows: (stats, _args, user) => ({ from: `(${watchStatsSql(user)}) ${stats}` }),
  }),
  sqlRoot('readStats', {
    kind: 'one',
    type: { argument: 'content_type', items: { manga: ReadStats, novel: ReadStats } },
    subject: (args) => userSubject(String(args.username)),
    rows: (stats, args, user) => ({ from: `(${readStatsSql(args.content_type, user)}) ${stats}` }),
  }),
];
