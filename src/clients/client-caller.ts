import type { Viewer } from '../common/auth/session';
import type { RequestContext } from '../context';
import type { Client } from './client.entity';

/**
 * The caller as the operation established it. A client's `secret` is shown only to
 * the client's owner (semantics §1.6), and "the caller" is whoever the root field
 * authenticated: GET /client/{client_reference} never resolves the token (no
 * authentication), so even its owner gets `secret: null` there.
 */
const callers = new WeakMap<RequestContext, Viewer>();

/** Required authentication (semantics §1.2) that also records the caller for `secret`. */
export async function authenticate(ctx: RequestContext): Promise<Viewer> {
  const viewer = await ctx.auth.required();
  callers.set(ctx, viewer);
  return viewer;
}

/** The 128-character secret when the authenticated caller owns the client, else null. */
export function secretFor(ctx: RequestContext, client: Client): string | null {
  const caller = callers.get(ctx);
  return caller && caller.user.reference === client.user.reference ? client.secret : null;
}
