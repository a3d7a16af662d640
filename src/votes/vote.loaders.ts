import DataLoader from 'dataloader';
import type { VoteContentType } from '../common/enums';
import type { RequestContext } from '../context';
import { Vote } from './vote.entity';

/**
 * The caller's vote (−1, 0 or 1) on items of one kind, 0 when anonymous or when the
 * caller has not voted (`my_score`, semantics §1.6). One query per request and kind.
 */
export function viewerVoteScores(ctx: RequestContext, kind: VoteContentType): DataLoader<string, number> {
  return ctx.loader(
    `viewer:votes:${kind}`,
    () =>
      new DataLoader<string, number>(async (items) => {
        const viewer = await ctx.auth.optional();
        if (!viewer) return items.map(() => 0);
        const votes = await ctx.em.find(Vote, {
          user: viewer.user.reference,
          content_type: kind,
          content_reference: { $in: [...items] },
        });
        const scores = new Map(votes.map((vote) => [vote.content_reference, vote.score]));
        return items.map((item) => scores.get(item) ?? 0);
      }),
  );
}

/**
 * {@link viewerVoteScores} in SQL (src/graphql/sql-plan): the vote of `viewer` (SQL, null
 * when anonymous) on the item of `kind` whose reference is `item` (SQL), else 0.
 */
export const viewerVoteSql = (kind: VoteContentType, item: string, viewer: string): string =>
  `coalesce((select v.score from vote v where v.user_reference = ${viewer}
    and v.content_type = '${kind}' and v.content_reference = ${item}), 0)`;
