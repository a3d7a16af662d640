import DataLoader from 'dataloader';
import { Follow } from '../accounts/follow.entity';
import type { RequestContext } from '../context';

/**
 * Whether the caller follows each user (semantics §1.6 `is_followed`): false for
 * anonymous callers and for the caller's own profile. One query per request,
 * whatever the number of users shown.
 */
export function viewerFollows(
  ctx: Pick<RequestContext, 'em' | 'auth' | 'loader'>,
): DataLoader<string, boolean> {
  return ctx.loader(
    'viewer:follows',
    () =>
      new DataLoader<string, boolean>(async (users) => {
        const viewer = await ctx.auth.optional();
        if (!viewer) return users.map(() => false);
        const others = users.filter((user) => user !== viewer.user.reference);
        const followed = new Set(
          others.length === 0
            ? []
            : (
                await ctx.em.find(
                  Follow,
                  { follower: viewer.user.reference, followed: { $in: others } },
                  { fields: ['followed'] },
                )
              ).map((follow) => follow.followed.reference),
        );
        return users.map((user) => followed.has(user));
      }),
  );
}
