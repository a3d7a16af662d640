import { Arg, Authorized, Ctx, FieldResolver, Mutation, Query, Resolver, Root } from 'type-graphql';
import type { ReadContentType } from '../common/enums';
import { UnixTime } from '../common/scalars';
import { exactTitleSubject } from '../catalog/catalog.service';
import type { RequestContext } from '../context';
import { sqlFields, sqlRoot, sqlValue, type SqlForm } from '../graphql/sql-plan/fields';
import { ReadEntry } from './read-entry.entity';
import { deleteReadEntry, getReadEntry, saveReadEntry } from './read.service';
import { ReadContentTypeEnum, ReadEntryInput } from './read.types';
import { DeleteResult } from '../common/delete-result';

/**
 * The caller's read entries (§3.4). `@Authorized()` authenticates before the input
 * is checked, as the REST door does; scopes are checked after the look-ups.
 */
@Resolver(() => ReadEntry)
export class ReadResolver {
  @Authorized()
  @Mutation(() => ReadEntry, {
    description:
      "PUT /read/{content_type}/{slug}: creates or replaces the caller's entry (scope update:readlist).",
  })
  async saveReadEntry(
    @Arg('content_type', () => ReadContentTypeEnum) contentType: ReadContentType,
    @Arg('slug', () => String) slug: string,
    @Arg('input', () => ReadEntryInput) input: ReadEntryInput,
    @Ctx() ctx: RequestContext,
  ): Promise<ReadEntry> {
    return saveReadEntry(ctx.em, await ctx.auth.required(), contentType, slug, input);
  }

  @Authorized()
  @Query(() => ReadEntry, {
    description: "GET /read/{content_type}/{slug}: the caller's entry for the title (scope read:readlist).",
  })
  async readEntry(
    @Arg('content_type', () => ReadContentTypeEnum) contentType: ReadContentType,
    @Arg('slug', () => String) slug: string,
    @Ctx() ctx: RequestContext,
  ): Promise<ReadEntry> {
    return getReadEntry(ctx.em, await ctx.auth.required(), contentType, slug);
  }

  @Authorized()
  @Mutation(() => DeleteResult, {
    description: "DELETE /read/{content_type}/{slug}: removes the caller's entry (scope update:readlist).",
  })
  async deleteReadEntry(
    @Arg('content_type', () => ReadContentTypeEnum) contentType: ReadContentType,
    @Arg('slug', () => String) slug: string,
    @Ctx() ctx: RequestContext,
  ): Promise<DeleteResult> {
    await deleteReadEntry(ctx.em, await ctx.auth.required(), contentType, slug);
    return new DeleteResult();
  }

  // GraphQL-only extras (semantics §0.3): the contract's ReadEntry has no dates.
  @FieldResolver(() => UnixTime, { nullable: true })
  start_date(@Root() entry: ReadEntry): Date | null {
    return entry.start_date;
  }

  @FieldResolver(() => UnixTime, { nullable: true })
  end_date(@Root() entry: ReadEntry): Date | null {
    return entry.end_date;
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const readSqlForms: readonly SqlForm[] = [
  // GET /read/{content_type}/{slug} in one SQL statement (src/graphql/sql-plan), checked in the service's order.
  sqlRoot('readEntry', {
    kind: 'one',
    type: ReadEntry,
    authentication: 'required',
    subject: (args) =>
      exactTitleSubject(args.content_type as ReadContentType, String(args.slug), 'read:content_not_found'),
    rows: (entry, _args, title, table, { viewer }) => ({
      from: `${table} ${entry}`,
      where: `${entry}.user_reference = ${viewer}
      and (${entry}.manga_reference = ${title} or ${entry}.novel_reference = ${title})`,
    }),
    notFound: 'read:not_found',
    scopes: ['read:readlist'],
  }),
  sqlFields(ReadEntry, {
    start_date: sqlValue((entry) => `${entry}.start_date`),
    end_date: sqlValue((entry) => `${entry}.end_date`),
  }),
];
