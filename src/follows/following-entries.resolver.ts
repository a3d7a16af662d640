import { Arg, Args, Authorized, Ctx, Field, ObjectType, Query, Resolver } from 'type-graphql';
import { User } from '../accounts/user.entity';
import { exactTitleSubject, titleSubject } from '../catalog/catalog.service';
import type { ReadContentType } from '../common/enums';
import { PageArgs, PagedType } from '../common/pagination/pagination';
import type { RequestContext } from '../context';
import { sql } from '../db/sql';
import { sqlFields, sqlRoot, sqlRows, type SqlForm } from '../graphql/sql-plan/fields';
import { ReadEntry } from '../lists/read-entry.entity';
import { ReadContentTypeEnum } from '../lists/read.types';
import { WatchEntry } from '../lists/watch-entry.entity';
import {
  FOLLOWED_ENTRIES,
  followedEntrySql,
  type FollowedEntry,
  followingEntries,
  followingEntriesQuery,
} from './following-entries.service';

/*
 * Who of the people the caller follows has a title in their list (pages.md FollowedWatcher,
 * FollowedReader). Each item is a view made per response from the User entity (its
 * prototype), with that user's entry of its own: every User field reads the entity.
 */

@ObjectType('FollowedWatcher', { description: 'A followed user with their watch entry for the anime.' })
export class FollowedWatcher extends User {
  @Field(() => [WatchEntry], { description: "Exactly one: the user's entry." })
  watch!: WatchEntry[];
}

@ObjectType('FollowedReader', { description: 'A followed user with their read entry for the title.' })
export class FollowedReader extends User {
  @Field(() => [ReadEntry], { description: "Exactly one: the user's entry." })
  read!: ReadEntry[];
}

@ObjectType()
export class FollowedWatcherPage extends PagedType(FollowedWatcher) {}

@ObjectType()
export class FollowedReaderPage extends PagedType(FollowedReader) {}

const watcherView = ({ user, entry }: FollowedEntry<WatchEntry>): FollowedWatcher =>
  Object.assign(Object.create(user) as FollowedWatcher, { watch: [entry] });

const readerView = ({ user, entry }: FollowedEntry<ReadEntry>): FollowedReader =>
  Object.assign(Object.create(user) as FollowedReader, { read: [entry] });

/** Required authentication; the title's look-up comes before the scope. */
@Resolver()
export class FollowingEntriesResolver {
  @Authorized()
  @Query(() => FollowedWatcherPage, {
    description:
      'GET /watch/{slug}/following: the followed users who have the anime in their list (scope read:follow).',
  })
  async followingWatchers(
    @Arg('slug', () => String) slug: string,
    @Args(() => PageArgs) args: PageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<FollowedWatcherPage> {
    const page = await followingEntries<WatchEntry>(ctx.em, await ctx.auth.required(), 'anime', slug, args);
    return { pagination: page.pagination, list: page.list.map(watcherView) };
  }

  @Authorized()
  @Query(() => FollowedReaderPage, {
    description:
      'GET /read/{content_type}/{slug}/following: the followed users who have the title in their list (scope read:user-details).',
  })
  async followingReaders(
    @Arg('content_type', () => ReadContentTypeEnum) kind: ReadContentType,
    @Arg('slug', () => String) slug: string,
    @Args(() => PageArgs) args: PageArgs,
    @Ctx() ctx: RequestContext,
  ): Promise<FollowedReaderPage> {
    const page = await followingEntries<ReadEntry>(ctx.em, await ctx.auth.required(), kind, slug, args);
    return { pagination: page.pagination, list: page.list.map(readerView) };
  }
}

/** This module's SQL forms (src/graphql/sql-plan), gathered where the schema is built (src/schema.ts). */
export const followingEntriesSqlForms: readonly SqlForm[] = [
  sqlRoot('followingWatchers', {
    kind: 'page',
    item: FollowedWatcher,
    authentication: 'required',
    subject: (args) => titleSubject('anime', String(args.slug), 'anime:not_found'),
    query: async (ctx, _args, anime) =>
      followingEntriesQuery('anime', sql('?::uuid', await ctx.auth.viewerReference()), anime),
    scopes: FOLLOWED_ENTRIES.anime.scopes,
  }),
  sqlRoot('followingReaders', {
    kind: 'page',
    item: FollowedReader,
    authentication: 'required',
    subject: (args) =>
      exactTitleSubject(args.content_type as ReadContentType, String(args.slug), 'read:content_not_found'),
    query: async (ctx, args, title) =>
      followingEntriesQuery(
        args.content_type as ReadContentType,
        sql('?::uuid', await ctx.auth.viewerReference()),
        title,
      ),
    scopes: FOLLOWED_ENTRIES.manga.scopes,
  }),
  sqlFields(FollowedWatcher, {
    watch: sqlRows((user, entry, { subject }) => followedEntrySql('watch_entry', user, entry, subject)),
  }),
  sqlFields(FollowedReader, {
    read: sqlRows((user, entry, { subject }) => followedEntrySql('read_entry', user, entry, subject)),
  }),
];
