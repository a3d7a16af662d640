import type { TitleContentType } from '../common/enums';
import { groupedLoader } from '../common/loaders';
import { compareSlugs } from '../common/sorting';
import type { RequestContext } from '../context';
import { Credit } from './credit.entity';
import { compareWeights } from './role.entity';

/** Credits of many titles of one kind, with roles and people, in a constant number of queries. */
export function creditsOfTitle(ctx: RequestContext, kind: TitleContentType) {
  return groupedLoader<Credit>(
    ctx,
    `credits:${kind}`,
    (titles) => ctx.em.find(Credit, { [kind]: { $in: titles } }, { populate: ['roles', 'person'] }),
    (credit) => credit[kind]!.reference,
  );
}

/** The highest weight among a credit's roles; null when it has none or all are null. */
const topWeight = (credit: Credit): number | null =>
  credit.roles
    .getItems()
    .reduce<number | null>(
      (top, role) => (role.weight !== null && (top === null || role.weight > top) ? role.weight : top),
      null,
    );

/** Authors by their highest role weight desc (nulls last), then person slug (semantics #16). */
export function compareCredits(a: Credit, b: Credit): number {
  return compareWeights(topWeight(a), topWeight(b)) || compareSlugs(a.person.slug, b.person.slug);
}
