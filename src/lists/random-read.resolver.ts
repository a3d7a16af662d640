import { Arg, Ctx, Query, Resolver } from 'type-graphql';
import { ReadContent } from '../catalog/title-unions';
import type { Manga } from '../catalog/manga.entity';
import type { Novel } from '../catalog/novel.entity';
import type { ReadContentType, ReadStatus } from '../common/enums';
import { ReadStatusScalar } from '../common/scalars';
import type { RequestContext } from '../context';
import { randomReadTitle } from './random-read.service';
import { ReadContentTypeScalar } from './read.types';

@Resolver()
export class RandomReadResolver {
  /** #18 GET /read/{content_type}/random/{username}/{status}: no authentication (the token is never resolved). */
  @Query(() => ReadContent, {
    description:
      "A uniformly random title of a user's read list with that content type and status (contract #18), as a summary.",
  })
  randomReadEntry(
    @Arg('content_type', () => ReadContentTypeScalar) contentType: ReadContentType,
    @Arg('username', () => String) username: string,
    @Arg('status', () => ReadStatusScalar) status: ReadStatus,
    @Ctx() ctx: RequestContext,
  ): Promise<Manga | Novel> {
    return randomReadTitle(ctx.em, username, contentType, status);
  }
}
