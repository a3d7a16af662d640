import { Arg, Args, Ctx, ObjectType, Query, Resolver } from 'type-graphql';
import type { ReadContentType } from '../common/enums';
import { PageArgs, PagedType } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { sqlRoot, type SqlForm } from '../graphql/sql-plan/fields';
import { userSubject } from '../accounts/users.service';
import { ReadEntry } from './read-entry.entity';
import { ReadListInput } from './read-list.inputs';
import { checkReadListInput, readList, readListQuery } from './read-list.service';
import { ReadContentTypeEnum } from './read.types';

@ObjectType()
export class ReadListPage extends PagedType(ReadEntry) {}

@Resolver()
export class ReadListResolver {
  /** POST /read/{content_type}/{username}/list: no authentication (the token is never resolved). */
  @Query(() => ReadListPage, {
    description:
      "A user's manga or novel list: entries with their title, filtered and sorted (#21's counterpart).",
  })
  readList(
    @Arg('content_type', () => ReadContentTypeEnum) contentType: ReadContentType,
    @Arg('username', () => String) username: string,
    @Args(() => PageArgs) page: PageArgs,
    @Arg('input', () => ReadListInput, { nullable: true }) input: ReadListInput | null | undefined,
    @Ctx() ctx: RequestContext,
  ): Promise<ReadListPage> {
    return readList(ctx.em, contentType, username, input ?? {}, page);
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const readListSqlForms: readonly SqlForm[] = [
  // The same page in one SQL statement (src/graphql/sql-plan).
  sqlRoot('readList', {
    kind: 'page',
    item: ReadEntry,
    subject: (args) => userSubject(String(args.username)),
    query: async (_ctx, args, user) => {
      const kind = args.content_type as ReadContentType;
      const input = (args.input ?? {}) as ReadListInput;
      checkReadListInput(kind, input);
      return readListQuery(kind, user, input);
    },
  }),
];
