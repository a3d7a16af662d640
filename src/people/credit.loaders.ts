import type { TitleContentType } from '../common/enums';
import { groupedLoader } from '../common/loaders';
import type { RequestContext } from '../context';
import { Credit } from './credit.entity';
import { compareRoles } from './role.entity';

/** Credits of many titles of one kind, with roles and people, in a constant number of queries. */
export function creditsOfTitle(ctx: RequestContext, kind: TitleContentType) {
  return groupedLoader<Credit>(
    ctx,
    `credits:${kind}`,
    (titles) => ctx.em.find(Credit, { [kind]: { $in: titles } }, { populate: ['roles', 'person'] }),
    (credit) => credit[kind]!.reference,
  );
}

/** Authors by their highest role weight desc (nulls last), then person slug (semantics #16). */
export function compareCredits(a: Credit, b: Credit): number {
  const topA = a.roles.getItems().sort(compareRoles)[0];
  const topB = b.roles.getItems().sort(compareRoles)[0];
  const weightA = topA?.weight ?? null;
  const weightB = topB?.weight ?? null;
  if (weightA !== weightB) {
    if (weightA === null) return 1;
    if (weightB === null) return -1;
    return weightB - weightA;
  }
  return a.person.slug < b.person.slug ? -1 : a.person.slug > b.person.slug ? 1 : 0;
}
