import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import { DeleteResult } from '../common/delete-result';
import type { RequestContext } from '../context';
import { importReadList, importWatchList } from './list-import.service';
import { ReadImportInput, WatchImportInput } from './list-import.types';

/**
 * The list imports (pages.md "Settings"): required authentication, the list's update
 * scope. The original answers at once and imports in the background; here the import is
 * one set-based statement per title kind inside the request's transaction, so
 * `{"success": true}` means it is done (and a failure leaves nothing half-imported).
 */
@Resolver()
export class ListImportResolver {
  @Authorized()
  @Mutation(() => DeleteResult, {
    description: 'POST /settings/import/watch: imports a MAL anime list export (scope update:watchlist).',
  })
  async importWatchList(
    @Arg('input', () => WatchImportInput) input: WatchImportInput,
    @Ctx() ctx: RequestContext,
  ): Promise<DeleteResult> {
    await importWatchList(ctx.em, await ctx.auth.required(), input.anime, input.overwrite);
    return new DeleteResult();
  }

  @Authorized()
  @Mutation(() => DeleteResult, {
    description:
      'POST /settings/import/read: imports a MAL manga list export into manga and novels (scope update:readlist).',
  })
  async importReadList(
    @Arg('input', () => ReadImportInput) input: ReadImportInput,
    @Ctx() ctx: RequestContext,
  ): Promise<DeleteResult> {
    await importReadList(ctx.em, await ctx.auth.required(), input.content, input.overwrite);
    return new DeleteResult();
  }
}
