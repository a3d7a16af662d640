import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import { ReadContent } from '../catalog/title-unions';
import { Manga } from '../catalog/manga.entity';
import { Novel } from '../catalog/novel.entity';
import type { ReadContentType, ReadStatus } from '../common/enums';
import { ReadStatusEnum } from '../common/scalars';
import type { RequestContext } from '../context';
import { sqlRoot, type SqlForm } from '../graphql/sql-plan/fields';
import { randomReadSubject, randomReadTitle } from './random-read.service';
import { ReadContentTypeEnum } from './read.types';

@Resolver()
export class RandomReadResolver {
  /** #18 GET /read/{content_type}/random/{username}/{status}: no authentication (the token is never resolved). */
  @Query(() => ReadContent, {
    description:
      "A uniformly random title of a user's read list with that content type and status (contract #18), as a summary.",
  })
  randomReadEntry(
    @Arg('content_type', () => ReadContentTypeEnum) contentType: ReadContentType,
    @Arg('username', () => String) username: string,
    @Arg('status', () => ReadStatusEnum) status: ReadStatus,
    @Ctx() ctx: RequestContext,
  ): Promise<Manga | Novel> {
    return randomReadTitle(ctx.em, username, contentType, status);
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const randomReadSqlForms: readonly SqlForm[] = [
  // The same pick in one SQL statement (src/graphql/sql-plan), one plan per content type.
  sqlRoot('randomReadEntry', {
    kind: 'one',
    type: { argument: 'content_type', items: { manga: Manga, novel: Novel } },
    subject: (args) =>
      randomReadSubject(
        String(args.username),
        args.content_type as ReadContentType,
        args.status as ReadStatus,
      ),
    rows: (title, _args, picked, table) => ({
      from: `${table} ${title}`,
      where: `${title}.reference = ${picked}`,
    }),
    notFound: 'read:empty_random',
  }),
];
