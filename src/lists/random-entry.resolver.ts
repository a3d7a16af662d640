import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import { Anime } from '../catalog/anime.entity';
import { ReadContent } from '../catalog/title-unions';
import { Manga } from '../catalog/manga.entity';
import { Novel } from '../catalog/novel.entity';
import type { ReadContentType, ReadStatus, WatchStatus } from '../common/enums';
import { ReadStatusEnum, WatchStatusEnum } from '../common/scalars';
import type { RequestContext } from '../context';
import { sqlRoot, type SqlForm } from '../graphql/sql-plan/fields';
import { randomListSubject, randomListTitle } from './random-entry.service';
import { ReadContentTypeEnum } from './read.types';

/** Random picks from a user's lists: no authentication (the token is never resolved). */
@Resolver()
export class RandomEntryResolver {
  /** #18 GET /read/{content_type}/random/{username}/{status}. */
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
    return randomListTitle(ctx.em, username, contentType, status);
  }

  /** GET /watch/random/{username}/{status}: #18's anime counterpart (pages.md "User profile"). */
  @Query(() => Anime, {
    description: "A uniformly random anime of a user's watch list with that status, as a summary.",
  })
  randomWatchEntry(
    @Arg('username', () => String) username: string,
    @Arg('status', () => WatchStatusEnum) status: WatchStatus,
    @Ctx() ctx: RequestContext,
  ): Promise<Anime> {
    return randomListTitle(ctx.em, username, 'anime', status);
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const randomEntrySqlForms: readonly SqlForm[] = [
  // The same picks in one SQL statement (src/graphql/sql-plan), one plan per content type.
  sqlRoot('randomReadEntry', {
    kind: 'one',
    type: { argument: 'content_type', items: { manga: Manga, novel: Novel } },
    subject: (args) =>
      randomListSubject(args.content_type as ReadContentType, String(args.username), String(args.status)),
    rows: (title, _args, picked, table) => ({
      from: `${table} ${title}`,
      where: `${title}.reference = ${picked}`,
    }),
    notFound: 'read:empty_random',
  }),
  sqlRoot('randomWatchEntry', {
    kind: 'one',
    type: Anime,
    subject: (args) => randomListSubject('anime', String(args.username), String(args.status)),
    rows: (title, _args, picked, table) => ({
      from: `${table} ${title}`,
      where: `${title}.reference = ${picked}`,
    }),
    notFound: 'watch:empty_random',
  }),
];
