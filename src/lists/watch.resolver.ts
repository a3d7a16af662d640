import { Arg, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import { UnixTime } from '../common/scalars';
import { titleSubject } from '../catalog/catalog.service';
import type { RequestContext } from '../context';
import { sqlFields, sqlRoot, sqlValue, type SqlForm } from '../graphql/sql-plan/fields';
import { WatchEntry } from './watch-entry.entity';
import { deleteWatchEntry, getWatchEntry, saveWatchEntry } from './watch.service';
import { DeleteResult } from '../common/delete-result';
import { WatchEntryInput } from './watch.types';

/**
 * The caller's watch entries (§3.3). `@Authorized()` authenticates before the input
 * is checked, as the REST door does; scopes are checked after the look-ups.
 */
@Resolver(() => WatchEntry)
export class WatchResolver {
  @Authorized()
  @Mutation(() => WatchEntry, {
    description: "PUT /watch/{slug}: creates or replaces the caller's entry (scope update:watchlist).",
  })
  async saveWatchEntry(
    @Arg('slug', () => String) slug: string,
    @Arg('input', () => WatchEntryInput) input: WatchEntryInput,
    @Ctx() ctx: RequestContext,
  ): Promise<WatchEntry> {
    return saveWatchEntry(ctx.em, await ctx.auth.required(), slug, input);
  }

  @Authorized()
  @Query(() => WatchEntry, {
    description: "GET /watch/{slug}: the caller's entry for the anime (scope read:watchlist).",
  })
  async watchEntry(@Arg('slug', () => String) slug: string, @Ctx() ctx: RequestContext): Promise<WatchEntry> {
    return getWatchEntry(ctx.em, await ctx.auth.required(), slug);
  }

  @Authorized()
  @Mutation(() => DeleteResult, {
    description: "DELETE /watch/{slug}: removes the caller's entry (scope update:watchlist).",
  })
  async deleteWatchEntry(
    @Arg('slug', () => String) slug: string,
    @Ctx() ctx: RequestContext,
  ): Promise<DeleteResult> {
    await deleteWatchEntry(ctx.em, await ctx.auth.required(), slug);
    return new DeleteResult();
  }

  // GraphQL-only extras (semantics §0.3): the contract's WatchEntry has no dates.
  @FieldResolver(() => UnixTime, { nullable: true })
  start_date(@Root() entry: WatchEntry): Date | null {
    return entry.start_date;
  }

  @FieldResolver(() => UnixTime, { nullable: true })
  end_date(@Root() entry: WatchEntry): Date | null {
    return entry.end_date;
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const watchSqlForms: readonly SqlForm[] = [
  // GET /watch/{slug} in one SQL statement (src/graphql/sql-plan), checked in the service's order.
  sqlRoot('watchEntry', {
    kind: 'one',
    type: WatchEntry,
    authentication: 'required',
    subject: (args) => titleSubject('anime', String(args.slug), 'anime:not_found'),
    rows: (entry, _args, anime, table, { viewer }) => ({
      from: `${table} ${entry}`,
      where: `${entry}.anime_reference = ${anime} and ${entry}.user_reference = ${viewer}`,
    }),
    notFound: 'watch:not_found',
    scopes: ['read:watchlist'],
  }),
  sqlFields(WatchEntry, {
    start_date: sqlValue((entry) => `${entry}.start_date`),
    end_date: sqlValue((entry) => `${entry}.end_date`),
  }),
];
