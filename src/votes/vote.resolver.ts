import { Arg, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { VoteContentType } from '../common/enums';
import type { RequestContext } from '../context';
import { getVote, setVote } from './vote.service';
import { VoteContentTypeEnum, VoteInput, VoteResult } from './vote.types';

/** Votes on collections, comments and articles (semantics §3.6). */
@Resolver()
export class VoteResolver {
  @Authorized()
  @Mutation(() => VoteResult, {
    description:
      'PUT /vote/{content_type}/{slug}: sets the caller’s vote (permission vote:set, scope set:vote).',
  })
  async setVote(
    @Arg('content_type', () => VoteContentTypeEnum) contentType: VoteContentType,
    @Arg('slug', () => String) slug: string,
    @Arg('input', () => VoteInput) input: VoteInput,
    @Ctx() ctx: RequestContext,
  ): Promise<VoteResult> {
    return new VoteResult(await setVote(ctx.em, await ctx.auth.required(), contentType, slug, input.score));
  }

  @Authorized()
  @Query(() => VoteResult, {
    description: 'GET /vote/{content_type}/{slug}: the caller’s vote (scope read:vote).',
  })
  async vote(
    @Arg('content_type', () => VoteContentTypeEnum) contentType: VoteContentType,
    @Arg('slug', () => String) slug: string,
    @Ctx() ctx: RequestContext,
  ): Promise<VoteResult> {
    return new VoteResult(await getVote(ctx.em, await ctx.auth.required(), contentType, slug));
  }
}
